//! The kernels of the GenX_IR differential test, each a complete kernel text that both Intel's
//! assembler and `visa check` judge: the `## Examples` of `spec/`, `examples/`, the guide's
//! kernels, the OpenCL dumps (`fixtures/igc/opencl/**`, `corpus/opencl/**`), the shared
//! compiler-printed lines in kernel context (when `../shared` is there) and seeded mutations of
//! the repository's own kernels.

use std::path::{Path, PathBuf};

use visa_codegen::model::Document;

/// Where a kernel comes from (a column of the agreement table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Corpus {
    Spec,
    Examples,
    Guide,
    OpenCl,
    Shared,
    Mutations,
}

impl Corpus {
    pub const ALL: [Corpus; 6] = [
        Corpus::Spec,
        Corpus::Examples,
        Corpus::Guide,
        Corpus::OpenCl,
        Corpus::Shared,
        Corpus::Mutations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Corpus::Spec => "spec",
            Corpus::Examples => "examples",
            Corpus::Guide => "guide",
            Corpus::OpenCl => "opencl",
            Corpus::Shared => "shared",
            Corpus::Mutations => "mutations",
        }
    }
}

/// One kernel of the corpus.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub corpus: Corpus,
    /// Where it comes from: `spec/ADD.md:120`, `examples/gemm_tile.visaasm`, ...
    pub name: String,
    pub text: String,
}

/// Mutations made of each of the repository's own kernels.
pub const MUTATIONS_PER_KERNEL: usize = 40;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A snippet as a kernel GenX_IR takes: `.version 3.6` first, a `.kernel` line when it has none,
/// and a final `ret` when its last instruction is not one (the assembler may crash on a kernel
/// that falls off its end).
pub fn in_kernel_context(snippet: &str) -> String {
    let code_lines = || {
        snippet
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
    };
    let mut out = String::new();
    if !code_lines().any(|l| l.starts_with(".version")) {
        out.push_str(".version 3.6\n");
    }
    let has_entry = code_lines().any(|l| {
        l.starts_with(".kernel ") || l.starts_with(".global_function") || l.starts_with(".function")
    });
    if !has_entry {
        out.push_str(".kernel \"k\"\n");
    }
    out.push_str(snippet);
    if !snippet.ends_with('\n') {
        out.push('\n');
    }
    let last = code_lines().next_back().unwrap_or("");
    let ends = ["ret ", "fret ", "ret(", "fret("]
        .iter()
        .any(|r| last.starts_with(r) || last.contains(&format!(") {r}")));
    if !ends && !last.starts_with("}") {
        out.push_str("ret (M1, 1)\n");
    }
    out
}

fn spec_examples() -> Vec<Kernel> {
    let parsed = visa_codegen::parse_dirs(&[root().join("spec")]);
    let mut docs: Vec<&Document> = parsed.documents.iter().collect();
    docs.sort_by(|a, b| a.file.cmp(&b.file));
    let mut out = Vec::new();
    for doc in docs {
        let file = Path::new(&doc.file)
            .file_name()
            .map_or_else(|| doc.file.clone(), |f| f.to_string_lossy().into_owned());
        for (k, example) in doc.examples.iter().enumerate() {
            out.push(Kernel {
                corpus: Corpus::Spec,
                name: format!("spec/{file} example {}", k + 1),
                text: in_kernel_context(&example.code),
            });
        }
    }
    out
}

/// Every `*.visaasm` under `dir`, recursively, sorted by path.
fn visaasm_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(visaasm_files(&path));
        } else if path.extension().is_some_and(|e| e == "visaasm") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn files(corpus: Corpus, dir: &str) -> Vec<Kernel> {
    files_under(corpus, &root().join(dir))
}

/// The OpenCL dumps under `dir` (`.../DEVICE/KERNEL.visaasm`), as kernels.
pub fn kernels_under(dir: &Path) -> Vec<Kernel> {
    files_under(Corpus::OpenCl, dir)
}

fn files_under(corpus: Corpus, dir: &Path) -> Vec<Kernel> {
    let root = root();
    visaasm_files(dir)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a corpus file is readable");
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Kernel {
                corpus,
                name,
                text: in_kernel_context(&text),
            }
        })
        .collect()
}

/// The ```visaasm blocks of the guide.
fn guide() -> Vec<Kernel> {
    let text = std::fs::read_to_string(root().join("docs/guide.md")).expect("docs/guide.md");
    let mut out = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut block {
            None if line.trim_start().starts_with("```visaasm") => {
                block = Some((n + 1, String::new()))
            }
            Some((at, code)) if line.trim_start().starts_with("```") => {
                out.push(Kernel {
                    corpus: Corpus::Guide,
                    name: format!("docs/guide.md:{at}"),
                    text: in_kernel_context(code),
                });
                block = None;
            }
            Some((_, code)) => {
                code.push_str(line);
                code.push('\n');
            }
            None => {}
        }
    }
    out
}

/// The compiler-printed instruction lines of `../shared`, each in the first kernel context
/// `printed::kernels_for_line` builds.
fn shared() -> Vec<Kernel> {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let declared = super::printed::declared_types(&text);
    super::printed::instruction_lines(&text)
        .filter_map(|(number, line)| {
            let (_, candidates) = super::printed::kernels_for_line(line, &declared)?;
            let first = candidates.into_iter().next()?;
            Some(Kernel {
                corpus: Corpus::Shared,
                name: format!("igc-printed.txt:{number}"),
                text: in_kernel_context(&first),
            })
        })
        .collect()
}

/// Every kernel of the differential test.
pub fn kernels() -> Vec<Kernel> {
    let mut own = spec_examples();
    own.extend(files(Corpus::Examples, "examples"));
    own.extend(guide());
    own.extend(files(Corpus::OpenCl, "fixtures/igc/opencl"));
    own.extend(files(Corpus::OpenCl, "corpus/opencl"));
    let mut mutations = Vec::new();
    for kernel in &own {
        // Seeded per kernel, so one kernel's mutations do not depend on the others.
        let mut rng = Rng(super::fixture::hash(&kernel.text) | 1);
        for m in 0..MUTATIONS_PER_KERNEL {
            mutations.push(Kernel {
                corpus: Corpus::Mutations,
                name: format!("{} mutation {m}", kernel.name),
                text: mutate(&kernel.text, &mut rng),
            });
        }
    }
    own.extend(shared());
    own.extend(mutations);
    own
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TYPES: &[&str] = &[
    "ud", "d", "uw", "w", "ub", "b", "uq", "q", "f", "hf", "df", "bf", "v", "uv", "vf", "bool",
];
const NUMBERS: &[&str] = &[
    "0", "1", "2", "3", "4", "5", "7", "8", "15", "16", "17", "31", "32", "33", "64", "255", "256",
    "4096", "8192", "8193", "16384", "16385", "65535",
];
const MNEMONICS: &[&str] = &[
    "add", "mul", "mulh", "div", "mod", "mad", "lrp", "sad2", "lzd", "fbl", "cbit", "avg", "min",
    "max", "shl", "shr", "asr", "rol", "and", "or", "xor", "not", "mov", "sel", "frc", "rndd",
    "inv", "sqrt", "exp", "log", "sin", "pow", "dp4a", "bfrev", "addc",
];

/// One random change to an instruction or declaration line of `src` (the `.version` and
/// `.kernel` lines stay): a number, a `:type` or `type=`, a token deleted or duplicated, a name
/// replaced by another name of the text, a source modifier, `.sat`, a mnemonic or the line
/// deleted.
pub fn mutate(src: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let editable: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = lines[i].trim_start();
            !(l.starts_with(".version")
                || l.starts_with(".kernel ")
                || l.starts_with("//")
                || l.is_empty())
        })
        .collect();
    let Some(&at) = editable.get(rng.below(editable.len())) else {
        return src.to_string();
    };
    let separator = |c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '%';
    let mut tokens: Vec<String> = lines[at]
        .split_inclusive(separator)
        .map(str::to_string)
        .collect();
    let names: Vec<&str> = src
        .split(separator)
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '%'))
        .collect();
    let pick = rng.below(tokens.len());
    let tail = |t: &str| -> String { t.chars().skip_while(|c| !separator(*c)).collect() };
    match rng.below(9) {
        0 => {
            let numeric: Vec<usize> = (0..tokens.len())
                .filter(|&i| tokens[i].starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            if let Some(&i) = numeric.get(rng.below(numeric.len())) {
                let rest = tail(&tokens[i]);
                tokens[i] = format!("{}{rest}", NUMBERS[rng.below(NUMBERS.len())]);
            }
        }
        1 => {
            for i in 1..tokens.len() {
                let bare = tokens[i].trim_end_matches(separator);
                if (tokens[i - 1].ends_with(':') || tokens[i - 1].ends_with('='))
                    && TYPES.contains(&bare)
                    && rng.below(2) == 0
                {
                    let rest = tail(&tokens[i]);
                    tokens[i] = format!("{}{rest}", TYPES[rng.below(TYPES.len())]);
                    break;
                }
            }
        }
        2 => {
            tokens.remove(pick);
        }
        3 => {
            let copy = tokens[pick].clone();
            tokens.insert(pick, copy);
        }
        4 => {
            if let Some(name) = names.get(rng.below(names.len())) {
                let rest = tail(&tokens[pick]);
                tokens[pick] = format!("{name}{rest}");
            }
        }
        5 => {
            let starts: Vec<usize> = (1..tokens.len())
                .filter(|&i| {
                    tokens[i - 1].ends_with(' ')
                        && tokens[i].starts_with(|c: char| c.is_ascii_alphabetic())
                })
                .collect();
            if let Some(&i) = starts.get(rng.below(starts.len())) {
                let modifier = ["(-)", "(abs)", "(-abs)", "(~)"][rng.below(4)];
                tokens[i] = format!("{modifier}{}", tokens[i]);
            }
        }
        6 => {
            if let Some(first) = tokens
                .iter_mut()
                .find(|t| t.ends_with(' ') && !t.trim().is_empty())
            {
                *first = format!("{}.sat ", first.trim_end());
            }
        }
        7 => {
            // Another mnemonic for an instruction whose first word is a mnemonic.
            if let Some(first) = tokens.iter_mut().find(|t| !t.trim().is_empty())
                && MNEMONICS.contains(&first.trim().trim_end_matches(separator))
            {
                let rest = tail(first);
                *first = format!("{}{rest}", MNEMONICS[rng.below(MNEMONICS.len())]);
            }
        }
        _ => tokens.clear(),
    }
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at] = tokens.concat();
    out.join("\n") + "\n"
}

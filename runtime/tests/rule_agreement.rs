//! One rule set: the checker that `visa check` and `isa!` run accepts a kernel exactly when
//! `Program::load` accepts it or rejects it only as "not executed by this runtime" (or for a
//! resource limit of the load options). Both run with the runtime's default GRF size, as `isa!`
//! does.
//!
//! The kernels: every instruction line the Intel compiler printed (`igc-printed.txt`), wrapped
//! in a kernel with declarations inferred from its operands (up to four type assignments per
//! line); the five shared kernels; `examples/`; and thousands of mutations of all of them
//! (numbers, types, regions, execution sizes, names and tokens changed at random with a fixed
//! seed). A disagreement fails the test with the kernel, the checker's verdict and the
//! loader's.

use std::collections::BTreeMap;

use visa_isa::text::CheckOptions;
use visa_runtime::{LoadOptions, Program};

#[path = "printed/mod.rs"]
mod printed;

/// Type assignments tried per printed line.
const ASSIGNMENTS_PER_LINE: usize = 4;

/// Mutations made of every kernel.
const MUTATIONS_PER_KERNEL: usize = 20;

/// What the checker and the loader say of one kernel text (`None`: it does not parse, so both
/// reject it alike).
struct Verdicts {
    check: Result<(), String>,
    load: Result<(), (bool, String)>,
}

/// The options `isa!` checks with (macros/src/lib.rs) and the loader's defaults imply: no
/// platform, the runtime's default GRF size.
fn check_options() -> CheckOptions {
    CheckOptions {
        grf_bytes: Some(visa_isa::rules::DEFAULT_GRF_BYTES),
        ..Default::default()
    }
}

fn verdicts(src: &str) -> Option<Verdicts> {
    let module = visa_isa::text::parse(src).ok()?;
    let check =
        match visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &check_options())
            .into_iter()
            .find(|d| d.is_error())
        {
            Some(d) => Err(d.to_string()),
            None => Ok(()),
        };
    let load = Program::load(&module, &LoadOptions::default())
        .map(|_| ())
        .map_err(|e| (!e.breaks_a_rule(), e.to_string()));
    Some(Verdicts { check, load })
}

/// Whether the two agree: the checker accepts ⇔ the loader accepts or only cannot execute it.
fn agree(v: &Verdicts) -> bool {
    let load_accepts = match &v.load {
        Ok(()) => true,
        Err((limitation, _)) => *limitation,
    };
    v.check.is_ok() == load_accepts
}

/// A small deterministic generator (xorshift), so that a failure names a reproducible kernel.
struct Rng(u64);

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

/// One random change to `src`: a number, a `:type`, a `type=`, a token deleted or duplicated,
/// a name replaced by another name of the text, or a line deleted.
fn mutate(src: &str, rng: &mut Rng) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let at = rng.below(lines.len());
    let mut tokens: Vec<String> = lines[at]
        .split_inclusive(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '%')
        .map(str::to_string)
        .collect();
    let names: Vec<String> = src
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '%')
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '%')
        })
        .map(str::to_string)
        .collect();
    if tokens.is_empty() {
        return src.to_string();
    }
    let pick = rng.below(tokens.len());
    match rng.below(8) {
        0 => {
            // A number (decimal or the digits of a hex immediate) replaced.
            let numeric: Vec<usize> = (0..tokens.len())
                .filter(|&i| tokens[i].starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            if let Some(&i) = numeric.get(rng.below(numeric.len())) {
                let tail: String = tokens[i]
                    .chars()
                    .skip_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                tokens[i] = format!("{}{tail}", NUMBERS[rng.below(NUMBERS.len())]);
            }
        }
        1 => {
            // A type name (after `:` or `type=`) replaced.
            for i in 1..tokens.len() {
                if (tokens[i - 1].ends_with(':') || tokens[i - 1].ends_with('='))
                    && TYPES.iter().any(|t| {
                        tokens[i].trim_end_matches(|c: char| !c.is_ascii_alphanumeric()) == *t
                    })
                    && rng.below(2) == 0
                {
                    let tail: String = tokens[i]
                        .chars()
                        .skip_while(|c| c.is_ascii_alphanumeric())
                        .collect();
                    tokens[i] = format!("{}{tail}", TYPES[rng.below(TYPES.len())]);
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
                let tail: String = tokens[pick]
                    .chars()
                    .skip_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '%')
                    .collect();
                tokens[pick] = format!("{name}{tail}");
            }
        }
        5 => {
            // A source modifier before an operand (a token after a space that starts a name).
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
            // `.sat` after the mnemonic (the first word).
            if let Some(first) = tokens.iter_mut().find(|t| t.ends_with(' ')) {
                *first = format!("{}.sat ", first.trim_end());
            }
        }
        _ => tokens.clear(),
    }
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at] = tokens.concat();
    out.join("\n") + "\n"
}

fn shared_kernels() -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(dir) = visa_testutil::shared("asm-corpus/kernels") {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("the kernels folder is readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("kernel is readable");
            out.push((path.display().to_string(), text));
        }
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for entry in std::fs::read_dir(examples).expect("examples/ is readable") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "visaasm") {
            let text = std::fs::read_to_string(&path).expect("example is readable");
            out.push((path.display().to_string(), text));
        }
    }
    out
}

#[test]
fn checker_and_loader_agree_on_real_and_mutated_kernels() {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let declared = printed::declared_types(&text);
    let mut kernels: Vec<(String, String)> = Vec::new();
    let mut lines_total = 0;
    let mut lines_checked = 0;
    for (number, line) in printed::instruction_lines(&text) {
        lines_total += 1;
        let Some((_, candidates)) = printed::kernels_for_line(line, &declared) else {
            continue;
        };
        // A line passes when some type assignment passes the checker (all are tried, as in
        // the coverage test); the first few of each line are compared with the loader.
        let passes = candidates.iter().any(|src| {
            visa_isa::text::parse(src).is_ok_and(|m| {
                visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &m, &check_options())
                    .iter()
                    .all(|d| !d.is_error())
            })
        });
        lines_checked += usize::from(passes);
        for (k, src) in candidates
            .into_iter()
            .take(ASSIGNMENTS_PER_LINE)
            .enumerate()
        {
            kernels.push((format!("igc-printed.txt:{number} (types #{k})"), src));
        }
    }
    let real = shared_kernels();
    assert!(real.len() >= 7, "the five shared kernels and examples/");
    for (name, src) in &real {
        let v = verdicts(src).unwrap_or_else(|| panic!("{name} parses"));
        assert!(v.check.is_ok(), "{name}: {:?}", v.check);
        assert!(
            v.load.as_ref().is_ok() || v.load.as_ref().is_err_and(|(no_rule, _)| *no_rule),
            "{name}: {:?}",
            v.load
        );
    }
    kernels.extend(real);

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let originals = kernels.len();
    for i in 0..originals {
        for m in 0..MUTATIONS_PER_KERNEL {
            let mutated = mutate(&kernels[i].1, &mut rng);
            let name = format!("{} mutation {m}", kernels[i].0);
            kernels.push((name, mutated));
        }
    }

    let mut compared = 0usize;
    let mut accepted = 0usize;
    let mut disagreements: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (name, src) in &kernels {
        let Some(v) = verdicts(src) else {
            continue;
        };
        compared += 1;
        accepted += usize::from(v.check.is_ok());
        if !agree(&v) {
            let key = match (&v.check, &v.load) {
                (Err(c), _) => format!("check rejects, load accepts: {}", strip_location(c)),
                (Ok(()), Err((_, l))) => {
                    format!("check accepts, load rejects: {}", strip_location(l))
                }
                _ => unreachable!("agreeing verdicts"),
            };
            let entry = disagreements
                .entry(key)
                .or_insert_with(|| (0, format!("{name}\n{src}")));
            entry.0 += 1;
        }
    }
    println!(
        "printed lines that pass the checker in kernel context: {lines_checked} of {lines_total}"
    );
    println!(
        "kernels compared: {compared} ({accepted} accepted by both), of {}",
        kernels.len()
    );
    for (key, (count, example)) in &disagreements {
        println!("{count:5} {key}\n      e.g. {example}");
    }
    assert!(compared > 5000, "only {compared} kernels parsed");
    assert!(
        disagreements.is_empty(),
        "{} kinds of disagreement between the checker and the loader (listed above)",
        disagreements.len()
    );
    // Measured when the rule set was unified (561 before, with the documents' type maps as
    // errors); it may only grow.
    assert!(
        lines_checked >= MINIMUM_LINES_CHECKED,
        "{lines_checked} printed lines pass"
    );
}

/// Printed lines that pass the checker in kernel context, when last measured.
const MINIMUM_LINES_CHECKED: usize = 637;

/// A message without its `line:col:` or ` at line:col` location, to group like problems.
fn strip_location(message: &str) -> String {
    let message = message.split(" at ").next().unwrap_or(message);
    let message = match message.split_once(": ") {
        Some((head, rest))
            if head.contains(':') && head.chars().all(|c| c.is_ascii_digit() || c == ':') =>
        {
            rest
        }
        _ => message,
    };
    // Group by the shape of the message: digits and quoted names vary.
    message
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// The disagreements the one rule set removed, each as `visa check` and the loader now see it.
#[test]
fn former_disagreements_get_one_verdict() {
    let verdict = |body: &str| {
        let src = format!(".decl X v_type=G type=ud num_elts=16 align=GRF\n{body}\n");
        verdicts(&src).expect("parses")
    };
    // `%tm` is the documents' name of `%tsc`: both accept it.
    let tm = verdict("mov (M1, 1) X(0,0)<1> %tm(0,0)<0;1,0>");
    assert!(
        tm.check.is_ok() && tm.load.is_ok(),
        "{:?} {:?}",
        tm.check,
        tm.load
    );
    // A width of 3 is not a region: both reject it, with the checker's message.
    let width = verdict("mov (M1, 4) X(0,0)<1> X(0,0)<4;3,1>");
    let message = width.check.expect_err("the checker rejects width 3");
    assert!(
        message.contains("width 3 must be 1, 2, 4, 8 or 16"),
        "{message}"
    );
    let (runtime_only, load) = width.load.expect_err("the loader rejects width 3");
    assert!(
        !runtime_only && load.contains("width 3 must be 1, 2, 4, 8 or 16"),
        "{load}"
    );
    // Row 5 of a 2-row variable: the verifier only warns; this runtime does not execute it,
    // and says so as a limitation of its own.
    let outside = verdict("mov (M1, 8) X(5,0)<1> 0x0:ud");
    assert!(outside.check.is_ok());
    let (runtime_only, load) = outside
        .load
        .clone()
        .expect_err("the loader does not execute it");
    assert!(
        runtime_only && load.starts_with("not executed by this runtime:"),
        "{load}"
    );
    assert!(agree(&outside));
}

//! How much of the real assembly the Intel compiler prints can this runtime execute? Each
//! instruction line of `../shared/asm-corpus/igc-printed.txt` is wrapped in a kernel whose
//! declarations are inferred from its operands (general variables at their written `:type`,
//! predicates, address variables, labels), then handed to `Program::load`, which decodes it into
//! the form the interpreter runs (every decoded form has its execution; what the runtime cannot
//! execute is rejected there). The test prints the executable lines against all instruction
//! lines of the corpus (mnemonics without a spec document included), the instructions without a
//! document, and the rejected ones with their first reason, and lists every line with its
//! verdict in `corpus_coverage.txt` of the test's target directory (`target/tmp`); it asserts
//! that neither the count nor the share of executable lines falls below the figures measured
//! when it was last updated.
//! A name the corpus declares with several types (its declarations come from many tests) may
//! take any of them: a line counts when some assignment of declared types loads (at most 256
//! are tried). The figure is therefore an upper bound of what runs with the real declarations,
//! which the corpus does not keep. Type maps are not enforced: the inferred declarations cannot give every operand
//! its real type. A line that does not load with 32-byte GRFs is tried with 64-byte GRFs.

use std::collections::{BTreeMap, BTreeSet};

use visa_isa::ast::{ElemType, FieldValue, Instruction, Operand, StmtKind};
use visa_runtime::{LoadOptions, Program};

/// Executable instruction lines counted when this test was last updated; it may only grow.
const MINIMUM_EXECUTABLE_LINES: usize = 620;

/// Their share (percent) of every instruction line of the corpus, likewise.
const MINIMUM_SHARE_PERCENT: f64 = 67.6;

/// Bytes given to every inferred general variable: room for any row/column offset the corpus
/// uses.
const VARIABLE_BYTES: u32 = 2048;

/// Every type the corpus file declares for each name (`.decl NAME ... type=T`), distinct, in
/// file order. The file lists declarations of many tests, sorted: one name may have several.
fn declared_types(text: &str) -> BTreeMap<String, Vec<ElemType>> {
    let mut types: BTreeMap<String, Vec<ElemType>> = BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some(".decl") {
            continue;
        }
        let Some(name) = words.next() else { continue };
        let ty = words
            .find_map(|w| w.strip_prefix("type="))
            .and_then(ElemType::from_name);
        if let Some(ty) = ty {
            let list = types.entry(name.to_string()).or_default();
            if !list.contains(&ty) {
                list.push(ty);
            }
        }
    }
    types
}

/// Where a variable's type comes from when its operand does not write one: the corpus's own
/// declarations, then the instruction's first explicitly typed operand, then the first type
/// the instruction's document supports.
struct TypeHints<'a> {
    declared: &'a BTreeMap<String, Vec<ElemType>>,
    fallback: ElemType,
}

/// At most this many assignments of declared types are tried for one line.
const MAX_ASSIGNMENTS: usize = 256;

#[derive(Default)]
struct Names {
    /// Each general variable with the types it may have (the first is tried first).
    general: BTreeMap<String, Vec<ElemType>>,
    predicates: BTreeSet<String>,
    addresses: BTreeSet<String>,
    labels: BTreeSet<String>,
}

impl Names {
    fn general(&mut self, var: &str, ty: Option<ElemType>, hints: &TypeHints) {
        if var.starts_with('%') {
            return;
        }
        let types = match (ty, hints.declared.get(var)) {
            (Some(ty), _) => vec![ty],
            (None, Some(declared)) => declared.clone(),
            (None, None) => vec![hints.fallback],
        };
        self.general.entry(var.to_string()).or_insert(types);
    }

    fn collect(&mut self, instr: &Instruction, declared: &BTreeMap<String, Vec<ElemType>>) {
        let desc = &visa_isa::INSTRUCTIONS[instr.desc];
        let written = instr.fields.iter().find_map(|f| match f {
            FieldValue::Operand(Operand::General { ty: Some(ty), .. }) => Some(*ty),
            _ => None,
        });
        let documented = desc
            .supported_types
            .iter()
            .find_map(|t| ElemType::from_name(&t.name.to_ascii_lowercase()));
        let hints = TypeHints {
            declared,
            fallback: written.or(documented).unwrap_or(ElemType::Ud),
        };
        for (field, value) in desc.fields.iter().zip(&instr.fields) {
            match value {
                FieldValue::Pred(Some(p)) => {
                    self.predicates.insert(p.name.clone());
                }
                FieldValue::Operand(op) => self.operand(field.name, op, &hints),
                _ => {}
            }
        }
    }

    fn operand(&mut self, field: &str, op: &Operand, hints: &TypeHints) {
        match op {
            Operand::General { var, ty, .. } => self.general(var, *ty, hints),
            Operand::Raw { var, .. } | Operand::AddressOf { var, .. } => {
                self.general(var, None, hints)
            }
            Operand::Indirect { addr, .. } => {
                self.addresses.insert(addr.clone());
            }
            // `%bss(0)`: a predefined state operand, not an address variable to declare.
            Operand::Address { var, .. } if !var.starts_with('%') => {
                self.addresses.insert(var.clone());
            }
            Operand::Predicate { var } => {
                self.predicates.insert(var.clone());
            }
            Operand::Name(name) if field.to_ascii_lowercase().contains("label") => {
                self.labels.insert(name.clone());
            }
            _ => {}
        }
    }

    /// The assignments of types to the general variables, in odometer order (the first
    /// declared type of every name first), at most [`MAX_ASSIGNMENTS`].
    fn assignments(&self) -> Vec<Vec<ElemType>> {
        let lists: Vec<&Vec<ElemType>> = self.general.values().collect();
        let mut digits = vec![0usize; lists.len()];
        let mut out = Vec::new();
        loop {
            out.push(lists.iter().zip(&digits).map(|(l, &d)| l[d]).collect());
            if out.len() == MAX_ASSIGNMENTS {
                return out;
            }
            // The next assignment: the first digit that can advance does, the ones before it
            // go back to 0; when none can, every assignment has been listed.
            let Some(k) = (0..lists.len()).find(|&k| digits[k] + 1 < lists[k].len()) else {
                return out;
            };
            digits[k] += 1;
            digits[..k].fill(0);
        }
    }

    fn declarations(&self, types: &[ElemType]) -> String {
        let mut out = String::new();
        for (name, ty) in self.general.keys().zip(types) {
            let elts = VARIABLE_BYTES / ty.size().max(1);
            out.push_str(&format!(
                ".decl {name} v_type=G type={ty} num_elts={elts} align=GRF\n"
            ));
        }
        for name in &self.predicates {
            out.push_str(&format!(".decl {name} v_type=P num_elts=32\n"));
        }
        for name in &self.addresses {
            out.push_str(&format!(".decl {name} v_type=A num_elts=16\n"));
        }
        out
    }
}

/// Loads `src`; the corpus mixes platforms with 32-byte and 64-byte GRFs (a `dpas` of 16
/// channels needs the latter): it counts when it loads with either size. The 32-byte error is
/// kept unless it is about the GRF size. The declarations are inferred, so operand types are
/// guesses: the type maps are not enforced.
fn load(src: &str) -> Result<(), String> {
    let options = LoadOptions::default().type_maps(false);
    Program::from_text(src, &options).map(|_| ()).or_else(|e| {
        Program::from_text(src, &options.clone().grf_bytes(64))
            .map(|_| ())
            .map_err(|wide| {
                if e.message.contains("GRF") {
                    wide.message
                } else {
                    e.message
                }
            })
    })
}

/// Whether the runtime loads `line` (a single instruction) once its names are declared, with
/// some type for each name among those the corpus declares for it; `None` when the line is not
/// one parsable instruction. The error is the one of the first assignment tried.
fn try_load(
    line: &str,
    declared: &BTreeMap<String, Vec<ElemType>>,
) -> Option<(String, Result<(), String>)> {
    let module = visa_isa::text::parse(line).ok()?;
    let instrs: Vec<&Instruction> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(i),
            _ => None,
        })
        .collect();
    let [instr] = instrs.as_slice() else {
        return None;
    };
    let mnemonic = visa_isa::INSTRUCTIONS[instr.desc].name.to_ascii_lowercase();
    let mut names = Names::default();
    names.collect(instr, declared);
    let mut first_error = None;
    for types in names.assignments() {
        let mut src = names.declarations(&types);
        src.push_str(line);
        src.push('\n');
        for label in &names.labels {
            src.push_str(&format!("{label}:\n"));
        }
        match load(&src) {
            Ok(()) => return Some((mnemonic, Ok(()))),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Some((mnemonic, Err(first_error.unwrap_or_default())))
}

/// The mnemonic of an instruction line: its first word after a predicate, without suffixes.
fn mnemonic_of(line: &str) -> &str {
    let rest = match line.strip_prefix('(') {
        Some(after) => after.split_once(')').map_or("", |(_, r)| r),
        None => line,
    };
    let word = rest.split_whitespace().next().unwrap_or("");
    word.split(['.', '(']).next().unwrap_or(word)
}

#[test]
fn share_of_printed_compiler_assembly_the_runtime_executes() {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let declared = declared_types(&text);
    let mut total = 0usize;
    let mut parsed = 0usize;
    let mut loaded = 0usize;
    let mut undocumented: BTreeMap<String, usize> = BTreeMap::new();
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut other: BTreeMap<String, (usize, String)> = BTreeMap::new();
    // One line per instruction line of the corpus: its line number, the verdict and the line
    // (and the first reason of a rejection).
    let mut listing = String::new();
    for (number, line) in text.lines().map(str::trim).enumerate() {
        if line.is_empty() || line.starts_with('#') || line.starts_with('.') || line.ends_with(':')
        {
            continue;
        }
        total += 1;
        let number = number + 1;
        let Some((mnemonic, result)) = try_load(line, &declared) else {
            // No spec document (lsc_*, dnscl, dpas ...), or not one complete instruction (the
            // corpus has lines cut after their destination, and `add3.o`).
            *undocumented
                .entry(mnemonic_of(line).to_string())
                .or_default() += 1;
            listing.push_str(&format!("{number:5} unparsed  {line}\n"));
            continue;
        };
        parsed += 1;
        match result {
            Ok(()) => {
                loaded += 1;
                listing.push_str(&format!("{number:5} executes  {line}\n"));
            }
            Err(message) => {
                listing.push_str(&format!("{number:5} rejected  {line}  -- {message}\n"));
                if message.starts_with("unsupported instruction") {
                    *unsupported.entry(mnemonic).or_default() += 1;
                } else {
                    let entry = other.entry(mnemonic).or_insert((0, message));
                    entry.0 += 1;
                }
            }
        }
    }
    let listing_path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus_coverage.txt");
    std::fs::write(&listing_path, &listing).expect("the listing is written");
    println!("every line with its verdict: {}", listing_path.display());
    assert!(
        parsed > 0,
        "no instruction line of {} parsed",
        path.display()
    );
    let share = 100.0 * loaded as f64 / total as f64;
    let of_parsed = 100.0 * loaded as f64 / parsed as f64;
    println!("executable: {loaded} of {total} instruction lines ({share:.1}%)");
    println!("  {parsed} lines are instructions of the table; {of_parsed:.1}% of them execute");
    let by_count = |map: &BTreeMap<String, usize>| {
        let mut list: Vec<(String, usize)> = map.iter().map(|(k, v)| (k.clone(), *v)).collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        list
    };
    println!("lines that do not parse (no spec document, or an incomplete line):");
    for (mnemonic, count) in by_count(&undocumented) {
        println!("  {count:4} {mnemonic}");
    }
    println!("documented instructions the runtime rejects:");
    for (mnemonic, count) in by_count(&unsupported) {
        println!("  {count:4} {mnemonic}");
    }
    println!("documented instructions rejected for their operands (first reason):");
    for (mnemonic, (count, message)) in &other {
        println!("  {count:4} {mnemonic}: {message}");
    }
    assert!(
        loaded >= MINIMUM_EXECUTABLE_LINES,
        "executable lines fell to {loaded} (minimum {MINIMUM_EXECUTABLE_LINES})"
    );
    assert!(
        share >= MINIMUM_SHARE_PERCENT,
        "executable share fell to {share:.1}% (minimum {MINIMUM_SHARE_PERCENT}%)"
    );
}

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
//! which the corpus does not keep. The documents' own type rules are warnings (the default
//! load options), as for the compiler. A line that does not load with 32-byte GRFs is tried with 64-byte GRFs.

use std::collections::BTreeMap;

use visa_runtime::{LoadOptions, Program};

#[path = "printed/mod.rs"]
mod printed;

/// Executable instruction lines counted when this test was last updated; it may only grow.
/// (620 before the loader ran the shared rule set: six lines whose inferred types the
/// compiler's verifier rejects, such as `exp` on a name the corpus declares `ud`, no longer
/// load; 614, 66.9%, before the LSC slm, bti, a32, vector, transposed and atomic forms and the
/// seven 2D block lines ran.)
const MINIMUM_EXECUTABLE_LINES: usize = 630;

/// Their share (percent) of every instruction line of the corpus, likewise.
const MINIMUM_SHARE_PERCENT: f64 = 68.7;

/// Loads `src`; the corpus mixes platforms with 32-byte and 64-byte GRFs (a `dpas` of 16
/// channels needs the latter): it counts when it loads with either size. The 32-byte error is
/// kept unless it is about the GRF size. The declarations are inferred, so operand types are
/// guesses: the type maps are not enforced.
fn load(src: &str) -> Result<(), String> {
    let options = LoadOptions::default();
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
    declared: &BTreeMap<String, Vec<visa_isa::ast::ElemType>>,
) -> Option<(String, Result<(), String>)> {
    let (mnemonic, kernels) = printed::kernels_for_line(line, declared)?;
    let mut first_error = None;
    for src in kernels {
        match load(&src) {
            Ok(()) => return Some((mnemonic, Ok(()))),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Some((mnemonic, Err(first_error.unwrap_or_default())))
}

#[test]
fn share_of_printed_compiler_assembly_the_runtime_executes() {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let declared = printed::declared_types(&text);
    let mut total = 0usize;
    let mut parsed = 0usize;
    let mut loaded = 0usize;
    let mut undocumented: BTreeMap<String, usize> = BTreeMap::new();
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut other: BTreeMap<String, (usize, String)> = BTreeMap::new();
    // One line per instruction line of the corpus: its line number, the verdict and the line
    // (and the first reason of a rejection).
    let mut listing = String::new();
    for (number, line) in printed::instruction_lines(&text) {
        total += 1;
        let Some((mnemonic, result)) = try_load(line, &declared) else {
            // No spec document (lsc_*, dnscl, dpas ...), or not one complete instruction (the
            // corpus has lines cut after their destination, and `add3.o`).
            *undocumented
                .entry(printed::mnemonic_of(line).to_string())
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

//! Printing like the compiler: for every kernel of the differential corpus that GenX_IR accepts
//! on PVC (the spec examples, `examples/`, the guide's kernels and the OpenCL dumps), GenX_IR's
//! own listing (`-dumpcommonisa`) parses here into the same module as the original, and our
//! printer writes each instruction exactly as the compiler's listing does (its `/// $N`
//! comments and column layout aside).
//!
//! The listings are fixtures (`fixtures/igc/listings-pvc/HASH.visaasm`, HASH being the kernel
//! text's, as in the verdict fixtures), so the test runs without GenX_IR; when GenX_IR is
//! installed it lists a sample again and fails if a fixture is stale. `VISA_IGC_REGENERATE=1`
//! (`scripts/igc-fixtures.sh`) writes them anew.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

// Shared with igc_agreement.rs, which uses all of them; this test only some.
#[allow(dead_code)]
#[path = "igc/corpus.rs"]
mod corpus;
#[allow(dead_code)]
#[path = "igc/fixture.rs"]
mod fixture;
#[path = "../../runtime/tests/printed/mod.rs"]
mod printed;

use corpus::{Corpus, Kernel};
use fixture::Verdict;

const PLATFORM: &str = "PVC";

/// Every how many kernels one is listed live again (the fixture staleness check).
const LIVE_STRIDE: usize = 10;

fn listing_dir() -> PathBuf {
    corpus::root().join("fixtures/igc/listings-pvc")
}

fn listing_path(kernel: &Kernel) -> PathBuf {
    listing_dir().join(format!("{:016x}.visaasm", fixture::hash(&kernel.text)))
}

/// GenX_IR's listing of `text` without its comments, or why there is none: with
/// `-dumpcommonisa` it writes the listing over its input file.
fn list(genx: &Path, dir: &Path, text: &str) -> Result<String, String> {
    let file = dir.join("k.visaasm");
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    let output = Command::new("timeout")
        .args(["20"])
        .arg(genx)
        .arg("k.visaasm")
        .args(["-platform", PLATFORM, "-dumpcommonisa"])
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    let written = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    if written == text {
        return Err(format!(
            "GenX_IR wrote no listing (exit {:?})",
            output.status.code()
        ));
    }
    // Its whole-line comments (the predefined variables) and the `/// $N` instruction numbers
    // with the padding before them are left out of the fixture.
    let mut kept = String::with_capacity(written.len());
    for line in written.lines().filter(|l| !l.starts_with("//")) {
        kept.push_str(line.split(" /// $").next().unwrap_or(line).trim_end());
        kept.push('\n');
    }
    Ok(kept)
}

/// IGC 1.0.12504's listing prints the first instruction on the line of the last
/// `.kernel_attr` (`.kernel_attr Target="3d"    add (M1, 8) ...`): put it on its own line.
fn repaired(listing: &str) -> String {
    let mut out = String::with_capacity(listing.len());
    for line in listing.lines() {
        match line.strip_prefix(".kernel_attr ").and_then(|rest| {
            let end = rest.find("\"    ")?;
            Some(line.split_at(".kernel_attr ".len() + end + 1))
        }) {
            Some((attr, instruction)) => {
                out.push_str(attr);
                out.push('\n');
                out.push_str(instruction);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A line as compared: runs of spaces are column layout.
fn collapsed(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lines of a module as printed, comments, `/// $N` and the `Target` attribute the
/// compiler adds left out: declarations sorted (the listing groups them by kind), the rest in
/// order.
fn lines_of(text: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let module = visa_isa::text::parse(text).map_err(|e| format!("{:?}", e.first()))?;
    let printed = visa_isa::text::format_module(&module);
    let (mut decls, mut body) = (Vec::new(), Vec::new());
    for line in printed.lines() {
        let line = collapsed(line.split(" /// $").next().unwrap_or(line));
        if line.is_empty() || line.starts_with("//") || line == ".kernel_attr Target=\"3d\"" {
            continue;
        }
        if line.starts_with(".decl")
            || line.starts_with(".input")
            || line.starts_with(".kernel_attr")
        {
            decls.push(line);
        } else {
            body.push(line);
        }
    }
    decls.sort();
    Ok((decls, body))
}

/// Where IGC 1.0.12504's listing differs from the original on purpose or by a choice of that
/// version, each with the reason (docs/igc-differences.md, "Printing"): the name of the class
/// when `ours` and `theirs` differ only so.
fn known_difference(ours: &str, theirs: &str) -> Option<&'static str> {
    // The compiler's builder ignores `jmp`'s execution size and mask and always writes and
    // prints `(M1, 1)` (AppendVISACFJmpInst); we keep what was written.
    let jmp = |l: &str| l.replace("jmp (M1_NM, 1)", "jmp (M1, 1)");
    if ours.contains("jmp (") && jmp(ours) == jmp(theirs) {
        return Some("jmp execution size");
    }
    // The listing numbers user surfaces and samplers from T6 / S0 in declaration order and
    // prints that name as v_name; we keep the declared name.
    let numbered = |l: &str| {
        l.split(' ')
            .map(|w| {
                let w = w.split_once("v_name=").map_or(w, |(_, v)| v);
                let digits = w.trim_start_matches(['T', 'S']);
                if w.len() > digits.len()
                    && !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                {
                    "#"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let without_v_name = |l: &str| {
        l.split(' ')
            .filter(|w| !w.starts_with("v_name="))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let state_decl = ours.contains("v_type=T") || ours.contains("v_type=S");
    if numbered(ours) == numbered(theirs)
        || (state_decl && numbered(&without_v_name(ours)) == numbered(&without_v_name(theirs)))
    {
        return Some("surface and sampler names");
    }
    // The listing renames a subroutine `f` (its `.function` line and label) to `f_0`.
    let renamed = ours
        .strip_suffix(':')
        .map(|name| format!("{name}_0:"))
        .or_else(|| {
            let name = ours.strip_prefix(".function \"")?.strip_suffix('"')?;
            Some(format!(".function \"{name}_0\""))
        });
    if renamed.as_deref() == Some(theirs) {
        return Some("subroutine renamed");
    }
    // IGC 1.0.12504 prints LSC address lists with `, ` and every typed coordinate, `%null`
    // included; today's compiler prints `[U,V]` as we do.
    // Without the spaces and the trailing `%null` coordinates.
    let lsc = |l: &str| {
        let mut l = l.replace(", ", ",");
        while l.contains(",%null]") {
            l = l.replace(",%null]", "]");
        }
        l
    };
    if lsc(ours) == lsc(theirs) {
        return Some("LSC address list (IGC 1.0.12504)");
    }
    // IGC 1.0.12504 prints `d8c32`, `d16c32`; today's compiler prints `d8u32`, `d16u32`, as
    // we do (docs/igc-differences.md, difference 4).
    if ours.replace("u32", "c32") == theirs {
        return Some("LSC widened data sizes (IGC 1.0.12504)");
    }
    None
}

#[test]
fn the_compilers_listings_parse_to_the_same_module_and_print_alike() {
    let Some(verdicts) = fixture::read(PLATFORM) else {
        panic!("fixtures/igc/verdicts-pvc.tsv is missing");
    };
    let kernels: Vec<Kernel> = corpus::kernels()
        .into_iter()
        .filter(|k| {
            matches!(
                k.corpus,
                Corpus::Spec | Corpus::Examples | Corpus::Guide | Corpus::OpenCl
            )
        })
        .filter(|k| {
            matches!(
                verdicts.verdicts.get(&fixture::hash(&k.text)),
                Some(Verdict::Accept)
            )
        })
        .collect();
    let regenerate = std::env::var_os("VISA_IGC_REGENERATE").is_some();
    let genx = fixture::genx_ir();
    if genx.is_none() && std::env::var_os("VISA_REQUIRE_IGC").is_some() {
        panic!("VISA_REQUIRE_IGC is set and GenX_IR is not installed");
    }
    let scratch = tempfile::tempdir().expect("scratch directory");
    if regenerate {
        let genx = genx.as_ref().expect("VISA_IGC_REGENERATE needs GenX_IR");
        let _ = std::fs::remove_dir_all(listing_dir());
        std::fs::create_dir_all(listing_dir()).expect("fixture directory");
        for kernel in &kernels {
            match list(genx, scratch.path(), &kernel.text) {
                Ok(listing) => std::fs::write(listing_path(kernel), listing).expect("writes"),
                Err(e) => eprintln!("{}: {e}", kernel.name),
            }
        }
    }
    let (mut stale, mut missing, mut unexplained) = (Vec::new(), Vec::new(), Vec::new());
    let mut known: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut compared, mut lines_compared) = (0, 0);
    for (index, kernel) in kernels.iter().enumerate() {
        let Ok(written) = std::fs::read_to_string(listing_path(kernel)) else {
            missing.push(kernel.name.clone());
            continue;
        };
        if let Some(genx) = &genx
            && !regenerate
            && index % LIVE_STRIDE == 0
            && list(genx, scratch.path(), &kernel.text).as_deref() != Ok(written.as_str())
        {
            stale.push(kernel.name.clone());
        }
        let listing = repaired(&written);
        compared += 1;
        // The same module: the listing parses, and it prints as the original does; our
        // printer of the original writes each instruction as the listing does.
        let (ours, theirs) = match (lines_of(&kernel.text), lines_of(&listing)) {
            (Ok(ours), Ok(theirs)) => (ours, theirs),
            (Err(e), _) => {
                unexplained.push(format!("{}: the original does not parse: {e}", kernel.name));
                continue;
            }
            (_, Err(e)) => {
                unexplained.push(format!("{}: the listing does not parse: {e}", kernel.name));
                continue;
            }
        };
        let raw: Vec<String> = listing
            .lines()
            .map(|l| collapsed(l.split(" /// $").next().unwrap_or(l)))
            .collect();
        for (ours, theirs) in [(ours.0, theirs.0), (ours.1, theirs.1)] {
            if ours.len() != theirs.len() {
                unexplained.push(format!(
                    "{}: {} lines, the listing {}",
                    kernel.name,
                    ours.len(),
                    theirs.len()
                ));
                continue;
            }
            lines_compared += ours.len();
            for (a, b) in ours.iter().zip(&theirs) {
                if a == b {
                    continue;
                }
                match known_difference(a, b) {
                    Some(class) => *known.entry(class).or_default() += 1,
                    None => unexplained.push(format!(
                        "{}:\n    ours    {a}\n    listing {b}",
                        kernel.name
                    )),
                }
            }
        }
        // What the listing itself writes: each of our instruction lines is one of its lines
        // (collapsed), as printed by the compiler, not only as parsed here.
        let printed = lines_of(&kernel.text)
            .map(|(_, body)| body)
            .unwrap_or_default();
        for line in printed
            .iter()
            .filter(|l| !l.starts_with('.') && !l.ends_with(':'))
        {
            if !raw.contains(line) && !raw.iter().any(|r| known_difference(line, r).is_some()) {
                unexplained.push(format!(
                    "{}: not in the listing as printed: {line}",
                    kernel.name
                ));
            }
        }
    }
    eprintln!(
        "{compared} listings of GenX_IR ({PLATFORM}) compared, {lines_compared} lines; {} missing",
        missing.len()
    );
    for (class, count) in &known {
        eprintln!("  known difference, {class}: {count} lines");
    }
    for line in unexplained.iter().take(40) {
        eprintln!("  {line}");
    }
    assert!(
        stale.is_empty(),
        "stale listings (scripts/igc-fixtures.sh): {stale:?}"
    );
    assert!(
        missing.is_empty(),
        "kernels without a listing (scripts/igc-fixtures.sh): {missing:?}"
    );
    assert!(compared > 200, "only {compared} listings");
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences",
        unexplained.len()
    );
}

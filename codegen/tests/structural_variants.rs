//! Structural variants of every document we have (the shared upstream documents and seeds, and
//! our own `spec/`): each variant must give the same opcodes, encodings, bitfield codes and
//! syntax as the original, with warnings at most; never a failure (no model, an error) and
//! never a silently different encoding. Fixed seed, a few hundred variants; the same generator
//! runs under cargo-fuzz as `fuzz/fuzz_targets/spec_variants.rs`.

#[path = "support/variants.rs"]
mod variants;

use std::path::{Path, PathBuf};

use variants::{Rng, Transform, signature, variant};
use visa_codegen::parse_document;

/// Variants per document.
const PER_DOCUMENT: usize = 2;
const SEED: u64 = 0x5eed_2026_1124;

fn documents(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_ascii_lowercase();
            (name.ends_with(".md") || name.ends_with(".txt")) && name != "readme.md"
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        // The object-format document is no opcode document (its records are `struct` blocks).
        .filter(|(_, text)| !visa_codegen::object::is_format_document(text))
        .collect()
}

fn corpus() -> Vec<(String, String)> {
    let mut docs = documents(&visa_testutil::repo_root().join("spec"));
    for dir in ["visa-docs/instructions", "seeds"] {
        if let Some(dir) = visa_testutil::shared(dir) {
            docs.extend(documents(&dir));
        }
    }
    docs
}

/// Checks one variant; on failure, writes it to the test's temporary directory and says why.
fn check(name: &str, original: &str, text: &str, applied: &[Transform]) -> Result<(), String> {
    let base = parse_document(name, original)
        .document
        .expect("the original parses");
    let parsed = parse_document(name, text);
    let problem = match &parsed.document {
        None => Some("no model".to_string()),
        Some(_) if parsed.has_errors() => Some(format!("errors: {:#?}", parsed.diagnostics)),
        Some(doc) => {
            let (want, got) = (signature(&base), signature(doc));
            (want != got).then(|| format!("a different model:\nwant {want:#?}\ngot  {got:#?}"))
        }
    };
    match problem {
        None => Ok(()),
        Some(problem) => {
            let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variant-{name}"));
            let _ = std::fs::write(&path, text);
            Err(format!(
                "{name} with {applied:?} ({}): {problem}\nwarnings: {:#?}",
                path.display(),
                parsed
                    .diagnostics
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
            ))
        }
    }
}

/// Transforms applied alone to each document, in turn (every kind meets every document
/// family).
const SINGLE_PER_DOCUMENT: usize = 3;

/// A variant's text and the transforms that made it.
type Variant = (String, Vec<Transform>);

/// Checks the variants `make` gives for each document; panics with every failure.
fn check_all(what: &str, make: &mut dyn FnMut(usize, &str) -> Vec<Variant>) {
    let docs = corpus();
    let mut failures = Vec::new();
    let mut count = 0;
    for (d, (name, text)) in docs.iter().enumerate() {
        for (variant, applied) in make(d, text) {
            count += 1;
            if let Err(failure) = check(name, text, &variant, &applied) {
                failures.push(failure);
            }
        }
    }
    println!("{count} {what} of {} documents", docs.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_kind_of_variant_keeps_the_facts() {
    check_all("single-transform variants", &mut |d, text| {
        (0..SINGLE_PER_DOCUMENT)
            .map(|k| {
                let n = d * SINGLE_PER_DOCUMENT + k;
                let transform = Transform::ALL[n % Transform::ALL.len()];
                let mut rng = Rng::new(SEED ^ ((n as u64) << 8));
                (variants::apply(text, transform, &mut rng), vec![transform])
            })
            .collect()
    });
}

#[test]
fn combined_variants_keep_the_facts() {
    let mut rng = Rng::new(SEED);
    check_all("variants (2 to 4 transforms each)", &mut |_, text| {
        (0..PER_DOCUMENT)
            .map(|_| {
                let transforms = 2 + rng.below(3);
                variant(text, transforms, &mut rng)
            })
            .collect()
    });
}

/// The generator changes the text: every transform does something on some document.
#[test]
fn every_transform_changes_some_document() {
    let docs = corpus();
    for transform in Transform::ALL {
        let changed = docs
            .iter()
            .any(|(_, text)| variants::apply(text, transform, &mut Rng::new(SEED)) != *text);
        assert!(changed, "{transform:?} changes nothing");
    }
}

/// The check can fail: a changed code or a lost field is a different model.
#[test]
fn a_changed_fact_is_caught() {
    let text = std::fs::read_to_string(visa_testutil::repo_root().join("spec/ADD.md")).unwrap();
    assert!(check("ADD.md", &text, &text, &[]).is_ok());
    let changed = text.replacen("0b011:", "0b111:", 1);
    assert_ne!(changed, text);
    assert!(check("ADD.md", &text, &changed, &[]).is_err());
    let lost = text.replacen("- **Src1(", "- **Src9(", 1);
    assert!(check("ADD.md", &text, &lost, &[]).is_err());
}

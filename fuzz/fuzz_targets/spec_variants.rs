//! Structural variants of real opcode documents, chosen by the fuzzer: the input picks a
//! document (our `spec/`, and `../shared` when present) and the transforms with their random
//! choices; the variant must give the same opcodes, encodings, bitfield codes and syntax as the
//! original, with warnings at most (the property of `codegen/tests/structural_variants.rs`,
//! whose generator this target includes).
#![no_main]

#[path = "../../codegen/tests/support/variants.rs"]
mod variants;

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use variants::{Rng, Transform, signature};
use visa_codegen::parse_document;

/// The documents: (name, text, signature of the original).
fn corpus() -> &'static [(String, String, variants::Signature)] {
    static CORPUS: OnceLock<Vec<(String, String, variants::Signature)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut out = Vec::new();
        for dir in [
            root.join("spec"),
            root.join("../shared/visa-docs/instructions"),
            root.join("../shared/seeds"),
        ] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for path in files {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let lower = name.to_ascii_lowercase();
                if !(lower.ends_with(".md") || lower.ends_with(".txt")) || lower == "readme.md" {
                    continue;
                }
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                if let Some(doc) = parse_document(&name, &text).document {
                    let signature = signature(&doc);
                    out.push((name, text, signature));
                }
            }
        }
        assert!(!out.is_empty(), "no documents under {}", root.display());
        out
    })
}

fuzz_target!(|data: &[u8]| {
    let docs = corpus();
    let [a, b, rest @ ..] = data else {
        return;
    };
    let (name, text, original) = &docs[usize::from(u16::from_le_bytes([*a, *b])) % docs.len()];
    // Each following byte: a transform (low nibble) with its own random choices (the byte as a
    // seed), at most eight of them.
    let mut variant = text.clone();
    let mut applied = Vec::new();
    let mut crlf = false;
    for &byte in rest.iter().take(8) {
        let transform = Transform::ALL[usize::from(byte & 0x0f) % Transform::ALL.len()];
        applied.push(transform);
        if transform == Transform::Crlf {
            crlf = true;
            continue;
        }
        variant = variants::apply(&variant, transform, &mut Rng::new(u64::from(byte)));
    }
    if crlf {
        variant = variant.replace('\n', "\r\n");
    }
    let parsed = parse_document(name, &variant);
    assert!(
        !parsed.has_errors(),
        "{name} with {applied:?}: errors {:?}",
        parsed.diagnostics
    );
    let Some(doc) = &parsed.document else {
        panic!("{name} with {applied:?}: no model: {:?}", parsed.diagnostics);
    };
    assert_eq!(&signature(doc), original, "{name} with {applied:?}");
});

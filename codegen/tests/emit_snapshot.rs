//! A reviewed snapshot of the generator output for the four seed instructions (GATHER_SCALED,
//! SCATTER_SCALED, OWORD_LD_UNALIGNED, SVM_GATHER), from frozen copies of our own documents in
//! `emit_fixtures/seeds/`, so that every change of the generated code shows in review.

use std::path::PathBuf;

use visa_codegen::emit;

#[test]
fn seed_instructions_generate_as_reviewed() {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/emit_fixtures/seeds"
    ));
    let parsed = visa_codegen::parse_dirs(&[dir]);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.documents.len(), 4);
    let generated = emit::generate(&parsed.documents).unwrap_or_else(|errors| {
        panic!(
            "{}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    assert!(generated.warnings.is_empty());
    for (name, text) in generated.files() {
        insta::assert_snapshot!(name, text);
    }
}

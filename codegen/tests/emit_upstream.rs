//! The generator over the upstream corpus (106 documents in ../shared/visa-docs/instructions):
//! every document generates, the output parses as Rust in prettyplease's layout, and the table has one entry per
//! document. (The CI also builds `visa-isa` over that corpus to show the output compiles.)

use std::path::PathBuf;

use visa_codegen::emit::{self, Options, SyntaxPolicy};

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/visa-docs/instructions"
    ));
    dir.is_dir().then_some(dir)
}

#[test]
fn the_upstream_corpus_generates_parseable_rust() {
    let Some(dir) = corpus() else {
        println!("skipped: ../shared not found");
        return;
    };
    let (docs, _warnings) = visa_codegen::parse_dirs(&[dir]).unwrap_or_else(|errors| {
        panic!(
            "{}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    assert_eq!(docs.len(), 106);
    let options = Options {
        unresolved_syntax: SyntaxPolicy::Warn,
    };
    let generated = emit::generate(&docs, options).unwrap_or_else(|errors| {
        panic!(
            "{}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    for (name, text) in generated.files() {
        assert!(text.starts_with(emit::HEADER), "{name}");
        let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
        // Formatted as prettyplease formats it, including the table written as text.
        let reformatted = format!("{}\n\n{}", emit::HEADER, prettyplease::unparse(&file));
        assert!(
            reformatted == text,
            "{name} is not in prettyplease's layout"
        );
    }
    let table = syn::parse_file(&generated.tables).unwrap();
    let text = generated.tables.as_str();
    assert_eq!(text.matches("crate::desc::InstrDesc {").count(), 106);
    assert_eq!(table.items.len(), 1);
    // One Opcode variant and one typed struct per document.
    assert_eq!(
        generated
            .instrs
            .matches("\nimpl TryFrom<&crate::ast::Instruction> for ")
            .count(),
        107
    );
    // Warnings point at the template they dropped.
    for warning in &generated.warnings {
        assert!(warning.file.ends_with(".md"), "{warning}");
        assert!(warning.loc.line > 0, "{warning}");
    }
}

#[test]
fn the_upstream_corpus_fails_strictly_with_locations() {
    let Some(dir) = corpus() else {
        println!("skipped: ../shared not found");
        return;
    };
    let (docs, _) = visa_codegen::parse_dirs(&[dir]).expect("the corpus parses");
    // Under the default policy, a template that does not follow the conventions is an error
    // with its file:line:col.
    // (The upstream SVM_BLOCK_LD writes `[.unaligned]` over a bit whose codes have no such word.)
    let errors =
        emit::generate(&docs, Options::default()).expect_err("strict mode rejects the corpus");
    assert!(!errors.is_empty());
    for e in &errors {
        let shown = e.to_string();
        assert!(
            shown.contains(".md:") && shown.contains(": error: "),
            "{shown}"
        );
    }
    assert!(
        errors
            .iter()
            .any(|e| e.file.ends_with("SVM_BLOCK_LD.md") && e.message.contains("unaligned"))
    );
}

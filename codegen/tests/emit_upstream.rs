//! The generator over the upstream corpus (106 documents in ../shared/visa-docs/instructions):
//! every document generates, the output parses as Rust in prettyplease's layout, and the table
//! has one entry per document. (The CI also builds `visa-isa` over that corpus to show the output
//! compiles.)

use visa_codegen::emit;

#[test]
fn the_upstream_corpus_generates_parseable_rust() {
    let Some(dir) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let parsed = visa_codegen::parse_dirs(&[dir]);
    assert!(!parsed.has_errors(), "{:#?}", parsed.diagnostics);
    assert_eq!(parsed.documents.len(), 106);
    assert!(parsed.left_out.is_empty(), "{:?}", parsed.left_out);
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
    assert_eq!(generated.instructions, 106);
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
}

#[test]
fn templates_that_bind_to_no_field_are_warnings_at_their_line() {
    let Some(dir) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let parsed = visa_codegen::parse_dirs(&[dir]);
    let generated = emit::generate(&parsed.documents).expect("the corpus generates");
    // A template that does not follow the conventions is not generated, with a warning at its
    // file:line:col. (The upstream SVM_BLOCK_LD writes `[.unaligned]` over a bit whose codes have
    // no such word.)
    assert!(!generated.warnings.is_empty());
    for warning in &generated.warnings {
        let shown = warning.to_string();
        assert!(
            shown.contains(".md:") && shown.contains(": warning: "),
            "{shown}"
        );
        assert!(warning.loc.line > 0, "{warning}");
    }
    assert!(generated.warnings.iter().any(|w| {
        w.file.ends_with("SVM_BLOCK_LD.md")
            && w.message.starts_with("syntax statement not generated: ")
            && w.message.contains("unaligned")
    }));
}

//! The document-size limit of the parser: configurable, enforced with a located error.

use visa_codegen::{ParseLimits, parse_document, parse_document_with};

const DOC: &str =
    "## Opcode\n\n  NOP = 0x00\n\n## Format\n\n| | |\n| --- | --- |\n| 0x00(NOP) | |\n";

#[test]
fn the_default_limit_is_one_mebibyte_and_accepts_a_document_at_the_limit() {
    let limits = ParseLimits::default();
    assert_eq!(limits.max_document_bytes, 1 << 20);
    let mut text = DOC.to_string();
    text.push_str(&" ".repeat((1 << 20) - text.len()));
    assert_eq!(text.len(), 1 << 20);
    let parsed = parse_document("big.md", &text);
    assert!(
        !parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("limit")),
        "{:?}",
        parsed.diagnostics
    );
    assert!(parsed.document.is_some());
}

#[test]
fn a_document_over_the_limit_is_one_error_at_its_start() {
    let limits = ParseLimits {
        max_document_bytes: DOC.len() - 1,
    };
    let parsed = parse_document_with("small.md", DOC, &limits);
    assert!(parsed.document.is_none());
    let messages: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        vec![format!(
            "small.md:1:1: error: the document is {} bytes long, more than the limit of {} bytes",
            DOC.len(),
            DOC.len() - 1
        )]
    );
    // The same text within a raised limit parses as with the default.
    let within = parse_document_with(
        "small.md",
        DOC,
        &ParseLimits {
            max_document_bytes: DOC.len(),
        },
    );
    let default = parse_document("small.md", DOC);
    assert_eq!(within.diagnostics, default.diagnostics);
    assert_eq!(within.document.is_some(), default.document.is_some());
    // The default rejects a document one byte over a mebibyte.
    let huge = " ".repeat((1 << 20) + 1);
    let parsed = parse_document("huge.md", &huge);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(parsed.has_errors());
}

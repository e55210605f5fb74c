//! Conditional Format tables (`### CONDITION`): a condition the generator cannot resolve (an
//! unknown field, a token that names no code, a number wider than the field) is a warning at the
//! table's position, and the document keeps one layout; a condition that resolves gives one
//! binary layout per table.

use visa_codegen::emit;
use visa_codegen::parse_document;

/// A document with two conditional tables on `Mode` (8 bits, codes `fast` = 0, `slow` = 1):
/// the first table's condition is `first`.
fn document(first: &str) -> String {
    let lines = [
        "## Opcode",
        "",
        "  OP = 0x10",
        "",
        "## Format",
        "",
        "### CONDITION",
        "",
        first,
        "",
        "| | | |",
        "| --- | --- | --- |",
        "| 0x10(OP) | Mode | Count |",
        "",
        "### CONDITION",
        "",
        "- Mode=slow",
        "",
        "| | | | |",
        "| --- | --- | --- | --- |",
        "| 0x10(OP) | Mode | Count | Extra |",
        "",
        "## Semantics",
        "",
        "    x = count;",
        "",
        "## Description",
        "",
        "    Does a thing.",
        "",
        "- **Mode(ub):** mode",
        "  - 0x0: fast - the fast way",
        "  - 0x1: slow - the slow way",
        "- **Count(ub):** a count. Operand class: number",
        "- **Extra(ub):** more. Operand class: number",
        "",
        "## Text",
        "```",
        "    OP.<mode> <count> <extra>",
        "```",
        "",
    ];
    lines.join("\n")
}

/// The generator's warnings for the document whose first condition is `first`, as
/// (line, message).
fn warnings(first: &str) -> Vec<(u32, String)> {
    let text = document(first);
    let parsed = parse_document("t.md", &text);
    let doc = parsed.document.expect("a document");
    let generated = emit::generate(std::slice::from_ref(&doc)).expect("generates");
    generated
        .warnings
        .iter()
        .map(|w| (w.loc.line, w.message.clone()))
        .collect()
}

#[test]
fn conditions_that_resolve_give_no_warning() {
    for first in [
        "- Mode=fast",
        "- Mode=0",
        "- Mode=0xff",
        "- Mode=fast, 2, 0x3",
    ] {
        assert_eq!(warnings(first), [], "{first}");
    }
}

#[test]
fn a_condition_that_does_not_resolve_is_a_warning_at_its_table() {
    let cases = [
        (
            "- Mode=0x100",
            "`0x100` does not fit the 8 bits Mode is written with",
        ),
        (
            "- Mode=256",
            "`256` does not fit the 8 bits Mode is written with",
        ),
        ("- Mode=medium", "`medium` names no code of Mode"),
        ("- Speed=fast", "`Speed` is no field of the document"),
    ];
    for (first, expected) in cases {
        let shown = warnings(first);
        assert_eq!(shown.len(), 1, "{first}: {shown:#?}");
        let (line, message) = &shown[0];
        // The first table's header row is on line 11.
        assert_eq!(*line, 11, "{first}: {message}");
        assert!(message.contains(expected), "{first}: {message}");
        assert!(message.contains("read as one layout"), "{message}");
    }
}

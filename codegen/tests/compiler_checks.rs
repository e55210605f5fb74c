//! The `Compiler checks` property is parsed once, by the generator, into typed rules; an item it
//! cannot read or resolve is a warning at the item's `file:line:col`, never dropped silently.

use visa_codegen::emit;
use visa_codegen::model::{
    CheckKind, Diagnostic, DiagnosticKind, Document, Enforce, PlatformBound, Severity,
};
use visa_codegen::parse_document;

/// A small document whose `#### Properties` section is `properties`.
fn document(properties: &str) -> String {
    let lines = [
        "## Opcode",
        "",
        "  OP = 0x10",
        "",
        "## Format",
        "",
        "| | | | |",
        "| --- | --- | --- | --- |",
        "| 0x10(OP) | Mode | Count | Dst |",
        "",
        "## Semantics",
        "",
        "    dst = count;",
        "",
        "## Description",
        "",
        "    Does a thing.",
        "",
        "- **Mode(ub):** mode",
        "  - 0x0: fast - the fast way",
        "  - 0x1: slow - the slow way",
        "- **Count(ub):** a count. Operand class: number",
        "- **Dst(vec_operand):** out. Operand class: general,indirect",
        "",
        "#### Properties",
        "",
        properties,
        "",
        "## Text",
        "```",
        "    OP.<mode> <count> <dst>",
        "```",
        "",
    ];
    lines.join("\n")
}

/// The 1-based line and column (in characters) where `needle` first occurs in `text`.
fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let at = text.find(needle).expect("needle in text");
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..at].chars().count() + 1;
    (line as u32, col as u32)
}

fn warnings(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect()
}

fn parse(text: &str) -> (Document, Vec<Diagnostic>) {
    let parsed = parse_document("t.md", text);
    (parsed.document.expect("a document"), parsed.diagnostics)
}

#[test]
fn a_malformed_item_is_a_warning_at_its_position() {
    let text = document("- **Compiler checks:** integer operands; Dst frobs 3; type maps");
    let (doc, diagnostics) = parse(&text);
    let warnings = warnings(&diagnostics);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    let (line, col) = position_of(&text, "Dst frobs 3");
    assert_eq!((warnings[0].loc.line, warnings[0].loc.col), (line, col));
    assert!(
        warnings[0].message.contains("`Dst frobs 3`"),
        "{}",
        warnings[0]
    );
    assert_eq!(warnings[0].kind, DiagnosticKind::CompilerChecks);
    // The other items are kept, in order.
    let phrases: Vec<&Enforce> = doc
        .compiler_checks
        .enforces
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(phrases, [&Enforce::IntegerOperands, &Enforce::TypeMaps]);
}

#[test]
fn an_item_on_a_continuation_line_is_located_there() {
    let text = document("- **Compiler checks:** integer operands;\n  platform in pvc+,  xehp+x");
    let (_, diagnostics) = parse(&text);
    let warnings = warnings(&diagnostics);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    // The bad token itself is pointed at, on the second line.
    let (line, col) = position_of(&text, "xehp+x");
    assert_eq!((warnings[0].loc.line, warnings[0].loc.col), (line, col));
}

#[test]
fn code_rules_become_typed_tests() {
    let text = document(
        "- **Compiler checks:** Mode in fast when platform in -pvc and Dst is not %null; \
         Dst has type ud, D; NoMask for dst types B, UB; dst types Q not on DG2, MTL",
    );
    let (doc, diagnostics) = parse(&text);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let checks = &doc.compiler_checks;
    assert_eq!(checks.rules.len(), 2);
    let rule = &checks.rules[0];
    assert_eq!(rule.test.field.as_deref(), Some("Mode"));
    assert_eq!(rule.test.kind, CheckKind::In(vec!["fast".to_string()]));
    assert_eq!(rule.when_text, "platform in -pvc and Dst is not %null");
    match &rule.when[0].kind {
        CheckKind::Platform { listed, negated } => {
            assert!(!negated);
            assert_eq!(listed[0].name, "pvc");
            assert_eq!(listed[0].bound, PlatformBound::Before);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(rule.when[1].kind, CheckKind::NotNull);
    assert_eq!(
        checks.rules[1].test.kind,
        CheckKind::HasType(vec!["UD".to_string(), "D".to_string()])
    );
    let phrases: Vec<&Enforce> = checks.enforces.iter().map(|(e, _)| e).collect();
    assert_eq!(
        phrases,
        [
            &Enforce::NoMaskForDstTypes(vec!["B".into(), "UB".into()]),
            &Enforce::DstTypesNotOn {
                types: vec!["Q".into()],
                platforms: vec!["DG2".into(), "MTL".into()],
            },
        ]
    );
}

#[test]
fn a_rule_naming_no_field_or_no_code_is_a_generator_warning_at_its_position() {
    let text = document(
        "- **Compiler checks:** Mode in fast; Mode in medium; Speed in 1; Count at most 7; \
         Mode at most 1",
    );
    let (doc, diagnostics) = parse(&text);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let generated = emit::generate(std::slice::from_ref(&doc)).expect("generates");
    let shown: Vec<(u32, u32)> = generated
        .warnings
        .iter()
        .map(|w| (w.loc.line, w.loc.col))
        .collect();
    let expected = [
        position_of(&text, "Mode in medium"),
        position_of(&text, "Speed in 1"),
        position_of(&text, "Mode at most 1"),
    ];
    assert_eq!(shown, expected, "{:#?}", generated.warnings);
    assert!(
        generated.warnings[0]
            .message
            .contains("`medium` names no code of Mode")
    );
    assert!(
        generated.warnings[1]
            .message
            .contains("`Speed` is no field")
    );
    assert!(
        generated
            .warnings
            .iter()
            .all(|w| w.kind == DiagnosticKind::CompilerChecks)
    );
    // The rules that resolve are in the table; the others are not.
    let rules = generated.tables.matches("crate::desc::CheckRule {").count();
    assert_eq!(rules, 2, "{}", generated.tables);
}

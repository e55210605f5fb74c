//! Damaged documents: each kind of damage gives the exact diagnostic at the exact place, or
//! the recovered model. Never a panic.

use visa_codegen::model::{Document, FieldType, Severity};
use visa_codegen::{Parsed, parse_document};

/// A small, valid document. Line numbers are referenced by the tests below.
const BASE: &str = "## Opcode

  OP_X = 0x10

## Format

| | | |
| --- | --- | --- |
| 0x10(OP_X) | Exec_size | Dst |

## Semantics

    dst = 0;

## Description

    Writes zero.

- **Exec_size(ub):** Execution size
  - Bit[2..0]: size
    - 0b000: one
    - 0b001: two
- **Dst(vec_operand):** Target. Must have type UD

#### Properties
- **Saturation:** No

## Text
```
    [(<P>)] OP_X (<exec_size>) <dst>
```
## Notes

    None.
";

fn parse(text: &str) -> Parsed {
    parse_document("t.md", text)
}

/// BASE with one unique piece of text replaced.
fn damaged(from: &str, to: &str) -> String {
    assert_eq!(
        BASE.matches(from).count(),
        1,
        "`{from}` must occur once in BASE"
    );
    BASE.replacen(from, to, 1)
}

fn messages(parsed: &Parsed, severity: Severity) -> Vec<String> {
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .map(ToString::to_string)
        .collect()
}

fn errors(text: &str) -> Vec<String> {
    messages(&parse(text), Severity::Error)
}

/// JSON of a model part with every `loc` removed.
fn without_locs<T: serde::Serialize>(value: &T) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.remove("loc");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(value).unwrap();
    strip(&mut value);
    value
}

fn clean(text: &str) -> Document {
    let parsed = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    parsed.document.unwrap()
}

#[test]
fn base_is_clean() {
    let doc = clean(BASE);
    assert_eq!(doc.fields.len(), 2);
    assert_eq!(doc.fields[0].bitfields[0].values.len(), 2);
}

#[test]
fn truncated_table() {
    let cut = &BASE[..BASE.find("| 0x10(OP_X)").unwrap()];
    assert_eq!(
        errors(cut),
        ["t.md:7:1: error: the Format table has no rows (truncated table?)"]
    );
}

#[test]
fn bad_hex_opcode_value() {
    let parsed = parse(&damaged("= 0x10", "= 0x1G"));
    assert_eq!(
        messages(&parsed, Severity::Error),
        ["t.md:3:10: error: bad opcode value `0x1G`: expected a number such as 0x4e"]
    );
    assert!(parsed.document.is_none());
}

#[test]
fn bad_code() {
    assert_eq!(
        errors(&damaged("0b000: one", "0b0z0: one")),
        [
            "t.md:21:7: error: bad code `0b0z0`: expected a binary (0b..), hex (0x..) or decimal number"
        ]
    );
}

#[test]
fn unknown_type_token_is_a_warning_and_kept() {
    let parsed = parse(&damaged("Dst(vec_operand)", "Dst(surface_ref)"));
    assert_eq!(
        messages(&parsed, Severity::Warning),
        ["t.md:23:5: warning: unknown type `surface_ref` for field `Dst`: kept as written"]
    );
    assert!(!parsed.has_errors());
    let doc = parsed.document.unwrap();
    assert_eq!(doc.fields[1].ty, FieldType::Other("surface_ref".into()));
}

#[test]
fn duplicate_field_bullet() {
    let text = damaged(
        "Must have type UD\n",
        "Must have type UD\n- **Dst(ub):** again\n  - Bit[0]: x\n",
    );
    assert_eq!(
        errors(&text),
        ["t.md:24:5: error: field `Dst` is described twice (first at 23:5)"]
    );
}

#[test]
fn duplicate_field_cell() {
    assert_eq!(
        errors(&damaged(
            "| Exec_size | Dst |",
            "| Exec_size | Exec_size | Dst |"
        )),
        ["t.md:9:28: error: field `Exec_size` appears twice in the Format table (first at 9:16)"]
    );
}

#[test]
fn bullet_without_a_name() {
    assert_eq!(
        errors(&damaged(
            "Must have type UD\n",
            "Must have type UD\n- **(ub):** nameless\n- **:** empty\n"
        )),
        [
            "t.md:24:5: error: field bullet has no name before `(ub)`",
            "t.md:25:1: error: field bullet has no name: expected `- **Name(type):** text`",
        ]
    );
}

#[test]
fn bullet_without_a_type() {
    assert_eq!(
        errors(&damaged("- **Dst(vec_operand):**", "- **Dst:**")),
        [
            "t.md:23:5: error: expected `Name(type)` in the field bullet, found `**Dst**`",
            "t.md:9:28: error: field `Dst` of the Format table has no bullet: expected `- **Dst(type):** ...` in the Description section",
        ]
    );
}

#[test]
fn crlf_line_ends_give_the_same_model() {
    assert_eq!(clean(&BASE.replace('\n', "\r\n")), clean(BASE));
}

#[test]
fn tabs_give_the_same_facts() {
    let tabbed = BASE.replace("\n    ", "\n\t").replace("\n  ", "\n\t");
    let (a, b) = (clean(&tabbed), clean(BASE));
    assert_eq!(without_locs(&a.fields), without_locs(&b.fields));
    assert_eq!(a.fields[0].bitfields[0].loc.col, 4);
    assert_eq!(a.syntax[0].template, b.syntax[0].template);
    assert_eq!(a.syntax[0].loc.col, 2);
}

#[test]
fn bom_is_skipped_and_locations_unchanged() {
    assert_eq!(clean(&format!("\u{feff}{BASE}")), clean(BASE));
}

#[test]
fn empty_file() {
    for text in ["", "\n\n  \n", "\u{feff}"] {
        let parsed = parse(text);
        assert_eq!(
            messages(&parsed, Severity::Error),
            ["t.md:1:1: error: empty document: expected an `## Opcode` section"]
        );
        assert!(parsed.document.is_none());
    }
}

#[test]
fn binary_garbage() {
    assert_eq!(
        errors("\u{7f}ELF\u{2}\u{1}\u{0}\u{0}junk"),
        ["t.md:1:7: error: binary data (NUL byte): expected a markdown opcode document"]
    );
    let bytes: Vec<u8> = (0..400u32)
        .map(|i| (i.wrapping_mul(97) % 251) as u8 + 1)
        .collect();
    let parsed = parse(&String::from_utf8_lossy(&bytes));
    let errors = messages(&parsed, Severity::Error);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].starts_with("t.md:1:1: error: missing `## Opcode` section"));
}

#[test]
fn missing_opcode_section() {
    let text = &BASE[BASE.find("## Format").unwrap()..];
    assert_eq!(
        errors(text),
        [
            "t.md:1:1: error: missing `## Opcode` section: expected `## Opcode` followed by `NAME = 0x..`"
        ]
    );
}

#[test]
fn missing_format_section() {
    let text = damaged(
        "## Format\n\n| | | |\n| --- | --- | --- |\n| 0x10(OP_X) | Exec_size | Dst |\n",
        "",
    );
    assert_eq!(
        errors(&text),
        [
            "t.md:1:1: error: missing `## Format` section: expected a Format table after the Opcode section"
        ]
    );
}

#[test]
fn opcode_value_above_255() {
    assert_eq!(
        errors(&damaged("= 0x10", "= 0x100")),
        ["t.md:3:10: error: opcode value `0x100` does not fit in one byte (0x00..=0xff)"]
    );
}

#[test]
fn opcode_cell_disagrees_with_the_opcode_section() {
    assert_eq!(
        errors(&damaged("| 0x10(OP_X)", "| 0x11(OP_X)")),
        [
            "t.md:9:3: error: the Format table's opcode cells `0x11(OP_X)` do not match the Opcode section `OP_X = 0x10`"
        ]
    );
}

#[test]
fn bit_range_reversed() {
    // The codes under the bad item are dropped, not reported again.
    assert_eq!(
        errors(&damaged("Bit[2..0]", "Bit[0..2]")),
        [
            "t.md:20:5: error: bit range `Bit[0..2]` is reversed: write the high bit first (`Bit[2..0]`)"
        ]
    );
}

#[test]
fn bit_outside_the_field_width() {
    assert_eq!(
        errors(&damaged("Bit[2..0]", "Bit[9..8]")),
        ["t.md:20:5: error: `Bit[9..8]` is outside the 8-bit field `Exec_size` (ub)"]
    );
}

#[test]
fn bit_without_closing_bracket() {
    assert_eq!(
        errors(&damaged("Bit[2..0]:", "Bit[2..0:")),
        ["t.md:20:5: error: expected `Bit[hi..lo]` or `Bit[n]`: missing `]`"]
    );
}

#[test]
fn code_wider_than_its_bit_range() {
    assert_eq!(
        errors(&damaged("0b001: two", "0b1000: two")),
        ["t.md:22:7: error: code 8 does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide)"]
    );
}

#[test]
fn duplicate_code() {
    assert_eq!(
        errors(&damaged("0b001: two", "0b000: two")),
        ["t.md:22:7: error: duplicate code 0 in `Bit[2..0]` of field `Exec_size` (first at 21:7)"]
    );
}

#[test]
fn table_with_no_opcode_cell() {
    assert_eq!(
        errors(&damaged(
            "| 0x10(OP_X) | Exec_size | Dst |",
            "| Exec_size | Dst |"
        )),
        [
            "t.md:9:3: error: expected an opcode cell such as `0x4e(SVM)` at the start of the Format table, found `Exec_size`"
        ]
    );
}

#[test]
fn table_without_delimiter_row() {
    assert_eq!(
        errors(&damaged("| --- | --- | --- |\n", "")),
        [
            "t.md:8:1: error: expected a delimiter row such as `| --- | --- |` under the table header"
        ]
    );
}

#[test]
fn unterminated_code_fence_is_reported_and_the_rest_still_parsed() {
    let parsed = parse(&damaged("<dst>\n```\n", "<dst>\n"));
    assert_eq!(
        messages(&parsed, Severity::Error),
        [
            "t.md:29:1: error: unterminated code fence: expected a closing ``` before the end of the file"
        ]
    );
    let doc = parsed.document.unwrap();
    assert_eq!(doc.syntax.len(), 1);
    assert!(doc.syntax[0].template.is_some());
    assert_eq!(doc.notes.unwrap().text, "None.");
}

#[test]
fn non_utf8_bytes_are_replaced_with_a_warning() {
    let mut bytes = BASE.as_bytes().to_vec();
    let at = BASE.find("Target.").unwrap();
    bytes.splice(at..at, [0xff, 0xfe]);
    let parsed = parse(&String::from_utf8_lossy(&bytes));
    assert_eq!(
        messages(&parsed, Severity::Warning),
        ["t.md:23:25: warning: invalid UTF-8 in the file: the bytes were replaced by U+FFFD"]
    );
    assert!(!parsed.has_errors());
    assert!(
        parsed.document.unwrap().fields[1]
            .description
            .starts_with("\u{fffd}\u{fffd}Target.")
    );
}

#[test]
fn deeply_nested_bullets() {
    let nested: String = (0..2000)
        .map(|i| format!("{}- level {i}\n", " ".repeat(i % 300)))
        .collect();
    let parsed = parse(&damaged(
        "Must have type UD\n",
        &format!("Must have type UD\n{nested}"),
    ));
    assert!(!parsed.has_errors(), "{:#?}", parsed.diagnostics);
    let doc = parsed.document.unwrap();
    assert_eq!(doc.fields[1].description.lines().count(), 2001);
    let quotes = format!("{BASE}\n{}\n", ">".repeat(5000));
    assert!(!parse(&quotes).has_errors());
}

#[test]
fn very_long_line() {
    let long = "x".repeat(300_000);
    let doc = clean(&damaged("Target.", &format!("Target {long}.")));
    assert_eq!(
        doc.fields[1].description.len(),
        300_000 + "Target . Must have type UD".len()
    );
    assert_eq!(doc.fields[1].allowed_types[0].name, "UD");
}

#[test]
fn missing_optional_section_is_a_warning() {
    let parsed = parse(&damaged("## Semantics\n\n    dst = 0;\n\n", ""));
    assert_eq!(
        messages(&parsed, Severity::Warning),
        ["t.md:1:1: warning: the document has no `## Semantics` section"]
    );
    assert!(!parsed.has_errors());
    assert!(parsed.document.unwrap().semantics.is_none());
}

#[test]
fn duplicate_section() {
    assert_eq!(
        errors(&format!("{BASE}## Text\nOP_X\n")),
        ["t.md:35:1: error: duplicate `Text` section (first at 28:1)"]
    );
}

#[test]
fn every_error_of_a_file_is_reported() {
    let text = damaged("= 0x10", "= 0x10")
        .replace("0b000: one", "0b0q: one")
        .replace("Bit[2..0]", "Bit[1..3]")
        .replace("- **Dst(vec_operand):**", "- **Exec_size(ub):**");
    let errors = errors(&text);
    assert_eq!(
        errors,
        [
            "t.md:20:5: error: bit range `Bit[1..3]` is reversed: write the high bit first (`Bit[3..1]`)",
            "t.md:23:5: error: field `Exec_size` is described twice (first at 19:5)",
            "t.md:9:28: error: field `Dst` of the Format table has no bullet: expected `- **Dst(type):** ...` in the Description section",
        ]
    );
}

#[test]
fn web_copy_damage_line_numbers_and_stray_pipes() {
    let flattened: String = BASE
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    let text = format!("1 2 3 4 5 6\n|\n{flattened}|\n");
    let parsed = parse(&text);
    assert!(!parsed.has_errors(), "{:#?}", parsed.diagnostics);
    let (a, b) = (parsed.document.unwrap(), clean(BASE));
    assert_eq!(a.fields.len(), b.fields.len());
    for (x, y) in a.fields.iter().zip(&b.fields) {
        assert_eq!(
            (&x.name, &x.ty, &x.allowed_types),
            (&y.name, &y.ty, &y.allowed_types)
        );
        assert_eq!(x.bitfields.len(), y.bitfields.len());
        for (p, q) in x.bitfields.iter().zip(&y.bitfields) {
            assert_eq!((p.hi, p.lo, p.values.len()), (q.hi, q.lo, q.values.len()));
        }
    }
    assert_eq!(a.notes.unwrap().text, "None.");
}

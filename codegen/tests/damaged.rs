//! Damaged documents: each kind of damage gives the exact warning at the exact place and the
//! model of everything else (what could not be placed is kept as description text), or, for a
//! document without an opcode or a Format table, one warning and no model. Never a panic.

use visa_codegen::model::{Document, FieldType, Loc, Severity};
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

/// Every diagnostic of a document that must still give a model.
fn warnings(text: &str) -> Vec<String> {
    let parsed = parse(text);
    assert!(parsed.document.is_some(), "{:#?}", parsed.diagnostics);
    assert!(!parsed.has_errors(), "{:#?}", parsed.diagnostics);
    messages(&parsed, Severity::Warning)
}

/// The one warning of a document that is left out.
fn left_out(text: &str) -> String {
    let parsed = parse(text);
    assert!(parsed.document.is_none());
    let shown: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    shown[0].clone()
}

/// The model of a document with warnings.
fn model(text: &str) -> Document {
    parse(text).document.expect("a model")
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
        left_out(cut),
        "t.md:7:1: warning: no Format table: the Format table has no rows (truncated table?): the document is left out"
    );
}

#[test]
fn bad_hex_opcode_value() {
    assert_eq!(
        left_out(&damaged("= 0x10", "= 0x1G")),
        "t.md:3:10: warning: no opcode declared: bad opcode value `0x1G` (expected a number such as 0x4e): the document is left out"
    );
}

#[test]
fn a_bad_opcode_line_beside_a_good_one_is_kept_as_text() {
    let text = damaged("  OP_X = 0x10\n", "  OP_X = 0x10\n  see below\n");
    assert_eq!(
        warnings(&text),
        [
            "t.md:4:3: warning: expected `NAME = 0x..` in the Opcode section, found `see below`: the line is kept as text"
        ]
    );
    let doc = model(&text);
    assert_eq!(doc.opcodes.len(), 1);
    assert_eq!(doc.extra[0].section, "Opcode");
    assert_eq!(doc.extra[0].text, "see below");
    assert_eq!(doc.extra[0].loc, Loc::new(4, 3));
}

#[test]
fn bad_code() {
    let text = damaged("0b000: one", "0b0z0: one");
    assert_eq!(
        warnings(&text),
        [
            "t.md:21:7: warning: `0b0z0` is not a code (expected 0b.., 0x.. or a decimal number, or a range such as 0x4-0x7, before `:`): kept as description text",
        ]
    );
}

#[test]
fn a_description_list_under_a_field_is_not_a_code_table() {
    // The observed failure: items `name: text` whose name starts with a digit.
    let text = damaged(
        "Must have type UD\n",
        "Must have type UD\n  - 2D_array: the array index, not normalized\n  - Other surface types: the normalized coordinate\n",
    );
    let doc = clean(&text);
    let dst = &doc.fields[1];
    assert!(dst.values.is_empty() && dst.bitfields.is_empty());
    assert_eq!(
        dst.description,
        "Target. Must have type UD\n2D_array: the array index, not normalized\nOther surface types: the normalized coordinate"
    );
    assert_eq!(dst.allowed_types[0].name, "UD");
}

#[test]
fn a_description_list_under_a_code_describes_that_code() {
    let text = damaged(
        "    - 0b000: one\n",
        "    - 0b000: one\n      - Note: the default\n",
    );
    let doc = clean(&text);
    let size = &doc.fields[0].bitfields[0];
    assert_eq!(size.values.len(), 2);
    assert_eq!(size.values[0].label, "one");
    assert_eq!(size.values[0].description, "Note: the default");
    assert_eq!(size.description, "size");
}

#[test]
fn code_ranges_are_codes_kept_apart() {
    let text = damaged(
        "    - 0b001: two\n",
        "    - 0b001: two\n    - 0b010-0b111: reserved\n",
    );
    let doc = clean(&text);
    let size = &doc.fields[0].bitfields[0];
    assert_eq!(size.values.len(), 2);
    assert_eq!(size.ranges.len(), 1);
    assert_eq!((size.ranges[0].first, size.ranges[0].last), (2, 7));
    assert_eq!(size.ranges[0].label, "reserved");
    assert_eq!(size.ranges[0].loc, Loc::new(23, 7));
}

#[test]
fn a_text_item_among_the_codes_is_description_with_a_warning() {
    let text = damaged(
        "    - 0b001: two\n",
        "    - 0b001: two\n    - reserved: the others\n",
    );
    assert_eq!(
        warnings(&text),
        [
            "t.md:23:5: warning: item `reserved: the others` in the code list of field `Exec_size` is not a code: kept as description text"
        ]
    );
    let size = &model(&text).fields[0].bitfields[0];
    assert_eq!(size.values.len(), 2);
    assert_eq!(size.description, "size\nreserved: the others");
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
        warnings(&text),
        [
            "t.md:24:5: warning: field `Dst` is described twice (first at 23:5): the second bullet and the items under it are kept as description text"
        ]
    );
    let doc = model(&text);
    assert_eq!(doc.fields.len(), 2);
    assert!(doc.fields[1].bitfields.is_empty());
    assert!(
        doc.fields[1]
            .description
            .ends_with("\n- **Dst(ub):** again\n- Bit[0]: x"),
        "{}",
        doc.fields[1].description
    );
}

#[test]
fn duplicate_field_cell() {
    let text = damaged("| Exec_size | Dst |", "| Exec_size | Exec_size | Dst |");
    assert_eq!(
        warnings(&text),
        [
            "t.md:9:28: warning: field `Exec_size` appears twice in the Format table (first at 9:16): the instruction's encoding is incomplete"
        ]
    );
    let doc = model(&text);
    assert_eq!(doc.formats[0].unread_cells, [Loc::new(9, 28)]);
    assert_eq!(doc.formats[0].fields.len(), 2);
}

#[test]
fn bullet_without_a_name() {
    let text = damaged(
        "Must have type UD\n",
        "Must have type UD\n- **(ub):** nameless\n- **:** empty\n",
    );
    assert_eq!(
        warnings(&text),
        [
            "t.md:24:5: warning: field bullet `**(ub)**` has an empty name or type (expected e.g. `**Name(ub):**`): kept as description text with the items under it",
            "t.md:25:5: warning: `****` is not a field bullet (`**Name(type):**`): kept as description text with the items under it",
        ]
    );
    let doc = model(&text);
    assert!(
        doc.fields[1]
            .description
            .ends_with("\n- **(ub):** nameless\n- **:** empty")
    );
}

#[test]
fn bullet_without_a_type() {
    let text = damaged("- **Dst(vec_operand):**", "- **Dst:**");
    assert_eq!(
        warnings(&text),
        [
            "t.md:23:5: warning: `**Dst**` is not a field bullet (`**Name(type):**`): kept as description text with the items under it",
            "t.md:9:28: warning: field `Dst` of the Format table has no bullet (expected `- **Dst(type):** ...` in the Description section): its type is unknown",
        ]
    );
    // The text goes to the field above.
    let doc = model(&text);
    assert!(
        doc.fields[0]
            .description
            .ends_with("\n- **Dst:** Target. Must have type UD")
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
fn html_comments_are_not_content() {
    let text = BASE
        .replace("## Format\n", "<!-- a remark -->\n## Format\n")
        .replace(
            "  OP_X = 0x10\n",
            "  OP_X = 0x10\n<!--\n  OTHER = 0x11\n-->\n",
        )
        .replace(
            "- **Dst(",
            "<!-- - **Src(ub):** commented out -->\n- **Dst(",
        );
    let (a, b) = (clean(&text), clean(BASE));
    assert_eq!(without_locs(&a.opcodes), without_locs(&b.opcodes));
    assert_eq!(without_locs(&a.fields), without_locs(&b.fields));
}

#[test]
fn an_unterminated_html_comment_is_text_with_a_warning() {
    let text = BASE.replace("## Notes\n", "## Notes\n<!-- open\n");
    let parsed = parse(&text);
    assert_eq!(
        messages(&parsed, Severity::Warning),
        [
            "t.md:33:1: warning: unterminated HTML comment: expected `-->` before the end of the file; the line is read as text"
        ]
    );
    assert_eq!(
        parsed.document.unwrap().notes.unwrap().text,
        "<!-- open\n\n    None."
    );
}

#[test]
fn empty_file() {
    for text in ["", "\n\n  \n", "\u{feff}"] {
        assert_eq!(
            left_out(text),
            "t.md:1:1: warning: empty document (expected an `## Opcode` section): the document is left out"
        );
    }
}

#[test]
fn binary_garbage() {
    assert_eq!(
        left_out("\u{7f}ELF\u{2}\u{1}\u{0}\u{0}junk"),
        "t.md:1:7: warning: binary data (NUL byte), not a markdown opcode document: the document is left out"
    );
    let bytes: Vec<u8> = (0..400u32)
        .map(|i| (i.wrapping_mul(97) % 251) as u8 + 1)
        .collect();
    let shown = left_out(&String::from_utf8_lossy(&bytes));
    assert!(
        shown.starts_with("t.md:1:1: warning: no `## Opcode` section"),
        "{shown}"
    );
}

#[test]
fn missing_opcode_section() {
    let text = &BASE[BASE.find("## Format").unwrap()..];
    assert_eq!(
        left_out(text),
        "t.md:1:1: warning: no `## Opcode` section (expected `## Opcode` followed by `NAME = 0x..`): the document is left out"
    );
}

#[test]
fn missing_format_section() {
    let text = damaged(
        "## Format\n\n| | | |\n| --- | --- | --- |\n| 0x10(OP_X) | Exec_size | Dst |\n",
        "",
    );
    assert_eq!(
        left_out(&text),
        "t.md:1:1: warning: no `## Format` section (expected a Format table after the Opcode section): the document is left out"
    );
}

#[test]
fn opcode_value_above_255() {
    assert_eq!(
        left_out(&damaged("= 0x10", "= 0x100")),
        "t.md:3:10: warning: no opcode declared: opcode value `0x100` does not fit in one byte (0x00..=0xff): the document is left out"
    );
}

#[test]
fn opcode_cell_disagrees_with_the_opcode_section() {
    let text = damaged("| 0x10(OP_X)", "| 0x11(OP_X)");
    assert_eq!(
        warnings(&text),
        [
            "t.md:9:3: warning: the Format table's opcode cells `0x11(OP_X)` do not match the Opcode section `OP_X = 0x10`: the Opcode section's values are used"
        ]
    );
    assert_eq!(model(&text).opcodes[0].value, 0x10);
}

#[test]
fn bit_range_reversed() {
    // The item and the codes under it are kept as description text of the field.
    let text = damaged("Bit[2..0]", "Bit[0..2]");
    assert_eq!(
        warnings(&text),
        [
            "t.md:20:5: warning: bit range `Bit[0..2]` is reversed (the high bit comes first: `Bit[2..0]`): kept as description text with the codes under it"
        ]
    );
    let exec = &model(&text).fields[0];
    assert!(exec.bitfields.is_empty() && exec.values.is_empty());
    assert_eq!(
        exec.description,
        "Execution size\n- Bit[0..2]: size\n- 0b000: one\n- 0b001: two"
    );
}

#[test]
fn bit_outside_the_field_width() {
    assert_eq!(
        warnings(&damaged("Bit[2..0]", "Bit[9..8]")),
        [
            "t.md:20:5: warning: `Bit[9..8]` is outside the 8-bit field `Exec_size` (ub): kept as description text with the codes under it"
        ]
    );
}

#[test]
fn bit_without_closing_bracket() {
    assert_eq!(
        warnings(&damaged("Bit[2..0]:", "Bit[2..0:")),
        [
            "t.md:20:5: warning: expected `Bit[hi..lo]` or `Bit[n]`: missing `]`: kept as description text with the codes under it"
        ]
    );
}

#[test]
fn code_wider_than_its_bit_range() {
    let text = damaged("0b001: two", "0b1000: two");
    assert_eq!(
        warnings(&text),
        [
            "t.md:22:7: warning: code `0b1000` does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide): kept as description text"
        ]
    );
    let size = &model(&text).fields[0].bitfields[0];
    assert_eq!(size.values.len(), 1);
    assert_eq!(size.description, "size\n- 0b1000: two");
}

#[test]
fn duplicate_code() {
    assert_eq!(
        warnings(&damaged("0b001: two", "0b000: two")),
        [
            "t.md:22:7: warning: duplicate code `0b000` in `Bit[2..0]` of field `Exec_size` (first at 21:7): kept as description text"
        ]
    );
}

#[test]
fn table_with_no_opcode_cell() {
    assert_eq!(
        warnings(&damaged(
            "| 0x10(OP_X) | Exec_size | Dst |",
            "| Exec_size | Dst |"
        )),
        [
            "t.md:9:3: warning: expected an opcode cell such as `0x4e(SVM)` at the start of the Format table, found `Exec_size` (the Opcode section gives the opcode)"
        ]
    );
}

#[test]
fn table_without_delimiter_row() {
    let text = damaged("| --- | --- | --- |\n", "");
    assert_eq!(
        warnings(&text),
        [
            "t.md:8:1: warning: no delimiter row such as `| --- | --- |` under the table header: the rows are read all the same"
        ]
    );
    assert_eq!(
        without_locs(&model(&text).fields),
        without_locs(&clean(BASE).fields)
    );
}

#[test]
fn a_second_delimiter_row_is_ignored() {
    let text = damaged(
        "| --- | --- | --- |\n",
        "| --- | --- | --- |\n| :-- | :-: | --: |\n",
    );
    assert_eq!(
        warnings(&text),
        ["t.md:9:1: warning: a second delimiter row in the Format table: ignored"]
    );
    assert_eq!(
        without_locs(&model(&text).formats[0].fields),
        without_locs(&clean(BASE).formats[0].fields)
    );
}

#[test]
fn a_field_name_cell_that_is_not_a_name_leaves_the_encoding_incomplete() {
    let text = damaged("| Exec_size | Dst |", "| Exec_size | **Dst** |");
    assert_eq!(
        warnings(&text),
        [
            "t.md:9:28: warning: `**Dst**` in the Format table is not a field name: the instruction's encoding is incomplete",
            "t.md:23:5: warning: field `Dst` is described but not in the Format table",
        ]
    );
    assert_eq!(model(&text).formats[0].unread_cells, [Loc::new(9, 28)]);
}

#[test]
fn unterminated_code_fence_is_reported_and_the_rest_still_parsed() {
    let parsed = parse(&damaged("<dst>\n```\n", "<dst>\n"));
    assert_eq!(
        messages(&parsed, Severity::Warning),
        [
            "t.md:29:1: warning: unterminated code fence: expected a closing ``` before the end of the file; the rest is read as text"
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
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let doc = parsed.document.unwrap();
    assert_eq!(doc.fields[1].description.lines().count(), 2001);
    let quotes = format!("{BASE}\n{}\n", ">".repeat(5000));
    assert!(parse(&quotes).document.is_some());
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
    let text = format!("{BASE}## Text\nOP_X\n");
    assert_eq!(
        warnings(&text),
        ["t.md:35:1: warning: duplicate `Text` section (first at 28:1): kept as text"]
    );
    let doc = model(&text);
    assert_eq!(doc.syntax.len(), 1);
    assert_eq!(doc.extra[0].section, "Text");
    assert_eq!(doc.extra[0].text, "OP_X");
}

#[test]
fn unknown_sections_are_kept_as_text() {
    let text = BASE.replace(
        "## Notes\n",
        "## Restrictions\n\n    Only on Tuesdays.\n\n### Empty\n\n## Notes\n",
    );
    assert_eq!(
        warnings(&text),
        [
            "t.md:32:1: warning: unknown section `Restrictions`: kept as text",
            "t.md:36:1: warning: unknown section `Empty`: ignored (it is empty)",
        ]
    );
    let doc = model(&text);
    assert_eq!(doc.extra.len(), 1);
    assert_eq!(
        (doc.extra[0].section.as_str(), doc.extra[0].text.as_str()),
        ("Restrictions", "Only on Tuesdays.")
    );
    assert_eq!(doc.extra[0].loc, Loc::new(34, 5));
    assert_eq!(doc.notes.unwrap().text, "None.");
}

#[test]
fn every_problem_of_a_file_is_reported() {
    let text = damaged("= 0x10", "= 0x10")
        .replace("0b000: one", "0b0q: one")
        .replace("Bit[2..0]", "Bit[1..3]")
        .replace("- **Dst(vec_operand):**", "- **Exec_size(ub):**");
    assert_eq!(
        warnings(&text),
        [
            "t.md:20:5: warning: bit range `Bit[1..3]` is reversed (the high bit comes first: `Bit[3..1]`): kept as description text with the codes under it",
            "t.md:23:5: warning: field `Exec_size` is described twice (first at 19:5): the second bullet and the items under it are kept as description text",
            "t.md:9:28: warning: field `Dst` of the Format table has no bullet (expected `- **Dst(type):** ...` in the Description section): its type is unknown",
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
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
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

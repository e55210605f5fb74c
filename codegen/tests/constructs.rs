//! One test per construct of the opcode documents, on small hand-written documents.

use visa_codegen::model::{
    Document, FieldType, PatternPiece, Platform, PlatformBound, Severity, SyntaxOperand,
    SyntaxSuffix, SyntaxTemplate,
};
use visa_codegen::parse_document;

/// Parses a document that must have no diagnostic.
fn parse_ok(text: &str) -> Document {
    let parsed = parse_document("t.md", text);
    let shown: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    assert!(shown.is_empty(), "unexpected diagnostics: {shown:#?}");
    parsed.document.expect("a document")
}

/// A document with the given Format rows (after the header) and Description body.
fn doc(opcode: &str, rows: &str, description: &str, text: &str) -> String {
    format!(
        "## Opcode\n\n  {opcode}\n\n## Format\n\n| | | |\n| --- | --- | --- |\n{rows}\n\n## Semantics\n\n    x = y;\n\n## Description\n\n    Does a thing.\n\n{description}\n\n## Text\n```\n{text}\n```\n"
    )
}

fn since(name: &str) -> Platform {
    Platform {
        name: name.to_string(),
        bound: PlatformBound::Since,
    }
}

#[test]
fn opcode_with_sub_operation_keeps_parent_first() {
    let text = doc(
        "SVM = 0x4e\n  GATHER = 0x03",
        "| 0x4e(SVM) | 0x03(GATHER) | Dst |",
        "- **Dst(raw_operand):** out",
        "SVM_GATHER <dst>",
    );
    let d = parse_ok(&text);
    let ops: Vec<(&str, u32)> = d
        .opcodes
        .iter()
        .map(|o| (o.name.as_str(), o.value))
        .collect();
    assert_eq!(ops, [("SVM", 0x4e), ("GATHER", 0x03)]);
    assert_eq!(d.full_name(), "SVM_GATHER");
    assert_eq!(d.formats[0].opcodes.len(), 2);
    assert_eq!(d.formats[0].opcodes[1].name, "GATHER");
    assert_eq!(d.line, 1);
}

#[test]
fn format_continuation_rows_and_optional_cells() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | A | B\\* |\n|  | C* | D |",
        "- **A(ub):** a\n- **B(uw):** b\n- **C(ud):** c\n- **D(d):** d",
        "OP <a>",
    );
    let d = parse_ok(&text);
    let cells: Vec<(&str, bool)> = d.formats[0]
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.optional))
        .collect();
    assert_eq!(
        cells,
        [("A", false), ("B", true), ("C", true), ("D", false)]
    );
    let types: Vec<&FieldType> = d.fields.iter().map(|f| &f.ty).collect();
    assert_eq!(
        types,
        [
            &FieldType::Ub,
            &FieldType::Uw,
            &FieldType::Ud,
            &FieldType::D
        ]
    );
    // Locations point at the cells: row 9 is the first body row.
    assert_eq!(
        (
            d.formats[0].fields[2].loc.line,
            d.formats[0].fields[2].loc.col
        ),
        (10, 6)
    );
}

#[test]
fn row_wider_than_header_keeps_every_cell() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | A | B | C | D |",
        "- **A(ub):** a\n- **B(ub):** b\n- **C(ub):** c\n- **D(ub):** d",
        "OP",
    );
    let d = parse_ok(&text);
    let names: Vec<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
}

#[test]
fn condition_tables_give_union_of_fields() {
    let text = "## Opcode\nOP = 0x89\n## Format\n\n### CONDITION\n\n- Sub=a, b\n\n| | |\n| --- | --- |\n| 0x89(OP) | Sub | X\\* |\n\n### CONDITION\n\n- Sub=c\n\n| | |\n| --- | --- |\n| 0x89(OP) | Sub | Y | X |\n\n## Semantics\n    x\n## Description\n- **Sub(ub):** s\n- **X(ub):** x\n- **Y(ub):** y\n## Text\nOP\n";
    let d = parse_ok(text);
    assert_eq!(d.formats.len(), 2);
    assert_eq!(d.formats[0].condition.as_deref(), Some("Sub=a, b"));
    assert_eq!(d.formats[1].condition.as_deref(), Some("Sub=c"));
    let names: Vec<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Sub", "X", "Y"]);
}

#[test]
fn field_bullet_types_classes_and_allowed_types() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Dst | Src | Off |",
        "- **Dst(vec_operand):** The result. Operand class: general,indirect\n- **Src(raw_operand):** Input. Must have type UD,D,F\n- **Off(scalar):** Offset. Valid values are [0-31]",
        "OP <dst>",
    );
    let d = parse_ok(&text);
    let dst = d.field("Dst").unwrap();
    assert_eq!(dst.ty, FieldType::VecOperand);
    assert_eq!(dst.operand_classes, ["general", "indirect"]);
    let src = d.field("Src").unwrap();
    let names: Vec<&str> = src.allowed_types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["UD", "D", "F"]);
    assert_eq!(d.field("Off").unwrap().range, Some((0, 31)));
}

#[test]
fn written_out_list_cells_are_one_list_field() {
    // The upstream layout: first, middle and last element, with one bullet per element.
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | N | Index | Label0 | LabelN | Label(N-1) |",
        "- **N(ub):** count\n- **Index(scalar):** which\n- **Label0(uw):** first\n- **LabelN(uw):** middle\n- **Label(N-1)(uw):** last",
        "OP <index> (Label0, Label1, ..., LabelN-1)",
    );
    let d = parse_ok(&text);
    let cells: Vec<(&str, Option<&str>)> = d.formats[0]
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.repeat.as_deref()))
        .collect();
    assert_eq!(cells, [("N", None), ("Index", None), ("Label", Some("N"))]);
    let names: Vec<&str> = d.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["N", "Index", "Label"],
        "element bullets fold into one"
    );
    assert_eq!(d.field("Label").unwrap().ty, FieldType::Uw);
    assert_eq!(d.field("Label").unwrap().description, "first");
    let t = d.syntax[0].template.as_ref().unwrap();
    assert_eq!(
        t.operands.last(),
        Some(&SyntaxOperand {
            name: "Label".into(),
            optional: false,
            list: true,
            pattern: Vec::new(),
        })
    );
    // Our own form: angle brackets, one bullet named like the list.
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Count | Item0 | Item(Count-1) |",
        "- **Count(ub):** count\n- **Item(ud):** the items",
        "OP (<Item0>, <Item1>, ...)",
    );
    let d = parse_ok(&text);
    assert_eq!(d.formats[0].fields[1].repeat.as_deref(), Some("Count"));
    assert_eq!(d.field("Item").unwrap().ty, FieldType::Ud);
}

#[test]
fn a_list_counted_by_no_earlier_field_leaves_the_encoding_incomplete() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Label0 | Label(N-1) | N |",
        "- **Label0(uw):** first\n- **N(ub):** count",
        "OP",
    );
    let parsed = parse_document("t.md", &text);
    let shown: Vec<String> = parsed.diagnostics.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "t.md:9:23: warning: the list `Label(N-1)` counts its elements with `N`, which is not an earlier field of the Format table: the instruction's encoding is incomplete"
        ]
    );
    // The model keeps the readable cells and marks the table incomplete.
    let doc = parsed.document.expect("a model");
    let cells: Vec<&str> = doc.formats[0]
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(cells, ["Label0", "N"]);
    assert_eq!(doc.formats[0].unread_cells.len(), 1);
}

#[test]
fn negative_and_dotted_ranges() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | A | B |",
        "- **A(ub):** Valid values are [-8-7]\n- **B(ub):** Must be in the range [1..32]",
        "OP",
    );
    let d = parse_ok(&text);
    assert_eq!(d.field("A").unwrap().range, Some((-8, 7)));
    assert_eq!(d.field("B").unwrap().range, Some((1, 32)));
}

#[test]
fn bitfields_with_codes_and_platforms() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Mode |",
        "- **Mode(ub):** mode\n  - Bit[2..0]: size\n    - 0b000:  one\n    - {XEHP+}0b100:  sixteen\n  - {TGLLP+}Bit[5]: flag\n  - Bit[7..6]: kind {PVC}\n    - 0b11: last",
        "OP",
    );
    let d = parse_ok(&text);
    let mode = d.field("Mode").unwrap();
    let bits: Vec<(u32, u32)> = mode.bitfields.iter().map(|b| (b.hi, b.lo)).collect();
    assert_eq!(bits, [(2, 0), (5, 5), (7, 6)]);
    assert_eq!(mode.bitfields[0].values[1].code, 4);
    assert_eq!(mode.bitfields[0].values[1].label, "sixteen");
    assert_eq!(mode.bitfields[0].values[1].platforms, [since("XEHP")]);
    assert_eq!(mode.bitfields[1].platforms, [since("TGLLP")]);
    assert_eq!(mode.bitfields[2].description, "kind");
    assert_eq!(
        mode.bitfields[2].platforms,
        [Platform {
            name: "PVC".into(),
            bound: PlatformBound::Only
        }]
    );
    assert_eq!(mode.bitfields[2].values[0].code, 3);
}

#[test]
fn value_lists_directly_under_a_field() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Cache | Kind |",
        "- **Cache(ub):** caching\n  - 0x0: default  (.df)\n  - 0x1: uncached {-XEHP}\n- **Kind(ub):** kind\n  - 3: three",
        "OP",
    );
    let d = parse_ok(&text);
    let cache = d.field("Cache").unwrap();
    assert!(cache.bitfields.is_empty());
    assert_eq!(cache.values.len(), 2);
    assert_eq!(cache.values[0].label, "default (.df)");
    assert_eq!(
        cache.values[1].platforms,
        [Platform {
            name: "XEHP".into(),
            bound: PlatformBound::Before
        }]
    );
    assert_eq!(d.field("Kind").unwrap().values[0].code, 3);
}

#[test]
fn flattened_nesting_is_inferred_from_text() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | A | B |",
        "- **A(ub):** a\n- Bit[1..0]: low\n- 0b00: zero\n- 0b01: one\n- Bit[3..2]: high\n- 0b10: two\n- **B(ub):** b\n- 0x1: plain",
        "OP",
    );
    let d = parse_ok(&text);
    let a = d.field("A").unwrap();
    assert_eq!(a.bitfields.len(), 2);
    assert_eq!(a.bitfields[0].values.len(), 2);
    assert_eq!(a.bitfields[1].values[0].code, 2);
    assert_eq!(d.field("B").unwrap().values[0].code, 1);
}

#[test]
fn bullet_inside_indented_code_block_is_still_a_field() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | Surface | Offset |",
        "- **Surface(ub):** surface\n\n                - T0 (SLM): yes\n      - **Offset(scalar):** The offset. Must have type UD",
        "OP",
    );
    let d = parse_ok(&text);
    assert_eq!(d.field("Offset").unwrap().ty, FieldType::Scalar);
    assert!(
        d.field("Surface")
            .unwrap()
            .description
            .contains("T0 (SLM): yes")
    );
}

#[test]
fn properties_with_platform_tails() {
    let text = format!(
        "{}\n#### Properties\n- **Supported Types:** B,D,F.{{XEHP+}}BF,HF\n- **Saturation:** Yes\n- **Out-of-bound Access:** On read: zeros are returned.\n",
        doc("OP = 0x10", "| 0x10(OP) | A |", "- **A(ub):** a", "OP")
    );
    let d = parse_ok(&text);
    assert_eq!(d.properties.len(), 3);
    let types: Vec<(&str, usize)> = d.properties[0]
        .types
        .iter()
        .map(|t| (t.name.as_str(), t.platforms.len()))
        .collect();
    assert_eq!(types, [("B", 0), ("D", 0), ("F", 0), ("BF", 1), ("HF", 1)]);
    assert_eq!(d.properties[2].key, "Out-of-bound Access");
    assert_eq!(d.properties[2].value, "On read: zeros are returned.");
}

#[test]
fn operand_type_maps() {
    let text = "## Opcode\nADD = 0x01\n## Format\n| | |\n| --- | --- |\n| 0x01(ADD) | Dst |\n## Semantics\n    x\n## Description\n- **Dst(vec_operand):** d\n#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD, D\n  -  **Src types:** UD\n- **Type map{XEHP+}**\n  -  **Dst types:** F, BF\n## Text\nADD <dst>\n";
    let d = parse_ok(text);
    assert_eq!(d.type_maps.len(), 2);
    assert!(d.type_maps[0].platforms.is_empty());
    assert_eq!(d.type_maps[0].entries[0].0, "Dst");
    assert_eq!(d.type_maps[0].entries[1].0, "Src");
    assert_eq!(d.type_maps[1].platforms, [since("XEHP")]);
    assert_eq!(d.type_maps[1].entries[0].1[1].name, "BF");
}

#[test]
fn semantics_description_and_notes_prose() {
    let text = "## Opcode\nOP = 0x10\n## Format\n| | |\n| --- | --- |\n| 0x10(OP) | A |\n## Semantics\n```\n\n        for (i = 0; i < n; ++i) {\n          d[i] = s[i];\n        }\n```\n## Description\n\n    Copies things.\n\n- **A(ub):** a\n## Text\nOP\n## Notes\n\n    Be careful.\n";
    let d = parse_ok(text);
    assert_eq!(
        d.semantics.as_ref().unwrap().text,
        "for (i = 0; i < n; ++i) {\n  d[i] = s[i];\n}"
    );
    assert_eq!(d.semantics.as_ref().unwrap().loc.line, 10);
    assert_eq!(d.description.as_ref().unwrap().text, "Copies things.");
    assert_eq!(d.notes.as_ref().unwrap().text, "Be careful.");
}

fn template(line: &str, fields: &[&str]) -> SyntaxTemplate {
    let rows = format!(
        "| 0x10(OP) | {} |",
        fields
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let bullets: Vec<String> = fields.iter().map(|f| format!("- **{f}(ub):** x")).collect();
    let text = doc("OP = 0x10", &rows, &bullets.join("\n"), line);
    let d = parse_ok(&text);
    d.syntax[0].template.clone().expect("a template")
}

fn field(name: &str) -> SyntaxSuffix {
    SyntaxSuffix::Field { name: name.into() }
}

fn operand(name: &str, optional: bool) -> SyntaxOperand {
    SyntaxOperand {
        name: name.into(),
        optional,
        list: false,
        pattern: Vec::new(),
    }
}

#[test]
fn syntax_predicate_optional_suffix_exec_size_operands() {
    let t = template(
        "[(<P>)] ADD[.sat] (<exec_size>) <dst> <src0> [<src1>]",
        &["Dst"],
    );
    assert!(t.predicate);
    assert_eq!(t.mnemonic, "ADD");
    assert_eq!(
        t.suffixes,
        [SyntaxSuffix::Optional {
            inner: Box::new(SyntaxSuffix::Literal { text: "sat".into() })
        }]
    );
    assert_eq!(t.exec_size.as_deref(), Some("exec_size"));
    assert_eq!(
        t.operands,
        [
            operand("dst", false),
            operand("src0", false),
            operand("src1", true)
        ]
    );
}

#[test]
fn syntax_field_suffixes_with_and_without_angle_brackets() {
    let t = template(
        "SVM_GATHER.<block_size>.<num_blocks> (<size>) <addresses>",
        &["X"],
    );
    assert_eq!(t.suffixes, [field("block_size"), field("num_blocks")]);
    assert_eq!(t.exec_size.as_deref(), Some("size"));
    let t = template("CMP.rel_op  (<exec_size>) <dst>", &["Rel_op"]);
    assert_eq!(t.suffixes, [field("rel_op")]);
    let t = template("LIFETIME.start <variable>", &["Properties"]);
    assert_eq!(
        t.suffixes,
        [SyntaxSuffix::Literal {
            text: "start".into()
        }]
    );
}

#[test]
fn syntax_alternatives() {
    let t = template("[(<P>)] {raw_send|raw_sendc} (<exec_size>) <Desc>", &["X"]);
    assert_eq!(t.mnemonics(), ["raw_send", "raw_sendc"]);
    let t = template("SVM_ATOMIC.<op>[.16|.64] (<exec_size>) <dst>", &["X"]);
    assert_eq!(
        t.suffixes,
        [
            field("op"),
            SyntaxSuffix::Optional {
                inner: Box::new(SyntaxSuffix::Alternatives {
                    options: vec!["16".into(), "64".into()]
                })
            }
        ]
    );
    let t = template("FENCE_{GLOBAL|LOCAL}.{a|b}", &["X"]);
    assert_eq!(t.mnemonics(), ["FENCE_GLOBAL", "FENCE_LOCAL"]);
    assert_eq!(
        t.suffixes,
        [SyntaxSuffix::Alternatives {
            options: vec!["a".into(), "b".into()]
        }]
    );
}

#[test]
fn syntax_comments_multi_line_statements_and_unparsable_lines() {
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | A |",
        "- **A(ub):** a",
        "    CMP.rel_op (<exec_size>) <a> // trailing\n    //rel_op is one of eq, ne\n    lsc_load.SFID [ .X ]\n            DstData : foo\n    MIN (<exec_size>) <a> |\n    MAX (<exec_size>) <a>",
    );
    let parsed = parse_document("t.md", &text);
    assert!(!parsed.has_errors());
    let d = parsed.document.unwrap();
    let texts: Vec<&str> = d.syntax.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "CMP.rel_op (<exec_size>) <a>",
            "lsc_load.SFID [ .X ]\nDstData : foo",
            "MIN (<exec_size>) <a>",
            "MAX (<exec_size>) <a>"
        ]
    );
    assert_eq!(
        d.syntax_comments,
        ["// trailing", "//rel_op is one of eq, ne"]
    );
    assert!(d.syntax[1].template.is_none());
    let warning = parsed
        .diagnostics
        .iter()
        .find(|w| w.severity == Severity::Warning)
        .unwrap();
    assert_eq!(warning.loc.line, d.syntax[1].loc.line);
    assert!(
        warning
            .message
            .starts_with("syntax statement kept as text only")
    );
    assert_eq!(d.syntax[2].template.as_ref().unwrap().mnemonic, "MIN");
}

#[test]
fn element_names_name_their_list() {
    use visa_codegen::model::list_of_element;
    for (element, list) in [
        ("Label0", Some("Label")),
        ("Label12", Some("Label")),
        ("LabelN", Some("Label")),
        ("LabelN-1", Some("Label")),
        ("Label", None),
        ("0", None),
        ("N", None),
    ] {
        assert_eq!(list_of_element(element), list, "{element}");
    }
}

#[test]
fn examples_are_code_blocks_with_the_prose_before_them() {
    let text = format!(
        "{}\n## Examples\n\nAdds one.\nTo every lane.\n\n```visaasm\n  add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:d\n```\n\n```\nnot (M1, 8) V(0,0)<1> V(0,0)<1;1,0>\n\nnot (M1, 8) V(0,0)<1> V(0,0)<1;1,0>\n```\n",
        doc("OP = 0x10", "| 0x10(OP) | A |", "- **A(ub):** a", "OP <a>")
    );
    let d = parse_ok(&text);
    assert_eq!(d.examples.len(), 2);
    let first = &d.examples[0];
    assert_eq!(first.caption, "Adds one. To every lane.");
    assert_eq!(first.code, "add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:d");
    assert_eq!(first.language, "visaasm");
    let line = text
        .lines()
        .position(|l| l.starts_with("  add"))
        .map(|i| i + 1)
        .unwrap();
    assert_eq!(
        (first.loc.line, first.loc.col),
        (u32::try_from(line).unwrap(), 3)
    );
    let second = &d.examples[1];
    assert_eq!(second.caption, "");
    assert_eq!(second.language, "");
    assert_eq!(
        second.code,
        "not (M1, 8) V(0,0)<1> V(0,0)<1;1,0>\n\nnot (M1, 8) V(0,0)<1> V(0,0)<1;1,0>"
    );
}

#[test]
fn a_document_without_examples_has_none_and_no_warning() {
    let d = parse_ok(&doc(
        "OP = 0x10",
        "| 0x10(OP) | A |",
        "- **A(ub):** a",
        "OP <a>",
    ));
    assert!(d.examples.is_empty());
}

#[test]
fn prose_after_the_last_example_and_empty_blocks_are_warned_about() {
    let text = format!(
        "{}\n## Examples\n\n```visaasm\n```\n\nFirst.\n\n```visaasm\nnop\n```\n\nDangling words.\n",
        doc("OP = 0x10", "| 0x10(OP) | A |", "- **A(ub):** a", "OP <a>")
    );
    let parsed = parse_document("t.md", &text);
    let messages: Vec<String> = parsed
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {}", d.loc.line, d.loc.col, d.message))
        .collect();
    let line_of = |needle: &str| text.lines().position(|l| l == needle).unwrap() + 1;
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].starts_with(&format!("{}:1 empty code block", line_of("```visaasm"))),
        "{messages:#?}"
    );
    assert!(
        messages[1].starts_with(&format!(
            "{}:1 text after the last",
            line_of("Dangling words.")
        )),
        "{messages:#?}"
    );
    let d = parsed.document.unwrap();
    assert_eq!(d.examples.len(), 1);
    assert_eq!(d.examples[0].caption, "First.");
    assert_eq!(d.examples[0].code, "nop");
    assert_eq!(d.extra.len(), 1);
    assert_eq!(d.extra[0].section, "Examples");
    assert_eq!(d.extra[0].text, "Dangling words.");
}

#[test]
fn composite_operands_nest_optional_groups_and_take_signed_decimal_numbers() {
    let t = template(
        r#"OP (<exec_size>) "["<U>[<UOff:+dec>][","<V>[","<R>]]"]""#,
        &["U", "UOff", "V", "R"],
    );
    let lit = |text: &str| PatternPiece::Literal { text: text.into() };
    let fld = |name: &str, style: Option<&str>| PatternPiece::Field {
        name: name.into(),
        style: style.map(String::from),
        default: None,
    };
    let opt = |pieces: Vec<PatternPiece>| PatternPiece::Optional { pieces };
    assert_eq!(
        t.operands[0].pattern,
        [
            lit("["),
            fld("U", None),
            opt(vec![fld("UOff", Some("+dec"))]),
            opt(vec![
                lit(","),
                fld("V", None),
                opt(vec![lit(","), fld("R", None)])
            ]),
            lit("]"),
        ]
    );
    // An unknown number style is a warning at the template, which is then kept as text.
    let text = doc(
        "OP = 0x10",
        "| 0x10(OP) | U |",
        "- **U(ub):** x",
        r#"OP (<exec_size>) "["<U:+oct>"]""#,
    );
    let parsed = parse_document("t.md", &text);
    let shown: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    assert!(
        shown
            .iter()
            .any(|d| d.contains("unknown number style `:+oct`") && d.contains(":+dec")),
        "{shown:#?}"
    );
}

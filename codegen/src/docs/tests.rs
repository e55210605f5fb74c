//! Unit tests of the docs helpers (layout, escaping, placeholders, categories).

use super::layout::{Offset, RowKind, layout};
use super::{category, text};
use crate::model::*;

fn loc() -> Loc {
    Loc::new(1, 1)
}

fn field(name: &str, ty: &str) -> Field {
    Field {
        name: name.into(),
        ty: FieldType::from_token(ty),
        description: String::new(),
        allowed_types: vec![],
        operand_classes: vec![],
        unwritten: None,
        bitfields: vec![],
        values: vec![],
        ranges: vec![],
        range: None,
        loc: loc(),
    }
}

fn document(opcodes: &[(&str, u32)], fields: Vec<Field>, properties: &[(&str, &str)]) -> Document {
    let opcodes: Vec<OpcodeDef> = opcodes
        .iter()
        .map(|(name, value)| OpcodeDef {
            name: (*name).into(),
            value: *value,
            loc: loc(),
        })
        .collect();
    Document {
        file: "t.md".into(),
        line: 1,
        formats: vec![FormatTable {
            condition: None,
            opcodes: opcodes.clone(),
            fields: fields
                .iter()
                .map(|f| FormatField {
                    name: f.name.clone(),
                    optional: false,
                    repeat: None,
                    loc: loc(),
                })
                .collect(),
            unread_cells: vec![],
            loc: loc(),
        }],
        opcodes,
        fields,
        properties: properties
            .iter()
            .map(|(k, v)| Property {
                key: (*k).into(),
                value: (*v).into(),
                types: vec![],
                loc: loc(),
                words: vec![],
            })
            .collect(),
        compiler_checks: Default::default(),
        type_maps: vec![],
        semantics: None,
        description: None,
        syntax: vec![],
        syntax_comments: vec![],
        notes: None,
        examples: vec![],
        extra: vec![],
    }
}

#[test]
fn offsets_are_fixed_until_the_first_variable_field() {
    let doc = document(
        &[("SVM", 0x4e), ("GATHER", 3)],
        vec![
            field("A", "ub"),
            field("B", "uw"),
            field("C", "ud"),
            field("D", "uq"),
            field("E", "raw_operand"),
            field("F", "ub"),
            field("G", "d"),
        ],
        &[],
    );
    let rows = layout(&doc, &doc.formats[0]);
    let shown: Vec<String> = rows.iter().map(|r| r.offset.to_string()).collect();
    assert_eq!(
        shown,
        ["0", "1", "2", "3", "5", "9", "17", "17+var", "18+var"]
    );
    let sizes: Vec<Option<u32>> = rows.iter().map(|r| r.size).collect();
    assert_eq!(
        sizes,
        [
            Some(1),
            Some(1),
            Some(1),
            Some(2),
            Some(4),
            Some(8),
            None,
            Some(1),
            Some(4)
        ]
    );
    assert_eq!(rows[1].kind, RowKind::Opcode { value: 3 });
    assert_eq!(
        rows[7].offset,
        Offset {
            fixed: 17,
            after_variable: true,
            after_optional: false,
        }
    );
}

#[test]
fn a_format_cell_without_a_field_bullet_has_variable_size() {
    let mut doc = document(&[("X", 1)], vec![field("A", "ub")], &[]);
    doc.formats[0].fields.insert(
        0,
        FormatField {
            name: "Ghost".into(),
            optional: true,
            repeat: None,
            loc: loc(),
        },
    );
    let rows = layout(&doc, &doc.formats[0]);
    assert_eq!(
        rows[1].kind,
        RowKind::Field {
            ty: None,
            optional: true
        }
    );
    assert_eq!(rows[1].offset.to_string(), "1");
    assert_eq!(rows[2].offset.to_string(), "1+var*");
}

#[test]
fn offsets_after_an_optional_field_are_marked() {
    let mut doc = document(
        &[("X", 1)],
        vec![field("A", "ub"), field("B", "uw"), field("C", "ub")],
        &[],
    );
    doc.formats[0].fields[0].optional = true;
    let rows = layout(&doc, &doc.formats[0]);
    let shown: Vec<String> = rows.iter().map(|r| r.offset.to_string()).collect();
    assert_eq!(shown, ["0", "1", "2*", "4*"]);
}

#[test]
fn markdown_inline_neutralises_markup_and_block_starts() {
    assert_eq!(
        text::markdown_inline("a*b_c [x](y) <i> | `t` #"),
        "a\\*b\\_c \\[x\\](y) \\<i\\> \\| \\`t\\` \\#"
    );
    assert_eq!(text::markdown_inline("- item"), "\\- item");
    assert_eq!(text::markdown_inline("12. item"), "12\\. item");
    assert_eq!(text::markdown_inline("a\nb"), "a b");
    assert_eq!(text::markdown_inline("0.5 - 1"), "0.5 - 1");
}

#[test]
fn markdown_fence_outlasts_backtick_runs() {
    assert_eq!(text::markdown_fence("x", ""), "```\nx\n```\n");
    assert_eq!(
        text::markdown_fence("a ```` b", "text"),
        "`````text\na ```` b\n`````\n"
    );
}

#[test]
fn html_escapes_all_five_characters() {
    assert_eq!(
        text::html("<a href='x'>&\"</a>"),
        "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
    );
}

#[test]
fn slugs_and_binary_codes() {
    assert_eq!(text::slug("../a b<c>"), "___a_b_c_");
    assert_eq!(text::slug(""), "_");
    assert_eq!(text::field_id("Num_blocks"), "field-Num_blocks");
    assert_eq!(text::binary(2, 3), "0b010");
    assert_eq!(text::binary(5, 0), "0b101");
    assert_eq!(text::hex(255), "0xff");
    assert_eq!(text::value_width([0, 1, 5]), 3);
    assert_eq!(text::value_width([0]), 1);
}

#[test]
fn syntax_placeholders_link_to_fields() {
    let doc = document(
        &[("CMP", 0x2c)],
        vec![
            field("Pred", "uw"),
            field("Rel_op", "ub"),
            field("Dst", "vec_operand"),
        ],
        &[],
    );
    let pieces = text::syntax_pieces("[(<P>)] CMP.rel_op (<n>) <dst>", &doc);
    let rendered: Vec<String> = pieces
        .iter()
        .map(|p| match p {
            text::SyntaxPiece::Text(t) => (*t).to_string(),
            text::SyntaxPiece::Field { text, field } => format!("{{{text}={}}}", field.name),
        })
        .collect();
    assert_eq!(
        rendered.concat(),
        "[({<P>=Pred})] CMP.{rel_op=Rel_op} (<n>) {<dst>=Dst}"
    );
}

#[test]
fn paragraphs_split_prose_from_preformatted_text() {
    let parts = text::paragraphs("One line\ncontinues.\n\n    code a\n      code b\n\nEnd.");
    assert_eq!(
        parts,
        [
            text::Paragraph::Prose("One line\ncontinues.".into()),
            text::Paragraph::Preformatted("code a\n  code b".into()),
            text::Paragraph::Prose("End.".into()),
        ]
    );
}

#[test]
fn categories_follow_the_document() {
    let dst = || vec![field("Dst", "vec_operand")];
    let cat =
        |fields, props: &[(&str, &str)]| category::category(&document(&[("X", 1)], fields, props));
    assert_eq!(cat(dst(), &[("Category", " Media ")]), "Media");
    assert_eq!(
        cat(dst(), &[("Out-of-bound Access", "zeros")]),
        category::MEMORY
    );
    assert_eq!(cat(vec![field("Surface", "ub")], &[]), category::MEMORY);
    assert_eq!(cat(vec![field("Label", "uw")], &[]), category::CONTROL_FLOW);
    assert_eq!(
        cat(dst(), &[("Source Modifier", "arithmetic")]),
        category::ARITHMETIC
    );
    assert_eq!(cat(dst(), &[("Source Modifier", "logic")]), category::LOGIC);
    assert_eq!(cat(dst(), &[("Saturation", "Yes")]), category::ARITHMETIC);
    assert_eq!(
        cat(dst(), &[("Source Modifier", "false")]),
        category::COMPUTATION
    );
    assert_eq!(cat(vec![], &[]), category::OTHER);
    let mut doc = document(&[("X", 1)], vec![], &[]);
    doc.description = Some(TextBlock {
        text: "Waits at a barrier.".into(),
        loc: loc(),
    });
    assert_eq!(category::category(&doc), category::SYNCHRONISATION);
}

#[test]
fn prose_keeps_code_spans() {
    assert_eq!(
        text::html_prose("a `<b>` c `open"),
        "a <code>&lt;b&gt;</code> c `open"
    );
    assert_eq!(
        text::markdown_prose("- x `a|b` *y*", false),
        "\\- x `a|b` \\*y\\*"
    );
    assert_eq!(text::markdown_prose("`a|b` | c", true), "`a\\|b` \\| c");
}

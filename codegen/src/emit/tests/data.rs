//! The table-data writer (`emit::data`) against the tools it stands in for: its string
//! literals are the ones `proc_macro2` writes, and its layout is prettyplease's, checked by
//! parsing its output with syn and printing that again with prettyplease (which must give the
//! same text), on hand-picked and on generated expressions.

use std::borrow::Cow;

use crate::emit::data::{self, Expr};
use proptest::prelude::*;

/// `static X: T = value;` as the writer writes it.
fn written(value: &Expr<'_>) -> String {
    let mut out = String::new();
    data::item(&mut out, &["A table."], "pub static X: &[T]", value);
    out
}

/// The same text after a syn + prettyplease round trip.
fn reformatted(text: &str) -> String {
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("does not parse: {e}\n{text}"));
    prettyplease::unparse(&file)
}

fn assert_prettyplease_layout(value: &Expr<'_>) {
    let text = written(value);
    assert_eq!(reformatted(&text), text);
}

fn binding(field: i64) -> Expr<'static> {
    Expr::Struct(
        "crate::desc::Binding",
        vec![("field", Expr::int(field)), ("bitfield", Expr::none())],
    )
}

#[test]
fn string_literals_are_escaped_as_proc_macro2_escapes_them() {
    for text in [
        "",
        "plain",
        "quote \" and 'apostrophe'",
        "back\\slash",
        "line\nbreak\ttab\rreturn",
        "nul\0 then nul\x007 then nul\x008",
        "é ü 漢字 🎉",
        "combining e\u{301} at\u{301}",
        "control \u{1} \u{7f} \u{200b}",
    ] {
        let mut ours = String::new();
        data::push_escaped(&mut ours, text);
        assert_eq!(
            ours,
            proc_macro2::Literal::string(text).to_string(),
            "{text:?}"
        );
        assert_eq!(data::escaped_len(text), ours.len(), "{text:?}");
    }
}

#[test]
fn a_table_row_is_laid_out_as_prettyplease_lays_it_out() {
    let long =
        "a description long enough that the struct literal holding it cannot stay on one line";
    let row = Expr::Struct(
        "crate::desc::SyntaxDesc",
        vec![
            ("text", Expr::str(long)),
            ("predicate", Expr::some(Expr::int(1_u8))),
            ("exec_size", Expr::some(binding(0))),
            (
                "suffixes",
                Expr::slice(vec![Expr::Call(
                    "crate::desc::SuffixDesc::Optional",
                    vec![Expr::Ref(Box::new(Expr::Call(
                        "crate::desc::SuffixDesc::Literal",
                        vec![Expr::str("sat")],
                    )))],
                )]),
            ),
            (
                "operands",
                Expr::slice(
                    (0..12_u8)
                        .map(|i| Expr::pair(Expr::int(i), Expr::bool(i % 2 == 0)))
                        .collect(),
                ),
            ),
            ("range", Expr::some(Expr::pair(Expr::int(-8), Expr::int(7)))),
            ("short", Expr::Struct("S", vec![("a", Expr::int(1_u8))])),
            ("bits", Expr::slice((0..40_u8).map(Expr::int).collect())),
            ("empty", Expr::slice(Vec::new())),
        ],
    );
    // Rows two levels down, as in the instruction table (fields inside an instruction).
    let group = Expr::Struct("crate::desc::Group", vec![("rows", Expr::slice(vec![row]))]);
    let table = Expr::slice(vec![group.clone(), group]);
    let text = written(&table);
    // The parts whose layout depends on width, as prettyplease writes them.
    for line in [
        "                predicate: Some(1),\n",
        "                exec_size: Some(crate::desc::Binding {\n                    field: 0,\n",
        // 90 columns on one line: broken.
        "                    crate::desc::SuffixDesc::Optional(\n                        &crate::desc::SuffixDesc::Literal(\"sat\"),\n                    ),\n",
        "                range: Some((-8, 7)),\n",
        "                short: S { a: 1 },\n",
        "                empty: &[],\n",
        "                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,\n",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
    assert!(text.starts_with("/// A table.\npub static X: &[T] = &[\n"));
    assert!(text.ends_with("    },\n];\n"));
    assert_prettyplease_layout(&table);
}

fn leaf() -> impl Strategy<Value = Expr<'static>> {
    prop_oneof![
        any::<i64>().prop_map(Expr::int),
        (0_u32..300).prop_map(Expr::int),
        any::<bool>().prop_map(Expr::bool),
        prop::sample::select(vec!["None", "x", "crate::desc::FieldKind::RawOperand"])
            .prop_map(Expr::path),
        "[a-z \"'\\\\\n\0-9é]{0,70}".prop_map(Expr::owned_str),
    ]
}

fn expr() -> impl Strategy<Value = Expr<'static>> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        let paths = prop::sample::select(vec!["Some", "f", "crate::desc::SuffixDesc::Optional"]);
        let structs = prop::sample::select(vec!["S", "crate::desc::Binding"]);
        let names = prop::sample::select(vec!["a", "field", "description"]);
        prop_oneof![
            inner.clone().prop_map(|e| Expr::Ref(Box::new(e))),
            prop::collection::vec(inner.clone(), 0..6).prop_map(Expr::Array),
            prop::collection::vec((0_u32..100).prop_map(Expr::int), 1..30).prop_map(Expr::Array),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::pair(a, b)),
            (paths, prop::collection::vec(inner.clone(), 0..4))
                .prop_map(|(path, args)| Expr::Call(path, args)),
            (structs, prop::collection::vec((names, inner), 0..4))
                .prop_map(|(path, fields)| Expr::Struct(path, fields)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_expression_is_laid_out_as_prettyplease_lays_it_out(value in expr()) {
        let text = written(&value);
        prop_assert_eq!(reformatted(&text), text);
    }

    #[test]
    fn any_string_is_escaped_as_proc_macro2_escapes_it(text in any::<String>()) {
        let mut ours = String::new();
        data::push_escaped(&mut ours, &text);
        prop_assert_eq!(&ours, &proc_macro2::Literal::string(&text).to_string());
        prop_assert_eq!(data::escaped_len(&text), ours.len());
    }
}

#[test]
fn borrowed_and_owned_strings_write_the_same_literal() {
    let owned = Expr::owned_str("x\"y".to_string());
    let borrowed = Expr::str("x\"y");
    assert_eq!(written(&owned), written(&borrowed));
    assert!(matches!(
        borrowed,
        Expr::Str {
            value: Cow::Borrowed(_),
            width: 6
        }
    ));
}

//! Emits `static INSTRUCTIONS: &[InstrDesc]`: the whole instruction table as static data, syntax
//! templates already bound to field indices. The table is written as text by [`data`] (in
//! prettyplease's layout) rather than as tokens: it is most of the generated code.

use crate::model::{CodeValue, Field, FieldType, Platform, PlatformBound, TypeName};

use super::data::{self, Expr};
use super::ir::{Binding, FieldModel, InstrModel, Lowered, Role, Suffix, SyntaxModel};
use super::names;

fn platforms(list: &[Platform]) -> Expr<'_> {
    Expr::slice(
        list.iter()
            .map(|p| {
                let bound = match p.bound {
                    PlatformBound::Since => "crate::desc::PlatformBound::Since",
                    PlatformBound::Before => "crate::desc::PlatformBound::Before",
                    PlatformBound::Only => "crate::desc::PlatformBound::Only",
                };
                Expr::Struct(
                    "crate::desc::PlatformDesc",
                    vec![("name", Expr::str(&p.name)), ("bound", Expr::path(bound))],
                )
            })
            .collect(),
    )
}

/// The `&[CodeDesc]` list of a field or bitfield (also the `CODES` constant of a field type).
pub(crate) fn codes(list: &[CodeValue]) -> Expr<'_> {
    Expr::slice(
        list.iter()
            .map(|c| {
                Expr::Struct(
                    "crate::desc::CodeDesc",
                    vec![
                        ("code", Expr::int(c.code)),
                        ("label", Expr::str(&c.label)),
                        ("text", Expr::owned_str(names::text_token(&c.label))),
                        ("platforms", platforms(&c.platforms)),
                    ],
                )
            })
            .collect(),
    )
}

fn types<'a>(list: impl IntoIterator<Item = &'a TypeName>) -> Expr<'a> {
    Expr::slice(
        list.into_iter()
            .map(|t| {
                Expr::Struct(
                    "crate::desc::TypeDesc",
                    vec![
                        ("name", Expr::str(&t.name)),
                        ("platforms", platforms(&t.platforms)),
                    ],
                )
            })
            .collect(),
    )
}

fn bitfields(field: &Field) -> Expr<'_> {
    Expr::slice(
        field
            .bitfields
            .iter()
            .map(|b| {
                Expr::Struct(
                    "crate::desc::BitFieldDesc",
                    vec![
                        ("hi", Expr::int(b.hi)),
                        ("lo", Expr::int(b.lo)),
                        ("description", Expr::str(b.description.trim())),
                        ("platforms", platforms(&b.platforms)),
                        ("codes", codes(&b.values)),
                    ],
                )
            })
            .collect(),
    )
}

fn kind(kind: &FieldType) -> &'static str {
    match kind {
        FieldType::Ub => "crate::desc::FieldKind::Ub",
        FieldType::Uw => "crate::desc::FieldKind::Uw",
        FieldType::Ud => "crate::desc::FieldKind::Ud",
        FieldType::D => "crate::desc::FieldKind::D",
        FieldType::Uq => "crate::desc::FieldKind::Uq",
        FieldType::Scalar => "crate::desc::FieldKind::Scalar",
        FieldType::VecOperand => "crate::desc::FieldKind::VecOperand",
        FieldType::RawOperand => "crate::desc::FieldKind::RawOperand",
        FieldType::Other(_) => "crate::desc::FieldKind::Other",
    }
}

fn role(role: Role) -> &'static str {
    match role {
        Role::Value => "crate::desc::FieldRole::Value",
        Role::Predicate => "crate::desc::FieldRole::Predicate",
        Role::ExecSize => "crate::desc::FieldRole::ExecSize",
        Role::Operand => "crate::desc::FieldRole::Operand",
        Role::Reference => "crate::desc::FieldRole::Reference",
    }
}

fn field<'a>(field: &'a FieldModel<'_>) -> Expr<'a> {
    let empty = || Expr::slice(Vec::new());
    let (description, allowed, classes, bits, values, range) = match field.bullet {
        Some(b) => (
            Expr::str(b.description.trim()),
            types(&b.allowed_types),
            Expr::slice(b.operand_classes.iter().map(|c| Expr::str(c)).collect()),
            bitfields(b),
            codes(&b.values),
            Expr::option(b.range, |(lo, hi)| Expr::pair(Expr::int(lo), Expr::int(hi))),
        ),
        None => (
            Expr::str(""),
            empty(),
            empty(),
            empty(),
            empty(),
            Expr::none(),
        ),
    };
    Expr::Struct(
        "crate::desc::FieldDesc",
        vec![
            ("name", Expr::str(&field.name)),
            ("kind", Expr::path(kind(&field.kind))),
            ("role", Expr::path(role(field.role))),
            ("optional", Expr::bool(field.optional)),
            ("description", description),
            ("allowed_types", allowed),
            ("operand_classes", classes),
            ("bitfields", bits),
            ("values", values),
            ("range", range),
            (
                "repeat",
                Expr::option(field.repeat, |i| Expr::int(i as u64)),
            ),
        ],
    )
}

fn binding(b: Binding) -> Expr<'static> {
    Expr::Struct(
        "crate::desc::Binding",
        vec![
            ("field", Expr::int(b.field as u64)),
            (
                "bitfield",
                Expr::option(b.bitfield, |j| Expr::int(j as u64)),
            ),
        ],
    )
}

fn suffix(s: &Suffix) -> Expr<'_> {
    match s {
        Suffix::Field(b) => Expr::Call("crate::desc::SuffixDesc::Field", vec![binding(*b)]),
        Suffix::Literal(text) => {
            Expr::Call("crate::desc::SuffixDesc::Literal", vec![Expr::str(text)])
        }
        Suffix::Flag { text, binding: b } => Expr::Struct(
            "crate::desc::SuffixDesc::Flag",
            vec![("text", Expr::str(text)), ("binding", binding(*b))],
        ),
        Suffix::Optional(inner) => Expr::Call(
            "crate::desc::SuffixDesc::Optional",
            vec![Expr::Ref(Box::new(suffix(inner)))],
        ),
        Suffix::Alternatives(options) => Expr::Call(
            "crate::desc::SuffixDesc::Alternatives",
            vec![Expr::slice(options.iter().map(|o| Expr::str(o)).collect())],
        ),
        Suffix::Sets {
            text,
            binding: b,
            code,
        } => Expr::Struct(
            "crate::desc::SuffixDesc::Sets",
            vec![
                ("text", Expr::str(text)),
                ("binding", binding(*b)),
                ("code", Expr::int(*code)),
            ],
        ),
        Suffix::Hex { prefix, binding: b } => Expr::Struct(
            "crate::desc::SuffixDesc::Hex",
            vec![("prefix", Expr::str(prefix)), ("binding", binding(*b))],
        ),
        Suffix::Letters(letters) => Expr::Call(
            "crate::desc::SuffixDesc::Letters",
            vec![Expr::slice(
                letters
                    .iter()
                    .map(|(letter, b)| Expr::pair(Expr::str(letter), binding(*b)))
                    .collect(),
            )],
        ),
    }
}

fn syntax(s: &SyntaxModel) -> Expr<'_> {
    Expr::Struct(
        "crate::desc::SyntaxDesc",
        vec![
            ("text", Expr::str(&s.text)),
            ("mnemonic", Expr::str(&s.mnemonic)),
            (
                "predicate",
                Expr::option(s.predicate, |p| Expr::int(p as u64)),
            ),
            (
                "suffixes",
                Expr::slice(s.suffixes.iter().map(suffix).collect()),
            ),
            ("exec_size", Expr::option(s.exec_size, binding)),
            (
                "operands",
                Expr::slice(
                    s.operands
                        .iter()
                        .map(|&(f, optional)| Expr::pair(Expr::int(f as u64), Expr::bool(optional)))
                        .collect(),
                ),
            ),
            (
                "mnemonic_sets",
                Expr::option(s.mnemonic_sets, |(b, code)| {
                    Expr::pair(binding(b), Expr::int(code))
                }),
            ),
        ],
    )
}

fn instr<'a>(instr: &'a InstrModel<'_>) -> Expr<'a> {
    let doc = instr.doc;
    let properties = doc
        .properties
        .iter()
        .map(|p| Expr::pair(Expr::str(&p.key), Expr::str(p.value.trim())))
        .collect();
    let supported = types(doc.properties.iter().flat_map(|p| p.types.iter()));
    let type_maps = doc
        .type_maps
        .iter()
        .map(|m| {
            let entries = m
                .entries
                .iter()
                .map(|(role, list)| Expr::pair(Expr::str(role), types(list)))
                .collect();
            Expr::Struct(
                "crate::desc::TypeMapDesc",
                vec![
                    ("platforms", platforms(&m.platforms)),
                    ("entries", Expr::slice(entries)),
                ],
            )
        })
        .collect();
    let description = doc.description.as_ref().map_or("", |d| d.text.trim());
    let semantics = doc.semantics.as_ref().map_or("", |d| d.text.trim());
    let source = std::path::Path::new(&doc.file)
        .file_name()
        .map_or_else(|| doc.file.clone(), |n| n.to_string_lossy().into_owned());
    Expr::Struct(
        "crate::desc::InstrDesc",
        vec![
            ("name", Expr::str(&instr.name)),
            ("opcode", Expr::int(instr.opcode)),
            ("subop", Expr::option(instr.subop, Expr::int)),
            (
                "fields",
                Expr::slice(instr.fields.iter().map(field).collect()),
            ),
            (
                "syntax",
                Expr::slice(instr.syntax.iter().map(syntax).collect()),
            ),
            ("properties", Expr::slice(properties)),
            ("supported_types", supported),
            ("type_maps", Expr::slice(type_maps)),
            ("description", Expr::str(description)),
            ("semantics", Expr::str(semantics)),
            ("source", Expr::owned_str(source)),
        ],
    )
}

/// The text of `tables.rs` after the header line.
pub fn emit(lowered: &Lowered<'_>) -> String {
    let table = Expr::slice(lowered.instrs.iter().map(instr).collect());
    let mut out = String::new();
    data::item(
        &mut out,
        &[
            "The instruction table: one entry per opcode document, in [`Opcode`] order, with its",
            "Format fields (encoding order), codes, bound syntax templates and properties.",
        ],
        "pub static INSTRUCTIONS: &[crate::desc::InstrDesc]",
        &table,
    );
    out
}

//! Emits `static INSTRUCTIONS: &[InstrDesc]`: the whole instruction table as static data, syntax
//! templates already bound to field indices. The table is written as text by [`data`] (in
//! prettyplease's layout) rather than as tokens: it is most of the generated code.
//!
//! Sub-tables that several entries have in common (a code list such as the execution-size
//! codes, a list of sub-fields, a type list, a whole field descriptor) are written once, as
//! named private items the entries refer to, as iced-x86 shares its tables: a `static` for a
//! slice, a `const` for a field descriptor (held by value). A sub-table used once stays inline.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::model::{
    CheckKind, CodeValue, Enforce, Field, FieldType, Platform, PlatformBound, TypeName,
};

use super::data::{self, Expr};
use super::ir::{
    Binding, FieldModel, InstrModel, LayoutModel, Lowered, NumberStyle, Piece, Role, RuleModel,
    Suffix, SyntaxModel, TestModel,
};
use super::names;

/// A sub-table given a name: written as its own item when the table uses it more than once.
struct Interned<'a> {
    name: String,
    ty: &'static str,
    value: Option<Expr<'a>>,
    uses: usize,
}

/// The sub-tables of the table, by content (their one-line text).
#[derive(Default)]
struct Interner<'a> {
    items: Vec<Interned<'a>>,
    by_text: HashMap<String, usize>,
    by_name: HashMap<String, usize>,
    /// How many sub-tables wanted each name (later ones get a number).
    wanted: HashMap<String, usize>,
}

impl<'a> Interner<'a> {
    /// A reference to `value` (of type `ty`) by the name of its item; `name` is the name it gets
    /// if it is the first with this content. Empty lists stay inline.
    fn intern(&mut self, ty: &'static str, name: &str, value: Expr<'a>) -> Expr<'a> {
        if matches!(&value, Expr::Ref(inner) if matches!(&**inner, Expr::Array(items) if items.is_empty()))
        {
            return value;
        }
        let text = data::flat_text(&value);
        let index = match self.by_text.get(&text) {
            Some(&index) => {
                // This copy is dropped: what it refers to loses a use.
                self.release(&value);
                index
            }
            None => {
                let count = self.wanted.entry(name.to_string()).or_default();
                *count += 1;
                let name = if *count == 1 {
                    name.to_string()
                } else {
                    format!("{name}_{count}")
                };
                self.items.push(Interned {
                    name,
                    ty,
                    value: Some(value),
                    uses: 0,
                });
                let index = self.items.len() - 1;
                self.by_text.insert(text, index);
                self.by_name.insert(self.items[index].name.clone(), index);
                index
            }
        };
        let item = &mut self.items[index];
        item.uses += 1;
        Expr::Atom(item.name.clone().into())
    }

    /// Takes back the uses of the items `expr` refers to.
    fn release(&mut self, expr: &Expr<'a>) {
        match expr {
            Expr::Atom(name) => {
                if let Some(&index) = self.by_name.get(name.as_ref()) {
                    self.items[index].uses -= 1;
                }
            }
            Expr::Ref(inner) => self.release(inner),
            Expr::Array(items) | Expr::Call(_, items) => items.iter().for_each(|e| self.release(e)),
            Expr::Pair(pair) => pair.iter().for_each(|e| self.release(e)),
            Expr::Struct(_, fields) => fields.iter().for_each(|(_, e)| self.release(e)),
            Expr::Lit(_) | Expr::Str { .. } => {}
        }
    }

    /// Puts the sub-tables used once back in place (in `table` and in the shared items) and
    /// returns the shared ones, in the order they were first met.
    fn finish(mut self, table: Expr<'a>) -> (Vec<Interned<'a>>, Expr<'a>) {
        let mut single: HashMap<String, Expr<'a>> = HashMap::new();
        // An item's value names only items met before it: resolving in order is enough.
        for item in &mut self.items {
            let value = item.value.take().map(|v| inline(v, &mut single));
            if item.uses == 1 {
                if let Some(value) = value {
                    single.insert(item.name.clone(), value);
                }
            } else {
                item.value = value;
            }
        }
        let table = inline(table, &mut single);
        let shared = self.items.into_iter().filter(|i| i.uses > 1).collect();
        (shared, table)
    }
}

/// `expr` with every reference to a single-use item replaced by that item's value.
fn inline<'a>(expr: Expr<'a>, single: &mut HashMap<String, Expr<'a>>) -> Expr<'a> {
    match expr {
        Expr::Atom(name) => match single.remove(name.as_ref()) {
            Some(value) => value,
            None => Expr::Atom(name),
        },
        Expr::Ref(inner) => Expr::Ref(Box::new(inline(*inner, single))),
        Expr::Array(items) => Expr::Array(items.into_iter().map(|e| inline(e, single)).collect()),
        Expr::Pair(pair) => {
            let [a, b] = *pair;
            Expr::pair(inline(a, single), inline(b, single))
        }
        Expr::Call(path, args) => {
            Expr::Call(path, args.into_iter().map(|e| inline(e, single)).collect())
        }
        Expr::Struct(path, fields) => Expr::Struct(
            path,
            fields
                .into_iter()
                .map(|(name, value)| (name, inline(value, single)))
                .collect(),
        ),
        other => other,
    }
}

/// An item name from document names: `Exec_size` + `size` -> `EXEC_SIZE_SIZE`.
fn item_name(parts: &[&str]) -> String {
    let joined: Vec<String> = parts
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| names::member_ident(p, "x"))
        .collect();
    let name = joined.join("_").to_ascii_uppercase();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{name}")
    } else {
        name
    }
}

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
                        (
                            "also",
                            Expr::slice(
                                names::text_spellings(&c.label)
                                    .into_iter()
                                    .skip(1)
                                    .map(Expr::owned_str)
                                    .collect(),
                            ),
                        ),
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

fn bitfields<'a>(field: &'a Field, shared: &mut Interner<'a>) -> Expr<'a> {
    let list = field
        .bitfields
        .iter()
        .map(|b| {
            let sub = names::subfield_name(&b.description);
            let name = item_name(&[&field.name, &sub, "codes"]);
            let codes = shared.intern("&[crate::desc::CodeDesc]", &name, codes(&b.values));
            Expr::Struct(
                "crate::desc::BitFieldDesc",
                vec![
                    ("hi", Expr::int(b.hi)),
                    ("lo", Expr::int(b.lo)),
                    ("description", Expr::str(b.description.trim())),
                    ("platforms", platforms(&b.platforms)),
                    ("codes", codes),
                ],
            )
        })
        .collect();
    let name = item_name(&[&field.name, "bitfields"]);
    shared.intern("&[crate::desc::BitFieldDesc]", &name, Expr::slice(list))
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

/// The `&[OperandClass]` list of a field: each word's variant, or `Other("word")`.
fn classes<'a>(list: &'a [String], vocabulary: &BTreeMap<String, String>) -> Expr<'a> {
    Expr::slice(
        list.iter()
            .map(|c| match super::classes::path(vocabulary, c) {
                Ok(path) => Expr::Atom(Cow::Owned(path)),
                Err(word) => Expr::Call("crate::OperandClass::Other", vec![Expr::owned_str(word)]),
            })
            .collect(),
    )
}

fn field<'a>(
    field: &'a FieldModel<'_>,
    shared: &mut Interner<'a>,
    vocabulary: &BTreeMap<String, String>,
) -> Expr<'a> {
    let empty = || Expr::slice(Vec::new());
    let (description, allowed, classes, bits, values, range) = match field.bullet {
        Some(b) => (
            Expr::str(b.description.trim()),
            shared.intern(
                "&[crate::desc::TypeDesc]",
                &item_name(&[&field.name, "types"]),
                types(&b.allowed_types),
            ),
            classes(&b.operand_classes, vocabulary),
            bitfields(b, shared),
            shared.intern(
                "&[crate::desc::CodeDesc]",
                &item_name(&[&field.name, "values"]),
                codes(&b.values),
            ),
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
    let value = Expr::Struct(
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
            ("unwritten", Expr::int(field.unwritten)),
            (
                "repeat",
                Expr::option(field.repeat, |i| Expr::int(i as u64)),
            ),
        ],
    );
    let name = item_name(&[&field.name, "field"]);
    shared.intern("crate::desc::FieldDesc", &name, value)
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
            (
                "layout",
                Expr::slice(s.layout.iter().map(|slot| pieces(slot)).collect()),
            ),
        ],
    )
}

fn pieces(pieces: &[Piece]) -> Expr<'_> {
    Expr::slice(
        pieces
            .iter()
            .map(|piece| match piece {
                Piece::Literal(text) => {
                    Expr::Call("crate::desc::PieceDesc::Literal", vec![Expr::str(text)])
                }
                Piece::Optional(inner) => Expr::Call(
                    "crate::desc::PieceDesc::Optional",
                    vec![self::pieces(inner)],
                ),
                Piece::Field {
                    binding: b,
                    style,
                    default,
                } => Expr::Struct(
                    "crate::desc::PieceDesc::Field",
                    vec![
                        ("binding", binding(*b)),
                        (
                            "style",
                            Expr::path(match style {
                                NumberStyle::Decimal => "crate::desc::NumberStyle::Decimal",
                                NumberStyle::Hex => "crate::desc::NumberStyle::Hex",
                                NumberStyle::SignedHex => "crate::desc::NumberStyle::SignedHex",
                                NumberStyle::SignedDecimal => {
                                    "crate::desc::NumberStyle::SignedDecimal"
                                }
                            }),
                        ),
                        ("default", Expr::option(*default, Expr::int)),
                    ],
                ),
            })
            .collect(),
    )
}

/// Type names as a `&[&str]` list.
fn names<'a>(list: &'a [String]) -> Expr<'a> {
    Expr::slice(list.iter().map(|n| Expr::str(n)).collect())
}

fn enforce(e: &Enforce) -> Expr<'_> {
    match e {
        Enforce::SupportedTypes => Expr::path("crate::desc::Enforce::SupportedTypes"),
        Enforce::TypeMaps => Expr::path("crate::desc::Enforce::TypeMaps"),
        Enforce::IntegerOperands => Expr::path("crate::desc::Enforce::IntegerOperands"),
        Enforce::SaturationNeedsFloatDestination => {
            Expr::path("crate::desc::Enforce::SaturationNeedsFloatDestination")
        }
        Enforce::NoSourceModifiers => Expr::path("crate::desc::Enforce::NoSourceModifiers"),
        Enforce::NoArithmeticSourceModifiers => {
            Expr::path("crate::desc::Enforce::NoArithmeticSourceModifiers")
        }
        Enforce::OneFloatType => Expr::path("crate::desc::Enforce::OneFloatType"),
        Enforce::NoMaskForDstTypes(types) => Expr::Call(
            "crate::desc::Enforce::NoMaskForDstTypes",
            vec![names(types)],
        ),
        Enforce::DstTypesNotOn { types, platforms } => Expr::Struct(
            "crate::desc::Enforce::DstTypesNotOn",
            vec![
                ("types", names(types)),
                ("platforms", self::names(platforms)),
            ],
        ),
    }
}

fn test(t: &TestModel) -> Expr<'_> {
    let field = || Expr::int(t.field.unwrap_or(0) as u64);
    match &t.kind {
        CheckKind::In(tokens) => Expr::Struct(
            "crate::desc::RuleTest::In",
            vec![("field", field()), ("tokens", names(tokens))],
        ),
        CheckKind::NotIn(tokens) => Expr::Struct(
            "crate::desc::RuleTest::NotIn",
            vec![("field", field()), ("tokens", names(tokens))],
        ),
        CheckKind::HasType(types) => Expr::Struct(
            "crate::desc::RuleTest::HasType",
            vec![("field", field()), ("types", names(types))],
        ),
        CheckKind::IsNull => {
            Expr::Struct("crate::desc::RuleTest::IsNull", vec![("field", field())])
        }
        CheckKind::NotNull => {
            Expr::Struct("crate::desc::RuleTest::NotNull", vec![("field", field())])
        }
        CheckKind::AtMost(bound) => Expr::Struct(
            "crate::desc::RuleTest::AtMost",
            vec![("field", field()), ("bound", Expr::int(*bound))],
        ),
        CheckKind::Platform { listed, negated } => Expr::Struct(
            "crate::desc::RuleTest::Platform",
            vec![
                ("listed", platforms(listed)),
                ("negated", Expr::bool(*negated)),
            ],
        ),
    }
}

fn layout(l: &LayoutModel) -> Expr<'_> {
    let when = l
        .when
        .iter()
        .map(|t| {
            Expr::Struct(
                "crate::desc::LayoutTest",
                vec![
                    ("field", Expr::int(t.field as u64)),
                    ("mask", Expr::int(t.mask)),
                    (
                        "values",
                        Expr::slice(t.values.iter().map(|&v| Expr::int(v)).collect()),
                    ),
                ],
            )
        })
        .collect();
    let cells = l
        .cells
        .iter()
        .map(|c| {
            Expr::Struct(
                "crate::desc::LayoutCell",
                vec![
                    ("field", Expr::int(c.field as u64)),
                    ("optional", Expr::bool(c.optional)),
                ],
            )
        })
        .collect();
    Expr::Struct(
        "crate::desc::LayoutDesc",
        vec![("when", Expr::slice(when)), ("cells", Expr::slice(cells))],
    )
}

fn rule(r: &RuleModel) -> Expr<'_> {
    Expr::Struct(
        "crate::desc::CheckRule",
        vec![
            ("test", test(&r.test)),
            ("when", Expr::slice(r.when.iter().map(test).collect())),
            ("when_text", Expr::str(&r.when_text)),
        ],
    )
}

fn instr<'a>(
    instr: &'a InstrModel<'_>,
    shared: &mut Interner<'a>,
    vocabulary: &BTreeMap<String, String>,
) -> Expr<'a> {
    let doc = instr.doc;
    let properties = doc
        .properties
        .iter()
        .map(|p| Expr::pair(Expr::str(&p.key), Expr::str(p.value.trim())))
        .collect();
    let supported = shared.intern(
        "&[crate::desc::TypeDesc]",
        "SUPPORTED_TYPES",
        types(doc.properties.iter().flat_map(|p| p.types.iter())),
    );
    let type_maps = doc
        .type_maps
        .iter()
        .map(|m| {
            let entries = m
                .entries
                .iter()
                .map(|(role, list)| {
                    let name = item_name(&[role, "types"]);
                    let list = shared.intern("&[crate::desc::TypeDesc]", &name, types(list));
                    Expr::pair(Expr::str(role), list)
                })
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
                Expr::slice(
                    instr
                        .fields
                        .iter()
                        .map(|f| field(f, shared, vocabulary))
                        .collect(),
                ),
            ),
            (
                "syntax",
                Expr::slice(instr.syntax.iter().map(syntax).collect()),
            ),
            ("properties", Expr::slice(properties)),
            ("supported_types", supported),
            ("type_maps", Expr::slice(type_maps)),
            (
                "enforces",
                Expr::slice(instr.enforces.iter().map(enforce).collect()),
            ),
            ("rules", Expr::slice(instr.rules.iter().map(rule).collect())),
            (
                "layouts",
                Expr::slice(instr.layouts.iter().map(layout).collect()),
            ),
            ("description", Expr::str(description)),
            ("semantics", Expr::str(semantics)),
            ("source", Expr::owned_str(source)),
        ],
    )
}

/// The text of `tables.rs` after the header line.
pub fn emit(lowered: &Lowered<'_>) -> String {
    let mut shared = Interner::default();
    let vocabulary = super::classes::vocabulary(lowered);
    let entries = lowered
        .instrs
        .iter()
        .map(|i| instr(i, &mut shared, &vocabulary))
        .collect();
    let (shared, table) = shared.finish(Expr::slice(entries));
    let mut out = String::new();
    for item in &shared {
        let Some(value) = &item.value else { continue };
        let doc = format!("Shared by {} places of [`INSTRUCTIONS`].", item.uses);
        let keyword = if item.ty.starts_with('&') {
            "static"
        } else {
            "const"
        };
        let declaration = format!("{keyword} {}: {}", item.name, item.ty);
        data::item(&mut out, &[&doc], &declaration, value);
    }
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

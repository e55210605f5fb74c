//! The intermediate representation the emitters print: instructions with their fields
//! classified, syntax templates bound to fields, and the generated bitfield types. [`super::lower`]
//! builds it (with [`super::bind`] for the multi-placeholder binding rules and [`super::types`]
//! for the bitfield types); the emitters only read it. This module depends on the document model
//! only, so every pass and emitter can use it without depending on another.

use crate::model::{
    CheckKind, CodeValue, Diagnostic, Document, Enforce, Field, FieldType, Platform,
};

use super::names;

/// A placeholder's target: a field, or one `Bit[..]` sub-field of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub field: usize,
    pub bitfield: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Suffix {
    Field(Binding),
    Literal(String),
    Flag {
        text: String,
        binding: Binding,
    },
    Optional(Box<Suffix>),
    Alternatives(Vec<String>),
    /// A literal suffix selecting a code of an otherwise unbound (sub-)field.
    Sets {
        text: String,
        binding: Binding,
        code: u64,
    },
    /// A literal prefix glued to a field value written in hex (`.x[BooleanFuncCtrl]`).
    Hex {
        prefix: String,
        binding: Binding,
    },
    /// The letters of set one-bit flags, concatenated in this order.
    Letters(Vec<(String, Binding)>),
}

/// A syntax template with its placeholders bound.
#[derive(Debug, Clone)]
pub struct SyntaxModel {
    pub text: String,
    pub mnemonic: String,
    pub predicate: Option<usize>,
    pub suffixes: Vec<Suffix>,
    pub exec_size: Option<Binding>,
    pub operands: Vec<(usize, bool)>,
    pub mnemonic_sets: Option<(Binding, u64)>,
    /// When the template has a composite operand: every operand slot as its pieces (a plain
    /// placeholder is one piece); `operands` then lists the operand fields the pieces write.
    pub layout: Vec<Vec<Piece>>,
}

/// How a number in a composite operand is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberStyle {
    Decimal,
    Hex,
    SignedHex,
    SignedDecimal,
}

/// A resolved piece of a composite operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Literal(String),
    Field {
        binding: Binding,
        style: NumberStyle,
        default: Option<u64>,
    },
    Optional(Vec<Piece>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Value,
    Predicate,
    ExecSize,
    Operand,
    Reference,
}

/// How the typed instruction struct holds a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// A plain integer of the field's width.
    Int,
    /// A generated code enum (index into [`Lowered::code_types`]).
    Code(usize),
    /// A generated per-field struct (index into [`Lowered::composites`]).
    Composite(usize),
    /// `ast::Operand`.
    Operand,
    /// `Option<ast::Predicate>`.
    Predicate,
    /// `ast::FieldValue` (a type token without a defined encoding).
    Raw,
}

#[derive(Debug, Clone)]
pub struct FieldModel<'a> {
    pub name: String,
    pub member: String,
    pub kind: FieldType,
    pub optional: bool,
    pub bullet: Option<&'a Field>,
    pub role: Role,
    pub typing: Typing,
    /// A list field: the index of the field that holds its length.
    pub repeat: Option<usize>,
    /// The value a template that does not write the field gives it ("Unwritten value: ...").
    pub unwritten: u64,
}

impl FieldModel<'_> {
    /// Width in bits for integer kinds.
    pub fn width(&self) -> Option<u32> {
        width_of(&self.kind)
    }
}

pub fn width_of(kind: &FieldType) -> Option<u32> {
    match kind {
        FieldType::Ub => Some(8),
        FieldType::Uw => Some(16),
        FieldType::Ud | FieldType::D => Some(32),
        FieldType::Uq => Some(64),
        _ => None,
    }
}

#[derive(Debug, Clone)]
pub struct InstrModel<'a> {
    pub doc: &'a Document,
    pub name: String,
    pub ident: String,
    pub opcode: u8,
    pub subop: Option<u8>,
    pub fields: Vec<FieldModel<'a>>,
    pub syntax: Vec<SyntaxModel>,
    /// Some template accepts `[.sat]`.
    pub saturates: bool,
    /// The `Compiler checks` phrases, in the order written.
    pub enforces: Vec<Enforce>,
    /// The `Compiler checks` code rules whose fields and codes resolved.
    pub rules: Vec<RuleModel>,
    /// The binary layouts of the conditional Format tables (empty: one layout, the fields).
    pub layouts: Vec<LayoutModel>,
}

/// A conditional Format table: its condition and its cells.
#[derive(Debug, Clone)]
pub struct LayoutModel {
    pub when: Vec<LayoutTestModel>,
    pub cells: Vec<LayoutCellModel>,
}

/// A test of a layout's condition: `(value & mask)` is one of `values`.
#[derive(Debug, Clone)]
pub struct LayoutTestModel {
    pub field: usize,
    pub mask: u64,
    pub values: Vec<u64>,
}

/// A cell of a layout: a field (index into [`InstrModel::fields`]), `*` in this table or not.
#[derive(Debug, Clone, Copy)]
pub struct LayoutCellModel {
    pub field: usize,
    pub optional: bool,
}

/// A code rule of `Compiler checks` with its fields resolved.
#[derive(Debug, Clone)]
pub struct RuleModel {
    pub test: TestModel,
    pub when: Vec<TestModel>,
    /// The conditions as written (messages quote them).
    pub when_text: String,
}

/// One test of a code rule: the field (index into [`InstrModel::fields`]; `None` for a
/// `platform` test) and what it asks.
#[derive(Debug, Clone)]
pub struct TestModel {
    pub field: Option<usize>,
    pub kind: CheckKind,
}

pub struct Lowered<'a> {
    pub instrs: Vec<InstrModel<'a>>,
    pub code_types: Vec<CodeType>,
    pub composites: Vec<Composite>,
    pub warnings: Vec<Diagnostic>,
}

/// A generated enum over the documented codes of a sub-field (or of a whole field).
#[derive(Debug, Clone)]
pub struct CodeType {
    pub ident: String,
    pub field_name: String,
    pub hi: u32,
    pub lo: u32,
    /// The codes cover the whole field (a value list, not a `Bit[..]`).
    pub whole: bool,
    pub description: String,
    pub platforms: Vec<Platform>,
    pub codes: Vec<CodeValue>,
    pub variants: Vec<String>,
    /// Instructions using this type.
    pub users: Vec<String>,
}

/// What a member of a per-field struct holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemberType {
    Code(usize),
    /// A sub-field without listed codes: its raw value.
    Raw,
}

#[derive(Debug, Clone)]
pub struct Member {
    pub ident: String,
    pub hi: u32,
    pub lo: u32,
    pub ty: MemberType,
}

/// A generated struct for a field with several sub-fields (`ExecSize { size, mask }`).
#[derive(Debug, Clone)]
pub struct Composite {
    pub ident: String,
    pub field_name: String,
    pub width: u32,
    pub members: Vec<Member>,
    pub users: Vec<String>,
}

/// The codes reachable through a binding.
pub(crate) fn codes_of<'a>(fields: &'a [FieldModel<'_>], binding: Binding) -> &'a [CodeValue] {
    let Some(field) = fields.get(binding.field).and_then(|f| f.bullet) else {
        return &[];
    };
    match binding.bitfield {
        Some(j) => field.bitfields.get(j).map_or(&[], |b| b.values.as_slice()),
        None => &field.values,
    }
}

/// Every binding that has codes: whole fields with value lists and sub-fields.
pub(crate) fn coded_bindings(fields: &[FieldModel<'_>]) -> Vec<(Binding, u32)> {
    let mut out = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let Some(bullet) = field.bullet else { continue };
        if !bullet.values.is_empty() {
            let width = field.width().unwrap_or(1);
            out.push((
                Binding {
                    field: i,
                    bitfield: None,
                },
                width,
            ));
        }
        for (j, bitfield) in bullet.bitfields.iter().enumerate() {
            let width = bitfield.hi.saturating_sub(bitfield.lo) + 1;
            out.push((
                Binding {
                    field: i,
                    bitfield: Some(j),
                },
                width,
            ));
        }
    }
    out
}

pub(crate) fn find_token(fields: &[FieldModel<'_>], binding: Binding, token: &str) -> Option<u64> {
    codes_of(fields, binding)
        .iter()
        .find(|c| names::text_token(&c.label) == token)
        .map(|c| c.code)
}

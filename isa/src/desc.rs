//! Types of the static instruction table. The build step (`visa-codegen`) emits one
//! [`InstrDesc`] per opcode document in `spec/` as static data; every tool (assembler, formatter,
//! codec, checker, macro, runtime loader) reads the table instead of hard-coding instructions.

/// How a field is stored in the binary encoding and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKind {
    Ub,
    Uw,
    Ud,
    D,
    Uq,
    Scalar,
    VecOperand,
    RawOperand,
    /// A type token the documents use that has no defined encoding (e.g. `unknown`).
    Other,
}

/// A platform restriction (`{XEHP+}`, `{-XEHP}`, `{XEHP}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlatformDesc {
    pub name: &'static str,
    pub bound: PlatformBound,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlatformBound {
    Since,
    Before,
    Only,
}

/// One documented code of a bitfield or value list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDesc {
    pub code: u64,
    /// The document's label, e.g. `4 elements`, `EQ - equal to`.
    pub label: &'static str,
    /// The token the assembly writes for this code (first word of the label, lower-cased).
    pub text: &'static str,
    pub platforms: &'static [PlatformDesc],
}

/// A `Bit[hi..lo]` sub-field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitFieldDesc {
    pub hi: u32,
    pub lo: u32,
    pub description: &'static str,
    pub platforms: &'static [PlatformDesc],
    pub codes: &'static [CodeDesc],
}

impl BitFieldDesc {
    /// Mask of this sub-field in its (unshifted) field value.
    pub const fn mask(&self) -> u64 {
        let width = self.hi - self.lo + 1;
        let ones = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        ones << self.lo
    }
}

/// An element type name with platform tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeDesc {
    pub name: &'static str,
    pub platforms: &'static [PlatformDesc],
}

/// One field of the Format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDesc {
    pub name: &'static str,
    pub kind: FieldKind,
    /// Written with `*` in the Format table.
    pub optional: bool,
    pub description: &'static str,
    /// "Must have type ..." (upper-case type names as documented).
    pub allowed_types: &'static [TypeDesc],
    /// "Operand class: ..."
    pub operand_classes: &'static [&'static str],
    pub bitfields: &'static [BitFieldDesc],
    pub values: &'static [CodeDesc],
    pub range: Option<(i64, i64)>,
}

/// A `Type map` of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeMapDesc {
    pub platforms: &'static [PlatformDesc],
    pub entries: &'static [(&'static str, &'static [TypeDesc])],
}

/// A suffix element of a syntax template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuffixDesc {
    /// Prints the value of the field with this index.
    Field(usize),
    /// A literal suffix (`.sat` is carried by [`crate::ast::Instruction::saturate`]).
    Literal(&'static str),
    /// An optional suffix.
    Optional(&'static SuffixDesc),
    /// One of these literal suffixes.
    Alternatives(&'static [&'static str]),
}

/// A syntax template from the Text section, with placeholders resolved to field indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxDesc {
    /// The line as the document writes it.
    pub text: &'static str,
    /// Lower-case mnemonic.
    pub mnemonic: &'static str,
    /// Index of the predicate field when `[(<P>)]` is allowed.
    pub predicate: Option<usize>,
    pub suffixes: &'static [SuffixDesc],
    /// Index of the field inside the parentheses (`(<exec_size>)`, `(<size>)`).
    pub exec_size: Option<usize>,
    /// Operand slots: field index and whether the slot is optional.
    pub operands: &'static [(usize, bool)],
}

/// One instruction of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstrDesc {
    /// Full name, sub-operations joined with `_`: `SVM_GATHER`.
    pub name: &'static str,
    /// Primary opcode value.
    pub opcode: u8,
    /// Sub-operation value, when the opcode has sub-operations.
    pub subop: Option<u8>,
    pub fields: &'static [FieldDesc],
    pub syntax: &'static [SyntaxDesc],
    /// `#### Properties` as (key, value) pairs.
    pub properties: &'static [(&'static str, &'static str)],
    /// Parsed `Supported Types`.
    pub supported_types: &'static [TypeDesc],
    pub type_maps: &'static [TypeMapDesc],
    pub description: &'static str,
    pub semantics: &'static str,
    /// The spec document this entry was generated from.
    pub source: &'static str,
}

impl InstrDesc {
    pub fn property(&self, key: &str) -> Option<&'static str> {
        self.properties
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| *v)
    }

    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
    }
}

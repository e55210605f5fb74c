//! Types of the static instruction table. The build step (`visa-codegen`) emits one
//! [`InstrDesc`] per opcode document in `spec/` as static data; every tool (assembler, formatter,
//! codec, checker, macro, runtime loader) reads the table instead of hard-coding instructions.

pub use crate::OperandClass;

impl OperandClass {
    /// Whether a field listing this class takes an operand of class `form` (the class of what
    /// is written, see `text`'s checker): the same class, or an immediate for a sized immediate
    /// class (`immediate16`).
    pub fn accepts(self, form: OperandClass) -> bool {
        self == form || form == OperandClass::Immediate && self.word().starts_with("immediate")
    }
}

/// How a field is stored in the binary encoding and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// `ub`: one unsigned byte.
    Ub,
    /// `uw`: one unsigned 16-bit word.
    Uw,
    /// `ud`: one unsigned 32-bit dword.
    Ud,
    /// `d`: one signed 32-bit dword.
    D,
    /// `uq`: one unsigned 64-bit qword.
    Uq,
    /// `scalar`: a vector operand of which only the first element is used.
    Scalar,
    /// `vec_operand`: a vector operand.
    VecOperand,
    /// `raw_operand`: a raw operand (variable and byte offset).
    RawOperand,
    /// A type token the documents use that has no defined encoding (e.g. `unknown`).
    Other,
}

/// A platform restriction (`{XEHP+}`, `{-XEHP}`, `{XEHP}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlatformDesc {
    /// The platform name as written (`XEHP`).
    pub name: &'static str,
    /// Which platforms the tag selects.
    pub bound: PlatformBound,
}

/// Which platforms a platform tag selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlatformBound {
    /// `{NAME+}`: this platform and later ones.
    Since,
    /// `{-NAME}`: platforms before this one.
    Before,
    /// `{NAME}`: this platform only.
    Only,
}

/// One documented code of a bitfield or value list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDesc {
    /// The code value (within its sub-field, not shifted).
    pub code: u64,
    /// The document's label, e.g. `4 elements`, `EQ - equal to`.
    pub label: &'static str,
    /// The token the assembly writes for this code (first word of the label, lower-cased; of a
    /// first word `a|b|c`, the first spelling).
    pub text: &'static str,
    /// Further spellings the parser reads for this code (`b`, `c` of a first word `a|b|c`): the
    /// compiler's lexer takes them; the printer writes the first spelling as the label writes
    /// it (`RGBA` of `RGBA|rgba`), a code with one spelling as `text`.
    pub also: &'static [&'static str],
    /// Platform restrictions of this code (empty: every platform).
    pub platforms: &'static [PlatformDesc],
}

impl CodeDesc {
    /// Whether `word` is one of this code's spellings (case-insensitive).
    pub fn is_written(&self, word: &str) -> bool {
        self.spellings().any(|s| s.eq_ignore_ascii_case(word))
    }

    /// The printed token, then the other spellings.
    pub fn spellings(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.text).chain(self.also.iter().copied())
    }
}

/// A `Bit[hi..lo]` sub-field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitFieldDesc {
    /// Highest bit.
    pub hi: u32,
    /// Lowest bit.
    pub lo: u32,
    /// The document's description of the sub-field.
    pub description: &'static str,
    /// Platform restrictions of the sub-field.
    pub platforms: &'static [PlatformDesc],
    /// The documented codes.
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
    /// The type name as documented (upper-case).
    pub name: &'static str,
    /// Platform restrictions.
    pub platforms: &'static [PlatformDesc],
}

/// What a field holds, as the generator classified it (see `brief/syntax-conventions.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldRole {
    /// A plain integer or a coded value (bitfields, value lists).
    Value,
    /// The predicate field (`Pred`, bound by `[(<P>)]`): [`crate::ast::FieldValue::Pred`].
    Predicate,
    /// The execution-size field (size sub-field `Bit[2..0]` and mask sub-field `Bit[7..4]`):
    /// [`crate::ast::FieldValue::Exec`].
    ExecSize,
    /// A `scalar`, `vec_operand` or `raw_operand` field: [`crate::ast::FieldValue::Operand`].
    Operand,
    /// An integer field that a syntax template binds to an operand placeholder (`<surface>`,
    /// `<label>`): written as a bare name ([`crate::ast::Operand::Name`]), stored as an index.
    Reference,
}

/// One field of the Format table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldDesc {
    /// The field name as the Format table writes it.
    pub name: &'static str,
    /// The storage type.
    pub kind: FieldKind,
    /// How the field's value is represented in [`crate::ast::FieldValue`].
    pub role: FieldRole,
    /// Written with `*` in the Format table.
    pub optional: bool,
    /// The field's description.
    pub description: &'static str,
    /// "Must have type ..." (upper-case type names as documented).
    pub allowed_types: &'static [TypeDesc],
    /// "Operand class: ..." (empty: any class).
    pub operand_classes: &'static [OperandClass],
    /// `Bit[..]` sub-fields.
    pub bitfields: &'static [BitFieldDesc],
    /// Codes listed for the whole field (when it has no sub-fields).
    pub values: &'static [CodeDesc],
    /// A documented value range.
    pub range: Option<(i64, i64)>,
    /// A list field: the index (in [`InstrDesc::fields`]) of the earlier field that holds its
    /// length. The value is then a [`crate::ast::FieldValue::List`], encoded as its elements
    /// back to back, each of [`FieldDesc::kind`].
    pub repeat: Option<usize>,
    /// The value an assembly template that does not write the field gives it (the bullet's
    /// `Unwritten value:`; 0 without).
    pub unwritten: u64,
}

impl FieldDesc {
    /// The value the field takes when the assembly does not write it: an empty list, no
    /// predicate, one lane, no operand, or the field's unwritten value (0 unless the bullet
    /// names one).
    pub fn unwritten_value(&self) -> crate::ast::FieldValue {
        use crate::ast::{ExecSize, FieldValue};
        if self.repeat.is_some() {
            return FieldValue::List(Vec::new());
        }
        match self.role {
            FieldRole::Predicate => FieldValue::Pred(None),
            FieldRole::ExecSize => FieldValue::Exec(ExecSize {
                size: 1,
                mask_offset: 0,
                no_mask: false,
                mask_written: true,
            }),
            FieldRole::Operand => FieldValue::Absent,
            FieldRole::Value | FieldRole::Reference => FieldValue::Int(self.unwritten),
        }
    }

    /// Whether the field's `Operand class:` list names `class`.
    pub fn has_class(&self, class: OperandClass) -> bool {
        self.operand_classes.contains(&class)
    }
}

impl FieldKind {
    /// Size in bytes of an integer field in the binary encoding (`None` for operands).
    pub const fn int_size(self) -> Option<usize> {
        match self {
            Self::Ub => Some(1),
            Self::Uw => Some(2),
            Self::Ud | Self::D => Some(4),
            Self::Uq => Some(8),
            Self::Scalar | Self::VecOperand | Self::RawOperand | Self::Other => None,
        }
    }

    /// Width in bits of an integer field (`None` for operands).
    pub const fn bits(self) -> Option<u32> {
        match self.int_size() {
            Some(n) => Some(n as u32 * 8),
            None => None,
        }
    }
}

/// A `Type map` of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeMapDesc {
    /// Platforms the map applies to.
    pub platforms: &'static [PlatformDesc],
    /// Operand role (`Dst`, `Src`) -> allowed types.
    pub entries: &'static [(&'static str, &'static [TypeDesc])],
}

/// What a syntax placeholder stands for: a whole field, or one `Bit[..]` sub-field of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding {
    /// Index into [`InstrDesc::fields`].
    pub field: usize,
    /// Index into that field's [`FieldDesc::bitfields`], when the placeholder names a sub-field.
    pub bitfield: Option<usize>,
}

/// A suffix element of a syntax template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuffixDesc {
    /// Prints the value of the bound field or sub-field (its code's text token).
    Field(Binding),
    /// A literal suffix (`.sat` is carried by [`crate::ast::Instruction::saturate`]).
    Literal(&'static str),
    /// An optional literal flag suffix `[.word]` that sets a one-bit sub-field to the code whose
    /// text token is `word` (absent: code 0).
    Flag {
        /// The word, lower-case.
        text: &'static str,
        /// The one-bit sub-field (or field) it sets.
        binding: Binding,
    },
    /// A literal suffix equal to the text token of a code of a (sub-)field the template does not
    /// otherwise bind (`nbarrier.wait`, `lifetime.start`): writing it selects that code, and the
    /// formatter prints the template whose selected codes match the instruction.
    Sets {
        /// The word, lower-case.
        text: &'static str,
        /// The (sub-)field it sets.
        binding: Binding,
        /// The code it selects.
        code: u64,
    },
    /// A literal prefix glued to a field value printed in lower-case hexadecimal without `0x`
    /// (BFN's `.x<BooleanFuncCtrl>`, written `bfn.xd8`).
    Hex {
        /// The literal prefix, lower-case.
        prefix: &'static str,
        /// The (sub-)field printed in hex.
        binding: Binding,
    },
    /// One suffix made of the letters of the set one-bit flags, in this order
    /// (`fence_global.ER`); absent when no flag is set.
    Letters(&'static [(&'static str, Binding)]),
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
    /// Suffixes after the mnemonic, in order.
    pub suffixes: &'static [SuffixDesc],
    /// What the parenthesised placeholder binds (`(<exec_size>)`, `(<size>)`).
    pub exec_size: Option<Binding>,
    /// Operand slots: field index and whether the slot is optional.
    pub operands: &'static [(usize, bool)],
    /// When the mnemonic itself selects a code (`MIN`/`MAX` of MIN_MAX): the binding and code.
    pub mnemonic_sets: Option<(Binding, u64)>,
    /// Templates with a composite operand (`<DstData>":"<DataSize>`, spec/README.md): every
    /// operand slot as its pieces, in order, and `operands` lists the operand fields they write.
    /// Empty for the other templates, whose slots are `operands`.
    pub layout: &'static [&'static [PieceDesc]],
}

/// How a number inside a composite operand is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberStyle {
    /// Decimal (`16`).
    Decimal,
    /// Upper-case hexadecimal with `0x` (`0x1F`); decimal is read too.
    Hex,
    /// A signed value always written with its sign, in hexadecimal (`+0x100`, `-0x10`).
    SignedHex,
    /// A signed value always written with its sign, in decimal (`+4`, `-2`).
    SignedDecimal,
}

/// One piece of a composite operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceDesc {
    /// Text written as it is (`:`, `[`, `x`).
    Literal(&'static str),
    /// A field: an operand for operand fields, a code token for coded fields, else a number.
    Field {
        /// The (sub-)field.
        binding: Binding,
        /// How a number is written.
        style: NumberStyle,
        /// Inside an optional group: the value when the group is left out (else 0, or absent
        /// for operands).
        default: Option<u64>,
    },
    /// Pieces written together or left out together; left out when every field in it holds its
    /// left-out value.
    Optional(&'static [PieceDesc]),
}

/// A fixed phrase of a document's `Compiler checks` property (spec/README.md), parsed by the
/// generator: a rule of the document the compiler's verifier enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enforce {
    /// `supported types`: every vector operand has one of the supported types.
    SupportedTypes,
    /// `type maps`: the operand types fit one of the type maps.
    TypeMaps,
    /// `integer operands`: every operand has an integer type (packed integer immediates and
    /// BOOL included).
    IntegerOperands,
    /// `saturation only with a float destination`.
    SaturationNeedsFloatDestination,
    /// `no source modifiers`.
    NoSourceModifiers,
    /// `no arithmetic source modifiers` (`(-)`, `(abs)`, `(-abs)`).
    NoArithmeticSourceModifiers,
    /// `one float type`: with an F, HF or DF destination or source, every source has the
    /// destination's type, except F with HF or VF sources and HF with F sources; otherwise every
    /// source is an integer or a V/UV immediate. Not checked when an operand is BF.
    OneFloatType,
    /// `NoMask for dst types T, U`: a destination of one of these types needs a NoMask mask
    /// control (upper-case type names).
    NoMaskForDstTypes(&'static [&'static str]),
    /// `dst types T, U not on P, Q`: a destination of one of these types is rejected on these
    /// platforms (when a platform is named).
    DstTypesNotOn {
        /// Upper-case type names.
        types: &'static [&'static str],
        /// Platform names as written.
        platforms: &'static [&'static str],
    },
}

/// A code rule of a document's `Compiler checks` property: `test` must hold when every
/// condition of `when` holds. A test whose value is not known (an absent operand, an
/// undeclared variable, no platform named) neither breaks a rule nor meets a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckRule {
    /// What must hold.
    pub test: RuleTest,
    /// The conditions (all must hold); empty: always.
    pub when: &'static [RuleTest],
    /// The conditions as the document writes them (messages quote them).
    pub when_text: &'static str,
}

/// One test of a [`CheckRule`]; `field` indexes [`InstrDesc::fields`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleTest {
    /// `Field in A, B`: the field's token (code token, execution size, or decimal value) is
    /// listed; a listed `prefix*` matches every token so starting.
    In {
        /// The field.
        field: usize,
        /// The tokens as written.
        tokens: &'static [&'static str],
    },
    /// `Field not in A, B`.
    NotIn {
        /// The field.
        field: usize,
        /// The tokens as written.
        tokens: &'static [&'static str],
    },
    /// `Field has type T, U`: the declared type of the operand's variable (`%null` exempt).
    HasType {
        /// The field.
        field: usize,
        /// Upper-case type names.
        types: &'static [&'static str],
    },
    /// `Field is %null`.
    IsNull {
        /// The field.
        field: usize,
    },
    /// `Field is not %null`.
    NotNull {
        /// The field.
        field: usize,
    },
    /// `Field at most N`: a bound on a number field.
    AtMost {
        /// The field.
        field: usize,
        /// The largest value allowed.
        bound: u64,
    },
    /// `platform in P, Q+, -R` (`negated`: `platform not in ...`): the platform named.
    Platform {
        /// The platforms, names as written.
        listed: &'static [PlatformDesc],
        /// `not in`.
        negated: bool,
    },
}

impl RuleTest {
    /// The field the test is about (`None` for a platform test).
    pub const fn field(&self) -> Option<usize> {
        match *self {
            Self::In { field, .. }
            | Self::NotIn { field, .. }
            | Self::HasType { field, .. }
            | Self::IsNull { field }
            | Self::NotNull { field }
            | Self::AtMost { field, .. } => Some(field),
            Self::Platform { .. } => None,
        }
    }
}

/// One binary layout of an instruction: a conditional Format table. An instruction whose fields
/// meet every test of `when` is written as `cells`, one after the other, without presence bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutDesc {
    /// The condition: every test must hold.
    pub when: &'static [LayoutTest],
    /// The table's cells in encoding order.
    pub cells: &'static [LayoutCell],
}

/// A test of a layout's condition: the field's value, masked, is one of `values`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutTest {
    /// The field (index into [`InstrDesc::fields`]); it holds an integer.
    pub field: usize,
    /// The bits tested (a sub-field's, or every bit).
    pub mask: u64,
    /// The values allowed, masked.
    pub values: &'static [u64],
}

/// A cell of a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutCell {
    /// The field (index into [`InstrDesc::fields`]). A field named a second time in one table
    /// is written again, the same value: the reader checks that both agree.
    pub field: usize,
    /// Written `Name*` in this table: the field may be left out, and is then written as its
    /// kind's zero (the raw operand `%null`, the immediate `0:ud`, an integer's unwritten
    /// value); those bytes read back as left out.
    pub optional: bool,
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
    /// The Format table's fields in encoding order.
    pub fields: &'static [FieldDesc],
    /// The Text section's templates, bound to fields.
    pub syntax: &'static [SyntaxDesc],
    /// `#### Properties` as (key, value) pairs.
    pub properties: &'static [(&'static str, &'static str)],
    /// Parsed `Supported Types`.
    pub supported_types: &'static [TypeDesc],
    /// `#### Operand type maps`.
    pub type_maps: &'static [TypeMapDesc],
    /// The fixed phrases of the `Compiler checks` property: document rules the Intel
    /// compiler's verifier enforces (errors rather than warnings naming the document).
    pub enforces: &'static [Enforce],
    /// The code rules of the `Compiler checks` property.
    pub rules: &'static [CheckRule],
    /// The binary layouts of the document's conditional Format tables (`### CONDITION`), in
    /// order; empty when the instruction has one layout, [`InstrDesc::fields`] with presence
    /// bytes for the optional ones (see [`crate::codec`]).
    pub layouts: &'static [LayoutDesc],
    /// The Description section.
    pub description: &'static str,
    /// The Semantics section.
    pub semantics: &'static str,
    /// The spec document this entry was generated from.
    pub source: &'static str,
}

impl InstrDesc {
    /// Whether the document's `Compiler checks` property lists the phrase.
    pub fn enforces(&self, phrase: Enforce) -> bool {
        self.enforces.contains(&phrase)
    }

    /// The value of a `#### Properties` entry (key in any case).
    pub fn property(&self, key: &str) -> Option<&'static str> {
        self.properties
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| *v)
    }

    /// The index of a field (name in any case).
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
    }
}

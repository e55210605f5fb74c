//! The typed model of one vISA opcode document.
//!
//! Every node that came from the text remembers where (`Loc`: 1-based line and column in its
//! document), so that later stages (emitters, the CLI, the macro) can point back at the source.
//! The model is plain data (serde-serialisable); the parser in [`crate::parse`] builds it and the
//! emitters in [`crate::emit`] read it.

use serde::Serialize;

/// A position in a document: 1-based line and column (column counted in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Loc {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

impl Loc {
    /// The position at `line`, `col` (both 1-based).
    pub const fn new(line: u32, col: u32) -> Self {
        Self { line, col }
    }
}

/// A platform restriction written as `{XEHP+}` (this platform and later), `{-XEHP}` (before this
/// platform) or `{XEHP}` (this platform only).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Platform {
    /// The platform name as written, e.g. `XEHP`, `ICLLP`.
    pub name: String,
    /// Which platforms the tag covers relative to `name`.
    pub bound: PlatformBound,
}

/// How a platform tag bounds the platforms it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlatformBound {
    /// `{NAME+}`: this platform and every later one.
    Since,
    /// `{-NAME}`: every platform before this one.
    Before,
    /// `{NAME}`: this platform only.
    Only,
}

/// One opcode (or sub-operation) declared in the `## Opcode` section, e.g. `SVM = 0x4e` followed by
/// `GATHER = 0x03`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpcodeDef {
    /// The opcode name as declared (`SVM`, `GATHER`).
    pub name: String,
    /// The opcode byte.
    pub value: u32,
    /// Where the name is written.
    pub loc: Loc,
}

/// The type token of a field bullet, `- **Name(type):**`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
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
    /// `scalar`: a scalar operand (vector operand whose region is ignored).
    Scalar,
    /// `vec_operand`: a vector operand (general, indirect, immediate, predicate, address, state ...).
    VecOperand,
    /// `raw_operand`: a raw operand (variable + byte offset).
    RawOperand,
    /// `state_operand`/surface-like operands and other tokens the documents use: kept verbatim.
    Other(String),
}

impl FieldType {
    /// Parses a type token as written in a field bullet (case-insensitive).
    pub fn from_token(token: &str) -> Self {
        match token.trim().to_ascii_lowercase().as_str() {
            "ub" => Self::Ub,
            "uw" => Self::Uw,
            "ud" => Self::Ud,
            "d" => Self::D,
            "uq" => Self::Uq,
            "scalar" => Self::Scalar,
            "vec_operand" => Self::VecOperand,
            "raw_operand" => Self::RawOperand,
            other => Self::Other(other.to_string()),
        }
    }

    /// The token as the documents write it.
    pub fn token(&self) -> &str {
        match self {
            Self::Ub => "ub",
            Self::Uw => "uw",
            Self::Ud => "ud",
            Self::D => "d",
            Self::Uq => "uq",
            Self::Scalar => "scalar",
            Self::VecOperand => "vec_operand",
            Self::RawOperand => "raw_operand",
            Self::Other(s) => s,
        }
    }
}

/// The list a written-out element name belongs to: `Label0`, `Label1`, `LabelN` and `LabelN-1`
/// give `Label`; `None` when the name ends in no element index. (The Format table's last cell,
/// `Label(Num_labels-1)`, also names its count and is read by the Format table parser.)
pub fn list_of_element(name: &str) -> Option<&str> {
    let base = match name.strip_suffix("N-1").or_else(|| name.strip_suffix('N')) {
        Some(base) => base,
        None => name.trim_end_matches(|c: char| c.is_ascii_digit()),
    };
    (!base.is_empty() && base.len() < name.len()).then_some(base)
}

/// A cell of the Format table that names a field (opcode cells and blank cells are not fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatField {
    /// The field name as written in the cell (`*` and list indices removed).
    pub name: String,
    /// Written as `Name\*` or `Name*`: present only under a condition.
    pub optional: bool,
    /// A list field: the cells `Name0 | NameN | Name(Count-1)` stand for `Count` elements of one
    /// field `Name`, where `Count` (this value) is the name of an earlier field of the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<String>,
    /// Where the cell is.
    pub loc: Loc,
}

/// One Format table (documents with `### CONDITION` sub-tables have several).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormatTable {
    /// The text of the `### CONDITION` block above the table, if any.
    pub condition: Option<String>,
    /// Opcode cells (`0x4e(SVM)`, `0x03(GATHER)`) in order.
    pub opcodes: Vec<OpcodeDef>,
    /// Fields in encoding order (row-major, continuation rows included, blank cells skipped).
    pub fields: Vec<FormatField>,
    /// Cells that could not be read as fields (each reported as a warning): the table does not
    /// describe the whole encoding, so the generator leaves the instruction out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unread_cells: Vec<Loc>,
    /// Where the table's header row is.
    pub loc: Loc,
}

/// One code of a bitfield or value list: `0b010: 4 elements {XEHP+}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeValue {
    /// The code's value.
    pub code: u64,
    /// The text after the code, platform tags removed.
    pub label: String,
    /// Platform tags of the code (`{XEHP+}` and the like).
    pub platforms: Vec<Platform>,
    /// Text nested under the code's item (a description sub-list or continuation lines).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Where the code is written.
    pub loc: Loc,
}

/// A range of codes written as one item, `0x4-0x7: reserved` (also `0x4..0x7`, `0x4..=0x7`).
/// The generator does not turn a range into codes (it says so in a warning); the docs show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeRange {
    /// The first code of the range.
    pub first: u64,
    /// The last code of the range (inclusive).
    pub last: u64,
    /// The text after the range, platform tags removed.
    pub label: String,
    /// Platform tags of the range.
    pub platforms: Vec<Platform>,
    /// Where the range is written.
    pub loc: Loc,
}

/// A `Bit[hi..lo]` (or `Bit[n]`) sub-field of a field, with its codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BitField {
    /// Highest bit of the range (inclusive).
    pub hi: u32,
    /// Lowest bit of the range (inclusive).
    pub lo: u32,
    /// The text after `Bit[..]:`, platform tags removed (the first line, empty when the item has
    /// none: it names the sub-field), then any text nested under the item.
    pub description: String,
    /// Platform tags of the sub-field.
    pub platforms: Vec<Platform>,
    /// The codes listed under the sub-field.
    pub values: Vec<CodeValue>,
    /// Code ranges listed under the sub-field.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<CodeRange>,
    /// Where the `Bit[..]` item is.
    pub loc: Loc,
}

/// A field bullet `- **Name(type):** text` with everything nested under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// The field name (`Exec_size`).
    pub name: String,
    /// The type token in parentheses.
    pub ty: FieldType,
    /// The text after the label, with the description text nested under the bullet.
    pub description: String,
    /// Operand types from "Must have type UD,D,F" (upper-case type names).
    pub allowed_types: Vec<TypeName>,
    /// Operand classes from "Operand class: general,indirect,immediate".
    pub operand_classes: Vec<String>,
    /// Sub-fields by bit range.
    pub bitfields: Vec<BitField>,
    /// Plain value lists (`0x0: ...`, `3: ...`) that are not under a `Bit[..]` item.
    pub values: Vec<CodeValue>,
    /// Code ranges directly under the field (not under a `Bit[..]` item).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<CodeRange>,
    /// A value range such as "Valid values are [0, 31]".
    pub range: Option<(i64, i64)>,
    /// "Unwritten value: n": the code token (or number) a template that does not write the
    /// field gives it; without it, 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unwritten: Option<String>,
    /// Where the bullet's label is.
    pub loc: Loc,
}

/// A vISA element type name with optional platform tags, e.g. `BF` from `{XEHP+}BF`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeName {
    /// The type name in upper case (`UD`, `BF`).
    pub name: String,
    /// Platform tags written before the type (or before an earlier type of the same list).
    pub platforms: Vec<Platform>,
}

/// A `#### Properties` bullet, e.g. `Supported Types` or `Out-of-bound Access`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Property {
    /// The bold key (`Supported Types`).
    pub key: String,
    /// The text after the key, whitespace collapsed.
    pub value: String,
    /// For `Supported Types`: the parsed type list.
    pub types: Vec<TypeName>,
    /// Where the key is.
    pub loc: Loc,
    /// Where each word of [`Property::value`] is written: its byte offset in `value` and its
    /// position in the document (a value may continue on further lines).
    #[serde(skip)]
    pub words: Vec<(usize, Loc)>,
}

impl Property {
    /// The position of byte `offset` of [`Property::value`] (the key's when unknown).
    pub fn loc_in_value(&self, offset: usize) -> Loc {
        let Some(&(start, loc)) = self.words.iter().rev().find(|(start, _)| *start <= offset)
        else {
            return self.loc;
        };
        let chars = self
            .value
            .get(start..offset)
            .map_or(0, |t| t.chars().count());
        Loc::new(loc.line, loc.col + u32::try_from(chars).unwrap_or(0))
    }
}

/// The items of a document's `Compiler checks` property (spec/README.md), parsed: the document
/// rules the Intel compiler's verifier enforces and the code rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CompilerChecks {
    /// The fixed phrases, in the order written.
    pub enforces: Vec<(Enforce, Loc)>,
    /// The code rules, in the order written.
    pub rules: Vec<CodeRule>,
}

/// A fixed phrase of `Compiler checks`: a document rule the verifier enforces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Enforce {
    /// `supported types`: every operand has one of the supported types.
    SupportedTypes,
    /// `type maps`: the operand types fit one of the type maps.
    TypeMaps,
    /// `integer operands`: every operand has an integer type.
    IntegerOperands,
    /// `saturation only with a float destination`.
    SaturationNeedsFloatDestination,
    /// `no source modifiers`.
    NoSourceModifiers,
    /// `no arithmetic source modifiers` (`(-)`, `(abs)`).
    NoArithmeticSourceModifiers,
    /// `one float type`: with a float destination or source, every source has the
    /// destination's type (F with HF or VF sources and HF with F sources aside); without one,
    /// every source is an integer or a packed integer immediate.
    OneFloatType,
    /// `NoMask for dst types T, U`: the type names (upper-case).
    NoMaskForDstTypes(Vec<String>),
    /// `dst types T, U not on P, Q`.
    DstTypesNotOn {
        /// The type names (upper-case).
        types: Vec<String>,
        /// The platforms, as written.
        platforms: Vec<String>,
    },
}

/// A code rule of `Compiler checks`: a test, and the conditions under which it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeRule {
    /// What must hold.
    pub test: CheckTest,
    /// The `when` conditions (joined by `and`); empty: always.
    pub when: Vec<CheckTest>,
    /// The conditions as written after `when` (messages quote them); empty without.
    pub when_text: String,
    /// Where the item starts.
    pub loc: Loc,
}

/// One test of a code rule or condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckTest {
    /// The field it is about, as written; `None` for a `platform` test.
    pub field: Option<String>,
    /// The test.
    pub kind: CheckKind,
    /// Where the test starts.
    pub loc: Loc,
}

/// What a [`CheckTest`] asks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum CheckKind {
    /// `Field in A, B`: the code tokens (`prefix*` matches every token so starting).
    In(Vec<String>),
    /// `Field not in A, B`.
    NotIn(Vec<String>),
    /// `Field has type T, U`: upper-case type names.
    HasType(Vec<String>),
    /// `Field is %null`.
    IsNull,
    /// `Field is not %null`.
    NotNull,
    /// `Field at most N`.
    AtMost(u64),
    /// `platform in P, Q+, -R` (`negated`: `platform not in ...`).
    Platform {
        /// The platforms as written, with their bounds.
        listed: Vec<Platform>,
        /// `not in`.
        negated: bool,
    },
}

/// One `Type map` entry of `#### Operand type maps`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypeMap {
    /// Platform tags of the map (`Type map{XEHP+}`).
    pub platforms: Vec<Platform>,
    /// Operand role (e.g. `Dst`, `Src`) -> allowed types.
    pub entries: Vec<(String, Vec<TypeName>)>,
    /// Where the `Type map` bullet is.
    pub loc: Loc,
}

/// One element of a parsed syntax template (`## Text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SyntaxSuffix {
    /// `.<name>` or `.name` naming a field: the field's value is printed here.
    Field {
        /// The field's name as written.
        name: String,
    },
    /// `.word`: a literal suffix. (A bracketed word glued to a suffix, BFN's `.x[BooleanFuncCtrl]`,
    /// is a [`SyntaxSuffix::Field`].)
    Literal {
        /// The suffix text after the dot.
        text: String,
    },
    /// `[.word]` / `[.<name>]`: an optional suffix.
    Optional {
        /// The suffix inside the brackets.
        inner: Box<SyntaxSuffix>,
    },
    /// `.{a|b}`: one of several literal suffixes.
    Alternatives {
        /// The words between the braces, in order.
        options: Vec<String>,
    },
}

/// An operand slot of a syntax template: `<dst>` or, when optional, `[<src1>]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxOperand {
    /// The placeholder's name, angle brackets removed.
    pub name: String,
    /// Written in brackets: the operand may be left out.
    pub optional: bool,
    /// Written as a parenthesised list, `(<Label0>, <Label1>, ...)`: the elements of a list field.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub list: bool,
    /// A composite operand (`<DstData>":"<DataSize>["x"<DataElemsPerAddr=1>]`): the pieces
    /// written one after another without spaces; empty for a plain placeholder. `name` is then
    /// the first placeholder of the pattern.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pattern: Vec<PatternPiece>,
}

/// One piece of a composite operand of a syntax template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PatternPiece {
    /// `"text"`: characters written as they are.
    Literal {
        /// The text between the quotes.
        text: String,
    },
    /// `<Name>`, `<Name:hex>`, `<Name:+hex>`, `<Name:+dec>`, `<Name=default>`: a placeholder.
    Field {
        /// The field (or `name:` sub-field) it binds.
        name: String,
        /// How a number is written: `hex` (upper-case `0x..`), `+hex` or `+dec` (with its sign); none:
        /// decimal.
        #[serde(skip_serializing_if = "Option::is_none")]
        style: Option<String>,
        /// In an optional group: the value (a code token or a number) the field takes when the
        /// group is left out.
        #[serde(skip_serializing_if = "Option::is_none")]
        default: Option<String>,
    },
    /// `[...]`: pieces that may be left out together.
    Optional {
        /// The pieces inside the brackets.
        pieces: Vec<PatternPiece>,
    },
}

impl PatternPiece {
    /// The placeholder names of `pieces`, in order, nested groups included.
    pub fn names(pieces: &[PatternPiece]) -> Vec<&str> {
        let mut out = Vec::new();
        for piece in pieces {
            match piece {
                Self::Literal { .. } => {}
                Self::Field { name, .. } => out.push(name.as_str()),
                Self::Optional { pieces } => out.extend(Self::names(pieces)),
            }
        }
        out
    }
}

/// A syntax line of the `## Text` section, parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxTemplate {
    /// `[(<P>)]` precedes the mnemonic.
    pub predicate: bool,
    /// The mnemonic as written (its case may differ from the opcode name).
    pub mnemonic: String,
    /// The dot suffixes after the mnemonic, in order.
    pub suffixes: Vec<SyntaxSuffix>,
    /// The placeholder inside `(<exec_size>)` (or `(<size>)` ...), if any, angle brackets removed;
    /// several placeholders stay comma-separated (`block_width, block_height` for MEDIA_LD).
    pub exec_size: Option<String>,
    /// The operand placeholders, in order.
    pub operands: Vec<SyntaxOperand>,
}

impl SyntaxTemplate {
    /// Every mnemonic the template accepts: `{raw_send|raw_sendc}` gives both names,
    /// `FENCE_{GLOBAL|LOCAL}` gives `FENCE_GLOBAL` and `FENCE_LOCAL`; a plain mnemonic gives itself.
    pub fn mnemonics(&self) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut rest = self.mnemonic.as_str();
        while !rest.is_empty() {
            let (literal, group, after) = match (rest.find('{'), rest.find('}')) {
                (Some(open), Some(close)) if open < close => (
                    &rest[..open],
                    Some(&rest[open + 1..close]),
                    &rest[close + 1..],
                ),
                _ => (rest, None, ""),
            };
            for m in &mut out {
                m.push_str(literal);
            }
            if let Some(group) = group {
                out = out
                    .iter()
                    .flat_map(|m| group.split('|').map(move |o| format!("{m}{}", o.trim())))
                    .collect();
            }
            rest = after;
        }
        out
    }
}

/// One statement of the `## Text` section: the text as written and, when it parses, its template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxLine {
    /// The statement as written (continuation lines joined with `\n`).
    pub text: String,
    /// The parsed template; `None` when the statement does not follow the template grammar (a warning says why).
    pub template: Option<SyntaxTemplate>,
    /// Where the statement starts.
    pub loc: Loc,
}

/// A free-text section (Semantics, Description, Notes): its text and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextBlock {
    /// The section's text: fences dropped, common indentation removed.
    pub text: String,
    /// Where the text starts.
    pub loc: Loc,
}

/// The model of one opcode document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Document {
    /// Path of the document as given to the parser.
    pub file: String,
    /// Line of the `## Opcode` heading.
    pub line: u32,
    /// Opcodes declared in `## Opcode`, a sub-operation after its parent.
    pub opcodes: Vec<OpcodeDef>,
    /// The Format tables (several when the document has `### CONDITION` sub-tables).
    pub formats: Vec<FormatTable>,
    /// Every field: the Format tables' fields in encoding order, each with its bullet, then bullets no table mentions.
    pub fields: Vec<Field>,
    /// The `#### Properties` bullets.
    pub properties: Vec<Property>,
    /// The `Compiler checks` property, parsed (its text stays in [`Document::properties`]).
    #[serde(skip)]
    pub compiler_checks: CompilerChecks,
    /// The `#### Operand type maps`.
    pub type_maps: Vec<TypeMap>,
    /// The `## Semantics` section (pseudo-code).
    pub semantics: Option<TextBlock>,
    /// The prose of the `## Description` section before the first field bullet.
    pub description: Option<TextBlock>,
    /// The statements of the `## Text` section.
    pub syntax: Vec<SyntaxLine>,
    /// Comment lines of the Text section (`// rel_op is one of ...`).
    pub syntax_comments: Vec<String>,
    /// The `## Notes` section.
    pub notes: Option<TextBlock>,
    /// The code blocks of the `## Examples` section, in order (empty when the document has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Text the parser kept without a place in the model: sections it does not know, and lines
    /// of known sections that are not what the section holds (each reported as a warning).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<ExtraText>,
}

/// One example of the `## Examples` section: a fenced code block of vISA assembly and the prose
/// written before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The prose between the previous example (or the heading) and this code block, whitespace
    /// collapsed per paragraph; empty when there is none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub caption: String,
    /// The assembly as written inside the fence, common indentation removed.
    pub code: String,
    /// The info string of the opening fence (`visaasm`, or empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub language: String,
    /// Where the code starts: the first line inside the fence.
    pub loc: Loc,
}

/// Text kept as written because the parser has no place for it in the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExtraText {
    /// The title of the section it was found in (an unknown section's own title).
    pub section: String,
    /// The text, common indentation removed.
    pub text: String,
    /// Where the text starts.
    pub loc: Loc,
}

impl Document {
    /// The instruction's name: the last opcode declared (`GATHER` under `SVM` gives `SVM_GATHER`
    /// when joined by [`Document::full_name`]).
    pub fn full_name(&self) -> String {
        self.opcodes
            .iter()
            .map(|o| o.name.as_str())
            .collect::<Vec<_>>()
            .join("_")
    }

    /// The field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }
}

/// A diagnostic produced while reading, generating or linting documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The document's path as given to the parser.
    pub file: String,
    /// Where the problem is.
    pub loc: Loc,
    /// Whether the problem stops the document (error) or is a fallback the parser took (warning).
    pub severity: Severity,
    /// What is wrong and, where there is one, what was expected.
    pub message: String,
    /// What the diagnostic is about, for tools.
    pub kind: DiagnosticKind,
}

/// What a [`Diagnostic`] is about (for tools: `visa spec dump --json`, `visa spec lint --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A directory or a document that cannot be read at all.
    Unreadable,
    /// A document left out: no opcode, no Format table, not a markdown document.
    LeftOut,
    /// A construct kept as text or ignored: an unknown section, a line or an item that is not
    /// what its place holds.
    KeptAsText,
    /// A section the document lacks (or leaves empty).
    MissingSection,
    /// The Format table: a cell that is not a field, a missing delimiter row, opcode cells that
    /// disagree with the Opcode section.
    FormatTable,
    /// A field of the Format table without a bullet.
    FieldWithoutBullet,
    /// A field bullet that no Format table has.
    BulletWithoutField,
    /// The same code twice in one code list.
    DuplicateCode,
    /// A code that does not fit in its bits.
    CodeTooWide,
    /// A syntax statement that does not parse as a template, or whose placeholders name no field.
    Syntax,
    /// Something the generator does not generate (a document, a code range).
    NotGenerated,
    /// Two `Bit[..]` ranges of one field that overlap.
    OverlappingBits,
    /// A code inside a code range, or two ranges that overlap.
    OverlappingCodes,
    /// One opcode value (with its sub-operation) declared by two documents.
    OpcodeReused,
    /// Sibling documents that disagree on a field of the same name (its type or its codes).
    SiblingMismatch,
    /// A `Compiler checks` item that is no known phrase or code rule, or whose rule names a
    /// field or code the document does not have: ignored.
    CompilerChecks,
}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Severity {
    /// The construct is wrong: what depends on it is not generated.
    Error,
    /// The parser took a fallback (ignored or kept as text) and says so.
    Warning,
}

impl Diagnostic {
    /// Whether this is an error (something could not be read at all).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.loc.line, self.loc.col, sev, self.message
        )
    }
}

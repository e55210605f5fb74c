//! The in-memory form of vISA assembly: what the text parser produces, the formatter prints, the
//! binary codec reads and writes, the macro validates and the runtime loads.
//!
//! Names are kept as written (variables are resolved against declarations by the checker and the
//! runtime loader, not by the parser), so a single line of assembly can be parsed without the
//! declarations it uses.

/// A position in assembly text: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub const fn new(line: u32, col: u32) -> Self {
        Self { line, col }
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// vISA element types (2_datatypes.md), named as the assembly writes them after `:` or `type=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    Ub,
    B,
    Uw,
    W,
    Ud,
    D,
    Uq,
    Q,
    Hf,
    F,
    Df,
    Bf,
    /// Packed immediate: eight signed 4-bit integers.
    V,
    /// Packed immediate: eight unsigned 4-bit integers.
    Uv,
    /// Packed immediate: four 8-bit restricted floats.
    Vf,
    /// Boolean (predicate variables).
    Bool,
}

impl ElemType {
    pub const ALL: [ElemType; 16] = [
        Self::Ub,
        Self::B,
        Self::Uw,
        Self::W,
        Self::Ud,
        Self::D,
        Self::Uq,
        Self::Q,
        Self::Hf,
        Self::F,
        Self::Df,
        Self::Bf,
        Self::V,
        Self::Uv,
        Self::Vf,
        Self::Bool,
    ];

    /// The lower-case name as printed by the Intel compiler.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ub => "ub",
            Self::B => "b",
            Self::Uw => "uw",
            Self::W => "w",
            Self::Ud => "ud",
            Self::D => "d",
            Self::Uq => "uq",
            Self::Q => "q",
            Self::Hf => "hf",
            Self::F => "f",
            Self::Df => "df",
            Self::Bf => "bf",
            Self::V => "v",
            Self::Uv => "uv",
            Self::Vf => "vf",
            Self::Bool => "bool",
        }
    }

    /// Parses a type name in any case.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// Size of one element in bytes (packed immediates: the whole dword; bool: 1).
    pub const fn size(self) -> u32 {
        match self {
            Self::Ub | Self::B | Self::Bool => 1,
            Self::Uw | Self::W | Self::Hf | Self::Bf => 2,
            Self::Ud | Self::D | Self::F | Self::V | Self::Uv | Self::Vf => 4,
            Self::Uq | Self::Q | Self::Df => 8,
        }
    }

    pub const fn is_float(self) -> bool {
        matches!(self, Self::Hf | Self::F | Self::Df | Self::Bf | Self::Vf)
    }

    pub const fn is_signed_int(self) -> bool {
        matches!(self, Self::B | Self::W | Self::D | Self::Q | Self::V)
    }
}

impl std::fmt::Display for ElemType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A whole assembly text: a sequence of statements.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    pub stmts: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `.version 3.6`
    Version { major: u32, minor: u32 },
    /// `.kernel "name"` (quotes optional)
    Kernel { name: String },
    /// `.global_function "name"` / `.function "name"`
    Function { name: String, global: bool },
    /// `.kernel_attr Name=value` (value kept as written; may be absent)
    KernelAttr { name: String, value: Option<String> },
    /// `.decl ...`
    Decl(Decl),
    /// `.input NAME offset=O size=S`
    Input { name: String, offset: u32, size: u32 },
    /// `name:`
    Label { name: String },
    /// `{`
    ScopeOpen,
    /// `}`
    ScopeClose,
    /// Any other directive (`.loc 12`, `.file "a.cl"`, `.implicit_...`) kept verbatim after the dot.
    Directive { name: String, args: String },
    Instr(Instruction),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// `attrs={Name, Name=value}` kept as written.
    pub attrs: Vec<(String, Option<String>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// `v_type=G type=T num_elts=K [align=A] [alias=<Base, off>]`
    General {
        ty: ElemType,
        num_elts: u32,
        align: Option<Align>,
        alias: Option<(String, u32)>,
    },
    /// `v_type=A num_elts=K`
    Address { num_elts: u32 },
    /// `v_type=P num_elts=K`
    Predicate { num_elts: u32 },
    /// `v_type=S num_elts=K [v_name=x]`
    Sampler {
        num_elts: u32,
        v_name: Option<String>,
    },
    /// `v_type=T num_elts=K [v_name=x]`
    Surface {
        num_elts: u32,
        v_name: Option<String>,
    },
}

/// Alignment of a general variable: written as a name (`GRF`, `dword`, `wordx32` ...) or a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Align {
    /// As written, so the formatter prints it back unchanged.
    pub written: String,
    /// In bytes, with `grf_bytes` multiples recorded separately: `GRF` = 1 GRF, `2GRF` = 2 GRFs.
    pub bytes: u32,
    pub grfs: u32,
}

/// Execution size and mask control: `(M1_NM, 16)` or `(16)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecSize {
    /// Number of channels: 1, 2, 4, 8, 16 or 32.
    pub size: u32,
    /// Mask offset group M1..M8 as 0..7 (channel offset = 4 * group for SIMD-4 groups per the spec).
    pub mask_offset: u8,
    /// `_NM`: no mask.
    pub no_mask: bool,
    /// Whether the mask was written at all (`(16)` vs `(M1, 16)`), for faithful printing.
    pub mask_written: bool,
}

/// `(!P1.any)`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicate {
    pub name: String,
    pub inverse: bool,
    pub control: PredControl,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredControl {
    None,
    Any,
    All,
}

/// A source modifier written before an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SrcMod {
    #[default]
    None,
    /// `(abs)`
    Abs,
    /// `(-)`
    Neg,
    /// `(-abs)`
    NegAbs,
    /// `(~)`
    Not,
}

/// `<VS;W,HS>` for sources; destinations carry only `<HS>` (stored in `hs`, `vs`/`width` None).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub vs: Option<u16>,
    pub width: Option<u16>,
    pub hs: u16,
}

/// An immediate: its bit pattern (zero/sign-extended into 64 bits as the type demands) and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Immediate {
    pub bits: u64,
    pub ty: ElemType,
}

/// Every operand form of vISA assembly.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `V(r,c)<vs;w,hs>` (source) or `V(r,c)<hs>` (destination); `%null` is a `General` named `%null`.
    General {
        modifier: SrcMod,
        var: String,
        row: u32,
        col: u32,
        region: Option<Region>,
        /// An explicit `:type` after the operand, if written.
        ty: Option<ElemType>,
    },
    /// `r[A0(k), off]<vs;w,hs>:type` or multi-address `r[A0(k), off]<w,hs>:type`.
    Indirect {
        modifier: SrcMod,
        addr: String,
        addr_elem: u32,
        offset: i32,
        region: Option<Region>,
        ty: ElemType,
    },
    /// `A0(k)<w>`
    Address { var: String, elem: u32, width: u32 },
    /// `&V` or `&V[off]`
    AddressOf { var: String, offset: i32 },
    /// `0x1:ud`, `1.5:f`, `0x76543210:v`
    Immediate(Immediate),
    /// `V.off` (raw operand, byte offset)
    Raw { var: String, offset: u32 },
    /// A predicate variable used as an operand (`cmp` destination, `setp` destination).
    Predicate { var: String },
    /// A bare name: surfaces (`T6`, `%bss`), samplers, labels, function names, address variables
    /// used whole.
    Name(String),
}

/// The value of one field of an instruction's Format table.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// An integer field (ub/uw/ud/d/uq): the encoded value.
    Int(u64),
    /// An operand field.
    Operand(Operand),
    /// The predicate field (`Pred`): None when no predicate is written.
    Pred(Option<Predicate>),
    /// The execution-size field, decoded.
    Exec(ExecSize),
    /// An optional operand or field that was not written.
    Absent,
}

/// One instruction: which table entry it is, and a value for each field of that entry's Format
/// table, in encoding order (`visa_isa::INSTRUCTIONS[desc].fields`).
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Index into the generated instruction table.
    pub desc: usize,
    /// `.sat` written on the mnemonic.
    pub saturate: bool,
    pub fields: Vec<FieldValue>,
    pub span: Span,
}

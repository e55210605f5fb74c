//! The in-memory form of vISA assembly: what the text parser produces, the formatter prints, the
//! binary codec reads and writes, the macro validates and the runtime loads.
//!
//! Names are kept as written (variables are resolved against declarations by the checker and the
//! runtime loader, not by the parser), so a single line of assembly can be parsed without the
//! declarations it uses.

/// A position in assembly text: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters).
    pub col: u32,
}

impl Span {
    /// A position at `line:col`.
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
    /// Unsigned byte.
    Ub,
    /// Signed byte.
    B,
    /// Unsigned 16-bit word.
    Uw,
    /// Signed 16-bit word.
    W,
    /// Unsigned 32-bit dword.
    Ud,
    /// Signed 32-bit dword.
    D,
    /// Unsigned 64-bit qword.
    Uq,
    /// Signed 64-bit qword.
    Q,
    /// IEEE half float.
    Hf,
    /// IEEE single float.
    F,
    /// IEEE double float.
    Df,
    /// bfloat16.
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
    /// Every element type.
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

    /// Floating-point types (including packed `vf`).
    pub const fn is_float(self) -> bool {
        matches!(self, Self::Hf | Self::F | Self::Df | Self::Bf | Self::Vf)
    }

    /// Signed integer types (including packed `v`).
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
    /// The statements in source order.
    pub stmts: Vec<Stmt>,
}

impl Module {
    /// Forgets every position (statement, instruction, operand and declaration spans): modules
    /// compared as values, wherever their text was written.
    pub fn clear_positions(&mut self) {
        for stmt in &mut self.stmts {
            stmt.span = Span::default();
            match &mut stmt.kind {
                StmtKind::Instr(instr) => {
                    instr.span = Span::default();
                    instr.field_spans.clear();
                    instr.element_spans.clear();
                }
                StmtKind::Decl(decl) => decl.spans = DeclSpans::default(),
                _ => {}
            }
        }
    }
}

/// One statement with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What the statement is.
    pub kind: StmtKind,
    /// Where it starts.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `.version 3.6`
    Version {
        /// Major version.
        major: u32,
        /// Minor version.
        minor: u32,
    },
    /// `.kernel "name"` (quotes optional)
    Kernel {
        /// Kernel name.
        name: String,
    },
    /// `.global_function "name"` / `.function "name"`
    Function {
        /// Function name.
        name: String,
        /// `.global_function`.
        global: bool,
    },
    /// `.kernel_attr Name=value` (value kept as written; may be absent)
    KernelAttr {
        /// Attribute name.
        name: String,
        /// Attribute value as written.
        value: Option<String>,
    },
    /// `.decl ...`
    Decl(Decl),
    /// `.input NAME offset=O size=S`
    Input {
        /// The input variable.
        name: String,
        /// Byte offset in the thread payload.
        offset: u32,
        /// Size in bytes.
        size: u32,
    },
    /// `name:`
    Label {
        /// Label name.
        name: String,
    },
    /// `{`
    ScopeOpen,
    /// `}`
    ScopeClose,
    /// Any other directive (`.loc 12`, `.file "a.cl"`, `.implicit_...`) kept verbatim after the dot.
    Directive {
        /// Directive name without the dot.
        name: String,
        /// The rest of the line.
        args: String,
    },
    /// An instruction.
    Instr(Instruction),
}

/// A `.decl` declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    /// The declared name.
    pub name: String,
    /// The variable kind and its attributes.
    pub kind: DeclKind,
    /// `attrs={Name, Name=value}` kept as written.
    pub attrs: Vec<(String, Option<String>)>,
    /// Where its parts are written, for diagnostics.
    pub spans: DeclSpans,
}

/// Where the parts of a `.decl` are written: the position of the name and of each attribute's
/// keyword (`num_elts=`). [`Span::default()`] (line 0) for a part not written or a declaration
/// not parsed from text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeclSpans {
    /// The declared name.
    pub name: Span,
    /// `type=`.
    pub ty: Span,
    /// `num_elts=`.
    pub num_elts: Span,
    /// `alias=`.
    pub alias: Span,
}

impl DeclSpans {
    /// The four positions in a fixed order (what [`crate::text::source_map`] stores).
    pub fn to_array(self) -> [Span; 4] {
        [self.name, self.ty, self.num_elts, self.alias]
    }

    /// The positions from [`DeclSpans::to_array`]'s order.
    pub fn from_array([name, ty, num_elts, alias]: [Span; 4]) -> Self {
        Self {
            name,
            ty,
            num_elts,
            alias,
        }
    }
}

/// The kinds of variable (`v_type=`).
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// `v_type=G type=T num_elts=K [align=A] [alias=<Base, off>]`
    General {
        /// Element type.
        ty: ElemType,
        /// Number of elements.
        num_elts: u32,
        /// `align=`.
        align: Option<Align>,
        /// `alias=<base, byte offset>`.
        alias: Option<(String, u32)>,
    },
    /// `v_type=A num_elts=K`
    Address {
        /// Number of address elements.
        num_elts: u32,
    },
    /// `v_type=P num_elts=K`
    Predicate {
        /// Number of predicate bits.
        num_elts: u32,
    },
    /// `v_type=S num_elts=K [v_name=x]`
    Sampler {
        /// Number of sampler entries.
        num_elts: u32,
        /// `v_name=`.
        v_name: Option<String>,
    },
    /// `v_type=T num_elts=K [v_name=x]`
    Surface {
        /// Number of surface entries.
        num_elts: u32,
        /// `v_name=`.
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
    /// Alignment in whole GRFs (0 when given in bytes).
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
    /// Whether the input wrote the mask (`(M1, 16)`) or left it out (`(16)`). The formatter always
    /// prints the mask, as the Intel compiler does; decoding sets it.
    pub mask_written: bool,
}

/// `(!P1.any)`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicate {
    /// The predicate variable.
    pub name: String,
    /// `!`: use the inverted predicate.
    pub inverse: bool,
    /// `.any` / `.all`.
    pub control: PredControl,
}

/// How a predicate's bits combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredControl {
    /// One bit per channel.
    None,
    /// `.any`: true for every channel when any bit is set.
    Any,
    /// `.all`: true for every channel when all bits are set.
    All,
}

/// A source modifier written before an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SrcMod {
    /// No modifier.
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
    /// Vertical stride (elements).
    pub vs: Option<u16>,
    /// Width (elements).
    pub width: Option<u16>,
    /// Horizontal stride (elements).
    pub hs: u16,
}

impl Region {
    /// The region of an operand written without one (a whole variable: `$0` bound to `V`, a
    /// source `V(0,0)` with no `<...>`): `<1>` for a destination, `<0;1,0>` for a scalar source
    /// (execution size 1 or a scalar field), `<1;1,0>` for any other source. The `$N` binder
    /// and the runtime loader both take it from here.
    pub const fn implied(destination: bool, scalar: bool) -> Region {
        if destination {
            Region {
                vs: None,
                width: None,
                hs: 1,
            }
        } else if scalar {
            Region {
                vs: Some(0),
                width: Some(1),
                hs: 0,
            }
        } else {
            Region {
                vs: Some(1),
                width: Some(1),
                hs: 0,
            }
        }
    }
}

/// An immediate: its bit pattern (zero/sign-extended into 64 bits as the type demands) and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Immediate {
    /// The value's bits.
    pub bits: u64,
    /// Its type.
    pub ty: ElemType,
}

/// Every operand form of vISA assembly.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `V(r,c)<vs;w,hs>` (source) or `V(r,c)<hs>` (destination); `%null` is a `General` named `%null`.
    General {
        /// Source modifier.
        modifier: SrcMod,
        /// The variable.
        var: String,
        /// Row offset (in GRFs).
        row: u32,
        /// Column offset (in elements).
        col: u32,
        /// The region, if written.
        region: Option<Region>,
        /// An explicit `:type` after the operand, if written.
        ty: Option<ElemType>,
    },
    /// `r[A0(k), off]<vs;w,hs>:type` or multi-address `r[A0(k), off]<w,hs>:type`.
    Indirect {
        /// Source modifier.
        modifier: SrcMod,
        /// The address variable.
        addr: String,
        /// Which element of the address variable.
        addr_elem: u32,
        /// Immediate byte offset added to the address.
        offset: i32,
        /// The region, if written.
        region: Option<Region>,
        /// Type of the elements accessed.
        ty: ElemType,
    },
    /// `A0(k)<w>`
    Address {
        /// The address variable.
        var: String,
        /// First element.
        elem: u32,
        /// Number of elements.
        width: u32,
    },
    /// `&V` or `&V[off]`
    AddressOf {
        /// The variable whose address is taken.
        var: String,
        /// Byte offset added.
        offset: i32,
    },
    /// `0x1:ud`, `1.5:f`, `0x76543210:v`
    Immediate(Immediate),
    /// `V.off` (raw operand, byte offset)
    Raw {
        /// The variable.
        var: String,
        /// Byte offset.
        offset: u32,
    },
    /// A predicate variable used as an operand (`cmp` destination, `setp` destination).
    Predicate {
        /// The predicate variable.
        var: String,
    },
    /// A bare name: surfaces (`T6`, `%bss`), samplers, labels, function names, address variables
    /// used whole.
    Name(String),
}

impl Operand {
    /// A variable written alone, standing for its start: `V.0` in a raw-operand field, the
    /// scalar `V(0,0)<0;1,0>` in a vector field, as the compiler reads it (composite operands
    /// write `V`).
    pub fn from_start(var: String, raw: bool) -> Operand {
        if raw {
            Operand::Raw { var, offset: 0 }
        } else {
            Operand::General {
                modifier: SrcMod::None,
                var,
                row: 0,
                col: 0,
                region: Some(Region::implied(false, true)),
                ty: None,
            }
        }
    }

    /// The variable when the operand is one written alone ([`Operand::from_start`]).
    pub fn whole_variable(&self) -> Option<&str> {
        match self {
            Operand::Raw { var, offset: 0 } => Some(var),
            Operand::General {
                modifier: SrcMod::None,
                var,
                row: 0,
                col: 0,
                region: Some(region),
                ty: None,
            } if *region == Region::implied(false, true) => Some(var),
            _ => None,
        }
    }

    /// Whether the operand is `%null`.
    pub fn is_null(&self) -> bool {
        matches!(
            self,
            Operand::Name(var) | Operand::Raw { var, .. } | Operand::General { var, .. }
                if var == "%null"
        )
    }
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
    /// A list field (`Label0 | LabelN | Label(Num_labels-1)` in the Format table): one value
    /// per element; the field that counts them holds the length.
    List(Vec<FieldValue>),
    /// An optional operand or field that was not written.
    Absent,
}

impl FieldValue {
    /// The number of elements of a list; 0 for any other value.
    pub fn list_len(&self) -> usize {
        match self {
            FieldValue::List(items) => items.len(),
            _ => 0,
        }
    }
}

/// One instruction: which table entry it is, and a value for each field of that entry's Format
/// table, in encoding order (`visa_isa::INSTRUCTIONS[desc].fields`).
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Index into the generated instruction table.
    pub desc: usize,
    /// `.sat` written on the mnemonic.
    pub saturate: bool,
    /// One value per field of the table entry, in encoding order.
    pub fields: Vec<FieldValue>,
    /// Where the instruction starts.
    pub span: Span,
    /// Where each field's value is written, by field index like `fields`: the start of the
    /// operand, predicate, execution size or list. Shorter than `fields`, or holding
    /// [`Span::default()`] (line 0), where a value was not written (a default, a field the
    /// mnemonic sets) or the instruction was not parsed from text (built, or decoded from
    /// binary): see [`Instruction::field_span`].
    pub field_spans: Vec<Span>,
    /// Where each element of the list fields is written: the elements of every
    /// [`FieldValue::List`], in field order, one after another (see
    /// [`Instruction::element_span`]). Empty when not parsed from text.
    pub element_spans: Vec<Span>,
}

impl Instruction {
    /// An instruction not parsed from text (built, or decoded from binary): no positions.
    pub fn built(desc: usize, saturate: bool, fields: Vec<FieldValue>) -> Instruction {
        Instruction {
            desc,
            saturate,
            fields,
            span: Span::default(),
            field_spans: Vec::new(),
            element_spans: Vec::new(),
        }
    }

    /// Where field `index`'s value is written, if known.
    pub fn field_span(&self, index: usize) -> Option<Span> {
        self.field_spans.get(index).copied().filter(|s| s.line != 0)
    }

    /// How many elements its list fields hold together (what `element_spans` has a position
    /// for).
    pub fn list_elements(&self) -> usize {
        self.fields.iter().map(FieldValue::list_len).sum()
    }

    /// Where element `element` of list field `index` is written, if known.
    pub fn element_span(&self, index: usize, element: usize) -> Option<Span> {
        let before: usize = self
            .fields
            .iter()
            .take(index)
            .map(FieldValue::list_len)
            .sum();
        self.element_spans
            .get(before.checked_add(element)?)
            .copied()
            .filter(|s| s.line != 0)
    }
}

//! The decoded instruction form: every name resolved to a byte offset, predicate index, surface
//! slot or program counter, every encoded code to its meaning. Built once by `decode`, executed by
//! `exec`.

pub(crate) mod block2d;
pub(crate) mod fast;
pub(crate) mod int_ops;

use visa_isa::ast::{ElemType, PredControl, SrcMod};

/// Execution size and mask control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExecCtl {
    /// Channels, 1..=32.
    pub size: u32,
    /// EM/predicate bit offset of channel 0 (0, 4, ..., 28).
    pub offset: u32,
    pub no_mask: bool,
}

impl ExecCtl {
    /// Bits 0..size.
    pub fn lanes(self) -> u32 {
        if self.size >= 32 {
            u32::MAX
        } else {
            (1u32 << self.size) - 1
        }
    }
}

/// A predicate written before the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PredCtl {
    pub index: u16,
    pub inverse: bool,
    pub control: PredControl,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SrcKind {
    /// Element `i` at byte `base + ((i / w) * vs + (i % w) * hs) * size`.
    Direct { base: u32, vs: u32, w: u32, hs: u32 },
    /// Element `i` at byte `A[addr] + offset + ((i / w) * vs + (i % w) * hs) * size`, `addr` being
    /// the byte offset of the address element in the register file.
    Indirect {
        addr: u32,
        offset: i32,
        vs: u32,
        w: u32,
        hs: u32,
    },
    /// Multi-address: element `i` at `A[addr + i / w] + offset + (i % w) * hs * size`.
    MultiIndirect {
        addr: u32,
        offset: i32,
        w: u32,
        hs: u32,
    },
    /// Raw bits of each element; one value is replicated, several (packed immediates) are
    /// per channel.
    Imm(Box<[u64]>),
    /// A predicate variable's bits (`mov (1) dst P`): index and mask of its declared bits.
    Pred(u16, u32),
    /// `%null` as a source reads zero.
    Null,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Src {
    pub kind: SrcKind,
    pub ty: ElemType,
    pub modifier: SrcMod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DstKind {
    /// Element `i` at byte `base + i * hs * size`.
    Direct { base: u32, hs: u32 },
    /// Element `i` at `A[addr] + offset + i * hs * size`.
    Indirect { addr: u32, offset: i32, hs: u32 },
    /// `%null`: results are discarded.
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dst {
    pub kind: DstKind,
    pub ty: ElemType,
}

impl Dst {
    /// Register-file bytes `[start, end)` this destination may write at `exec_size`, when known
    /// at load time (`None` for indirect destinations).
    pub fn footprint(&self, exec_size: u32) -> Option<(u32, u32)> {
        match self.kind {
            DstKind::Direct { base, hs } => {
                Some((base, base + ((exec_size - 1) * hs + 1) * self.ty.size()))
            }
            DstKind::Indirect { .. } => None,
            DstKind::Null => Some((0, 0)),
        }
    }
}

impl Src {
    /// Register-file bytes `[start, end)` this source may read at `exec_size`, when known at
    /// load time (`None` for indirect sources).
    pub fn footprint(&self, exec_size: u32) -> Option<(u32, u32)> {
        match self.kind {
            SrcKind::Direct { base, vs, w, hs } => {
                let last = (0..exec_size)
                    .map(|i| (i / w) * vs + (i % w) * hs)
                    .max()
                    .unwrap_or(0);
                Some((base, base + (last + 1) * self.ty.size()))
            }
            SrcKind::Indirect { .. } | SrcKind::MultiIndirect { .. } => None,
            SrcKind::Imm(_) | SrcKind::Pred(..) | SrcKind::Null => Some((0, 0)),
        }
    }
}

/// Whether no source of an instruction can read bytes its destination writes.
pub(crate) fn independent(dst: &Dst, srcs: &[Src], exec_size: u32) -> bool {
    let Some((d0, d1)) = dst.footprint(exec_size) else {
        return false;
    };
    srcs.iter().all(|s| {
        let disjoint = match s.footprint(exec_size) {
            Some((s0, s1)) => s1 <= d0 || d1 <= s0 || s0 == s1 || d0 == d1,
            None => false,
        };
        disjoint || same_elements(dst, s, exec_size)
    })
}

/// Whether channel `i` of the source reads exactly the bytes channel `i` of the destination
/// writes (an in-place update such as `add V V 1`), which is safe channel by channel.
fn same_elements(dst: &Dst, src: &Src, exec_size: u32) -> bool {
    match (dst.kind, &src.kind) {
        (DstKind::Direct { base: db, hs: dhs }, SrcKind::Direct { base, vs, w, hs }) => {
            db == *base
                && dst.ty.size() == src.ty.size()
                && (0..exec_size).all(|i| (i / w) * vs + (i % w) * hs == i * dhs)
        }
        _ => false,
    }
}

/// A raw operand: contiguous bytes of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Raw {
    /// Byte offset in the register file.
    pub base: u32,
    /// End (exclusive) of the variable the operand names.
    pub end: u32,
    /// `%null`: no data.
    pub null: bool,
}

impl Raw {
    /// Every byte of the variable the operand names, from the operand on (`None` for `%null`):
    /// a superset of what a message reads or writes through it.
    pub(crate) fn bytes(&self) -> Option<std::ops::Range<usize>> {
        (!self.null).then_some(self.base as usize..self.end as usize)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AluOp {
    Mov,
    Add,
    Mul,
    Mad,
    Mulh,
    Avg,
    Min,
    Max,
    Sel,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
    /// Integer or float quotient (DIV.md: an integer zero divisor gives all ones).
    Div,
    /// Integer remainder with the dividend's sign (MOD.md: a zero divisor gives the dividend).
    Mod,
    Rol,
    Ror,
    Lzd,
    Fbh,
    Fbl,
    Cbit,
    Bfe,
    Bfi,
    Bfrev,
    Add3,
    /// Three-input boolean function with its 8-entry truth table.
    Bfn(u8),
    Dp4a,
    /// `src0 * src1 + src2` exactly, low dwords to the destination and high dwords to
    /// [`AluInstr::dst_high`].
    Madw,
    Frc,
    Rndd,
    Rndu,
    Rnde,
    Rndz,
    Inv,
    Log,
    Exp,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Pow,
    Lrp,
}

impl AluOp {
    /// Operations defined on integers only.
    pub fn integer_only(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            And | Or
                | Xor
                | Not
                | Shl
                | Shr
                | Asr
                | Mulh
                | Avg
                | Mod
                | Rol
                | Ror
                | Lzd
                | Fbh
                | Fbl
                | Cbit
                | Bfe
                | Bfi
                | Bfrev
                | Add3
                | Bfn(_)
                | Dp4a
                | Madw
        )
    }

    /// Operations defined on floating-point values only.
    pub fn float_only(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Frc | Rndd
                | Rndu
                | Rnde
                | Rndz
                | Inv
                | Log
                | Exp
                | Sqrt
                | Rsqrt
                | Sin
                | Cos
                | Pow
                | Lrp
        )
    }

    /// Operations whose documents forbid source modifiers (they work on bit patterns).
    pub fn bitwise_sources(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            Rol | Ror | Lzd | Fbh | Fbl | Cbit | Bfe | Bfi | Bfrev | Bfn(_) | Dp4a
        )
    }
}

/// How an ALU operation computes: on exact integers, or in a float type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExecType {
    Int,
    Float(ElemType),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AluInstr {
    pub op: AluOp,
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub saturate: bool,
    pub exec_type: ExecType,
    pub dst: Dst,
    /// `madw` only: where the high dwords of the results go.
    pub dst_high: Option<Dst>,
    pub srcs: Vec<Src>,
    /// No source can overlap the destination, so channels may be computed one at a time.
    pub streaming: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RelOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CmpDst {
    Pred(u16),
    General(Dst),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PredLogicOp {
    And,
    Or,
    Xor,
    Not,
}

/// Where a surface operand points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SurfaceRef {
    /// T0 / `%slm`: the thread group's shared local memory.
    Slm,
    /// T5 / `%scratch` (BTI 255): flat addresses in the SVM space.
    Stateless,
    /// A surface variable (index into `Layout::states`): element 0 holds, per thread, the
    /// binding-table number the access goes to (`movs` can change it).
    Var(u16),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GatherScaled {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub bytes: u32,
    pub surface: SurfaceRef,
    pub offset: Src,
    pub element_offset: Raw,
    pub data: Raw,
}

/// `gather4_scaled`/`scatter4_scaled` and their SVM forms: up to four dwords (R, G, B, A) per
/// lane, laid out channel-major in the data operand.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gather4 {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    /// Bit c requests colour channel c (R = 0 ... A = 3); never zero.
    pub mask: u8,
    /// Dwords reserved per requested channel: `max(exec_size, GRF_BYTES / 4)`.
    pub slot_dwords: u32,
    pub target: Gather4Target,
    pub data: Raw,
}

/// Where a four-channel access goes: a surface with a UD base and UD per-lane offsets, or SVM
/// with a UQ base address and UQ per-lane offsets.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Gather4Target {
    Surface {
        surface: SurfaceRef,
        offset: Src,
        offsets: Raw,
    },
    Svm {
        address: Src,
        offsets: Raw,
    },
}

/// Legacy `gather`/`scatter`: one 1-, 2- or 4-byte element per lane at the low end of the
/// lane's dword; offsets count elements. No predicate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegacyScattered {
    pub exec: ExecCtl,
    pub elt_bytes: u32,
    pub surface: SurfaceRef,
    pub global_offset: Src,
    pub offsets: Raw,
    pub data: Raw,
}

/// `qw_gather`/`qw_scatter`: one qword per lane at a per-lane byte offset.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct QwScattered {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub surface: SurfaceRef,
    pub offsets: Raw,
    pub data: Raw,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OwordAccess {
    pub owords: u32,
    /// OWORD_LD_UNALIGNED: the offset is in bytes (dword aligned) instead of owords.
    pub unaligned: bool,
    pub surface: SurfaceRef,
    pub offset: Src,
    pub data: Raw,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SvmScattered {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub block_bytes: u32,
    pub blocks: u32,
    pub addresses: Raw,
    /// Each lane's address is `address_scale * operand + address_offset` (LSC's `AddrScale` and
    /// `AddrImmOffset`; 1 and 0 for `svm_gather`/`svm_scatter`), in 64-bit wrapping arithmetic.
    pub address_scale: u64,
    pub address_offset: i64,
    pub data: Raw,
}

impl SvmScattered {
    /// The address lane operand `operand` stands for.
    pub(crate) fn lane_address(&self, operand: u64) -> u64 {
        operand
            .wrapping_mul(self.address_scale)
            .wrapping_add_signed(self.address_offset)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SvmBlock {
    pub owords: u32,
    /// Required alignment of the address: 16, or 4 with `.unaligned`.
    pub align: u32,
    pub address: Src,
    pub data: Raw,
}

/// The read-modify-write operation of an atomic message (DWORD_ATOMIC.md / SVM_ATOMIC.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomicOp {
    Add,
    Sub,
    Inc,
    Dec,
    Min,
    Max,
    Xchg,
    Cmpxchg,
    And,
    Or,
    Xor,
    Imin,
    Imax,
    Predec,
    Fmax,
    Fmin,
    Fcmpwr,
    /// LSC only: reads without changing (`lsc_atomic_load`).
    Load,
    /// LSC only: floating-point add and subtract.
    Fadd,
    Fsub,
}

impl AtomicOp {
    /// The operation of encoding bits 4..0.
    pub fn from_code(code: u64) -> Option<AtomicOp> {
        use AtomicOp::*;
        Some(match code {
            0 => Add,
            1 => Sub,
            2 => Inc,
            3 => Dec,
            4 => Min,
            5 => Max,
            6 => Xchg,
            7 => Cmpxchg,
            8 => And,
            9 => Or,
            10 => Xor,
            11 => Imin,
            12 => Imax,
            13 => Predec,
            16 => Fmax,
            17 => Fmin,
            18 => Fcmpwr,
            _ => return None,
        })
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            AtomicOp::Fmax | AtomicOp::Fmin | AtomicOp::Fcmpwr | AtomicOp::Fadd | AtomicOp::Fsub
        )
    }
}

/// An LSC message other than the plain SVM gather/scatter forms (`decode::lsc`): per-lane
/// (or strided) addresses into SVM, the group's SLM or a binding-table surface, moving a vector
/// of elements per address, or an atomic read-modify-write of one element per lane.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LscAccess {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub kind: LscKind,
    /// The memory the addresses point into: `SurfaceRef::Stateless` for flat `ugm`/`ugml`
    /// addresses (SVM), `Slm` for flat `slm` offsets, a binding-table surface for `bti(N)`.
    pub space: SurfaceRef,
    /// `flat(BASE)[...]`: a 64-bit base added to every address.
    pub base: Option<Src>,
    pub addresses: LscAddresses,
    pub address_size: LscAddrSize,
    /// Each address is `base + address_scale * operand + address_offset` (then, for strided
    /// forms, `+ lane * pitch`).
    pub address_scale: u64,
    pub address_offset: i64,
    /// Bytes of one element in memory (1, 2, 4, 8) and of its slot in the registers (the same,
    /// or 4 for the u32-widened forms).
    pub mem_bytes: u32,
    pub slot_bytes: u32,
    /// `d16u32h`: the element sits in the upper half of its register dword.
    pub high_half: bool,
    /// Bit e: element e of each address is moved (vector forms: the first V; quad forms: the
    /// channels of the mask). The k-th moved element fills register block k.
    pub elements: u64,
    /// `t`: one address, its elements side by side in the registers.
    pub transposed: bool,
    /// Bytes from one register block to the next (non-transposed): a lane's slot times the
    /// execution size, rounded up to whole GRFs.
    pub block_pitch: u32,
    /// Loads and atomics: the destination (`%null` for a prefetch or when the old value is not
    /// wanted); stores: the data written.
    pub data: Raw,
    /// Atomics: the operands `s0`, `s1` of [`AtomicOp`] (already in that operation's order).
    pub src0: Raw,
    pub src1: Raw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LscKind {
    Load,
    Store,
    /// `bf16`: the float operations work on bfloat16 values (`lsc_atomic_bf*`).
    Atomic {
        op: AtomicOp,
        bf16: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LscAddresses {
    /// One address per lane, in consecutive elements of the operand.
    Lanes(Raw),
    /// Strided forms: one base address; lane n adds `n * pitch` bytes.
    Strided { base: Raw, pitch: Src },
}

/// How an address operand element becomes a byte address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LscAddrSize {
    /// 64-bit addresses.
    A64,
    /// 32-bit offsets; scale and offset apply in 32-bit arithmetic.
    A32,
    /// 32-bit offsets zero-extended, then 64-bit arithmetic.
    A32u,
    /// 32-bit offsets sign-extended, then 64-bit arithmetic.
    A32s,
}

impl LscAccess {
    /// The byte address (or offset) address operand element `operand` stands for.
    pub(crate) fn address(&self, operand: u64, base: u64) -> u64 {
        let (scale, offset) = (self.address_scale, self.address_offset);
        let address = match self.address_size {
            LscAddrSize::A64 => operand.wrapping_mul(scale).wrapping_add_signed(offset),
            LscAddrSize::A32 => u64::from(
                (operand as u32)
                    .wrapping_mul(scale as u32)
                    .wrapping_add(offset as u32),
            ),
            LscAddrSize::A32u => u64::from(operand as u32)
                .wrapping_mul(scale)
                .wrapping_add_signed(offset),
            LscAddrSize::A32s => (operand as u32 as i32 as i64 as u64)
                .wrapping_mul(scale)
                .wrapping_add_signed(offset),
        };
        base.wrapping_add(address)
    }

    /// Bytes of one address operand element.
    pub(crate) fn address_bytes(&self) -> u32 {
        if self.address_size == LscAddrSize::A64 {
            8
        } else {
            4
        }
    }
}

/// Where the lanes of an atomic message point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomicTarget {
    /// DWORD_ATOMIC: one UD byte offset per lane into a surface.
    Surface { surface: SurfaceRef, offsets: Raw },
    /// SVM_ATOMIC: one UQ virtual address per lane.
    Svm { addresses: Raw },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AtomicAccess {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub op: AtomicOp,
    /// Bytes of the memory location: 2 (`.16`), 4 or 8 (`.64`).
    pub width: u32,
    pub target: AtomicTarget,
    /// Operands hold one dword per lane (one qword for 8-byte atomics); `%null` is allowed.
    pub src0: Raw,
    pub src1: Raw,
    pub dst: Raw,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    Atomic(Box<AtomicAccess>),
    Alu(Box<AluInstr>),
    /// An `Alu` instruction in its fast form (set after decoding, by `specialise`).
    FastAlu(Box<fast::FastAlu>),
    /// A `Cmp` writing a predicate, in its fast form.
    FastCmp(Box<fast::FastCmp>),
    /// An F `add`/`mul`/`mad` in its fast form.
    FastFloat(Box<fast::FastFloat>),
    /// `addc` / `subb`: the second destination gets the carry / borrow.
    AddCarry(Box<AddCarry>),
    Cmp {
        rel: RelOp,
        exec: ExecCtl,
        dst: CmpDst,
        srcs: Box<[Src; 2]>,
    },
    Setp {
        exec: ExecCtl,
        dst: u16,
        src: Src,
    },
    PredLogic {
        op: PredLogicOp,
        exec: ExecCtl,
        dst: u16,
        a: u16,
        b: Option<u16>,
    },
    Jmp {
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    },
    Goto {
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    },
    /// `switchjmp`: a uniform jump to `targets[index]`.
    SwitchJmp(Box<SwitchJmp>),
    Ret {
        exec: ExecCtl,
        pred: Option<PredCtl>,
    },
    /// `call` of a subroutine label.
    Call {
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    },
    /// `fcall` of a stack-call function (index into `Program::functions`); sizes in GRFs.
    Fcall {
        exec: ExecCtl,
        pred: Option<PredCtl>,
        function: u16,
        arg_size: u8,
        ret_size: u8,
    },
    Fret {
        exec: ExecCtl,
        pred: Option<PredCtl>,
    },
    NamedBarrier(Box<NamedBarrier>),
    Sad2(Box<Sad2>),
    Plane(Box<Plane>),
    Movs(Box<Movs>),
    /// `fcvt` / `srnd`: narrow-float conversions on raw bits.
    Fp8(Box<Fp8Convert>),
    /// `dpas`: the systolic dot-product-accumulate of the matrix engine.
    Dpas(Box<Dpas>),
    /// Inserted by the loader after a kernel or function body (see `program::push_end_marker`).
    EndOfObject {
        function: bool,
    },
    GatherScaled(Box<GatherScaled>),
    ScatterScaled(Box<GatherScaled>),
    OwordLd(Box<OwordAccess>),
    OwordSt(Box<OwordAccess>),
    SvmGather(Box<SvmScattered>),
    SvmScatter(Box<SvmScattered>),
    SvmBlockLd(Box<SvmBlock>),
    SvmBlockSt(Box<SvmBlock>),
    Gather4(Box<Gather4>),
    Scatter4(Box<Gather4>),
    Gather(Box<LegacyScattered>),
    Scatter(Box<LegacyScattered>),
    QwGather(Box<QwScattered>),
    QwScatter(Box<QwScattered>),
    /// `lsc_load_block2d` / `lsc_store_block2d` (its `store` flag).
    Block2d(Box<block2d::Block2d>),
    /// A 2D block message whose surface and block shape come from an address payload
    /// (`raw_send`, `flat[P + (x,y)]`), read when it runs.
    Block2dPayload(Box<block2d::Block2dPayload>),
    /// A gateway barrier message (`raw_send` to `gtwy`): the named-barrier signal its payload
    /// describes.
    GatewayBarrier(Box<Raw>),
    /// The LSC loads, stores and atomics `decode::lsc` does not map to an SVM message.
    Lsc(Box<LscAccess>),
    /// `barrier`: the thread waits until every running thread of its group arrives.
    Barrier,
    /// `sbarrier.signal` (`signal`) or `sbarrier.wait`: one half of `barrier`.
    SplitBarrier {
        signal: bool,
    },
    /// Instructions with no effect on this machine (labels, fences, lifetime markers).
    Nop,
}

/// `addc` / `subb` (boxed: two destinations would make every `Op` larger).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AddCarry {
    pub subtract: bool,
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub dst: Dst,
    pub carry: Dst,
    pub srcs: [Src; 2],
}

/// `switchjmp`: the index (read from its first element) selects the target instruction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SwitchJmp {
    pub index: Src,
    pub targets: Box<[usize]>,
}

/// `nbarrier.wait` / `nbarrier.signal`: scalar operands read when executed. A signal without
/// `role` / `consumers` is the baseline form (type 0, as many consumers as producers).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedBarrier {
    pub signal: bool,
    pub id: Src,
    pub role: Option<Src>,
    pub producers: Option<Src>,
    pub consumers: Option<Src>,
}

/// Elements of a state variable as a `movs` operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateElems {
    /// Per-thread slots from `first` (of state variable `var`, named in errors).
    Slots { var: u16, first: u32 },
    /// A predefined surface with a fixed number (T0 / `%slm`, T5 / `%scratch`).
    Fixed(u32),
}

/// `movs` (MOVS.md): state numbers copied between state variables, read into a UD variable,
/// or set from a UD value; at least one side is a state operand.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Movs {
    pub exec: ExecCtl,
    pub dst: MovsDst,
    pub src: MovsSrc,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MovsDst {
    /// The per-thread slots from `first` of state variable `var`.
    State {
        var: u16,
        first: u32,
    },
    General(Dst),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MovsSrc {
    State(StateElems),
    /// A UD general, indirect or immediate operand.
    Value(Src),
}

/// `plane` (PLANE.md): `dst = b*v + (a*u + c)` per channel, F only.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plane {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub saturate: bool,
    pub dst: Dst,
    /// `a`, `b`, `c`: elements 0, 1 and 3 of src0, each a scalar.
    pub coefficients: [Src; 3],
    /// Per-lane coordinates from src1 (region `<16;8,1>`, `v` 32 bytes after `u`).
    pub u: Src,
    pub v: Src,
}

/// `sad2`: pairs of channels, the sum to the even one (SAD2.md).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sad2 {
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub saturate: bool,
    pub dst: Dst,
    pub srcs: [Src; 2],
}

/// The conversion an `fcvt` or `srnd` performs, chosen at load from its operand types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fp8Kind {
    /// fcvt HF <- UB (BF8).
    Bf8ToHf,
    /// fcvt UB (BF8) <- HF.
    HfToBf8,
    /// fcvt HF <- B (HF8).
    Hf8ToHf,
    /// fcvt B (HF8) <- HF.
    HfToHf8,
    /// fcvt F <- UD (TF32): a bit copy.
    Tf32ToF,
    /// fcvt UD (TF32) <- F.
    FToTf32,
    /// srnd UB (BF8) <- HF, UB random bits.
    SrndHfToBf8,
    /// srnd HF <- F, UW random bits.
    SrndFToHf,
}

/// `fcvt` (one source) and `srnd` (value and random bits).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fp8Convert {
    pub kind: Fp8Kind,
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub saturate: bool,
    pub dst: Dst,
    pub srcs: Vec<Src>,
}

/// The element precision of a DPAS source (DPAS.md, fields W and A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    /// An integer of `bits` (1, 2, 4 or 8) bits, two's complement when `signed`.
    Int { bits: u32, signed: bool },
    /// bfloat16.
    Bf,
    /// IEEE binary16.
    Hf,
    /// TF32: the upper 19 bits of an F bit pattern in a dword.
    Tf32,
}

impl Precision {
    /// The assembly token (DPAS.md code labels).
    pub fn name(self) -> &'static str {
        match self {
            Precision::Int { bits, signed } => match (bits, signed) {
                (1, false) => "u1",
                (1, true) => "s1",
                (2, false) => "u2",
                (2, true) => "s2",
                (4, false) => "u4",
                (4, true) => "s4",
                (_, false) => "u8",
                (_, true) => "s8",
            },
            Precision::Bf => "bf",
            Precision::Hf => "hf",
            Precision::Tf32 => "tf32",
        }
    }

    /// Bits one element takes in its dword.
    pub fn bits(self) -> u32 {
        match self {
            Precision::Int { bits, .. } => bits,
            Precision::Bf | Precision::Hf => 16,
            Precision::Tf32 => 32,
        }
    }
}

/// `dpas` (DPAS.md): `Dst = Src0 + Src2 x Src1` over `rc` rows and `exec.size` channels, in
/// `sd` stages of `ops` elements; every shape parameter is resolved at load.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dpas {
    pub exec: ExecCtl,
    /// Precision of Src1 (W) and Src2 (A).
    pub w: Precision,
    pub a: Precision,
    /// Systolic depth (stages) and repeat count (rows).
    pub sd: u32,
    pub rc: u32,
    /// Elements of each row and column consumed per stage.
    pub ops: u32,
    /// Stages one Src1 dword feeds.
    pub w_per_dword: u32,
    /// Bytes of one GRF (= 4 * exec.size).
    pub grf_bytes: u32,
    /// Bits of one Src2 row.
    pub row_bits: u32,
    pub dst: Raw,
    pub dst_ty: ElemType,
    /// `null` for `%null` (a zero accumulator).
    pub src0: Raw,
    pub src0_ty: ElemType,
    pub src1: Raw,
    pub src2: Raw,
}

//! The LSC messages (LSC_UNTYPED.md): loads, stores (plain, strided, quad, uncompressed) and
//! atomics through flat addresses of untyped global memory (`ugm`, `ugml`: SVM addresses), of
//! the group's shared local memory (`slm`: byte offsets), or relative to a binding-table
//! surface (`bti(N)`: the surface bound as `TN`, N from 6 on), with every data shape of the document (`d8` to
//! `d64`, the u32-widened `d8u32`, `d16u32`, `d16u32h`), vectors of 1 to 64 elements,
//! transposed (`t`) block forms, the address scale and immediate offset, and a `flat(BASE)`
//! base. The per-lane `d32`/`d64` load and store of one element through 64-bit flat addresses
//! decodes to the SVM gather/scatter (`Op::SvmGather`/`SvmScatter`, which have a fast path);
//! everything else to `Op::Lsc` (`exec::lsc`), except the 2D block forms (`lsc_block2d`).
//! Forms this runtime does not execute are refused at load, each naming its reason.

use visa_isa::ast::{Operand, SrcMod};
use visa_isa::instrs::view;
use visa_isa::instrs::view::lsc_untyped::{
    AddrSize, AddrType, DataElemsPerAddr, DataOrder, LscSfid as Sfid, LscSubOp as SubOp,
};

use super::{DataSize, Decoder, Fields};
use crate::error::LoadError;
use crate::layout::FIRST_USER_SURFACE;
use crate::ops::{
    AtomicOp, ExecCtl, LscAccess, LscAddrSize, LscAddresses, LscKind, Op, Raw, Src, SrcKind,
    SurfaceRef, SvmScattered,
};

/// What an LSC operation means here, or why it is not executed; `None` for the 2D block
/// messages (`lsc_block2d`). Exhaustive: a sub-operation added to LSC_UNTYPED.md needs a line
/// here to compile.
fn operation(op: SubOp) -> Option<Result<(LscKind, Shape), &'static str>> {
    let atomic = |op, bf16| Ok((LscKind::Atomic { op, bf16 }, Shape::Vector));
    Some(match op {
        SubOp::LscLoadBlock2d | SubOp::LscStoreBlock2d => return None,
        SubOp::LscLoad => Ok((LscKind::Load, Shape::Vector)),
        SubOp::LscLoadStrided => Ok((LscKind::Load, Shape::Strided)),
        SubOp::LscLoadQuad => Ok((LscKind::Load, Shape::Quad)),
        // Compression is not modelled: an uncompressed store is a store.
        SubOp::LscStore | SubOp::LscStoreUncompressed => Ok((LscKind::Store, Shape::Vector)),
        SubOp::LscStoreStrided => Ok((LscKind::Store, Shape::Strided)),
        SubOp::LscStoreQuad => Ok((LscKind::Store, Shape::Quad)),
        SubOp::LscLoadStatus => {
            Err("it reports whether pages are resident, which this memory model does not have")
        }
        SubOp::LscApndctrAtomicAdd | SubOp::LscApndctrAtomicSub => {
            Err("append counters live in surface state, which this model does not have")
        }
        SubOp::LscAtomicIinc => atomic(AtomicOp::Inc, false),
        SubOp::LscAtomicIdec => atomic(AtomicOp::Dec, false),
        SubOp::LscAtomicLoad => atomic(AtomicOp::Load, false),
        SubOp::LscAtomicStore => atomic(AtomicOp::Xchg, false),
        SubOp::LscAtomicIadd => atomic(AtomicOp::Add, false),
        SubOp::LscAtomicIsub => atomic(AtomicOp::Sub, false),
        SubOp::LscAtomicSmin => atomic(AtomicOp::Imin, false),
        SubOp::LscAtomicSmax => atomic(AtomicOp::Imax, false),
        SubOp::LscAtomicUmin => atomic(AtomicOp::Min, false),
        SubOp::LscAtomicUmax => atomic(AtomicOp::Max, false),
        SubOp::LscAtomicIcas => atomic(AtomicOp::Cmpxchg, false),
        SubOp::LscAtomicFadd => atomic(AtomicOp::Fadd, false),
        SubOp::LscAtomicFsub => atomic(AtomicOp::Fsub, false),
        SubOp::LscAtomicFmin => atomic(AtomicOp::Fmin, false),
        SubOp::LscAtomicFmax => atomic(AtomicOp::Fmax, false),
        SubOp::LscAtomicFcas => atomic(AtomicOp::Fcmpwr, false),
        SubOp::LscAtomicAnd => atomic(AtomicOp::And, false),
        SubOp::LscAtomicOr => atomic(AtomicOp::Or, false),
        SubOp::LscAtomicXor => atomic(AtomicOp::Xor, false),
        SubOp::LscAtomicBfadd => atomic(AtomicOp::Fadd, true),
        SubOp::LscAtomicBfsub => atomic(AtomicOp::Fsub, true),
        SubOp::LscAtomicBfmin => atomic(AtomicOp::Fmin, true),
        SubOp::LscAtomicBfmax => atomic(AtomicOp::Fmax, true),
        SubOp::LscAtomicBfcas => atomic(AtomicOp::Fcmpwr, true),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Vector,
    Strided,
    Quad,
}

impl Decoder<'_> {
    pub(super) fn decode_lsc_untyped(
        &mut self,
        f: &Fields,
        i: &view::LscUntyped,
    ) -> Result<Op, LoadError> {
        // The mnemonic, which names the operation in messages.
        let mnemonic = i.lsc_sub_op.text();
        let Some(operation) = operation(i.lsc_sub_op) else {
            let store = i.lsc_sub_op == SubOp::LscStoreBlock2d;
            return self.decode_lsc_block2d(f, i, mnemonic, store);
        };
        let refuse = |why: &str| f.not_executed(format!("{mnemonic}: {why}"));
        let (kind, shape) = operation.map_err(refuse)?;
        let surface = i.surface.filter(|op| !op.is_null());
        let (space, base) = match (i.addr_type, i.lsc_sfid) {
            (Some(AddrType::Flat), Sfid::Slm) => (SurfaceRef::Slm, surface),
            (Some(AddrType::Flat), Sfid::Ugm | Sfid::Ugml) => (SurfaceRef::Stateless, surface),
            (Some(AddrType::Bti), _) => (self.binding_table_surface(f, surface, &refuse)?, None),
            (Some(addr @ (AddrType::Bss | AddrType::Ss | AddrType::Surf)), _) => {
                return Err(refuse(&format!(
                    "`{}` addresses a surface through surface state, and this runtime \
                     has no bindless binding API (bind a surface and use `bti(N)`)",
                    addr.text()
                )));
            }
            (Some(AddrType::Arg), _) => {
                return Err(refuse(
                    "`arg` addresses the indirect kernel-argument area, which this model does \
                     not have",
                ));
            }
            (Some(AddrType::NoneValue) | None, _) => {
                return Err(refuse("the address model `none`"));
            }
        };
        // `flat(0x0)` is the same as no base.
        let base = match base {
            Some(Operand::Immediate(imm)) if imm.bits == 0 => None,
            Some(op) => Some(self.src(f, op, 1, true)?),
            None => None,
        };
        let address_size = match i.addr_size {
            Some(AddrSize::A64) => LscAddrSize::A64,
            Some(AddrSize::A32) => LscAddrSize::A32,
            Some(AddrSize::A32u) => LscAddrSize::A32u,
            Some(AddrSize::A32s) => LscAddrSize::A32s,
            Some(AddrSize::A16) => {
                return Err(refuse(
                    "16-bit addresses (`a16`): the layout of their payload is not documented",
                ));
            }
            Some(AddrSize::NoneValue) | None => {
                return Err(refuse("the address size `none`"));
            }
        };
        let DataSize {
            mem_bytes,
            slot_bytes,
            high_half,
        } = DataSize::of(i.data_size)
            .ok_or_else(|| refuse(&format!("the data size `{}`", i.data_size.text())))?;
        let transposed = i.data_order == DataOrder::T;
        let elements = if shape == Shape::Quad {
            i.ch_mask.map_or(0, |mask| mask.encode() & 0xf)
        } else {
            use DataElemsPerAddr as N;
            let count: u32 = match i.data_elems_per_addr {
                None | Some(N::NoneValue | N::N1) => 1,
                Some(N::N2) => 2,
                Some(N::N3) => 3,
                Some(N::N4) => 4,
                Some(N::N8) => 8,
                Some(N::N16) => 16,
                Some(N::N32) => 32,
                Some(N::N64) => 64,
            };
            if count >= 64 {
                u64::MAX
            } else {
                (1u64 << count) - 1
            }
        };
        if let LscKind::Atomic { bf16, .. } = kind {
            if bf16 && mem_bytes != 2 {
                return Err(refuse("the bfloat16 atomics work on `d16u32` data"));
            }
            if high_half {
                return Err(refuse("atomics on `d16u32h` data"));
            }
        }
        let address_scale = i.addr_scale.map_or(1, u64::from);
        // A signed dword.
        let address_offset = i64::from(i.addr_imm_offset.unwrap_or(0));
        let exec = f.exec(i.exec_size)?;
        let pred = self.pred(f, i.pred)?;
        let address_bytes = if address_size == LscAddrSize::A64 {
            8
        } else {
            4
        };

        // The per-lane d32/d64 gather and scatter of SVM: the SVM message with its fast path.
        if shape == Shape::Vector
            && !matches!(kind, LscKind::Atomic { .. })
            && space == SurfaceRef::Stateless
            && base.is_none()
            && address_size == LscAddrSize::A64
            && !transposed
            && elements == 1
            && mem_bytes == slot_bytes
            && (mem_bytes == 4 || mem_bytes == 8)
        {
            return self.svm_scattered(
                f,
                i,
                kind,
                exec,
                pred,
                mem_bytes,
                address_scale,
                address_offset,
            );
        }

        let blocks = elements.count_ones();
        if blocks == 0 {
            return Err(f.err(format!("{mnemonic}: no channel to move")));
        }
        let block_pitch =
            (exec.size * slot_bytes).div_ceil(self.layout.grf_bytes) * self.layout.grf_bytes;
        let data_len = if transposed {
            blocks * slot_bytes
        } else {
            (blocks - 1) * block_pitch + exec.size * slot_bytes
        };
        let addresses = if shape == Shape::Strided {
            let pitch = match i.src0_addr_pitch {
                Some(op) => self.src(f, op, 1, true)?,
                // Left out: one lane's data, which makes a packed block.
                None => immediate_ud(blocks * mem_bytes),
            };
            LscAddresses::Strided {
                base: self.raw(f, required(f, i.src0_addr_base)?, address_bytes)?,
                pitch,
            }
        } else {
            let addrs = required(f, i.src0_addrs)?;
            LscAddresses::Lanes(self.raw(f, addrs, exec.size * address_bytes)?)
        };
        let null = Raw {
            base: 0,
            end: 0,
            null: true,
        };
        let (data, src0, src1) = match kind {
            LscKind::Load => (self.raw(f, required(f, i.dst_data)?, data_len)?, null, null),
            LscKind::Store => (
                self.raw(f, required(f, i.src1_data)?, data_len)?,
                null,
                null,
            ),
            LscKind::Atomic { op, .. } => {
                let len = exec.size * slot_bytes;
                let dst = self.raw(f, required(f, i.dst_data)?, len)?;
                let src1 = self.raw(f, required(f, i.src1_data)?, len)?;
                let src2 = self.raw(f, required(f, i.src2_data)?, len)?;
                // The compare-and-swaps compare with Src1Data and store Src2Data: `Cmpxchg`
                // takes the new value first, `Fcmpwr` the compared one.
                if op == AtomicOp::Cmpxchg {
                    (dst, src2, src1)
                } else {
                    (dst, src1, src2)
                }
            }
        };
        Ok(Op::Lsc(Box::new(LscAccess {
            exec,
            pred,
            kind,
            space,
            base,
            addresses,
            address_size,
            address_scale,
            address_offset,
            mem_bytes,
            slot_bytes,
            high_half,
            elements,
            transposed,
            block_pitch,
            data,
            src0,
            src1,
        })))
    }

    /// `bti(N)`: the surface a launch binds as `TN` (N from 6 on, as for the other surface
    /// messages). The entries below are this model's predefined surfaces (T0 the group's SLM,
    /// T5 the stateless space, T1-T4 not modelled), which a compiler's `bti(N)` does not mean.
    fn binding_table_surface(
        &mut self,
        f: &Fields,
        surface: Option<&Operand>,
        refuse: &dyn Fn(&str) -> LoadError,
    ) -> Result<SurfaceRef, LoadError> {
        let Some(Operand::Immediate(imm)) = surface else {
            return Err(refuse(
                "a binding-table index held in a register (this runtime takes `bti(N)` with an \
                 immediate N)",
            ));
        };
        let n = imm.bits;
        if n < u64::from(FIRST_USER_SURFACE) {
            return Err(refuse(&format!(
                "binding-table entry {n} is one of this model's predefined surfaces, not a \
                 bound buffer (bind surfaces as T{FIRST_USER_SURFACE} and above)"
            )));
        }
        self.surface(f, &Operand::Name(format!("T{n}")))
    }

    #[allow(clippy::too_many_arguments)]
    fn svm_scattered(
        &mut self,
        f: &Fields,
        i: &view::LscUntyped,
        kind: LscKind,
        exec: ExecCtl,
        pred: Option<crate::ops::PredCtl>,
        block_bytes: u32,
        address_scale: u64,
        address_offset: i64,
    ) -> Result<Op, LoadError> {
        let scatter = kind == LscKind::Store;
        let addresses = self.raw(f, required(f, i.src0_addrs)?, exec.size * 8)?;
        let data_op = if scatter { i.src1_data } else { i.dst_data };
        let data = self.raw(f, required(f, data_op)?, exec.size * block_bytes)?;
        let access = Box::new(SvmScattered {
            exec,
            pred,
            block_bytes,
            blocks: 1,
            addresses,
            address_scale,
            address_offset,
            data,
        });
        Ok(if scatter {
            Op::SvmScatter(access)
        } else {
            Op::SvmGather(access)
        })
    }
}

/// An operand the operation needs, which its template may leave out.
pub(super) fn required<'o>(f: &Fields, op: Option<&'o Operand>) -> Result<&'o Operand, LoadError> {
    op.ok_or_else(|| {
        f.err(format!(
            "{}: an operand this operation needs is missing",
            f.desc.name.to_ascii_lowercase()
        ))
    })
}

fn immediate_ud(value: u32) -> Src {
    Src {
        kind: SrcKind::Imm(Box::new([u64::from(value)])),
        ty: visa_isa::ast::ElemType::Ud,
        modifier: SrcMod::None,
    }
}

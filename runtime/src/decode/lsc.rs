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

use visa_isa::ast::{FieldValue, Operand, SrcMod};

use super::{DataSize, Decoder, Fields};
use crate::error::LoadError;
use crate::layout::FIRST_USER_SURFACE;
use crate::ops::{
    AtomicOp, ExecCtl, LscAccess, LscAddrSize, LscAddresses, LscKind, Op, Raw, Src, SrcKind,
    SurfaceRef, SvmScattered,
};

/// Each atomic operation of the document, as the read-modify-write it performs (bfloat16 for
/// the `bf` forms).
const ATOMICS: &[(&str, AtomicOp, bool)] = &[
    ("lsc_atomic_iinc", AtomicOp::Inc, false),
    ("lsc_atomic_idec", AtomicOp::Dec, false),
    ("lsc_atomic_load", AtomicOp::Load, false),
    ("lsc_atomic_store", AtomicOp::Xchg, false),
    ("lsc_atomic_iadd", AtomicOp::Add, false),
    ("lsc_atomic_isub", AtomicOp::Sub, false),
    ("lsc_atomic_smin", AtomicOp::Imin, false),
    ("lsc_atomic_smax", AtomicOp::Imax, false),
    ("lsc_atomic_umin", AtomicOp::Min, false),
    ("lsc_atomic_umax", AtomicOp::Max, false),
    ("lsc_atomic_icas", AtomicOp::Cmpxchg, false),
    ("lsc_atomic_fadd", AtomicOp::Fadd, false),
    ("lsc_atomic_fsub", AtomicOp::Fsub, false),
    ("lsc_atomic_fmin", AtomicOp::Fmin, false),
    ("lsc_atomic_fmax", AtomicOp::Fmax, false),
    ("lsc_atomic_fcas", AtomicOp::Fcmpwr, false),
    ("lsc_atomic_and", AtomicOp::And, false),
    ("lsc_atomic_or", AtomicOp::Or, false),
    ("lsc_atomic_xor", AtomicOp::Xor, false),
    ("lsc_atomic_bfadd", AtomicOp::Fadd, true),
    ("lsc_atomic_bfsub", AtomicOp::Fsub, true),
    ("lsc_atomic_bfmin", AtomicOp::Fmin, true),
    ("lsc_atomic_bfmax", AtomicOp::Fmax, true),
    ("lsc_atomic_bfcas", AtomicOp::Fcmpwr, true),
];

/// What `lsc_*` means here, or why it is not executed.
fn operation(mnemonic: &str) -> Result<(LscKind, Shape), &'static str> {
    Ok(match mnemonic {
        "lsc_load" => (LscKind::Load, Shape::Vector),
        "lsc_load_strided" => (LscKind::Load, Shape::Strided),
        "lsc_load_quad" => (LscKind::Load, Shape::Quad),
        // Compression is not modelled: an uncompressed store is a store.
        "lsc_store" | "lsc_store_uncompressed" => (LscKind::Store, Shape::Vector),
        "lsc_store_strided" => (LscKind::Store, Shape::Strided),
        "lsc_store_quad" => (LscKind::Store, Shape::Quad),
        "lsc_load_status" => {
            return Err(
                "it reports whether pages are resident, which this memory model does \
                        not have",
            );
        }
        "lsc_apndctr_atomic_add" | "lsc_apndctr_atomic_sub" => {
            return Err("append counters live in surface state, which this model does not have");
        }
        other => match ATOMICS.iter().find(|(name, ..)| *name == other) {
            Some(&(_, op, bf16)) => (LscKind::Atomic { op, bf16 }, Shape::Vector),
            None => return Err("an LSC operation this runtime does not know"),
        },
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Vector,
    Strided,
    Quad,
}

impl Decoder<'_> {
    pub(super) fn decode_lsc_untyped(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let word = |name: &str| f.code_token(name);
        let mnemonic = word("LscSubOp")?;
        if let Some(store) = super::lsc_block2d::block2d_operation(mnemonic) {
            return self.decode_lsc_block2d(f, mnemonic, store);
        }
        let refuse = |why: &str| f.not_executed(format!("{mnemonic}: {why}"));
        let (kind, shape) = operation(mnemonic).map_err(refuse)?;
        let sfid = word("LscSFID")?;
        let addr_type = word("AddrType")?;
        let surface = match f.get("Surface") {
            Some(FieldValue::Operand(op)) if !op.is_null() => Some(op),
            _ => None,
        };
        let (space, base) = match (addr_type, sfid) {
            ("flat", "slm") => (SurfaceRef::Slm, surface),
            ("flat", "ugm" | "ugml") => (SurfaceRef::Stateless, surface),
            ("flat", other) => return Err(refuse(&format!("flat addresses of `{other}`"))),
            ("bti", _) => (self.binding_table_surface(f, surface, &refuse)?, None),
            ("bss" | "ss" | "surf", _) => {
                return Err(refuse(&format!(
                    "`{addr_type}` addresses a surface through surface state, and this runtime \
                     has no bindless binding API (bind a surface and use `bti(N)`)"
                )));
            }
            ("arg", _) => {
                return Err(refuse(
                    "`arg` addresses the indirect kernel-argument area, which this model does \
                     not have",
                ));
            }
            (other, _) => return Err(refuse(&format!("the address model `{other}`"))),
        };
        // `flat(0x0)` is the same as no base.
        let base = match base {
            Some(Operand::Immediate(imm)) if imm.bits == 0 => None,
            Some(op) => Some(self.src(f, op, 1, true)?),
            None => None,
        };
        let address_size = match word("AddrSize")? {
            "a64" => LscAddrSize::A64,
            "a32" => LscAddrSize::A32,
            "a32u" => LscAddrSize::A32u,
            "a32s" => LscAddrSize::A32s,
            "a16" => {
                return Err(refuse(
                    "16-bit addresses (`a16`): the layout of their payload is not documented",
                ));
            }
            other => return Err(refuse(&format!("the address size `{other}`"))),
        };
        let data_size = word("DataSize")?;
        let DataSize {
            mem_bytes,
            slot_bytes,
            high_half,
        } = DataSize::of(data_size)
            .ok_or_else(|| refuse(&format!("the data size `{data_size}`")))?;
        let transposed = word("DataOrder")? == "t";
        let elements = if shape == Shape::Quad {
            f.int("ChMask")? & 0xf
        } else {
            let count: u32 = match word("DataElemsPerAddr")? {
                "none" => 1,
                written => written
                    .parse()
                    .map_err(|_| f.err(format!("bad vector size `{written}`")))?,
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
        let address_scale = match f.get("AddrScale") {
            Some(FieldValue::Int(scale)) => *scale,
            _ => 1,
        };
        // A signed dword.
        let address_offset = i64::from(f.int("AddrImmOffset")? as u32 as i32);
        let exec = f.exec()?;
        let pred = self.pred(f)?;
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
            let pitch = match f.get("Src0AddrPitch") {
                Some(FieldValue::Operand(op)) => self.src(f, op, 1, true)?,
                // Left out: one lane's data, which makes a packed block.
                _ => immediate_ud(blocks * mem_bytes),
            };
            LscAddresses::Strided {
                base: self.raw(f, f.operand("Src0AddrBase")?, address_bytes)?,
                pitch,
            }
        } else {
            LscAddresses::Lanes(self.raw(f, f.operand("Src0Addrs")?, exec.size * address_bytes)?)
        };
        let null = Raw {
            base: 0,
            end: 0,
            null: true,
        };
        let (data, src0, src1) = match kind {
            LscKind::Load => (self.raw(f, f.operand("DstData")?, data_len)?, null, null),
            LscKind::Store => (self.raw(f, f.operand("Src1Data")?, data_len)?, null, null),
            LscKind::Atomic { op, .. } => {
                let len = exec.size * slot_bytes;
                let dst = self.raw(f, f.operand("DstData")?, len)?;
                let src1 = self.raw(f, f.operand("Src1Data")?, len)?;
                let src2 = self.raw(f, f.operand("Src2Data")?, len)?;
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
        kind: LscKind,
        exec: ExecCtl,
        pred: Option<crate::ops::PredCtl>,
        block_bytes: u32,
        address_scale: u64,
        address_offset: i64,
    ) -> Result<Op, LoadError> {
        let scatter = kind == LscKind::Store;
        let addresses = self.raw(f, f.operand("Src0Addrs")?, exec.size * 8)?;
        let data_field = if scatter { "Src1Data" } else { "DstData" };
        let data = self.raw(f, f.operand(data_field)?, exec.size * block_bytes)?;
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

fn immediate_ud(value: u32) -> Src {
    Src {
        kind: SrcKind::Imm(Box::new([u64::from(value)])),
        ty: visa_isa::ast::ElemType::Ud,
        modifier: SrcMod::None,
    }
}

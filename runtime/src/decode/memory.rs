//! Decoding of the memory messages: scaled gather/scatter, oword and SVM block accesses, SVM
//! gather/scatter and the atomic messages.

use visa_isa::ast::{ExecSize, Operand, Predicate};
use visa_isa::instrs::view;
use visa_isa::instrs::view::gather_scaled::NumBlocks;
use visa_isa::instrs::view::oword_ld::Size;
use visa_isa::instrs::view::svm_atomic::Op as SvmAtomicOp;
use visa_isa::instrs::view::svm_block_ld::PropertiesSize;
use visa_isa::instrs::view::svm_gather::{BlockSize, NumBlocks as SvmGatherNumBlocks};

use crate::error::LoadError;
use crate::ops::*;

use super::{Decoder, Fields};

/// The operands of `gather_scaled` / `scatter_scaled`.
pub(super) struct ScaledForm<'v> {
    pub exec: ExecSize,
    pub pred: Option<&'v Predicate>,
    pub num_blocks: NumBlocks,
    pub surface: &'v Operand,
    pub offset: &'v Operand,
    pub element_offset: &'v Operand,
    pub data: &'v Operand,
}

/// The atomic messages.
pub(super) enum Atomic<'a, 'v> {
    Dword(&'a view::DwordAtomic<'v>),
    Svm(&'a view::SvmAtomic<'v>),
}

/// The three oword block messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Oword {
    Load,
    LoadUnaligned,
    Store,
}

impl Decoder<'_> {
    pub(super) fn decode_gather_scaled(
        &mut self,
        f: &Fields,
        scatter: bool,
        form: ScaledForm,
    ) -> Result<Op, LoadError> {
        let exec = f.exec(form.exec)?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(
                f.err("gather_scaled/scatter_scaled execution size must be 1, 2, 4, 8 or 16")
            );
        }
        let pred = self.pred(f, form.pred)?;
        let bytes = match form.num_blocks {
            NumBlocks::N1Block => 1,
            NumBlocks::N2Blocks => 2,
            NumBlocks::N4Blocks => 4,
        };
        let surface = self.surface(f, form.surface)?;
        let offset = self.src(f, form.offset, 1, true)?;
        let element_offset = self.raw(f, form.element_offset, exec.size * 4)?;
        let data = self.raw(f, form.data, exec.size * 4)?;
        let access = Box::new(GatherScaled {
            exec,
            pred,
            bytes,
            surface,
            offset,
            element_offset,
            data,
        });
        Ok(if scatter {
            Op::ScatterScaled(access)
        } else {
            Op::GatherScaled(access)
        })
    }

    pub(super) fn decode_oword(
        &mut self,
        f: &Fields,
        kind: Oword,
        size: Size,
        [surface, offset, data]: [&Operand; 3],
    ) -> Result<Op, LoadError> {
        let owords = match size {
            Size::N1Oword => 1,
            Size::N2Owords => 2,
            Size::N4Owords => 4,
            Size::N8Owords => 8,
            Size::N16Owords => 16,
        };
        let (offset_op, data_op) = (offset, data);
        let surface = self.surface(f, surface)?;
        if owords == 16 && surface != SurfaceRef::Slm {
            return Err(f.err("16 owords may only be used with T0 (SLM)"));
        }
        let offset = self.src(f, offset_op, 1, true)?;
        let store = kind == Oword::Store;
        let data = self.raw(f, data_op, owords * 16)?;
        let access = Box::new(OwordAccess {
            owords,
            unaligned: kind == Oword::LoadUnaligned,
            surface,
            offset,
            data,
        });
        Ok(if store {
            Op::OwordSt(access)
        } else {
            Op::OwordLd(access)
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn decode_svm_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
        exec: ExecSize,
        pred: Option<&Predicate>,
        (block_size, num_blocks): (BlockSize, SvmGatherNumBlocks),
        [addresses, data_op]: [&Operand; 2],
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(f.err("svm_gather/svm_scatter execution size must be 1, 2, 4, 8 or 16"));
        }
        let pred = self.pred(f, pred)?;
        let block_bytes = match block_size {
            BlockSize::N1Byte => 1,
            BlockSize::N4Bytes => 4,
            BlockSize::N8Bytes => 8,
        };
        let blocks = match num_blocks {
            SvmGatherNumBlocks::N1Block => 1,
            SvmGatherNumBlocks::N2Blocks => 2,
            SvmGatherNumBlocks::N4Blocks => 4,
            SvmGatherNumBlocks::N8Blocks => 8,
        };
        if blocks > 1 && exec.size < 8 {
            return Err(f.err("more than one block per address requires execution size 8 or 16"));
        }
        let lanes = if exec.size <= 8 { 8 } else { 16 };
        let footprint = if block_bytes == 1 {
            lanes * blocks.max(4)
        } else {
            lanes * blocks * block_bytes
        };
        let addresses = self.raw(f, addresses, exec.size * 8)?;
        // The message footprint covers the rounded-up SIMD width; only enabled channels' slots
        // are touched, so require the slots of the instruction's channels.
        let used = footprint_for(exec.size, block_bytes, blocks, lanes);
        let data = self.raw(f, data_op, used.min(footprint))?;
        let access = Box::new(SvmScattered {
            exec,
            pred,
            block_bytes,
            blocks,
            addresses,
            address_scale: 1,
            address_offset: 0,
            data,
        });
        Ok(if scatter {
            Op::SvmScatter(access)
        } else {
            Op::SvmGather(access)
        })
    }

    /// `svm_block_ld` (`unaligned`: its alignment code says dword-aligned) / `svm_block_st`.
    pub(super) fn decode_svm_block(
        &mut self,
        f: &Fields,
        store: bool,
        (size, unaligned): (PropertiesSize, bool),
        [address, data]: [&Operand; 2],
    ) -> Result<Op, LoadError> {
        let owords = match size {
            PropertiesSize::N1Oword => 1,
            PropertiesSize::N2Owords => 2,
            PropertiesSize::N4Owords => 4,
            PropertiesSize::N8Owords => 8,
        };
        let address = self.src(f, address, 1, true)?;
        let data = self.raw(f, data, owords * 16)?;
        let access = Box::new(SvmBlock {
            owords,
            align: if unaligned { 4 } else { 16 },
            address,
            data,
        });
        Ok(if store {
            Op::SvmBlockSt(access)
        } else {
            Op::SvmBlockLd(access)
        })
    }
}

impl Decoder<'_> {
    pub(super) fn decode_atomic(&mut self, f: &Fields, atomic: Atomic) -> Result<Op, LoadError> {
        let (exec, pred, code) = match &atomic {
            Atomic::Dword(i) => (i.exec_size, i.pred, i.op.encode()),
            Atomic::Svm(i) => (i.exec_size, i.pred, SvmAtomicOp::encode(i.op)),
        };
        let svm = matches!(atomic, Atomic::Svm(_));
        let exec = f.exec(exec)?;
        let max_size = if svm { 8 } else { 16 };
        if exec.size > max_size {
            return Err(f.err(format!("atomic execution size must be at most {max_size}")));
        }
        let pred = self.pred(f, pred)?;
        let op = AtomicOp::from_code(code & 0x1f)
            .ok_or_else(|| f.err(format!("unknown atomic operation code {:#x}", code & 0x1f)))?;
        let width = match (svm, (code >> 5) & 0b11) {
            (_, 0) => 4,
            (_, 1) => 2,
            (true, 2) => 8,
            (_, other) => return Err(f.err(format!("bad atomic width code {other}"))),
        };
        if width == 8 && op.is_float() {
            return Err(f.err("there are no 64-bit floating-point atomics"));
        }
        let slot = if width == 8 { 8 } else { 4 };
        let (target, [src0, src1, dst]) = match atomic {
            Atomic::Svm(i) => (
                AtomicTarget::Svm {
                    addresses: self.raw(f, i.addresses, exec.size * 8)?,
                },
                [i.src0, i.src1, i.dst],
            ),
            Atomic::Dword(i) => (
                AtomicTarget::Surface {
                    surface: self.surface(f, i.surface)?,
                    offsets: self.raw(f, i.element_offset, exec.size * 4)?,
                },
                [i.src0, i.src1, i.dst],
            ),
        };
        let src0 = self.raw(f, src0, exec.size * slot)?;
        let src1 = self.raw(f, src1, exec.size * slot)?;
        let dst = self.raw(f, dst, exec.size * slot)?;
        Ok(Op::Atomic(Box::new(AtomicAccess {
            exec,
            pred,
            op,
            width,
            target,
            src0,
            src1,
            dst,
        })))
    }
}

/// Bytes of an SVM gather/scatter data operand used by channels `0..exec_size`.
fn footprint_for(exec_size: u32, block_bytes: u32, blocks: u32, lanes: u32) -> u32 {
    if block_bytes == 1 {
        exec_size * blocks.max(4)
    } else {
        // Block j of channel i lives at (j * lanes + i) * block_bytes.
        ((blocks - 1) * lanes + exec_size) * block_bytes
    }
}

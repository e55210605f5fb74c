//! Decoding of the memory messages: scaled gather/scatter, oword and SVM block accesses, SVM
//! gather/scatter and the atomic messages.

use crate::error::LoadError;
use crate::ops::*;

use super::{Decoder, Fields};

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
    ) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(
                f.err("gather_scaled/scatter_scaled execution size must be 1, 2, 4, 8 or 16")
            );
        }
        let pred = self.pred(f)?;
        let bytes = f.count("Num_blocks", 0b11)?;
        if ![1, 2, 4].contains(&bytes) {
            return Err(f.err("num_blocks must be 1, 2 or 4"));
        }
        let surface = self.surface(f, f.operand("Surface")?)?;
        let offset = self.src(f, f.operand("Offset")?, 1, true)?;
        let element_offset = self.raw(f, f.operand("Element_offset")?, exec.size * 4)?;
        let data = self.raw(
            f,
            f.operand(if scatter { "Src" } else { "Dst" })?,
            exec.size * 4,
        )?;
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

    pub(super) fn decode_oword(&mut self, f: &Fields, kind: Oword) -> Result<Op, LoadError> {
        let owords = f.count("Size", 0b111)?;
        if ![1, 2, 4, 8, 16].contains(&owords) {
            return Err(f.err(format!("bad oword count {owords}")));
        }
        let surface = self.surface(f, f.operand("Surface")?)?;
        if owords == 16 && surface != SurfaceRef::Slm {
            return Err(f.err("16 owords may only be used with T0 (SLM)"));
        }
        let offset = self.src(f, f.operand("Offset")?, 1, true)?;
        let store = kind == Oword::Store;
        let data = self.raw(
            f,
            f.operand(if store { "Src" } else { "Dst" })?,
            owords * 16,
        )?;
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

    pub(super) fn decode_svm_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
    ) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(f.err("svm_gather/svm_scatter execution size must be 1, 2, 4, 8 or 16"));
        }
        let pred = self.pred(f)?;
        let bs_code = f.int("Block_size")? & 0b11;
        let block_bytes = match f.token("Block_size", bs_code).and_then(|t| t.parse().ok()) {
            Some(n) => n,
            // Undocumented table: the vISA encoding (1 byte, 4 bytes, 8 bytes; 0b11 is the
            // documents' misprint for 8 bytes).
            None => match bs_code {
                0 => 1,
                1 => 4,
                _ => 8,
            },
        };
        if ![1, 4, 8].contains(&block_bytes) {
            return Err(f.err(format!("bad SVM block size {block_bytes}")));
        }
        let blocks = f.count("Num_blocks", 0b11)?;
        if blocks > 1 && exec.size < 8 {
            return Err(f.err("more than one block per address requires execution size 8 or 16"));
        }
        let lanes = if exec.size <= 8 { 8 } else { 16 };
        let footprint = if block_bytes == 1 {
            lanes * blocks.max(4)
        } else {
            lanes * blocks * block_bytes
        };
        let addresses = self.raw(f, f.operand("Addresses")?, exec.size * 8)?;
        let data_op = f.operand(if scatter { "Src" } else { "Dst" })?;
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

    pub(super) fn decode_svm_block(&mut self, f: &Fields, store: bool) -> Result<Op, LoadError> {
        let field = if f.desc.field_index("Properties").is_some() {
            "Properties"
        } else {
            "Size"
        };
        let owords = f.count(field, 0b111)?;
        if ![1, 2, 4, 8].contains(&owords) {
            return Err(f.err(format!("bad oword count {owords}")));
        }
        let unaligned = !store && f.int(field)? & 0b1000 != 0;
        let address = self.src(f, f.operand("Address")?, 1, true)?;
        let data = self.raw(
            f,
            f.operand(if store { "Src" } else { "Dst" })?,
            owords * 16,
        )?;
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
    pub(super) fn decode_atomic(&mut self, f: &Fields, svm: bool) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let max_size = if svm { 8 } else { 16 };
        if exec.size > max_size {
            return Err(f.err(format!("atomic execution size must be at most {max_size}")));
        }
        let pred = self.pred(f)?;
        let code = f.int("Op")?;
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
        let target = if svm {
            AtomicTarget::Svm {
                addresses: self.raw(f, f.operand("Addresses")?, exec.size * 8)?,
            }
        } else {
            AtomicTarget::Surface {
                surface: self.surface(f, f.operand("Surface")?)?,
                offsets: self.raw(f, f.operand("Element_offset")?, exec.size * 4)?,
            }
        };
        let src0 = self.raw(f, f.operand("Src0")?, exec.size * slot)?;
        let src1 = self.raw(f, f.operand("Src1")?, exec.size * slot)?;
        let dst = self.raw(f, f.operand("Dst")?, exec.size * slot)?;
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

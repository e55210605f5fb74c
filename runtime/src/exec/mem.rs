//! Memory messages: scaled gather/scatter on surfaces, oword block loads/stores, SVM
//! gather/scatter and SVM block loads/stores (runtime-semantics §10-§11).

use super::access::{MemCtx, Target, check_align, svm_fault};
use crate::error::Fault;
use crate::exec::lane_numbers;
use crate::machine::Thread;
use crate::ops::{GatherScaled, OwordAccess, Raw, SvmBlock, SvmScattered};

impl Thread<'_> {
    /// Element `index` of `N` bytes of a raw operand, read for `lane`.
    fn raw_element<const N: usize>(
        &self,
        raw: &Raw,
        index: u32,
        lane: u32,
    ) -> Result<[u8; N], Fault> {
        let mut bytes = [0u8; N];
        self.read_raw(raw, index * N as u32, &mut bytes, Some(lane))?;
        Ok(bytes)
    }

    pub(super) fn raw_u32(&self, raw: &Raw, index: u32, lane: u32) -> Result<u32, Fault> {
        self.raw_element(raw, index, lane).map(u32::from_le_bytes)
    }

    pub(super) fn raw_u64(&self, raw: &Raw, index: u32, lane: u32) -> Result<u64, Fault> {
        self.raw_element(raw, index, lane).map(u64::from_le_bytes)
    }

    pub(crate) fn exec_gather_scaled(
        &mut self,
        g: &GatherScaled,
        mem: &MemCtx,
        scatter: bool,
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(g.exec, g.pred)?;
        if enables == 0 {
            return Ok(());
        }
        let base = self.scalar_u64(&g.offset)? & 0xffff_ffff;
        if !self.program.general_only && self.fast_gather_scaled(g, mem, scatter, enables, base) {
            return Ok(());
        }
        let n = g.bytes as usize;
        let target = self.target(g.surface, mem);
        for lane in lane_numbers(enables) {
            let offset = base + u64::from(self.raw_u32(&g.element_offset, lane, lane)?);
            self.surface_lane(mem, &target, offset, &g.data, lane, n, scatter)?;
        }
        Ok(())
    }

    /// One lane of a byte/word/dword scattered surface access: `n` (1, 2 or 4) bytes between
    /// the surface at `address` and the lane's dword of `data`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn surface_lane(
        &mut self,
        mem: &MemCtx,
        target: &Target,
        address: u64,
        data: &Raw,
        lane: u32,
        n: usize,
        scatter: bool,
    ) -> Result<(), Fault> {
        let at_lane = |kind| Fault::at_lane(kind, lane);
        let mut bytes = [0u8; 4];
        let n = n.min(4);
        if scatter {
            self.read_raw(data, lane * 4, &mut bytes[..n], Some(lane))?;
            mem.write(target, address, &bytes[..n]).map_err(at_lane)?;
        } else {
            mem.read(target, address, &mut bytes[..n])
                .map_err(at_lane)?;
            self.write_raw(data, lane * 4, &bytes[..n], true)?;
            // The upper bytes of 1- and 2-byte gathers are undefined.
            self.write_raw(data, lane * 4 + n as u32, &[0u8; 4][n..], false)?;
        }
        Ok(())
    }

    pub(crate) fn exec_oword(
        &mut self,
        o: &OwordAccess,
        mem: &MemCtx,
        store: bool,
    ) -> Result<(), Fault> {
        let offset = self.scalar_u64(&o.offset)? & 0xffff_ffff;
        let byte_offset = if o.unaligned {
            check_align(offset, 4, None)?;
            offset
        } else {
            offset * 16
        };
        let mut data = vec![0u8; o.owords as usize * 16];
        let target = self.target(o.surface, mem);
        if store {
            self.read_raw(&o.data, 0, &mut data, None)?;
            mem.write(&target, byte_offset, &data).map_err(Fault::new)
        } else {
            mem.read(&target, byte_offset, &mut data)
                .map_err(Fault::new)?;
            self.write_raw(&o.data, 0, &data, true)
        }
    }

    pub(crate) fn exec_svm_scattered(
        &mut self,
        s: &SvmScattered,
        mem: &MemCtx,
        scatter: bool,
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(s.exec, s.pred)?;
        if !self.program.general_only && self.fast_svm_scattered(s, mem, scatter, enables) {
            return Ok(());
        }
        let lanes = if s.exec.size <= 8 { 8 } else { 16 };
        let bs = s.block_bytes;
        for lane in lane_numbers(enables) {
            let address = s.lane_address(self.raw_u64(&s.addresses, lane, lane)?);
            check_align(address, bs, Some(lane))?;
            let at_lane = |kind| Fault::at_lane(kind, lane);
            if bs == 1 {
                // Lane-major bytes: lane i's bytes start at i * max(4, blocks).
                let stride = s.blocks.max(4);
                let len = s.blocks as usize;
                let mut data = [0u8; 8];
                if scatter {
                    self.read_raw(&s.data, lane * stride, &mut data[..len], Some(lane))?;
                    mem.svm
                        .write(address, &data[..len])
                        .map_err(|f| at_lane(svm_fault(f, address, len)))?;
                } else {
                    mem.svm
                        .read(address, &mut data[..len])
                        .map_err(|f| at_lane(svm_fault(f, address, len)))?;
                    self.write_raw(&s.data, lane * stride, &data[..len], true)?;
                    let pad = (stride - s.blocks) as usize;
                    self.write_raw(&s.data, lane * stride + s.blocks, &[0u8; 4][..pad], false)?;
                }
                continue;
            }
            // Block-major: block j of lane i at (j * lanes + i) * block size.
            for block in 0..s.blocks {
                let at = address.wrapping_add(u64::from(block * bs));
                let slot = (block * lanes + lane) * bs;
                let mut data = [0u8; 8];
                let data = &mut data[..bs as usize];
                if scatter {
                    self.read_raw(&s.data, slot, data, Some(lane))?;
                    mem.svm
                        .write(at, data)
                        .map_err(|f| at_lane(svm_fault(f, at, bs as usize)))?;
                } else {
                    mem.svm
                        .read(at, data)
                        .map_err(|f| at_lane(svm_fault(f, at, bs as usize)))?;
                    self.write_raw(&s.data, slot, data, true)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn exec_svm_block(
        &mut self,
        b: &SvmBlock,
        mem: &MemCtx,
        store: bool,
    ) -> Result<(), Fault> {
        let address = self.scalar_u64(&b.address)?;
        check_align(address, b.align, None)?;
        let len = b.owords as usize * 16;
        let mut data = vec![0u8; len];
        if store {
            self.read_raw(&b.data, 0, &mut data, None)?;
            mem.svm
                .write(address, &data)
                .map_err(|f| Fault::new(svm_fault(f, address, len)))
        } else {
            mem.svm
                .read(address, &mut data)
                .map_err(|f| Fault::new(svm_fault(f, address, len)))?;
            self.write_raw(&b.data, 0, &data, true)
        }
    }
}

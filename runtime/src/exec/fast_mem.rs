//! Whole-message fast paths for dword `gather_scaled`/`scatter_scaled` on a bound surface and
//! dword `svm_gather`/`svm_scatter`: the offsets or addresses are read as one checked slice, the
//! surface or SVM allocation is resolved once (the last allocation hit is reused for the next
//! lane), and the data operand is read or written as one slice.
//!
//! They return `false` before changing anything when the message is not of that shape or
//! something would trap (undefined or out-of-range operand bytes, a misaligned or unmapped
//! address, an unbound surface); the general per-lane path then runs and reports it exactly as
//! before.

use super::access::{MemCtx, Target};
use super::fast::Lanes;
use super::lanes_of;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::{GatherScaled, Raw, SvmScattered};

/// Whether two raw operands' first `a_len` / `b_len` bytes share no byte (or start at the
/// same byte, where lane `i` of one only meets lane `i` of the other).
fn separate(a: &Raw, a_len: usize, b: &Raw, b_len: usize) -> bool {
    let (a0, b0) = (a.base as usize, b.base as usize);
    a0 == b0 || a0 + a_len <= b0 || b0 + b_len <= a0
}

impl Thread<'_> {
    /// Elements of `SIZE` (4 or 8) bytes of a raw operand, one per lane, as `u64`s.
    fn raw_elements<const SIZE: usize>(
        &self,
        raw: &Raw,
        lanes: usize,
        enables: u32,
        out: &mut [u64; MAX_LANES],
    ) -> Option<()> {
        let start = raw.base as usize;
        let end = start + SIZE * lanes;
        if raw.null || end > raw.end as usize || !self.elements_defined(start, SIZE, lanes, enables)
        {
            return None;
        }
        let bytes = self.grf.get(start..end)?;
        for (value, b) in out.iter_mut().zip(bytes.chunks_exact(SIZE)) {
            let mut word = [0u8; 8];
            for (w, b) in word.iter_mut().zip(b) {
                *w = *b;
            }
            *value = u64::from_le_bytes(word);
        }
        Some(())
    }

    /// Writes one dword per enabled lane to a raw operand.
    fn write_raw_dwords(
        &mut self,
        raw: &Raw,
        lanes: usize,
        enables: u32,
        values: &Lanes,
    ) -> Option<()> {
        if raw.null || raw.base as usize + 4 * lanes > raw.end as usize {
            return None;
        }
        self.write_fast(raw.base as usize, lanes, enables, values)
    }

    /// Dword `gather_scaled` / `scatter_scaled` on a bound surface; `false` when the general
    /// path must run.
    pub(super) fn fast_gather_scaled(
        &mut self,
        g: &GatherScaled,
        mem: &MemCtx,
        scatter: bool,
        enables: u32,
        base: u64,
    ) -> bool {
        let lanes = g.exec.size as usize;
        if g.bytes != 4 || !separate(&g.element_offset, 4 * lanes, &g.data, 4 * lanes) {
            return false;
        }
        let Target::Buffer(buffer) = self.target(g.surface, mem) else {
            return false;
        };
        let mut offsets = [0u64; MAX_LANES];
        if self
            .raw_elements::<4>(&g.element_offset, lanes, enables, &mut offsets)
            .is_none()
        {
            return false;
        }
        let address = |lane: usize| base + offsets[lane];
        if scatter {
            let mut data = [0u64; MAX_LANES];
            if self
                .raw_elements::<4>(&g.data, lanes, enables, &mut data)
                .is_none()
            {
                return false;
            }
            for lane in lanes_of(enables) {
                buffer.write_dword(address(lane), data[lane] as u32);
            }
            return true;
        }
        let mut data = [0u32; MAX_LANES];
        for lane in lanes_of(enables) {
            data[lane] = buffer.read_dword(address(lane));
        }
        self.write_raw_dwords(&g.data, lanes, enables, &data)
            .is_some()
    }

    /// Dword `svm_gather` / `svm_scatter` (one 4-byte block per lane); `false` when the general
    /// path must run.
    pub(super) fn fast_svm_scattered(
        &mut self,
        s: &SvmScattered,
        mem: &MemCtx,
        scatter: bool,
        enables: u32,
    ) -> bool {
        let lanes = s.exec.size as usize;
        if s.block_bytes != 4
            || s.blocks != 1
            || !separate(&s.addresses, 8 * lanes, &s.data, 4 * lanes)
        {
            return false;
        }
        let mut addresses = [0u64; MAX_LANES];
        if self
            .raw_elements::<8>(&s.addresses, lanes, enables, &mut addresses)
            .is_none()
        {
            return false;
        }
        // (LSC's scale and offset; `svm_gather`'s addresses are used as they are.)
        if s.address_scale != 1 || s.address_offset != 0 {
            for lane in lanes_of(enables) {
                addresses[lane] = s.lane_address(addresses[lane]);
            }
        }
        // The allocation of the first lane; every lane must be a whole, aligned dword of it
        // (else the general path handles the message, lanes in other allocations included).
        let Some((base, buffer)) = lanes_of(enables)
            .next()
            .and_then(|lane| mem.svm.find(addresses[lane]))
        else {
            return false;
        };
        let Some(limit) = (buffer.len() as u64).checked_sub(4) else {
            return false;
        };
        let mut inside = true;
        for lane in lanes_of(enables) {
            let address = addresses[lane];
            inside &= address.is_multiple_of(4) && address.wrapping_sub(base) <= limit;
        }
        if !inside {
            return false;
        }
        let offsets = addresses.map(|a| a.wrapping_sub(base));
        if scatter {
            let mut data = [0u64; MAX_LANES];
            if self
                .raw_elements::<4>(&s.data, lanes, enables, &mut data)
                .is_none()
            {
                return false;
            }
            for lane in lanes_of(enables) {
                buffer.write_dword(offsets[lane], data[lane] as u32);
            }
            return true;
        }
        let mut data = [0u32; MAX_LANES];
        for lane in lanes_of(enables) {
            data[lane] = buffer.read_dword(offsets[lane]);
        }
        self.write_raw_dwords(&s.data, lanes, enables, &data)
            .is_some()
    }
}

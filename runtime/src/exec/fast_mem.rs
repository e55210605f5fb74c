//! Whole-message fast paths for `gather_scaled`/`scatter_scaled` (bytes, words or dwords) on a
//! bound surface,
//! dword `svm_gather`/`svm_scatter`, and surface `gather4_scaled`/`scatter4_scaled` (IGC's
//! OpenCL buffer accesses): the offsets or addresses are read as one checked slice, the
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
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::memory::Buffer;
use crate::ops::{Gather4, Gather4Target, GatherScaled, Raw, SvmScattered};

/// Whether two raw operands' first `a_len` / `b_len` bytes share no byte (or start at the
/// same byte, where lane `i` of one only meets lane `i` of the other).
fn separate(a: &Raw, a_len: usize, b: &Raw, b_len: usize) -> bool {
    let (a0, b0) = (a.base as usize, b.base as usize);
    a0 == b0 || a0 + a_len <= b0 || b0 + b_len <= a0
}

/// Where a surface message's elements are: a user surface's buffer, which drops (reads zero
/// for) bytes outside it, or the allocation holding a binding-table range of SVM, which must
/// hold every element up to `end` (else the general path traps), inside one allocation.
/// Returns the buffer, the range's start in it, and whether every element is known inside.
fn surface_buffer<'m>(
    target: Target<'m>,
    mem: &MemCtx<'m>,
    end: Option<u64>,
) -> Option<(&'m Buffer, u64, bool)> {
    match target {
        Target::Buffer(buffer) => Some((buffer, 0, false)),
        Target::SvmRange { base, len } => {
            let (start, buffer) = mem.svm.find(base)?;
            let inside = (base - start)
                .checked_add(len)
                .is_some_and(|end| end <= buffer.len() as u64);
            let fits = end.is_some_and(|end| end <= len);
            (inside && fits).then_some((buffer, base - start, true))
        }
        _ => None,
    }
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
        self.write_raw_dwords_at(raw, 0, lanes, enables, values)
    }

    /// [`Self::write_raw_dwords`] from byte `skip` of the operand on.
    fn write_raw_dwords_at(
        &mut self,
        raw: &Raw,
        skip: usize,
        lanes: usize,
        enables: u32,
        values: &Lanes,
    ) -> Option<()> {
        let start = raw.base as usize + skip;
        if raw.null || start + 4 * lanes > raw.end as usize {
            return None;
        }
        self.write_fast(start, 4, (lanes, enables), values)
    }

    /// A surface `gather4_scaled` / `scatter4_scaled` whose surface is a bound buffer or a
    /// binding-table range of SVM (an OpenCL buffer), every requested channel moved as dwords,
    /// given the enabled channels and each one's address as `gather4_addresses` read and
    /// checked them; `Ok(false)` when the general path must run (it then traps or not exactly
    /// as before).
    pub(super) fn fast_gather4(
        &mut self,
        g: &Gather4,
        mem: &MemCtx,
        scatter: bool,
        (enables, offsets): (u32, &[u64; 16]),
    ) -> Result<bool, Fault> {
        let Gather4Target::Surface { surface, .. } = &g.target else {
            return Ok(false);
        };
        let lanes = g.exec.size as usize;
        // (Four-channel messages are SIMD8 or SIMD16: every enabled lane indexes `offsets`.)
        if lanes > offsets.len() || enables >> lanes != 0 {
            return Ok(false);
        }
        // Byte of the highest requested channel within a lane's four.
        let last_channel = 4 * u64::from(7 - g.mask.leading_zeros());
        let slot_count = g.mask.count_ones() as usize;
        let data_bytes = ((slot_count - 1) * g.slot_dwords as usize + lanes) * 4;
        if g.data.null || g.data.base as usize + data_bytes > g.data.end as usize {
            return Ok(false);
        }
        let highest = lanes_of(enables).map(|lane| offsets[lane]).max();
        let end = highest.and_then(|o| o.checked_add(last_channel + 4));
        let Some((buffer, shift, checked)) = surface_buffer(self.target(*surface, mem), mem, end)
        else {
            return Ok(false);
        };
        let whole = |at: u64| checked || buffer.contains(at, 4);
        let channels = (0..4u32).filter(|c| g.mask >> c & 1 != 0).enumerate();
        if scatter {
            // Every channel's data is read (and checked defined) before any is written.
            let mut data = [[0u64; MAX_LANES]; 4];
            for (slot, values) in data.iter_mut().take(slot_count).enumerate() {
                let mut slot_raw = g.data;
                slot_raw.base += (slot * g.slot_dwords as usize * 4) as u32;
                if self
                    .raw_elements::<4>(&slot_raw, lanes, enables, values)
                    .is_none()
                {
                    return Ok(false);
                }
            }
            for (slot, channel) in channels {
                for lane in lanes_of(enables) {
                    let at = offsets[lane] + u64::from(4 * channel) + shift;
                    if whole(at) {
                        buffer.write_dword(at, data[slot][lane] as u32);
                    }
                }
            }
            return Ok(true);
        }
        for (slot, channel) in channels {
            let mut data = [0u32; MAX_LANES];
            for lane in lanes_of(enables) {
                let at = offsets[lane] + u64::from(4 * channel) + shift;
                if whole(at) {
                    data[lane] = buffer.read_dword(at);
                }
            }
            let skip = slot * g.slot_dwords as usize * 4;
            if self
                .write_raw_dwords_at(&g.data, skip, lanes, enables, &data)
                .is_none()
            {
                return Ok(false);
            }
            self.poison_slot_tail(g, slot as u32, slot + 1 == slot_count)?;
        }
        Ok(true)
    }

    /// `gather_scaled` / `scatter_scaled` of bytes, words or dwords on a bound surface; `false`
    /// when the general path must run.
    pub(super) fn fast_gather_scaled(
        &mut self,
        g: &GatherScaled,
        mem: &MemCtx,
        scatter: bool,
        enables: u32,
        base: u64,
    ) -> bool {
        let lanes = g.exec.size as usize;
        let n = g.bytes as usize;
        if !matches!(n, 1 | 2 | 4) || !separate(&g.element_offset, 4 * lanes, &g.data, 4 * lanes) {
            return false;
        }
        let mut offsets = [0u64; MAX_LANES];
        if self
            .raw_elements::<4>(&g.element_offset, lanes, enables, &mut offsets)
            .is_none()
        {
            return false;
        }
        let highest = lanes_of(enables).map(|lane| base + offsets[lane]).max();
        let end = highest.and_then(|o| o.checked_add(n as u64));
        let Some((buffer, shift, _)) = surface_buffer(self.target(g.surface, mem), mem, end) else {
            return false;
        };
        let address = |lane: usize| base + offsets[lane] + shift;
        if scatter {
            // (Each lane's whole dword must be defined here; the general path checks only its
            // low `n` bytes, and runs where they are not.)
            let mut data = [0u64; MAX_LANES];
            if self
                .raw_elements::<4>(&g.data, lanes, enables, &mut data)
                .is_none()
            {
                return false;
            }
            for lane in lanes_of(enables) {
                let value = data[lane] as u32;
                match n {
                    4 => buffer.write_dword(address(lane), value),
                    _ => {
                        buffer.write(address(lane), &value.to_le_bytes()[..n]);
                    }
                }
            }
            return true;
        }
        let mut data = [0u32; MAX_LANES];
        for lane in lanes_of(enables) {
            data[lane] = buffer.read_element(address(lane), n);
        }
        if self
            .write_raw_dwords(&g.data, lanes, enables, &data)
            .is_none()
        {
            return false;
        }
        // The upper bytes of 1- and 2-byte gathers are undefined (zero here, as on the
        // general path).
        if n < 4 && self.tracks_defined {
            let start = g.data.base as usize;
            for lane in lanes_of(enables) {
                let dword = start + 4 * lane;
                if let Some(flags) = self.defined.get_mut(dword + n..dword + 4) {
                    flags.fill(false);
                }
            }
        }
        true
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

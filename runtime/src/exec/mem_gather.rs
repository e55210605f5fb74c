//! Four-channel gathers/scatters (`gather4_scaled`, `scatter4_scaled` and the SVM forms), the
//! legacy element gathers/scatters (`gather`, `scatter`) and the qword forms (`qw_gather`,
//! `qw_scatter`) (runtime-semantics §10-§11.5).

use crate::error::Fault;
use crate::exec::lane_numbers;
use crate::machine::Thread;
use crate::ops::{Gather4, Gather4Target, LegacyScattered, QwScattered};

use super::access::{MemCtx, check_align, svm_fault};

impl Thread<'_> {
    pub(crate) fn exec_gather4(
        &mut self,
        g: &Gather4,
        mem: &MemCtx,
        scatter: bool,
    ) -> Result<(), Fault> {
        let Some((enables, addresses)) = self.gather4_addresses(g)? else {
            return Ok(());
        };
        if !self.program.general_only
            && self.fast_gather4(g, mem, scatter, (enables, &addresses))?
        {
            return Ok(());
        }
        let target = match g.target {
            Gather4Target::Surface { surface, .. } => Some(self.target(surface, mem)),
            Gather4Target::Svm { .. } => None,
        };
        let slots = (0..4u32).filter(|c| g.mask >> c & 1 != 0).enumerate();
        let slot_count = g.mask.count_ones();
        for (slot, channel) in slots {
            let slot = slot as u32;
            for lane in lane_numbers(enables) {
                let address = addresses
                    .get(lane as usize)
                    .copied()
                    .unwrap_or_default()
                    .wrapping_add(u64::from(4 * channel));
                let at = (slot * g.slot_dwords + lane) * 4;
                let mut data = [0u8; 4];
                let at_lane = |kind| Fault::at_lane(kind, lane);
                if scatter {
                    self.read_raw(&g.data, at, &mut data, Some(lane))?;
                    match &target {
                        Some(target) => {
                            mem.write_element(target, address, &data).map_err(at_lane)?
                        }
                        None => mem
                            .svm
                            .write(address, &data)
                            .map_err(|f| at_lane(svm_fault(f, address, 4)))?,
                    }
                } else {
                    match &target {
                        Some(target) => mem
                            .read_element(target, address, &mut data)
                            .map_err(at_lane)?,
                        None => mem
                            .svm
                            .read(address, &mut data)
                            .map_err(|f| at_lane(svm_fault(f, address, 4)))?,
                    }
                    self.write_raw(&g.data, at, &data, true)?;
                }
            }
            if !scatter {
                self.poison_slot_tail(g, slot, slot + 1 == slot_count)?;
            }
        }
        Ok(())
    }

    /// The channels a four-channel message enables and each one's address (its first
    /// channel's), read before any data moves; `None` when no channel is enabled.
    fn gather4_addresses(&self, g: &Gather4) -> Result<Option<(u32, [u64; 16])>, Fault> {
        let enables = self.channel_enables(g.exec, g.pred)?;
        if enables == 0 {
            return Ok(None);
        }
        let base = match &g.target {
            Gather4Target::Surface { offset, .. } => self.scalar_u64(offset)? & 0xffff_ffff,
            Gather4Target::Svm { address, .. } => self.scalar_u64(address)?,
        };
        let mut addresses = [0u64; 16];
        for lane in lane_numbers(enables) {
            let address = match &g.target {
                Gather4Target::Surface { offsets, .. } => {
                    base + u64::from(self.raw_u32(offsets, lane, lane)?)
                }
                Gather4Target::Svm { offsets, .. } => {
                    base.wrapping_add(self.raw_u64(offsets, lane, lane)?)
                }
            };
            check_align(address, 4, Some(lane))?;
            if let Some(slot) = addresses.get_mut(lane as usize) {
                *slot = address;
            }
        }
        Ok(Some((enables, addresses)))
    }

    /// Marks the dwords of a channel group past the last lane as undefined. The last group's
    /// tail is poisoned only as far as the destination variable reaches.
    pub(super) fn poison_slot_tail(
        &mut self,
        g: &Gather4,
        slot: u32,
        last: bool,
    ) -> Result<(), Fault> {
        if g.data.null {
            return Ok(());
        }
        let from = (slot * g.slot_dwords + g.exec.size) * 4;
        let mut to = (slot + 1) * g.slot_dwords * 4;
        if last {
            to = to.min(g.data.end.saturating_sub(g.data.base));
        }
        if to > from {
            let poison = vec![0u8; (to - from) as usize];
            self.write_raw(&g.data, from, &poison, false)?;
        }
        Ok(())
    }

    pub(crate) fn exec_legacy_scattered(
        &mut self,
        s: &LegacyScattered,
        mem: &MemCtx,
        scatter: bool,
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(s.exec, None)?;
        if enables == 0 {
            return Ok(());
        }
        let global = self.scalar_u64(&s.global_offset)? as u32;
        let n = s.elt_bytes as usize;
        let target = self.target(s.surface, mem);
        for lane in lane_numbers(enables) {
            // Offsets count elements; their 32-bit sum wraps like the hardware's address adder.
            let element = global.wrapping_add(self.raw_u32(&s.offsets, lane, lane)?);
            let address = u64::from(element) * u64::from(s.elt_bytes);
            self.surface_lane(mem, &target, address, &s.data, lane, n, scatter)?;
        }
        Ok(())
    }

    pub(crate) fn exec_qw_scattered(
        &mut self,
        q: &QwScattered,
        mem: &MemCtx,
        scatter: bool,
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(q.exec, q.pred)?;
        let target = self.target(q.surface, mem);
        for lane in lane_numbers(enables) {
            let address = u64::from(self.raw_u32(&q.offsets, lane, lane)?);
            check_align(address, 8, Some(lane))?;
            let at_lane = |kind| Fault::at_lane(kind, lane);
            let mut data = [0u8; 8];
            if scatter {
                self.read_raw(&q.data, lane * 8, &mut data, Some(lane))?;
                mem.write_element(&target, address, &data)
                    .map_err(at_lane)?;
            } else {
                mem.read_element(&target, address, &mut data)
                    .map_err(at_lane)?;
                self.write_raw(&q.data, lane * 8, &data, true)?;
            }
        }
        Ok(())
    }
}

//! Memory messages: scaled gather/scatter on surfaces, oword block loads/stores, SVM
//! gather/scatter and SVM block loads/stores (runtime-semantics §10-§11).

use crate::error::{Fault, TrapKind};
use crate::layout::{FIRST_USER_SURFACE, SLM_SURFACE, STATELESS_SURFACE};
use crate::machine::Thread;
use crate::memory::{Buffer, Svm, SvmFault};
use crate::ops::{GatherScaled, OwordAccess, Raw, SurfaceRef, SvmBlock, SvmScattered};

/// The memory a thread can reach.
pub(crate) struct MemCtx<'a> {
    pub svm: &'a Svm,
    /// The thread group's SLM (empty when the kernel has none).
    pub slm: &'a Buffer,
    /// The launch's binding table: buffers by binding-table number, sorted by number.
    pub table: &'a [(u32, &'a Buffer)],
    /// When no `movs` re-points a surface: the buffer of each surface variable (by index into
    /// `Layout::states`), resolved once per launch; empty otherwise.
    pub fixed: &'a [Option<&'a Buffer>],
    /// The group's named barriers (`nbarrier`).
    pub named_barriers: &'a std::cell::RefCell<crate::exec::nbarrier::NamedBarriers>,
    /// The group's barrier (`barrier`, `sbarrier`).
    pub group_barrier: &'a crate::exec::sbarrier::GroupBarrier,
}

pub(super) fn svm_fault(fault: SvmFault, address: u64, len: usize) -> TrapKind {
    match fault {
        SvmFault::Unmapped => TrapKind::SvmUnmapped { address },
        SvmFault::OutOfBounds => TrapKind::SvmOutOfBounds { address, len },
    }
}

/// Where a surface access goes, once the thread's surface variable is resolved: a bound
/// buffer, SLM, the stateless space, or nothing (the trap every access then reports, so a
/// message whose lanes are all disabled does not trap).
pub(crate) enum Target<'a> {
    Buffer(&'a Buffer),
    Slm,
    Stateless,
    Missing(TrapKind),
}

/// The buffer bound at binding-table entry `number` of a launch's table (sorted by number).
pub(crate) fn table_entry<'a>(table: &[(u32, &'a Buffer)], number: u32) -> Option<&'a Buffer> {
    table
        .binary_search_by_key(&number, |(n, _)| *n)
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, buffer)| *buffer)
}

impl<'a> Thread<'_> {
    /// The memory `surface` refers to in this thread now.
    pub(crate) fn target(&self, surface: SurfaceRef, mem: &MemCtx<'a>) -> Target<'a> {
        let var = match surface {
            SurfaceRef::Slm => return Target::Slm,
            SurfaceRef::Stateless => return Target::Stateless,
            SurfaceRef::Var(var) => var,
        };
        if let Some(Some(buffer)) = mem.fixed.get(usize::from(var)) {
            return Target::Buffer(buffer);
        }
        let Some(state) = self.program.layout.states.get(usize::from(var)) else {
            return Target::Missing(TrapKind::UnboundSurface(format!("#{var}")));
        };
        let name = || state.name.clone();
        let number = self.states.get(state.first as usize).copied().flatten();
        match number {
            None => Target::Missing(TrapKind::Uninitialized { var: name() }),
            Some(SLM_SURFACE) => Target::Slm,
            Some(STATELESS_SURFACE) => Target::Stateless,
            Some(n) => match table_entry(mem.table, n) {
                Some(buffer) => Target::Buffer(buffer),
                None if Some(n) == state.initial => {
                    Target::Missing(TrapKind::UnboundSurface(name()))
                }
                None => Target::Missing(TrapKind::SurfaceEntry {
                    var: name(),
                    entry: n,
                    problem: if n < FIRST_USER_SURFACE {
                        "is a stack, scratch or bindless surface this model does not have"
                    } else {
                        "is not bound by the launch"
                    },
                }),
            },
        }
    }
}

impl MemCtx<'_> {
    /// Reads from a surface-addressed memory: user surfaces read zero out of bounds, SLM and
    /// stateless accesses trap.
    pub(crate) fn read(
        &self,
        target: &Target,
        offset: u64,
        out: &mut [u8],
    ) -> Result<(), TrapKind> {
        match target {
            Target::Buffer(buffer) => {
                buffer.read(offset, out);
                Ok(())
            }
            Target::Missing(kind) => Err(kind.clone()),
            Target::Slm => {
                self.check_slm(offset, out.len())?;
                self.slm.read(offset, out);
                Ok(())
            }
            Target::Stateless => self
                .svm
                .read(offset, out)
                .map_err(|f| svm_fault(f, offset, out.len())),
        }
    }

    /// Writes to a surface-addressed memory: user surfaces drop out-of-bounds bytes, SLM and
    /// stateless accesses trap.
    pub(crate) fn write(&self, target: &Target, offset: u64, data: &[u8]) -> Result<(), TrapKind> {
        match target {
            Target::Buffer(buffer) => {
                buffer.write(offset, data);
                Ok(())
            }
            Target::Missing(kind) => Err(kind.clone()),
            Target::Slm => {
                self.check_slm(offset, data.len())?;
                self.slm.write(offset, data);
                Ok(())
            }
            Target::Stateless => self
                .svm
                .write(offset, data)
                .map_err(|f| svm_fault(f, offset, data.len())),
        }
    }

    /// Atomic read-modify-write of `width` bytes at `offset` of a surface-addressed memory,
    /// returning the old value; `None` for a user-surface access out of bounds (nothing is
    /// written). SLM and stateless accesses out of bounds trap.
    pub(crate) fn atomic(
        &self,
        target: &Target,
        offset: u64,
        width: u32,
        update: impl FnMut(u64) -> u64,
    ) -> Result<Option<u64>, TrapKind> {
        match target {
            Target::Buffer(buffer) => Ok(buffer.atomic_update(offset, width, update)),
            Target::Missing(kind) => Err(kind.clone()),
            Target::Slm => {
                self.check_slm(offset, width as usize)?;
                Ok(self.slm.atomic_update(offset, width, update))
            }
            Target::Stateless => self
                .svm
                .atomic_update(offset, width, update)
                .map(Some)
                .map_err(|f| svm_fault(f, offset, width as usize)),
        }
    }

    /// Reads one element that is checked as a whole: on a user surface an element not wholly
    /// inside reads as zero; SLM and stateless accesses out of range trap.
    pub(crate) fn read_element(
        &self,
        target: &Target,
        offset: u64,
        out: &mut [u8],
    ) -> Result<(), TrapKind> {
        if let Target::Buffer(buffer) = target
            && !buffer.contains(offset, out.len())
        {
            out.fill(0);
            return Ok(());
        }
        self.read(target, offset, out)
    }

    /// Writes one element that is checked as a whole: on a user surface an element not wholly
    /// inside is dropped; SLM and stateless accesses out of range trap.
    pub(crate) fn write_element(
        &self,
        target: &Target,
        offset: u64,
        data: &[u8],
    ) -> Result<(), TrapKind> {
        if let Target::Buffer(buffer) = target
            && !buffer.contains(offset, data.len())
        {
            return Ok(());
        }
        self.write(target, offset, data)
    }

    fn check_slm(&self, offset: u64, len: usize) -> Result<(), TrapKind> {
        if self.slm.contains(offset, len) {
            Ok(())
        } else {
            Err(TrapKind::SlmOutOfBounds {
                offset,
                len,
                size: self.slm.len(),
            })
        }
    }
}

pub(super) fn check_align(address: u64, align: u32, lane: Option<u32>) -> Result<(), Fault> {
    if address.is_multiple_of(u64::from(align)) {
        Ok(())
    } else {
        Err(Fault {
            lane,
            kind: TrapKind::Misaligned { address, align },
        })
    }
}

impl Thread<'_> {
    pub(super) fn raw_u32(
        &self,
        raw: &crate::ops::Raw,
        index: u32,
        lane: u32,
    ) -> Result<u32, Fault> {
        let mut bytes = [0u8; 4];
        self.read_raw(raw, index * 4, &mut bytes, Some(lane))?;
        Ok(u32::from_le_bytes(bytes))
    }

    pub(super) fn raw_u64(
        &self,
        raw: &crate::ops::Raw,
        index: u32,
        lane: u32,
    ) -> Result<u64, Fault> {
        let mut bytes = [0u8; 8];
        self.read_raw(raw, index * 8, &mut bytes, Some(lane))?;
        Ok(u64::from_le_bytes(bytes))
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
        let mut bits = enables;
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
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
        let mut bits = enables;
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            let address = self.raw_u64(&s.addresses, lane, lane)?;
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

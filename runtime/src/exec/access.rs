//! Memory access: `MemCtx`, the memory (and barriers) a thread's group reaches; `Target`, where
//! a surface access goes once the thread's surface variable is resolved; and the bounds rules of
//! each kind of memory for reads, writes and atomics. The memory messages (`mem`, `mem_gather`,
//! `atomic`) and their fast paths (`fast_mem`) access memory through them.

use crate::error::{Fault, TrapKind};
use crate::layout::{FIRST_USER_SURFACE, SLM_SURFACE, STATELESS_SURFACE};
use crate::machine::Thread;
use crate::memory::{Buffer, Svm, SvmFault};
use crate::ops::SurfaceRef;

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
    /// A compiled kernel's binding table ([`crate::Launch::svm_binding_table`]): every number
    /// a surface variable holds is an entry here (SVM base and length), vISA's numbering of
    /// the predefined surfaces aside.
    pub svm_table: Option<&'a [(u32, u64, u64)]>,
    /// The SLM address bits kept ([`crate::Launch::slm_address_mask`]); all ones by default.
    pub slm_mask: u64,
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
    /// A binding-table entry of a compiled kernel: `len` bytes of SVM at `base`.
    SvmRange {
        base: u64,
        len: u64,
    },
    Missing(TrapKind),
}

/// Where the bytes of one access are: a buffer and the offset in it, or an SVM address.
enum Place<'a> {
    Buffer(&'a Buffer, u64),
    Svm(u64),
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
        let number = (self.states.get(state.first as usize)).and_then(|slot| slot.number());
        if let (Some(n), Some(table)) = (number, mem.svm_table) {
            return match table.iter().find(|(entry, ..)| *entry == n) {
                Some(&(_, base, len)) => Target::SvmRange { base, len },
                None => Target::Missing(TrapKind::SurfaceEntry {
                    var: name(),
                    entry: n,
                    problem: "is not in the kernel's binding table",
                }),
            };
        }
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
    /// Where an access of `len` bytes at `offset` of `target` goes, by the bounds rules of each
    /// memory: user surfaces and the SLM are buffers (the SLM checked here; user surfaces read
    /// zero and drop writes out of bounds), stateless and binding-table accesses SVM addresses.
    fn place<'b>(
        &'b self,
        target: &Target<'b>,
        offset: u64,
        len: usize,
    ) -> Result<Place<'b>, TrapKind> {
        match target {
            Target::Buffer(buffer) => Ok(Place::Buffer(buffer, offset)),
            Target::Missing(kind) => Err(kind.clone()),
            Target::Slm => {
                let offset = offset & self.slm_mask;
                self.check_slm(offset, len)?;
                Ok(Place::Buffer(self.slm, offset))
            }
            Target::Stateless => Ok(Place::Svm(offset)),
            Target::SvmRange { base, len: range } => {
                svm_range_address(*base, *range, offset, len).map(Place::Svm)
            }
        }
    }

    /// Reads from a surface-addressed memory: user surfaces read zero out of bounds, SLM and
    /// stateless accesses trap.
    pub(crate) fn read(
        &self,
        target: &Target,
        offset: u64,
        out: &mut [u8],
    ) -> Result<(), TrapKind> {
        match self.place(target, offset, out.len())? {
            Place::Buffer(buffer, offset) => {
                buffer.read(offset, out);
                Ok(())
            }
            Place::Svm(address) => self
                .svm
                .read(address, out)
                .map_err(|f| svm_fault(f, address, out.len())),
        }
    }

    /// Writes to a surface-addressed memory: user surfaces drop out-of-bounds bytes, SLM and
    /// stateless accesses trap.
    pub(crate) fn write(&self, target: &Target, offset: u64, data: &[u8]) -> Result<(), TrapKind> {
        match self.place(target, offset, data.len())? {
            Place::Buffer(buffer, offset) => {
                buffer.write(offset, data);
                Ok(())
            }
            Place::Svm(address) => self
                .svm
                .write(address, data)
                .map_err(|f| svm_fault(f, address, data.len())),
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
                let offset = offset & self.slm_mask;
                self.check_slm(offset, width as usize)?;
                Ok(self.slm.atomic_update(offset, width, update))
            }
            Target::Stateless => self
                .svm
                .atomic_update(offset, width, update)
                .map(Some)
                .map_err(|f| svm_fault(f, offset, width as usize)),
            Target::SvmRange { base, len } => {
                let address = svm_range_address(*base, *len, offset, width as usize)?;
                self.svm
                    .atomic_update(address, width, update)
                    .map(Some)
                    .map_err(|f| svm_fault(f, address, width as usize))
            }
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

/// The SVM address of `offset` in a binding-table entry of `len` bytes at `base`; an access not
/// wholly inside the entry traps (as the SVM access past its allocation would).
fn svm_range_address(base: u64, len: u64, offset: u64, size: usize) -> Result<u64, TrapKind> {
    let address = base.wrapping_add(offset);
    match offset.checked_add(size as u64) {
        Some(end) if end <= len => Ok(address),
        _ => Err(TrapKind::SvmOutOfBounds { address, len: size }),
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

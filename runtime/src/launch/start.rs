//! How the threads of a launch start: one template per launch with everything common to all
//! threads, copied into a register file the rayon worker keeps across groups, and completed
//! with each thread's own ids and per-lane bindings.

use std::ops::Range;

use super::ids::{IdSlot, ThreadIds, ThreadPlace};
use super::{Binding, Launch, ThreadWriter};
use crate::machine::Thread;
use crate::machine::lane_pointers::LanePointers;

impl<'a> Launch<'a> {
    /// The state every thread of this launch starts from: the predefined variables and bindings
    /// that are the same for all threads. Built once per launch; [`Launch::start_thread`] copies
    /// it and writes only what differs per thread.
    pub(super) fn thread_template(
        &self,
        bindings: &[(usize, &Binding)],
        tracks_defined: bool,
    ) -> Thread<'a> {
        let program = self.program;
        let lanes = self.lanes();
        let mut thread = Thread::new(program, lanes, tracks_defined);
        thread.initial_cr0 = self.cr0;
        let local_size = self.threads_per_group * self.simd;
        let predefined: [(&str, &[u64]); 7] = [
            ("%group_id_y", &[0]),
            ("%group_id_z", &[0]),
            ("%local_size_x", &[u64::from(local_size)]),
            ("%group_count_x", &[u64::from(self.groups)]),
            ("%cr0", &[u64::from(self.cr0)]),
            ("%sr0", &[0, 0, u64::from(lanes), 0]),
            ("%ce0", &[u64::from(lanes)]),
        ];
        for (name, values) in predefined {
            thread.set_var(name, values);
        }
        for name in ["%local_id_y", "%local_id_z", "%thread_y", "%null"] {
            thread.set_var(name, &[0]);
        }
        for name in [
            "%local_size_y",
            "%local_size_z",
            "%group_count_y",
            "%group_count_z",
        ] {
            thread.set_var(name, &[1]);
        }
        for (index, binding) in bindings {
            let var = &program.layout.vars[*index];
            let size = var.ty.size() as usize;
            let offset = var.offset as usize;
            match binding {
                Binding::Elements { bytes, .. } => thread.write_bytes(offset, bytes),
                Binding::Uniform { bits, .. } => {
                    for e in 0..var.num_elts as usize {
                        thread.write_bytes(offset + e * size, &bits.to_le_bytes()[..size]);
                    }
                }
                Binding::Lanes { .. } | Binding::SvmLanes { .. } => {}
            }
        }
        thread
    }

    pub(super) fn lanes(&self) -> u32 {
        if self.simd >= 32 {
            u32::MAX
        } else {
            (1u32 << self.simd) - 1
        }
    }

    /// Starts `thread` (a copy of `start.template` that ran before, whose buffers are kept)
    /// afresh: the template's state (or the part of it the thread may read before writing,
    /// [`ThreadStart::restored`]) with the per-thread predefined variables and per-lane
    /// bindings written.
    pub(super) fn start_thread(
        &self,
        thread: &mut Thread<'a>,
        group: u32,
        thread_in_group: u32,
        global_thread: u32,
        start: &ThreadStart<'a, '_>,
    ) {
        match &start.restored {
            Some(ranges) => thread.restart(&start.template, ranges),
            None => thread.reset_to(&start.template),
        }
        let place = ThreadPlace {
            group,
            in_group: thread_in_group,
            global: global_thread,
        };
        start.ids.write(thread, place, self.simd);
        // The entry mask (`Launch::active_lanes`) is the thread's initial execution mask and
        // dispatch mask; both engines start from `thread.em`.
        if self.active.is_some() {
            let mask = self.entry_mask(global_thread);
            thread.em = mask;
            thread.set_id(start.sr0, &[0, 0, u64::from(mask), 0]);
            thread.set_id(start.ce0, &[u64::from(mask)]);
        }
        for (bytes, write) in &start.writers {
            thread.write_with(bytes.clone(), |var| write(place, var));
        }
        let first_item = u64::from(global_thread) * u64::from(self.simd);
        for pointers in &start.pointers {
            thread.write_pointers(pointers, first_item);
        }
        let simd = self.simd as usize;
        for values in &start.lanes {
            let (n, size) = (values.components, values.size);
            let start = global_thread as usize * simd * n * size;
            let slice = values
                .bytes
                .get(start..start + simd * n * size)
                .unwrap_or(&[]);
            if n == 1 || values.thread_order {
                thread.write_bytes(values.offset, slice);
            } else if !thread.write_transposed(values.offset, slice, n, size, simd) {
                // Work-item-major in the binding, component-major in the variable.
                for (item, values_of_item) in slice.chunks_exact(n * size).enumerate() {
                    for (c, value) in values_of_item.chunks_exact(size).enumerate() {
                        thread.write_bytes(values.offset + (c * simd + item) * size, value);
                    }
                }
            }
        }
    }

    /// What [`Launch::start_thread`] needs, prepared once per launch from the thread
    /// `template`; `keeps_written` when the engine's threads may keep the bytes they write
    /// before reading from one thread to the next (compiled code: no definedness to reset);
    /// `deferred` says which per-lane SVM pointer bindings the thread start leaves unwritten
    /// because the engine computes them (see [`ThreadStart::deferred`]); `known_writes`, when
    /// the engine knows every register byte its threads may write: the others keep the
    /// template's value from one thread to the next and need no restoring.
    pub(super) fn thread_start<'b>(
        &self,
        template: Thread<'a>,
        bindings: &'b [(usize, &'b Binding)],
        keeps_written: bool,
        deferred: impl Fn(&LanePointers) -> bool,
        known_writes: Option<&[Range<usize>]>,
    ) -> ThreadStart<'a, 'b> {
        let program = self.program;
        let lanes = bindings
            .iter()
            .filter_map(|(index, binding)| match binding {
                Binding::Lanes {
                    bytes,
                    components,
                    thread_order,
                    ..
                } => {
                    let var = &program.layout.vars[*index];
                    Some(LaneValues {
                        offset: var.offset as usize,
                        size: var.ty.size() as usize,
                        components: *components as usize,
                        bytes,
                        thread_order: *thread_order,
                    })
                }
                _ => None,
            })
            .collect();
        let pointers: Vec<LanePointers> = bindings
            .iter()
            .filter_map(|(index, binding)| match binding {
                Binding::SvmLanes { base, stride } => Some(LanePointers {
                    offset: program.layout.vars[*index].offset as usize,
                    base: *base,
                    stride: *stride,
                    lanes: self.simd as usize,
                }),
                _ => None,
            })
            .collect();
        let (deferred, written): (Vec<LanePointers>, Vec<LanePointers>) =
            pointers.iter().copied().partition(|p| deferred(p));
        let writers = (self.writers.iter())
            .filter_map(|(name, write)| {
                let var = &program.layout.vars[*program.layout.top_level.get(name)?];
                let start = var.offset as usize;
                Some((start..start + var.size as usize, *write))
            })
            .collect();
        let ids = ThreadIds::new(program);
        // With an entry mask a thread may start with no channel and end without running:
        // its registers must be the template's then.
        let restored =
            (keeps_written && !template.tracks_defined && self.active.is_none()).then(|| {
                let rewritten: Vec<Range<usize>> = ids
                    .written()
                    .chain(pointers.iter().map(LanePointers::written))
                    .collect();
                super::fresh::restored_ranges(program, self.lanes(), &rewritten, known_writes)
            });
        ThreadStart {
            template,
            ids,
            sr0: IdSlot::of(program, "%sr0"),
            ce0: IdSlot::of(program, "%ce0"),
            lanes,
            writers,
            pointers: written,
            deferred,
            restored,
        }
    }
}

/// What [`Launch::start_thread`] needs, prepared once per launch
/// ([`Launch::thread_start`]).
pub(super) struct ThreadStart<'a, 'b> {
    pub(super) template: Thread<'a>,
    /// The per-thread ids.
    pub(super) ids: ThreadIds,
    /// Where the entry mask goes (with [`Launch::active_lanes`]).
    sr0: Option<IdSlot>,
    ce0: Option<IdSlot>,
    /// The per-lane value bindings.
    lanes: Vec<LaneValues<'b>>,
    /// The variables' register bytes the launch's thread writers write.
    writers: Vec<(Range<usize>, &'a ThreadWriter<'a>)>,
    /// The per-lane SVM pointer bindings the thread start writes.
    pointers: Vec<LanePointers>,
    /// Those it leaves unwritten: the engine computes a thread's pointers where its compiled
    /// code reads them and writes them into the register file itself before anything else
    /// can look (`jit::CompiledRun`). (Counted as rewritten by the start in `restored`: no
    /// thread reads the bytes before they are written.)
    pub(super) deferred: Vec<LanePointers>,
    /// The register-file ranges a thread gets from the template when the thread's own writes
    /// cover the rest before it reads it (`fresh::restored_ranges`); `None`: the whole state.
    restored: Option<Vec<Range<usize>>>,
}

impl ThreadStart<'_, '_> {
    /// The register ranges a thread's start restores from the template when that, with its
    /// ids (which compiled code starting the next thread of a batch writes itself, from the
    /// same [`ThreadIds`]), is all the start writes of what the previous thread of the launch
    /// loop may have changed: no per-lane values, no pointers (all deferred), no entry mask
    /// (`restored` is `None` with one). An engine that restores them can start the next
    /// thread where the previous one ended (`jit::CompiledRun::run_threads`).
    pub(crate) fn batch_restored(&self) -> Option<&[Range<usize>]> {
        let restored = self.restored.as_deref()?;
        let from_rust = !self.lanes.is_empty() || !self.writers.is_empty();
        (!from_rust && self.pointers.is_empty()).then_some(restored)
    }

    /// Writes thread `global_thread`'s deferred pointers: for a thread that ends without
    /// running (no active lane), whose registers are captured as they started.
    pub(super) fn write_deferred(&self, thread: &mut Thread<'_>, global_thread: u32) {
        for pointers in &self.deferred {
            thread.write_pointers(pointers, u64::from(global_thread) * pointers.lanes as u64);
        }
    }
}

/// A per-lane value binding (`Binding::Lanes`): `components` elements of `size` bytes per
/// work-item, work-item-major in `bytes` unless `thread_order` (each thread's elements in its
/// variable's order).
struct LaneValues<'b> {
    /// Register-file byte of the variable.
    offset: usize,
    size: usize,
    components: usize,
    bytes: &'b [u8],
    thread_order: bool,
}

impl Thread<'_> {
    /// Has `write` write the register bytes `bytes` in place (nothing when they are outside
    /// the register file), which are defined after.
    pub(crate) fn write_with(&mut self, bytes: Range<usize>, write: impl FnOnce(&mut [u8])) {
        if let (Some(dst), Some(defined)) =
            (self.grf.get_mut(bytes.clone()), self.defined.get_mut(bytes))
        {
            write(dst);
            if self.tracks_defined {
                defined.fill(true);
            }
        }
    }

    /// Writes bytes of a bound or predefined variable, marking them defined.
    #[inline]
    pub(crate) fn write_bytes(&mut self, offset: usize, bytes: &[u8]) {
        let end = offset + bytes.len();
        if let (Some(dst), Some(defined)) = (
            self.grf.get_mut(offset..end),
            self.defined.get_mut(offset..end),
        ) {
            dst.copy_from_slice(bytes);
            // (A thread that does not track definedness has every byte defined already.)
            if self.tracks_defined {
                defined.fill(true);
            }
        }
    }

    /// Writes `components` elements of `size` bytes per work-item (work-item-major in
    /// `bytes`) component-major from register byte `offset` (element `c * simd + item`), as
    /// the per-lane value bindings of several components lie (IGC's thread payload); false,
    /// with nothing written, unless the region lies in the file and `size` is 4 or 8.
    fn write_transposed(
        &mut self,
        offset: usize,
        bytes: &[u8],
        components: usize,
        size: usize,
        simd: usize,
    ) -> bool {
        fn transpose<const SIZE: usize>(dst: &mut [u8], bytes: &[u8], n: usize, simd: usize) {
            for (item, values_of_item) in bytes.chunks_exact(n * SIZE).enumerate() {
                for (c, value) in values_of_item.chunks_exact(SIZE).enumerate() {
                    let at = (c * simd + item) * SIZE;
                    if let (Some(to), Ok(value)) =
                        (dst.get_mut(at..at + SIZE), <[u8; SIZE]>::try_from(value))
                    {
                        to.copy_from_slice(&value);
                    }
                }
            }
        }
        let end = offset + bytes.len();
        let fits = bytes.len() == components * size * simd;
        let (Some(dst), Some(defined), true) = (
            self.grf.get_mut(offset..end),
            self.defined.get_mut(offset..end),
            fits,
        ) else {
            return false;
        };
        match size {
            4 => transpose::<4>(dst, bytes, components, simd),
            8 => transpose::<8>(dst, bytes, components, simd),
            _ => return false,
        }
        if self.tracks_defined {
            defined.fill(true);
        }
        true
    }

    /// Sets the elements of a predefined variable the program uses.
    fn set_var(&mut self, name: &str, values: &[u64]) {
        self.set_id(IdSlot::of(self.program, name), values);
    }

    /// Writes the first elements of a predefined variable (if the program uses it) from
    /// `values`.
    // (Inlined: most ids are absent, and a call would cost more than the check.)
    #[inline(always)]
    fn set_id(&mut self, slot: Option<IdSlot>, values: &[u64]) {
        if let Some(slot) = slot {
            for (e, value) in values.iter().take(slot.count).enumerate() {
                let bytes = value.to_le_bytes();
                let offset = slot.offset + e * slot.size;
                // (Lengths known at compile time: no call to copy 4 bytes.)
                match slot.size {
                    4 => self.write_bytes(offset, &bytes[..4]),
                    8 => self.write_bytes(offset, &bytes),
                    size => self.write_bytes(offset, &bytes[..size]),
                }
            }
        }
    }
}

//! How the threads of a launch start: one template per launch with everything common to all
//! threads, copied into a register file the rayon worker keeps across groups, and completed
//! with each thread's own ids and per-lane bindings.

use std::ops::Range;

use super::{Binding, Launch};
use crate::machine::Thread;
use crate::program::Program;

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
        let ids = &start.ids;
        if ids.any_id {
            thread.set_var_index(ids.group_id_x, &[u64::from(group)]);
            thread.set_var_index(ids.local_id_x, &[u64::from(thread_in_group * self.simd)]);
            thread.set_var_index(ids.thread_x, &[u64::from(thread_in_group)]);
            thread.set_var_index(ids.hw_id, &[u64::from(global_thread)]);
            thread.set_var_index(ids.r0, &[0, u64::from(group), 0, 0, 0, 0, 0, 0]);
        }
        // The entry mask (`Launch::active_lanes`) is the thread's initial execution mask and
        // dispatch mask; both engines start from `thread.em`.
        if self.active.is_some() {
            let mask = self.entry_mask(global_thread);
            thread.em = mask;
            thread.set_var_index(ids.sr0, &[0, 0, u64::from(mask), 0]);
            thread.set_var_index(ids.ce0, &[u64::from(mask)]);
        }
        for pointers in &start.pointers {
            thread.write_pointers(pointers, global_thread);
        }
        let simd = self.simd as usize;
        for values in &start.lanes {
            let (n, size) = (values.components, values.size);
            let start = global_thread as usize * simd * n * size;
            let slice = values
                .bytes
                .get(start..start + simd * n * size)
                .unwrap_or(&[]);
            if n == 1 {
                thread.write_bytes(values.offset, slice);
            } else {
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
    /// before reading from one thread to the next (compiled code: no definedness to reset).
    pub(super) fn thread_start<'b>(
        &self,
        template: Thread<'a>,
        bindings: &'b [(usize, &'b Binding)],
        keeps_written: bool,
    ) -> ThreadStart<'a, 'b> {
        let program = self.program;
        let lanes = bindings
            .iter()
            .filter_map(|(index, binding)| match binding {
                Binding::Lanes {
                    bytes, components, ..
                } => {
                    let var = &program.layout.vars[*index];
                    Some(LaneValues {
                        offset: var.offset as usize,
                        size: var.ty.size() as usize,
                        components: *components as usize,
                        bytes,
                    })
                }
                _ => None,
            })
            .collect();
        let pointers = bindings
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
        // With an entry mask a thread may start with no channel and end without running:
        // its registers must be the template's then.
        let restored = (keeps_written && !template.tracks_defined && self.active.is_none())
            .then(|| super::fresh::restored_ranges(program, self.lanes(), self.simd, bindings));
        ThreadStart {
            template,
            ids: PerThreadIds::new(program),
            lanes,
            pointers,
            restored,
        }
    }
}

/// Variable indices of the predefined variables whose value differs per thread, looked up once
/// per launch.
pub(super) struct PerThreadIds {
    group_id_x: Option<usize>,
    local_id_x: Option<usize>,
    thread_x: Option<usize>,
    hw_id: Option<usize>,
    r0: Option<usize>,
    sr0: Option<usize>,
    ce0: Option<usize>,
    /// Whether the program uses any of the first five.
    any_id: bool,
}

impl PerThreadIds {
    pub(super) fn new(program: &Program) -> Self {
        let id = |name| program.layout.predefined_index(name);
        let ids = [
            id("%group_id_x"),
            id("%local_id_x"),
            id("%thread_x"),
            id("%hw_id"),
            id("%r0"),
        ];
        let [group_id_x, local_id_x, thread_x, hw_id, r0] = ids;
        Self {
            group_id_x,
            local_id_x,
            thread_x,
            hw_id,
            r0,
            sr0: id("%sr0"),
            ce0: id("%ce0"),
            any_id: ids.iter().any(Option::is_some),
        }
    }
}

/// What [`Launch::start_thread`] needs, prepared once per launch
/// ([`Launch::thread_start`]).
pub(super) struct ThreadStart<'a, 'b> {
    pub(super) template: Thread<'a>,
    ids: PerThreadIds,
    /// The per-lane value bindings.
    lanes: Vec<LaneValues<'b>>,
    /// The per-lane SVM pointer bindings.
    pointers: Vec<LanePointers>,
    /// The register-file ranges a thread gets from the template when the thread's own writes
    /// cover the rest before it reads it (`fresh::restored_ranges`); `None`: the whole state.
    restored: Option<Vec<Range<usize>>>,
}

/// A per-lane value binding (`Binding::Lanes`): `components` elements of `size` bytes per
/// work-item, work-item-major in `bytes`.
struct LaneValues<'b> {
    /// Register-file byte of the variable.
    offset: usize,
    size: usize,
    components: usize,
    bytes: &'b [u8],
}

/// A per-lane SVM pointer binding (`Binding::SvmLanes`): thread `t`'s lane `l` holds
/// `base + (t * simd + l) * stride`.
struct LanePointers {
    /// Register-file byte of lane 0's pointer.
    offset: usize,
    base: u64,
    stride: u64,
    /// The launch's SIMD width.
    lanes: usize,
}

impl Thread<'_> {
    /// Writes bytes of a bound or predefined variable, marking them defined.
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

    /// Writes thread `global_thread`'s pointers of a per-lane SVM binding in place, marking
    /// them defined; nothing when they do not fit the register file.
    fn write_pointers(&mut self, pointers: &LanePointers, global_thread: u32) {
        let item = u64::from(global_thread).wrapping_mul(pointers.lanes as u64);
        let first = pointers
            .base
            .wrapping_add(item.wrapping_mul(pointers.stride));
        let offset = pointers.offset;
        let end = offset + 8 * pointers.lanes;
        let Some(dst) = self.grf.get_mut(offset..end) else {
            return;
        };
        // The usual width with a length known at compile time: the loop unrolls.
        match <&mut [u8; 128]>::try_from(&mut *dst) {
            Ok(dst) => fill_pointers(dst, first, pointers.stride),
            Err(_) => fill_pointers(dst, first, pointers.stride),
        }
        // (A thread that does not track definedness has every byte defined already.)
        if self.tracks_defined
            && let Some(defined) = self.defined.get_mut(offset..end)
        {
            defined.fill(true);
        }
    }

    /// Sets the elements of a predefined variable the program uses.
    fn set_var(&mut self, name: &str, values: &[u64]) {
        self.set_var_index(self.program.layout.predefined_index(name), values);
    }

    /// [`Thread::set_var`] with the variable index already looked up.
    fn set_var_index(&mut self, index: Option<usize>, values: &[u64]) {
        let layout = &self.program.layout;
        if let Some(var) = index.and_then(|i| layout.vars.get(i)) {
            let size = var.ty.size() as usize;
            let offset = var.offset as usize;
            let count = (var.num_elts as usize).min(values.len());
            for (e, value) in values.iter().take(count).enumerate() {
                self.write_bytes(offset + e * size, &value.to_le_bytes()[..size]);
            }
        }
    }
}

/// `first + lane * stride` (wrapping) in each 8 bytes of `dst`.
#[inline(always)]
fn fill_pointers(dst: &mut [u8], first: u64, stride: u64) {
    let mut pointer = first;
    for bytes in dst.chunks_exact_mut(8) {
        bytes.copy_from_slice(&pointer.to_le_bytes());
        pointer = pointer.wrapping_add(stride);
    }
}

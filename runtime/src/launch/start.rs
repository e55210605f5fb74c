//! How the threads of a launch start: one template per launch with everything common to all
//! threads, copied into a register file the rayon worker keeps across groups, and completed
//! with each thread's own ids and per-lane bindings.

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
    /// afresh: the template's state with the per-thread predefined variables and per-lane
    /// bindings written.
    pub(super) fn start_thread(
        &self,
        thread: &mut Thread<'a>,
        group: u32,
        thread_in_group: u32,
        global_thread: u32,
        start: &ThreadStart<'a, '_>,
    ) {
        let program = self.program;
        thread.reset_to(&start.template);
        let ids = &start.ids;
        thread.set_var_index(ids.group_id_x, &[u64::from(group)]);
        thread.set_var_index(ids.local_id_x, &[u64::from(thread_in_group * self.simd)]);
        thread.set_var_index(ids.thread_x, &[u64::from(thread_in_group)]);
        thread.set_var_index(ids.hw_id, &[u64::from(global_thread)]);
        thread.set_var_index(ids.r0, &[0, u64::from(group), 0, 0, 0, 0, 0, 0]);
        // The entry mask (`Launch::active_lanes`) is the thread's initial execution mask and
        // dispatch mask; both engines start from `thread.em`.
        if self.active.is_some() {
            let mask = self.entry_mask(global_thread);
            thread.em = mask;
            thread.set_var_index(ids.sr0, &[0, 0, u64::from(mask), 0]);
            thread.set_var_index(ids.ce0, &[u64::from(mask)]);
        }
        let simd = self.simd as usize;
        for (index, binding) in start.bindings {
            let var = &program.layout.vars[*index];
            let size = var.ty.size() as usize;
            let offset = var.offset as usize;
            match binding {
                Binding::Lanes {
                    bytes, components, ..
                } => {
                    let n = *components as usize;
                    let start = global_thread as usize * simd * n * size;
                    let slice = bytes.get(start..start + simd * n * size).unwrap_or(&[]);
                    if n == 1 {
                        thread.write_bytes(offset, slice);
                    } else {
                        // Work-item-major in the binding, component-major in the variable.
                        for (item, values) in slice.chunks_exact(n * size).enumerate() {
                            for (c, value) in values.chunks_exact(size).enumerate() {
                                thread.write_bytes(offset + (c * simd + item) * size, value);
                            }
                        }
                    }
                }
                Binding::SvmLanes { base, stride } => {
                    let item = (global_thread as u64).wrapping_mul(simd as u64);
                    let first = base.wrapping_add(item.wrapping_mul(*stride));
                    thread.write_pointers(offset, simd, first, *stride);
                }
                Binding::Elements { .. } | Binding::Uniform { .. } => {}
            }
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
}

impl PerThreadIds {
    pub(super) fn new(program: &Program) -> Self {
        let id = |name| program.layout.predefined_index(name);
        Self {
            group_id_x: id("%group_id_x"),
            local_id_x: id("%local_id_x"),
            thread_x: id("%thread_x"),
            hw_id: id("%hw_id"),
            r0: id("%r0"),
            sr0: id("%sr0"),
            ce0: id("%ce0"),
        }
    }
}

/// What [`Launch::start_thread`] needs, prepared once per launch.
pub(super) struct ThreadStart<'a, 'b> {
    pub(super) template: Thread<'a>,
    pub(super) ids: PerThreadIds,
    pub(super) bindings: &'b [(usize, &'b Binding)],
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

    /// Writes `lanes` 64-bit pointers `first + lane * stride` (wrapping) at `offset`, in
    /// place, marking them defined; nothing when they do not fit the register file.
    fn write_pointers(&mut self, offset: usize, lanes: usize, first: u64, stride: u64) {
        let end = offset + 8 * lanes;
        let Some(dst) = self.grf.get_mut(offset..end) else {
            return;
        };
        // The usual widths with a length known at compile time: the loop unrolls.
        match dst.len() {
            64 => fill_pointers::<64>(dst, first, stride),
            128 => fill_pointers::<128>(dst, first, stride),
            256 => fill_pointers::<256>(dst, first, stride),
            _ => fill_pointers_any(dst, first, stride),
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

/// `first + lane * stride` (wrapping) in each 8 bytes of `dst`, which holds `BYTES` bytes.
fn fill_pointers<const BYTES: usize>(dst: &mut [u8], first: u64, stride: u64) {
    if let Ok(dst) = <&mut [u8; BYTES]>::try_from(dst) {
        fill_pointers_any(dst, first, stride);
    }
}

#[inline]
fn fill_pointers_any(dst: &mut [u8], first: u64, stride: u64) {
    for (lane, bytes) in dst.chunks_exact_mut(8).enumerate() {
        let pointer = first.wrapping_add((lane as u64).wrapping_mul(stride));
        bytes.copy_from_slice(&pointer.to_le_bytes());
    }
}

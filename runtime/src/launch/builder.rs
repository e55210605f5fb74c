//! The builder of a launch: grid, bindings, memory, budget and observers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use visa_isa::ast::ElemType;

use super::{Binding, DEFAULT_FUEL, DEFAULT_MAX_MEMORY, Launch, ThreadWriter};
use crate::memory::{Buffer, Element, Svm, to_bytes};
use crate::program::Program;

impl<'a> Launch<'a> {
    pub fn new(program: &'a Program) -> Self {
        Self {
            program,
            simd: program.simd_size.unwrap_or(16),
            groups: 1,
            threads_per_group: 1,
            bindings: Vec::new(),
            writers: Vec::new(),
            surfaces: Vec::new(),
            svm_table: None,
            slm_mask: u64::MAX,
            svm: None,
            fuel: DEFAULT_FUEL,
            slm_size: None,
            max_memory: DEFAULT_MAX_MEMORY,
            cr0: 0,
            capture: Vec::new(),
            input_only: Vec::new(),
            active: None,
            cancel: None,
            trap_undefined: true,
            progress: None,
            steps: None,
        }
    }

    /// Channels per thread (dispatch SIMD width): one of [`SIMD_WIDTHS`]. Default: the `SimdSize` attribute, or
    /// 16.
    pub fn simd(mut self, simd: u32) -> Self {
        self.simd = simd;
        self
    }

    /// Number of thread groups (run in parallel), at least 1.
    pub fn groups(mut self, groups: u32) -> Self {
        self.groups = groups;
        self
    }

    /// Threads per group (run one after another, sharing the group's SLM), at least 1.
    pub fn threads_per_group(mut self, threads: u32) -> Self {
        self.threads_per_group = threads;
        self
    }

    /// Total work-items: groups x threads per group x SIMD width.
    pub fn work_items(&self) -> usize {
        self.groups as usize * self.threads_per_group as usize * self.simd as usize
    }

    /// Binds one value per work-item (`values.len()` must equal [`Launch::work_items`]); the
    /// variable is read back after the run by [`LaunchResult::vector`].
    pub fn bind_vector<T: Element>(self, name: &str, values: &[T]) -> Self {
        self.bind_vector_bytes(name, T::TYPE, to_bytes(values))
    }

    /// Binds `components` values per work-item, as inline assembly binds a per-lane `uchar4` or
    /// `ushort2`: `values` holds work-item 0's components, then work-item 1's, ...
    /// (`work_items() * components` values), and each thread's variable (at least
    /// SIMD x `components` elements) receives them component-major: element `c * simd + lane`
    /// is component `c` of the thread's work-item `lane`.
    pub fn bind_vector_components<T: Element>(
        self,
        name: &str,
        components: u32,
        values: &[T],
    ) -> Self {
        self.bind_vector_components_bytes(name, T::TYPE, components, to_bytes(values))
    }

    /// [`Launch::bind_vector_components`] from little-endian bytes of elements of type `ty`.
    pub fn bind_vector_components_bytes(
        self,
        name: &str,
        ty: ElemType,
        components: u32,
        bytes: Vec<u8>,
    ) -> Self {
        self.bind_lanes(name, ty, components, bytes, false)
    }

    /// The values [`Launch::bind_vector_components_bytes`] binds, given in the order each
    /// thread's variable holds them: thread `t`'s `simd * components` elements from element
    /// `t * simd * components` of `bytes`, element `c * simd + lane` of them being component `c`
    /// of its work-item `lane` (a thread payload built in register order, which each thread
    /// receives as one copy).
    pub fn bind_thread_elements_bytes(
        self,
        name: &str,
        ty: ElemType,
        components: u32,
        bytes: Vec<u8>,
    ) -> Self {
        self.bind_lanes(name, ty, components, bytes, true)
    }

    fn bind_lanes(
        mut self,
        name: &str,
        ty: ElemType,
        components: u32,
        bytes: Vec<u8>,
        thread_order: bool,
    ) -> Self {
        self.bindings.push((
            name.to_string(),
            Binding::Lanes {
                bytes,
                ty,
                components,
                thread_order,
            },
        ));
        self
    }

    /// Has `write` set the bytes of variable `name` that differ from thread to thread, as each
    /// thread starts (after the template, which the variable's other bindings fill, and the
    /// ids): IGC's thread payload, whose `%r0` and local ids depend on the thread's place, is
    /// written this way instead of being built for every thread of the launch up front. Such a
    /// launch starts its threads from Rust (not in compiled batches, which do not call it).
    pub(crate) fn bind_thread_writer(mut self, name: &str, write: &'a ThreadWriter<'a>) -> Self {
        self.writers.push((name.to_string(), write));
        self
    }

    /// Writes `values` to the first elements of the variable in every thread (uniform data such
    /// as tables); the variable must have at least `values.len()` elements.
    pub fn bind_elements<T: Element>(mut self, name: &str, values: &[T]) -> Self {
        self.bindings.push((
            name.to_string(),
            Binding::Elements {
                bytes: to_bytes(values),
                ty: T::TYPE,
            },
        ));
        self
    }

    /// [`Launch::bind_elements`] from little-endian bytes of elements of type `ty`.
    pub fn bind_elements_bytes(mut self, name: &str, ty: ElemType, bytes: Vec<u8>) -> Self {
        self.bindings
            .push((name.to_string(), Binding::Elements { bytes, ty }));
        self
    }

    /// [`Launch::bind_vector`] from little-endian bytes of elements of type `ty`.
    pub fn bind_vector_bytes(self, name: &str, ty: ElemType, bytes: Vec<u8>) -> Self {
        self.bind_vector_components_bytes(name, ty, 1, bytes)
    }

    /// [`Launch::bind_scalar`] from the bits of an element of type `ty`.
    pub fn bind_scalar_bits(mut self, name: &str, ty: ElemType, bits: u64) -> Self {
        self.bindings
            .push((name.to_string(), Binding::Uniform { bits, ty }));
        self
    }

    /// Binds a uniform value, written to every element of the variable in every thread.
    pub fn bind_scalar<T: Element>(mut self, name: &str, value: T) -> Self {
        self.bindings.push((
            name.to_string(),
            Binding::Uniform {
                bits: value.to_bits(),
                ty: T::TYPE,
            },
        ));
        self
    }

    /// Binds per-lane SVM pointers: work-item `i` gets `base + i * stride` (a pointer to its own
    /// element of an array of `stride`-byte elements).
    pub fn bind_svm_lanes(mut self, name: &str, base: u64, stride: u64) -> Self {
        self.bindings
            .push((name.to_string(), Binding::SvmLanes { base, stride }));
        self
    }

    /// Binds a surface (`T6`, ..., or a declared surface variable's name) to a buffer.
    pub fn bind_surface(mut self, name: &str, buffer: &'a Buffer) -> Self {
        self.surfaces.push((name.to_string(), buffer));
        self
    }

    /// Whether a read of register bytes no instruction or binding has written traps (the
    /// interpreter's check; default: yes). Compiler output reads such bytes by design (lanes a
    /// partial write left, values tested for NaN), as the hardware reads whatever is there:
    /// `compiled` launches turn the check off.
    pub fn trap_undefined_reads(mut self, trap: bool) -> Self {
        self.trap_undefined = trap;
        self
    }

    /// A compiled kernel's binding table: `(number, SVM base, length)` per entry, numbered from 0
    /// as the compiler numbers them. Every number a surface variable holds (set by `movs`) then
    /// names an entry of this table, not vISA's predefined surfaces (0 SLM, 5 stateless), and an
    /// access outside the entry's length traps as `SvmOutOfBounds`.
    pub fn svm_binding_table(mut self, entries: Vec<(u32, u64, u64)>) -> Self {
        self.svm_table = Some(entries);
        self
    }

    /// Keeps only the SLM address bits of `mask`: IGC tags pointers to local memory with bit 28
    /// (`0x10000000`), which the SLM messages ignore. Default: every bit (an SLM address past
    /// the group's SLM traps).
    pub fn slm_address_mask(mut self, mask: u64) -> Self {
        self.slm_mask = mask;
        self
    }

    /// The shared virtual memory the kernel may address (SVM messages and stateless T5).
    pub fn svm(mut self, svm: &'a Svm) -> Self {
        self.svm = Some(svm);
        self
    }

    /// Instruction budget of the whole launch.
    pub fn fuel(mut self, steps: u64) -> Self {
        self.fuel = steps;
        self
    }

    /// A flag another thread (a Ctrl-C handler, a UI) sets to stop the launch: the workers
    /// check it before each group and whenever a thread draws fuel, so running threads stop
    /// within a chunk of instructions, and [`Launch::run`] returns [`LaunchError::Cancelled`]
    /// saying where each stopped. Set before the launch, no group runs.
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// A counter the launch adds one to as each group finishes (for a progress display read
    /// from another thread).
    pub fn progress(mut self, groups_done: Arc<AtomicU64>) -> Self {
        self.progress = Some(groups_done);
        self
    }

    /// A counter of the instructions the launch executes (for a progress display's rate, read
    /// from another thread). It is set to 0 when the launch starts and counts the fuel the
    /// threads draw, which each rayon worker takes in chunks of up to 65,536 instructions,
    /// so it runs slightly ahead of the instructions done; at the end it equals [`LaunchResult::steps`].
    pub fn steps_counter(mut self, steps: Arc<AtomicU64>) -> Self {
        self.steps = Some(steps);
        self
    }

    /// SLM bytes per group (default: the kernel's `SLMSize` attribute, or 0 = no SLM); at most
    /// the program's [`crate::LoadOptions::max_slm_bytes`].
    pub fn slm_size(mut self, bytes: usize) -> Self {
        self.slm_size = Some(bytes);
        self
    }

    /// The most memory the launch may take, in bytes (default [`DEFAULT_MAX_MEMORY`]): the SLM
    /// and register files of the groups running at once and the variables read back from every
    /// thread. [`Launch::run`] estimates this before allocating anything and returns
    /// [`LaunchError::MemoryLimit`] above it. Bound data and buffers are the caller's and not
    /// counted.
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = bytes;
        self
    }

    /// Initial `%cr0` (default 0: IEEE mode, round to nearest even, denormals flushed).
    pub fn cr0(mut self, value: u32) -> Self {
        self.cr0 = value;
        self
    }

    /// The entry mask: one flag per work-item of the launch (`flags.len()` must equal
    /// [`Launch::work_items`]). A lane whose flag is false starts with its execution-mask bit
    /// (and its `%sr0.2` dispatch-mask bit) off, as a lane reached under divergent control
    /// flow or past the last work-item: instructions under the execution mask write nothing
    /// there and its memory messages (gathers, scatters, atomics, SVM) do not access memory
    /// for it, whatever its address. NoMask instructions ignore the mask, as on the hardware.
    /// A thread without any active lane does not run.
    pub fn active_lanes(mut self, flags: &[bool]) -> Self {
        self.active = Some(flags.to_vec());
        self
    }

    /// The execution mask thread `global_thread` starts with: its SIMD lanes, less the lanes
    /// [`Launch::active_lanes`] turns off.
    pub(super) fn entry_mask(&self, global_thread: u32) -> u32 {
        let lanes = self.lanes();
        let Some(active) = &self.active else {
            return lanes;
        };
        let simd = self.simd as usize;
        let first = global_thread as usize * simd;
        active
            .get(first..first + simd)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .filter(|(_, on)| **on)
            .fold(0, |mask, (lane, _)| mask | 1 << lane)
    }

    /// Also read variable `name` back from every thread.
    pub fn capture(mut self, name: &str) -> Self {
        self.capture.push(name.to_string());
        self
    }

    /// Does not read the per-lane binding `name` back after the run (a per-lane binding is
    /// read back for [`LaunchResult::vector`] unless named here or it is also [`Launch::capture`]d):
    /// a caller that needs only the memory the kernel wrote saves a copy of the variable per
    /// thread (`visa launch` binds IGC's thread payload this way).
    pub fn input_only(mut self, name: &str) -> Self {
        self.input_only.push(name.to_string());
        self
    }
}

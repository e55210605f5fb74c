//! Launching a program: bindings of kernel parameters and memory, the thread grid, parallel
//! execution of thread groups, and reading results back.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use visa_isa::ast::ElemType;

use crate::error::{Fault, LaunchError, Trap, TrapKind};
use crate::exec::nbarrier::NamedBarriers;
use crate::exec::sbarrier::GroupBarrier;
use crate::exec::{Fuel, FuelPool, MemCtx, Stop};
use crate::machine::Thread;
use crate::memory::{Buffer, Element, Svm, from_bytes, to_bytes};
use crate::program::Program;

mod start;
use start::{PerThreadIds, ThreadStart, Worker};

/// Default instruction budget of a launch.
pub const DEFAULT_FUEL: u64 = 1 << 32;

/// Default [`Launch::max_memory`]: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The dispatch SIMD widths a launch accepts ([`Launch::simd`]): vISA's execution sizes.
pub const SIMD_WIDTHS: [u32; 6] = visa_isa::rules::EXEC_SIZES;

#[derive(Debug, Clone)]
enum Binding {
    /// `components` elements per work-item of the launch, work-item-major (thread `t` gets
    /// work-items `t*simd ..`); a thread's variable holds them component-major (element
    /// `c*simd + lane`).
    Lanes {
        bytes: Vec<u8>,
        ty: ElemType,
        components: u32,
    },
    /// The same value in every element of the variable, in every thread.
    Uniform { bits: u64, ty: ElemType },
    /// Per-lane SVM pointers `base + work_item * stride`.
    SvmLanes { base: u64, stride: u64 },
    /// The same leading elements in every thread.
    Elements { bytes: Vec<u8>, ty: ElemType },
}

/// A launch of a program over a grid of thread groups. Build it, then [`Launch::run`].
///
/// ```
/// use visa_isa::ast::ElemType;
/// use visa_runtime::{Launch, LoadOptions, Program, Svm};
///
/// // `%0` is an inline-assembly parameter: one SVM pointer per work-item.
/// let src = "
/// .decl V v_type=G type=d num_elts=16 align=GRF
/// svm_gather.4.1 (M1, 16) %0.0 V.0
/// add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x1:w
/// svm_scatter.4.1 (M1, 16) %0.0 V.0
/// ";
/// let options = LoadOptions::default().param("%0", ElemType::Uq, 16);
/// let program = Program::from_text(src, &options)?;
/// let mut svm = Svm::new();
/// let data = svm.alloc_from(&(0..64).collect::<Vec<i32>>());
/// Launch::new(&program)
///     .simd(16)
///     .groups(4)
///     .svm(&svm)
///     .bind_svm_lanes("%0", data, 4)
///     .run()?;
/// assert_eq!(svm.read_vec::<i32>(data, 64).unwrap(), (1..65).collect::<Vec<i32>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Launch<'a> {
    program: &'a Program,
    simd: u32,
    groups: u32,
    threads_per_group: u32,
    bindings: Vec<(String, Binding)>,
    surfaces: Vec<(String, &'a Buffer)>,
    svm_table: Option<Vec<(u32, u64, u64)>>,
    slm_mask: u64,
    svm: Option<&'a Svm>,
    fuel: u64,
    slm_size: Option<usize>,
    max_memory: u64,
    cr0: u32,
    capture: Vec<String>,
    /// One flag per work-item ([`Launch::active_lanes`]); `None`: every lane is active.
    active: Option<Vec<bool>>,
    /// Set by the caller to stop the launch ([`Launch::cancel_flag`]).
    cancel: Option<Arc<AtomicBool>>,
    /// Counts the groups that have finished ([`Launch::progress`]).
    progress: Option<Arc<AtomicU64>>,
    /// Counts the instructions drawn from the fuel budget ([`Launch::steps_counter`]).
    steps: Option<Arc<AtomicU64>>,
}

/// Why a group stopped early.
enum GroupStop {
    Trap(Box<Trap>),
    /// The cancel flag was set before it started.
    Cancelled,
    /// Its resources could not be allocated.
    Error(LaunchError),
}

impl From<LaunchError> for GroupStop {
    fn from(error: LaunchError) -> Self {
        GroupStop::Error(error)
    }
}

/// What a task of consecutive groups leaves behind.
struct Task {
    /// The captured variables of the threads of its groups that finished.
    captured: Vec<Captured>,
    /// How many of its groups finished.
    groups: u32,
    /// Why its last group stopped early, if it did (the task then stopped).
    stop: Option<GroupStop>,
}

/// Values captured from one thread: variable name -> (bytes, per-byte definedness).
type Captured = HashMap<String, (Vec<u8>, Vec<bool>)>;

/// What a launch leaves behind: the captured variables of every thread.
#[derive(Debug, Clone)]
pub struct LaunchResult {
    simd: u32,
    /// Thread order: group-major, then thread within the group.
    threads: Vec<Captured>,
    /// Per thread, the lanes that started active; empty without an entry mask (every lane).
    entry_masks: Vec<u32>,
    steps: u64,
}

impl<'a> Launch<'a> {
    pub fn new(program: &'a Program) -> Self {
        Self {
            program,
            simd: program.simd_size.unwrap_or(16),
            groups: 1,
            threads_per_group: 1,
            bindings: Vec::new(),
            surfaces: Vec::new(),
            svm_table: None,
            slm_mask: u64::MAX,
            svm: None,
            fuel: DEFAULT_FUEL,
            slm_size: None,
            max_memory: DEFAULT_MAX_MEMORY,
            cr0: 0,
            capture: Vec::new(),
            active: None,
            cancel: None,
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
        mut self,
        name: &str,
        ty: ElemType,
        components: u32,
        bytes: Vec<u8>,
    ) -> Self {
        self.bindings.push((
            name.to_string(),
            Binding::Lanes {
                bytes,
                ty,
                components,
            },
        ));
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
    fn entry_mask(&self, global_thread: u32) -> u32 {
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

    fn binding_error(name: &str, message: impl Into<String>) -> LaunchError {
        LaunchError::Binding {
            name: name.to_string(),
            message: message.into(),
        }
    }

    /// Checks the SIMD width, group count and threads per group.
    fn check_grid(&self) -> Result<(), LaunchError> {
        let grid = |parameter, message: String| Err(LaunchError::Grid { parameter, message });
        if !SIMD_WIDTHS.contains(&self.simd) {
            return grid(
                "simd",
                format!(
                    "SIMD width {} is not one of {}",
                    self.simd,
                    simd_widths_text()
                ),
            );
        }
        if self.groups == 0 {
            return grid("groups", "a launch needs at least 1 group".to_string());
        }
        if self.threads_per_group == 0 {
            return grid(
                "threads_per_group",
                "a group needs at least 1 thread".to_string(),
            );
        }
        if u64::from(self.groups) * u64::from(self.threads_per_group) > u64::from(u32::MAX) {
            return grid(
                "groups",
                format!(
                    "{} groups x {} threads is more than 2^32 threads in one launch",
                    self.groups, self.threads_per_group
                ),
            );
        }
        Ok(())
    }

    /// The memory the launch will take (see [`Launch::max_memory`]), checked against the limit.
    fn check_memory(&self, slm_size: usize, captured: &[String]) -> Result<(), LaunchError> {
        let layout = &self.program.layout;
        if slm_size > self.program.max_slm_bytes {
            return Err(LaunchError::Grid {
                parameter: "slm_size",
                message: format!(
                    "{slm_size} bytes of SLM per group is more than the limit of {} bytes \
                     (LoadOptions::max_slm_bytes)",
                    self.program.max_slm_bytes
                ),
            });
        }
        let groups = u128::from(self.groups);
        let threads = groups * u128::from(self.threads_per_group);
        // Groups run at once: one per rayon worker.
        let at_once = groups.min(rayon::current_num_threads().max(1) as u128);
        let slm = slm_size as u128 * at_once;
        // A register file is its bytes and one definedness flag per byte.
        let file = u128::from(layout.file_size) * 2;
        let registers = file * (u128::from(self.threads_per_group) * at_once + 1);
        let per_capture: u128 = captured
            .iter()
            .filter_map(|name| layout.top_level.get(name).and_then(|i| layout.vars.get(*i)))
            .map(|var| u128::from(var.size) * 2 + 128)
            .sum();
        // A thread's captured variables sit in its task's vector, then in the result's.
        let per_thread = per_capture
            + 2 * std::mem::size_of::<Captured>() as u128
            + std::mem::size_of::<u32>() as u128;
        let results = threads * per_thread;
        let needed = slm + registers + results;
        if needed > u128::from(self.max_memory) {
            return Err(LaunchError::MemoryLimit {
                needed: u64::try_from(needed).unwrap_or(u64::MAX),
                limit: self.max_memory,
                breakdown: format!(
                    "SLM {slm_size} bytes x {at_once} groups at once, register files {registers}, \
                     results of {threads} threads {results}"
                ),
            });
        }
        Ok(())
    }

    /// Checks the bindings against the program and returns (var index, binding) pairs.
    fn resolve(&self) -> Result<Vec<(usize, &Binding)>, LaunchError> {
        self.check_grid()?;
        let layout = &self.program.layout;
        let mut resolved = Vec::new();
        for (name, binding) in &self.bindings {
            let index = *layout
                .top_level
                .get(name)
                .ok_or_else(|| Self::binding_error(name, "no such kernel variable"))?;
            let var = &layout.vars[index];
            match binding {
                Binding::Lanes {
                    bytes,
                    ty,
                    components,
                } => {
                    if ty.size() != var.ty.size() {
                        return Err(Self::binding_error(
                            name,
                            format!("values are {ty} but the variable is {}", var.ty),
                        ));
                    }
                    if *components == 0 {
                        return Err(Self::binding_error(
                            name,
                            "a per-lane vector needs at least one component",
                        ));
                    }
                    let per_item = |n: usize| match components {
                        1 => format!("{n} work-items"),
                        c => format!(
                            "{n} work-items x {c} components = {} values",
                            n as u128 * u128::from(*c)
                        ),
                    };
                    // Checked: the component count is the caller's.
                    let wanted = self
                        .work_items()
                        .checked_mul(*components as usize)
                        .and_then(|w| w.checked_mul(ty.size() as usize));
                    if wanted != Some(bytes.len()) {
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "{} values bound, the launch has {}",
                                bytes.len() / ty.size() as usize,
                                per_item(self.work_items())
                            ),
                        ));
                    }
                    let elements = u64::from(self.simd) * u64::from(*components);
                    if u64::from(var.num_elts) < elements {
                        let needed = match components {
                            1 => format!("SIMD {}", self.simd),
                            c => format!("SIMD {} x {c} components = {elements}", self.simd),
                        };
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "the variable has {} elements, fewer than {needed}",
                                var.num_elts
                            ),
                        ));
                    }
                }
                Binding::Uniform { ty, .. } => {
                    if ty.size() != var.ty.size() {
                        return Err(Self::binding_error(
                            name,
                            format!("value is {ty} but the variable is {}", var.ty),
                        ));
                    }
                }
                Binding::Elements { bytes, ty } => {
                    if ty.size() != var.ty.size() || bytes.len() > var.size as usize {
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "{} {ty} values do not fit the variable ({} x {})",
                                bytes.len() / ty.size() as usize,
                                var.num_elts,
                                var.ty
                            ),
                        ));
                    }
                }
                Binding::SvmLanes { .. } => {
                    if var.ty.size() != 8 || var.num_elts < self.simd {
                        return Err(Self::binding_error(
                            name,
                            "per-lane pointers need a 64-bit variable with at least SIMD elements",
                        ));
                    }
                }
            }
            resolved.push((index, binding));
        }
        if let Some(active) = &self.active
            && active.len() != self.work_items()
        {
            return Err(Self::binding_error(
                "active_lanes",
                format!(
                    "{} flags given, the launch has {} work-items",
                    active.len(),
                    self.work_items()
                ),
            ));
        }
        for name in &self.capture {
            if !layout.top_level.contains_key(name) {
                return Err(Self::binding_error(
                    name,
                    "no such kernel variable to capture",
                ));
            }
        }
        Ok(resolved)
    }

    /// The binding table: each bound surface at its number (`Tn`: n; a declared surface: the
    /// entry its element 0 starts with), sorted. A `Tn` the kernel never names is accepted
    /// only when the kernel re-points surfaces with `movs` (`dynamic`).
    fn binding_table(&self, dynamic: bool) -> Result<Vec<(u32, &'a Buffer)>, LaunchError> {
        let layout = &self.program.layout;
        let named = |name: &str| layout.states.iter().any(|s| s.name == name && !s.sampler);
        let mut table: Vec<(u32, &'a Buffer)> = Vec::with_capacity(self.surfaces.len());
        for (name, buffer) in &self.surfaces {
            let number = layout
                .surface_number(name)
                .filter(|_| named(name) || dynamic)
                .ok_or_else(|| {
                    // A surface the kernel names but whose number it sets itself (`%bss`, T4,
                    // a variable not yet pointed anywhere) is not bound by name.
                    let why = if named(name) {
                        "the kernel sets this surface's binding-table number with movs: bind                          the entry it points to (`Tn`, n >= 6) instead"
                    } else {
                        "the kernel does not use this surface"
                    };
                    Self::binding_error(name, why)
                })?;
            if table.iter().any(|(n, _)| *n == number) {
                return Err(Self::binding_error(
                    name,
                    format!("binding-table entry {number} is bound twice"),
                ));
            }
            table.push((number, *buffer));
        }
        table.sort_unstable_by_key(|(n, _)| *n);
        Ok(table)
    }

    /// Runs every thread of the grid. Groups run in parallel; the threads of a group run one
    /// after another. The first trap (lowest group, then thread) is returned.
    pub fn run(self) -> Result<LaunchResult, LaunchError> {
        let resolved = self.resolve()?;
        let program = self.program;
        let dynamic = program.repoints_surfaces() || self.svm_table.is_some();
        let table = self.binding_table(dynamic)?;
        // Without `movs` re-pointing surfaces, each surface variable keeps its initial number:
        // its buffer is looked up here once instead of at every access.
        let fixed: Vec<Option<&Buffer>> = if dynamic {
            Vec::new()
        } else {
            program
                .layout
                .states
                .iter()
                .map(|state| {
                    let number = state.initial.filter(|_| !state.sampler)?;
                    crate::exec::table_entry(&table, number)
                })
                .collect()
        };
        // Compiled code, when the program's engine is the JIT (compiled here on first launch):
        // optimised when the launch is large (each instruction once per thread).
        let work = u64::from(self.groups)
            .saturating_mul(u64::from(self.threads_per_group))
            .saturating_mul(program.code.len() as u64);
        let compiled = program.compiled_for(work);
        let empty_svm = Svm::new();
        let svm = self.svm.unwrap_or(&empty_svm);
        let slm_size = self.slm_size.or(program.slm_size).unwrap_or(0);
        let used = self.steps.clone().unwrap_or_default();
        used.store(0, Ordering::Relaxed);
        let pool = FuelPool::new(
            self.fuel,
            used,
            self.cancel.clone(),
            rayon::current_num_threads(),
        );
        let mut captured: Vec<String> = self
            .bindings
            .iter()
            .filter(|(_, b)| matches!(b, Binding::Lanes { .. }))
            .map(|(n, _)| n.clone())
            .collect();
        captured.extend(self.capture.iter().cloned());
        self.check_memory(slm_size, &captured)?;
        let start = ThreadStart {
            // (Compiled code does not track undefined bytes.)
            template: self.thread_template(&resolved, compiled.is_none()),
            ids: PerThreadIds::new(program),
            bindings: &resolved,
        };
        // `spare`: threads of this rayon worker's previous groups, whose buffers are reused.
        // Runs group `group`, appending what its threads leave behind to `out`.
        let run_group = |worker: &mut Worker<'a>,
                         fuel: &Fuel<'_>,
                         group: u32,
                         out: &mut Vec<Captured>|
         -> Result<(), GroupStop> {
            if self
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            {
                return Err(GroupStop::Cancelled);
            }
            let Worker {
                spare,
                threads,
                running,
                waiting,
                next,
            } = worker;
            // (Threads left by a group that trapped are recycled too.)
            spare.append(threads);
            let slm = Buffer::try_zeroed(slm_size).ok_or(LaunchError::OutOfMemory {
                what: "shared local memory",
                bytes: slm_size as u64,
            })?;
            let named_barriers = RefCell::new(NamedBarriers::default());
            let group_barrier = GroupBarrier::default();
            let mem = MemCtx {
                svm,
                slm: &slm,
                table: &table,
                fixed: &fixed,
                svm_table: self.svm_table.as_deref(),
                slm_mask: self.slm_mask,
                named_barriers: &named_barriers,
                group_barrier: &group_barrier,
            };
            let trap = |index: usize, pc: usize, fault: Fault| {
                let instr = program.sources.get(pc);
                GroupStop::Trap(Box::new(Trap {
                    kernel: program.kernel.clone(),
                    group,
                    thread: index as u32,
                    pc,
                    span: instr.map(|i| i.span).unwrap_or_default(),
                    instruction: instr.map(|i| i.text.clone()).unwrap_or_default(),
                    lane: fault.lane,
                    kind: fault.kind,
                }))
            };
            for thread_in_group in 0..self.threads_per_group {
                let global_thread = group * self.threads_per_group + thread_in_group;
                let recycled = spare.pop();
                let mut thread =
                    self.start_thread(group, thread_in_group, global_thread, &start, recycled);
                // A thread without an active lane is not dispatched: it has ended already.
                thread.ended = thread.em == 0;
                threads.push(thread);
            }
            // Barrier phases: every thread still running runs, in thread order, until it
            // reaches the group barrier (`barrier`, `sbarrier.wait`), a named-barrier wait that
            // cannot pass yet, or its end. The group barrier's phase completes once every
            // thread has ended or signalled it; its waiters then continue with the retried
            // named waits, in thread order. Otherwise only the named waits are retried, and a
            // round of retries that changes no named barrier is a deadlock. (When no named
            // wait is pending, every thread has ended or waits having signalled, so the phase
            // completes unless no thread is left.)
            running.clear();
            running
                .extend((0..threads.len()).filter(|&i| threads.get(i).is_some_and(|t| !t.ended)));
            waiting.clear();
            let mut only_retries = false;
            while !running.is_empty() {
                let version = named_barriers.borrow().version;
                next.clear();
                for &index in running.iter() {
                    let Some(thread) = threads.get_mut(index) else {
                        continue;
                    };
                    let stop = match compiled {
                        Some(code) => thread.run_compiled(code, &mem, fuel),
                        None => thread.run(&mem, fuel),
                    };
                    match stop {
                        Ok(Stop::Finished) => {}
                        Ok(Stop::Barrier) if thread.named_wait => {
                            thread.named_wait = false;
                            next.push(index);
                        }
                        Ok(Stop::Barrier) => waiting.push(index),
                        Err((pc, fault)) => return Err(trap(index, pc, fault)),
                    }
                }
                if !waiting.is_empty() && group_barrier.try_complete(threads) {
                    for &index in waiting.iter() {
                        if let Some(thread) = threads.get_mut(index) {
                            thread.sbarrier_signal = None;
                        }
                    }
                    next.append(waiting);
                    next.sort_unstable();
                    only_retries = false;
                } else if !next.is_empty() {
                    // A round of nothing but retried waits that changed no barrier would
                    // repeat forever.
                    if only_retries && named_barriers.borrow().version == version {
                        let first = next.first().copied().unwrap_or(0);
                        let pc = threads.get(first).map_or(0, |t| t.pc);
                        let kind = TrapKind::NamedBarrierDeadlock {
                            waiting: next.len(),
                        };
                        return Err(trap(first, pc, Fault::new(kind)));
                    }
                    only_retries = true;
                }
                // (Swapped, not moved: the worker keeps both buffers for its next groups.)
                std::mem::swap(running, next);
            }
            out.extend(threads.iter().map(|thread| capture(thread, &captured)));
            spare.append(threads);
            if let Some(done) = &self.progress {
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        };
        // Groups run in tasks of consecutive groups, in group order within a task, which stops
        // at its first trap: a task per group would cost a result vector per group, the main
        // cost of a launch of many one-thread groups.
        let per_task =
            (self.groups / (16 * rayon::current_num_threads().max(1) as u32)).clamp(1, 64);
        let tasks = self.groups.div_ceil(per_task);
        let run_task = |(worker, fuel): &mut (Worker<'a>, Fuel<'_>), task: u32| -> Task {
            let first = task * per_task;
            let groups = first..(first + per_task).min(self.groups);
            let mut done = Task {
                captured: Vec::new(),
                groups: 0,
                stop: None,
            };
            let threads = groups.len() * self.threads_per_group as usize;
            if done.captured.try_reserve_exact(threads).is_err() {
                done.stop = Some(GroupStop::Error(LaunchError::OutOfMemory {
                    what: "the results of the threads",
                    bytes: (threads * std::mem::size_of::<Captured>()) as u64,
                }));
                return done;
            }
            for group in groups {
                match run_group(worker, fuel, group, &mut done.captured) {
                    Ok(()) => done.groups += 1,
                    Err(stop) => {
                        done.stop = Some(stop);
                        break;
                    }
                }
            }
            fuel.flush();
            done
        };
        let results: Vec<Task> = (0..tasks)
            .into_par_iter()
            .map_init(|| (Worker::default(), Fuel::new(&pool)), run_task)
            .collect();
        if let Some(code) = compiled {
            program.count_steps(code, pool.used.load(Ordering::Relaxed));
        }
        let stopped_by_cancel = |stop: &Option<GroupStop>| match stop {
            Some(GroupStop::Cancelled) => true,
            Some(GroupStop::Trap(trap)) => trap.kind == TrapKind::Cancelled,
            _ => false,
        };
        if results.iter().any(|task| stopped_by_cancel(&task.stop)) {
            let done: u64 = results.iter().map(|task| u64::from(task.groups)).sum();
            let stopped = results
                .into_iter()
                .filter_map(|task| match task.stop {
                    Some(GroupStop::Trap(trap)) if trap.kind == TrapKind::Cancelled => Some(*trap),
                    _ => None,
                })
                .collect();
            return Err(LaunchError::Cancelled {
                groups_done: u32::try_from(done).unwrap_or(u32::MAX),
                groups: self.groups,
                stopped,
            });
        }
        let count = self.groups as usize * self.threads_per_group as usize;
        let mut threads = Vec::new();
        threads
            .try_reserve_exact(count)
            .map_err(|_| LaunchError::OutOfMemory {
                what: "the results of the threads",
                bytes: (count * std::mem::size_of::<Captured>()) as u64,
            })?;
        // The first trap in group order: tasks are in group order.
        for task in results {
            threads.extend(task.captured);
            match task.stop {
                Some(GroupStop::Trap(trap)) => return Err(LaunchError::Trap(trap)),
                Some(GroupStop::Error(error)) => return Err(error),
                Some(GroupStop::Cancelled) | None => {}
            }
        }
        // Without an entry mask every lane started active: nothing to keep.
        let entry_masks = match self.active {
            Some(_) => (0..threads.len() as u32)
                .map(|thread| self.entry_mask(thread))
                .collect(),
            None => Vec::new(),
        };
        Ok(LaunchResult {
            simd: self.simd,
            threads,
            entry_masks,
            steps: pool.used.load(Ordering::Relaxed),
        })
    }
}

/// [`SIMD_WIDTHS`] for messages: `1, 2, 4, 8, 16 or 32`.
pub fn simd_widths_text() -> String {
    let widths: Vec<String> = SIMD_WIDTHS.iter().map(u32::to_string).collect();
    match widths.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn capture(thread: &Thread, names: &[String]) -> Captured {
    let layout = &thread.program.layout;
    let mut out = HashMap::new();
    for name in names {
        if let Some(var) = layout.top_level.get(name).and_then(|i| layout.vars.get(*i)) {
            let range = var.offset as usize..(var.offset + var.size) as usize;
            let bytes = thread.grf.get(range.clone()).unwrap_or(&[]).to_vec();
            let defined = thread.defined.get(range).unwrap_or(&[]).to_vec();
            out.insert(name.clone(), (bytes, defined));
        }
    }
    out
}

/// Why a result cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("variable '{0}' was not bound as a vector or captured")]
    NotCaptured(String),
    #[error("variable '{name}' is {size}-byte typed, not {wanted}")]
    WrongType {
        name: String,
        size: u32,
        wanted: ElemType,
    },
    #[error("variable '{name}' lane {lane} of thread {thread} was never written")]
    Undefined {
        name: String,
        thread: usize,
        lane: usize,
    },
}

impl LaunchResult {
    /// Instructions executed by the launch (all threads).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Number of threads that ran.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// The first SIMD elements of `name` in every thread, concatenated: one value per
    /// work-item, in work-item order. A lane that was not active at entry
    /// ([`Launch::active_lanes`]) is not required to be defined: its element is read as the
    /// register holds it (its bound value, or 0 when never written).
    pub fn vector<T: Element>(&self, name: &str) -> Result<Vec<T>, ReadError> {
        Ok(from_bytes::<T>(&self.vector_bytes(name, T::TYPE)?))
    }

    /// [`LaunchResult::vector`] as little-endian bytes of elements of type `ty`.
    pub fn vector_bytes(&self, name: &str, ty: ElemType) -> Result<Vec<u8>, ReadError> {
        self.vector_components_bytes(name, ty, 1)
    }

    /// The values [`Launch::bind_vector_components`] binds, read back: `components` elements
    /// per work-item, work-item-major, from each thread's variable, where they are
    /// component-major (element `c * simd + lane`). A lane not active at entry is not required
    /// to be defined, as in [`LaunchResult::vector`].
    pub fn vector_components<T: Element>(
        &self,
        name: &str,
        components: u32,
    ) -> Result<Vec<T>, ReadError> {
        Ok(from_bytes::<T>(&self.vector_components_bytes(
            name,
            T::TYPE,
            components,
        )?))
    }

    /// [`LaunchResult::vector_components`] as little-endian bytes of elements of type `ty`.
    pub fn vector_components_bytes(
        &self,
        name: &str,
        ty: ElemType,
        components: u32,
    ) -> Result<Vec<u8>, ReadError> {
        let size = ty.size() as usize;
        let (simd, n) = (self.simd as usize, components.max(1) as usize);
        let mut out = Vec::new();
        for (thread, captured) in self.threads.iter().enumerate() {
            let (bytes, defined) = captured
                .get(name)
                .ok_or_else(|| ReadError::NotCaptured(name.to_string()))?;
            let len = simd * n * size;
            let (Some(bytes), Some(defined)) = (bytes.get(..len), defined.get(..len)) else {
                return Err(ReadError::WrongType {
                    name: name.to_string(),
                    size: (bytes.len() / (simd * n).max(1)) as u32,
                    wanted: ty,
                });
            };
            let entry_mask = self.entry_masks.get(thread).copied().unwrap_or(u32::MAX);
            for lane in 0..simd {
                for c in 0..n {
                    let at = (c * simd + lane) * size;
                    if entry_mask >> lane & 1 != 0 && defined[at..at + size].contains(&false) {
                        return Err(ReadError::Undefined {
                            name: name.to_string(),
                            thread,
                            lane,
                        });
                    }
                    out.extend_from_slice(&bytes[at..at + size]);
                }
            }
        }
        Ok(out)
    }

    /// The whole variable `name` of thread `thread` (bytes, and per-byte definedness).
    pub fn thread_bytes(&self, name: &str, thread: usize) -> Option<(&[u8], &[bool])> {
        self.threads
            .get(thread)
            .and_then(|c| c.get(name))
            .map(|(b, d)| (b.as_slice(), d.as_slice()))
    }
}

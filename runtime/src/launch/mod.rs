//! Launching a program: the builder ([`Launch`]: grid, bindings of kernel parameters and
//! memory), its validation, the engine that runs the threads (interpreter or compiled code),
//! the group scheduler (barrier phases, named barriers, deadlock detection), groups run in
//! parallel on rayon, and the results read back.
//!
//! Layers, each in its own file: `builder` and `validate` (the launch as given), `start`
//! (threads from one template; `ids` the per-thread ids it writes), `scheduler` (a group's
//! barrier phases, knowing threads only through `BarrierParty`), `group` (one group's SLM,
//! barriers and threads), `engine` (the `Engine` trait: the interpreter and the compiled
//! tier; an engine runs a task's range of groups), `range` (the launch loop: a task's threads
//! one after another when they never wait for one another), `run` (tasks on rayon, results
//! gathered in group order), `result` (read-back).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use visa_isa::ast::ElemType;

use crate::memory::{Buffer, Svm};
use crate::program::Program;

mod builder;
mod engine;
mod fresh;
mod group;
pub(crate) mod ids;
mod range;
mod result;
mod run;
mod scheduler;
mod start;
mod validate;

pub use result::{LaunchResult, ReadError};

/// Default instruction budget of a launch.
pub const DEFAULT_FUEL: u64 = 1 << 32;

/// Default [`Launch::max_memory`]: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// The dispatch SIMD widths a launch accepts ([`Launch::simd`]): vISA's execution sizes.
pub const SIMD_WIDTHS: [u32; 6] = visa_isa::rules::EXEC_SIZES;

#[derive(Debug, Clone)]
enum Binding {
    /// `components` elements per work-item of the launch (thread `t` gets work-items
    /// `t*simd ..`); a thread's variable holds them component-major (element `c*simd + lane`).
    /// `bytes` is work-item-major, or with `thread_order` each thread's elements as its
    /// variable holds them.
    Lanes {
        bytes: Vec<u8>,
        ty: ElemType,
        components: u32,
        thread_order: bool,
    },
    /// The same value in every element of the variable, in every thread.
    Uniform { bits: u64, ty: ElemType },
    /// Per-lane SVM pointers `base + work_item * stride`.
    SvmLanes { base: u64, stride: u64 },
    /// The same leading elements in every thread.
    Elements { bytes: Vec<u8>, ty: ElemType },
}

/// Writes a thread's own bytes of a variable as the thread starts, after the template and the
/// ids ([`Launch::bind_thread_writer`]): given where the thread is and the variable's bytes.
pub(crate) type ThreadWriter<'a> = dyn Fn(ids::ThreadPlace, &mut [u8]) + Sync + 'a;

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
    /// Variables whose per-thread bytes a function writes ([`Launch::bind_thread_writer`]).
    writers: Vec<(String, &'a ThreadWriter<'a>)>,
    surfaces: Vec<(String, &'a Buffer)>,
    /// A compiled kernel's binding table (`Launch::svm_binding_table`).
    svm_table: Option<Vec<(u32, u64, u64)>>,
    /// The SLM address bits kept (`Launch::slm_address_mask`).
    slm_mask: u64,
    svm: Option<&'a Svm>,
    fuel: u64,
    slm_size: Option<usize>,
    max_memory: u64,
    cr0: u32,
    capture: Vec<String>,
    /// Per-lane bindings not read back after the run ([`Launch::input_only`]).
    input_only: Vec<String>,
    /// One flag per work-item ([`Launch::active_lanes`]); `None`: every lane is active.
    active: Option<Vec<bool>>,
    /// Set by the caller to stop the launch ([`Launch::cancel_flag`]).
    cancel: Option<Arc<AtomicBool>>,
    /// Whether the interpreter traps on reads of never-written bytes (`Launch::trap_undefined_reads`).
    trap_undefined: bool,
    /// Counts the groups that have finished ([`Launch::progress`]).
    progress: Option<Arc<AtomicU64>>,
    /// Counts the instructions drawn from the fuel budget ([`Launch::steps_counter`]).
    steps: Option<Arc<AtomicU64>>,
}

/// [`SIMD_WIDTHS`] for messages: `1, 2, 4, 8, 16 or 32`.
pub fn simd_widths_text() -> String {
    let widths: Vec<String> = SIMD_WIDTHS.iter().map(u32::to_string).collect();
    match widths.split_last() {
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

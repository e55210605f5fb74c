//! The one module with `unsafe` code: entering compiled code, and the helper functions compiled
//! code calls back into (the helper ABI).
//!
//! Compiled code runs outside Rust's abstract machine. It receives a pointer to a [`JitCtx`]
//! and reaches the thread only through it: the register file, the predicates and the parked
//! masks (`Thread::waiting`) through raw pointers taken from the thread's buffers just before
//! the call (which no helper resizes), and everything else through helpers, which turn the
//! context's pointers back into references for the duration of one helper call. No Rust
//! reference to the thread is used while compiled code runs, and the code generator (`lower`)
//! only emits accesses to those buffers at offsets it has proven inside them.
//!
//! SVM memory: compiled code reads and writes it only inside the allocation whose host address
//! a window helper (`helper_svm_window`, `helper_surface_window`) returned, after checking
//! every access against the allocation's length (`lower_mem`). The window is kept in the
//! context (`JitCtx::windows`) for the message's next run, which checks its addresses against
//! it again; a context lives within one launch. The memory context borrows the launch's `Svm`
//! immutably, so no allocation moves or is freed while compiled code runs. Other threads
//! access the same words as relaxed atomics; compiled code uses plain loads and stores (and
//! 16-byte moves of a block of consecutive lanes), which on the hosts Cranelift supports are
//! single-copy atomic for aligned dwords (8-byte blocks move as two dwords on the interpreter
//! too).
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;

use cranelift_jit::JITModule;
use cranelift_module::FuncId;

use super::bound_addresses::{self, BoundAddresses};
use super::context::{JitCtx, Window};
use super::{Tier, handlers, status};
use crate::exec::MemCtx;
use crate::launch::ids::ThreadIds;
use crate::machine::{StateSlot, Thread};

/// Signature of a compiled program.
type Entry = unsafe extern "C" fn(*mut JitCtx) -> i64;

/// Signature of the helpers: `(ctx, pc) -> next pc, or a negative exit status`.
pub(crate) type Helper = extern "C" fn(*mut JitCtx, i64) -> i64;

/// A compiled program: its code memory and entry point.
pub(crate) struct Compiled {
    /// Kept to free the code memory when the program is dropped.
    module: Mutex<Option<JITModule>>,
    entry: Entry,
    /// The code generator it was compiled with.
    pub(crate) tier: Tier,
    /// How many [`Window`] slots its native messages use (`JitCtx::windows`).
    pub(super) windows: usize,
    /// How many join points its gotos park channels at (`JitCtx::waiting`).
    joins: usize,
    /// The SVM messages whose addresses it can compute from a launch's pointer bindings.
    pub(crate) addresses: BoundAddresses,
    /// Whether its threads can run in batches (`Plan::batches`).
    pub(crate) batches: bool,
    /// The per-thread ids the program uses, which a batch's next thread gets written.
    pub(crate) ids: ThreadIds,
    /// Per instruction: whether it lies in a block this code leaves to the interpreter
    /// (`plan::Lowering::Cold`); empty when every block is compiled.
    pub(crate) cold: Vec<bool>,
    /// Set when a thread entered a cold block: the program's next launch builds the code again.
    pub(crate) missed: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

impl Compiled {
    /// Whether the instruction at `pc` lies in a block this code leaves to the interpreter.
    pub(crate) fn is_cold(&self, pc: usize) -> bool {
        self.cold.get(pc).copied().unwrap_or(false)
    }

    /// Whether a thread entered a block this code leaves to the interpreter.
    pub(crate) fn missed(&self) -> bool {
        self.missed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Records that a thread entered a block this code leaves to the interpreter (read first:
    /// the flag's cache line is shared by every worker).
    pub(crate) fn note_missed(&self) {
        if !self.missed() {
            self.missed
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Every register byte range its threads may write, when that is known (`Plan::batches`,
    /// no block left to the interpreter): the rest keeps the value a thread started with.
    pub(crate) fn known_writes(&self) -> Option<&[std::ops::Range<usize>]> {
        (self.batches && self.cold.is_empty()).then_some(&self.addresses.writes[..])
    }

    /// Finalizes a module whose function `func` was built by `lower` with the signature
    /// [`Entry`].
    /// `windows` is the number of window slots the code indexes (`lower_mem`), `joins` the
    /// number of parked masks (`Program::joins`).
    pub(crate) fn new(
        mut module: JITModule,
        func: FuncId,
        tier: Tier,
        windows: usize,
        joins: usize,
        addresses: BoundAddresses,
    ) -> Result<Compiled, String> {
        module
            .finalize_definitions()
            .map_err(|e| format!("cranelift: {e}"))?;
        let code = module.get_finalized_function(func);
        // SAFETY: `lower::compile` defined `func` with one pointer parameter and one i64 result
        // in the host's default calling convention, which is `extern "C"`; the code stays
        // valid as long as `module`, which this value owns.
        let entry = unsafe { std::mem::transmute::<*const u8, Entry>(code) };
        Ok(Compiled {
            module: Mutex::new(Some(module)),
            entry,
            tier,
            windows,
            joins,
            addresses,
            batches: false,
            ids: ThreadIds::default(),
            cold: Vec::new(),
            missed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Runs compiled code for `thread` from `ctx.pc` until it exits; returns the exit status.
    pub(crate) fn run(&self, ctx: &mut JitCtx, thread: &mut Thread<'_>, mem: &MemCtx<'_>) -> i64 {
        ctx.grf = thread.grf.as_mut_ptr();
        ctx.preds = thread.preds.as_mut_ptr();
        // (A thread of the program has one mask per join point already.)
        if thread.waiting.len() < self.joins {
            thread.waiting.resize(self.joins, 0);
        }
        ctx.waiting = thread.waiting.as_mut_ptr();
        // (A thread of the program has its state slots already.)
        let slots = thread.program.layout.state_slots as usize;
        if thread.states.len() < slots {
            thread.states.resize(slots, StateSlot::default());
        }
        ctx.states = thread.states.as_mut_ptr().cast::<u64>();
        ctx.thread = std::ptr::from_mut(thread).cast::<c_void>();
        ctx.mem = std::ptr::from_ref(mem).cast::<c_void>();
        if ctx.window_cache.len() < self.windows {
            ctx.window_cache.resize(self.windows, Window::default());
        }
        ctx.windows = ctx.window_cache.as_mut_ptr();
        // Compiled code in a batch also copies from the template: 16-byte register-file
        // chunks at the offsets `restore` lists, its predicate words and state slots, all
        // checked inside both threads by `CompiledRun::run_threads` (`restores` all ones and
        // the pointers null otherwise); the template outlives the batch.
        // SAFETY: `entry` is the program's compiled code (see `Compiled::new`). It accesses
        // `grf`, `preds`, `waiting`, `states` and `windows` only at offsets `lower` proved
        // inside the register file, the predicate words, the `self.joins` parked masks, the
        // layout's state slots (`StateSlot` is a transparent `u64`) and the `self.windows`
        // slots (buffers nothing resizes during the call), the template as said above, the
        // thread only through the helpers below, and SVM memory as the module documentation
        // says. `thread` and `mem` outlive the call and are not used until it returns.
        let status = unsafe { (self.entry)(ctx) };
        ctx.thread = std::ptr::null_mut();
        ctx.mem = std::ptr::null();
        if let Some(payload) = ctx.panic.take() {
            resume_unwind(payload);
        }
        status
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        let module = self.module.get_mut().ok().and_then(Option::take);
        if let Some(module) = module {
            // SAFETY: the program owning this code is being dropped, so no launch can be
            // running it (a launch borrows the program) and no pointer into it survives.
            unsafe { module.free_memory() };
        }
    }
}

/// Runs a helper's body with the thread and memory the context points to, catching a panic
/// (it must not unwind through compiled code) to resume it after compiled code returns. The
/// thread's pending pointers are written first: a helper may read any register.
fn with_thread(
    ctx: *mut JitCtx,
    body: impl FnOnce(&mut JitCtx, &mut Thread<'_>, &MemCtx<'_>) -> i64,
) -> i64 {
    // SAFETY: compiled code passes the context `Compiled::run` gave it, which is valid and
    // not otherwise referenced during the call; its `thread` and `mem` point to the live
    // thread and memory context of that run (no other reference to them is in use while
    // compiled code runs).
    let (ctx, thread, mem) = unsafe {
        let ctx = &mut *ctx;
        let thread = &mut *ctx.thread.cast::<Thread<'_>>();
        let mem = &*ctx.mem.cast::<MemCtx<'_>>();
        (ctx, thread, mem)
    };
    let run = || {
        if ctx.pending != 0 {
            bound_addresses::materialise(ctx, thread);
        }
        body(ctx, thread, mem)
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(result) => result,
        Err(payload) => {
            ctx.panic = Some(payload);
            status::PANIC
        }
    }
}

/// Executes instruction `pc` with the interpreter's handler.
pub(crate) extern "C" fn helper_step(ctx: *mut JitCtx, pc: i64) -> i64 {
    with_thread(ctx, |ctx, thread, mem| handlers::step(ctx, thread, mem, pc))
}

/// Finds the SVM allocation holding `address` for a native SVM message (`lower_mem`).
pub(crate) extern "C" fn helper_svm_window(ctx: *mut JitCtx, address: i64) -> i64 {
    with_thread(ctx, |ctx, _, mem| {
        handlers::svm_window(ctx, mem, address as u64)
    })
}

/// Finds the surface buffer of the native `gather_scaled`/`scatter_scaled` at `pc`
/// (`lower_mem`).
pub(crate) extern "C" fn helper_surface_window(ctx: *mut JitCtx, pc: i64) -> i64 {
    with_thread(ctx, |ctx, thread, mem| {
        handlers::surface_window(ctx, thread, mem, pc)
    })
}

/// Where a goto at `pc` that left no channel active continues: the nearest later instruction
/// where channels wait.
pub(crate) extern "C" fn helper_resume(ctx: *mut JitCtx, pc: i64) -> i64 {
    with_thread(ctx, |ctx, thread, _| handlers::resume(ctx, thread, pc))
}

/// Writes the thread's pending pointers (`with_thread` does), for a message whose addresses
/// come from a binding but that cannot move as one block.
pub(crate) extern "C" fn helper_materialise(ctx: *mut JitCtx, _: i64) -> i64 {
    with_thread(ctx, |_, _, _| 0)
}

/// Checks that the subroutine starting at `pc` was entered by a call.
pub(crate) extern "C" fn helper_enter(ctx: *mut JitCtx, pc: i64) -> i64 {
    with_thread(ctx, |ctx, thread, _| handlers::enter(ctx, thread, pc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_starts_empty() {
        let ctx = JitCtx::new();
        assert!(ctx.grf.is_null() && ctx.thread.is_null() && ctx.fault.is_none());
    }
}

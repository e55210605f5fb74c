//! The context compiled code runs with: what it and the helpers share (see `enter`).

use std::any::Any;
use std::ffi::c_void;

use crate::error::Fault;
use crate::machine::lane_pointers::LanePointers;

/// What compiled code and helpers share. Compiled code reads and writes the fields before
/// `thread` at the offsets `std::mem::offset_of!` gives; the rest is for helpers only.
#[repr(C)]
pub(crate) struct JitCtx {
    /// The thread's register file (`Thread::grf`).
    pub grf: *mut u8,
    /// The thread's predicate words (`Thread::preds`).
    pub preds: *mut u32,
    /// The execution mask (the thread's, copied in and out around helpers).
    pub em: u32,
    /// The thread's parked masks, one per join point (`Thread::waiting`).
    pub waiting: *mut u32,
    /// The thread's state slots (`Thread::states`, `StateSlot`'s `u64`s).
    pub states: *mut u64,
    /// Fuel drawn and not yet charged.
    pub budget: i64,
    /// The instruction to start at; on exit, where the code stopped.
    pub pc: i64,
    /// On a fuel exit: the instructions of the block that could not be charged.
    pub needed: i64,
    /// The memory a window helper found (`lower_mem`): its first address, its length in
    /// bytes, and the global offset of a surface message (0 for SVM).
    pub window_base: u64,
    pub window_len: u64,
    pub global_offset: u64,
    /// Set by a window helper when the window it found holds for every later run of the same
    /// message in this launch (an SVM allocation always does: compiled code checks the
    /// address against it; a surface only when its buffer and global offset are fixed).
    pub window_reusable: u64,
    /// Set by the surface window helper when the window holds for every later run of the same
    /// message in this launch whose surface variable's state slot is this one (`StateSlot`'s
    /// `u64`, never 0): the buffer was found through the binding-table number there, and the
    /// global offset is fixed; 0 otherwise.
    pub window_state: u64,
    /// One [`Window`] per native message of the program (`Compiled::windows`): what the
    /// message found the last time it ran with this context (`window_cache`'s buffer).
    pub windows: *mut Window,
    /// Per-lane SVM pointer bindings of the thread not yet written to its register file, one
    /// bit per entry of `deferred` (`bound_addresses`): messages compute those addresses.
    pub pending: u64,
    /// The thread's first work-item (its lane 0), for the pending bindings.
    pub first_item: u64,
    /// Threads still to run after this one in a batch (`CompiledRun::run_threads`): at the end
    /// of the code compiled code starts the next itself, `item_step` work-items further, with
    /// `next_pending` pending and the execution mask `start_em`; 0 outside a batch.
    pub threads_left: u64,
    pub item_step: u64,
    pub next_pending: u64,
    pub start_em: u32,
    /// In a batch (`CompiledRun::run_threads`), what compiled code starting the next thread
    /// restores from the launch's thread template: the 16-byte register-file chunks at the
    /// `restores` offsets of `restore` (each inside the file), and in a program with control
    /// flow every predicate word and state slot (`template_preds`, `template_states`, as many
    /// as the program has). `restores` all ones: no template, the driver starts the next
    /// thread. Null and 0 outside a batch.
    pub template_grf: *const u8,
    pub template_preds: *const u32,
    pub template_states: *const u64,
    pub restore: *const u32,
    pub restores: u64,
    /// Where the thread running is in the grid (`launch::ids::ThreadPlace`: its group, its
    /// number in the group and in the launch), and the launch's threads per group and SIMD
    /// width: in a batch, compiled code starting the next thread writes its ids from them.
    pub group: u64,
    pub in_group: u64,
    pub global: u64,
    pub per_group: u64,
    pub simd: u64,
    /// The selector bit of each lane, four lanes to a group (`lower_alu::LaneMasks`): read
    /// where a partial write needs them, so that they are operands of the instructions using
    /// them rather than constants held in registers (or spilled) across a whole function.
    pub lane_bits: LaneBits,
    /// The execution mask as lane masks (all ones for an enabled lane), four lanes to a group,
    /// for the first `Plan::em_groups` groups: compiled code writes them wherever it sets the
    /// mask and wherever it is entered (the mask may have changed outside), and a partial
    /// write enabled by the mask alone reads them instead of expanding the mask's bits.
    pub em_lanes: LaneBits,
    /// The mask `em_lanes` was written from.
    pub em_lanes_of: u32,
    pub(super) thread: *mut c_void,
    pub(super) mem: *const c_void,
    /// A trap raised by a helper.
    pub fault: Option<Fault>,
    /// A panic caught in a helper, resumed once compiled code has returned.
    pub(super) panic: Option<Box<dyn Any + Send>>,
    /// The buffer `windows` points to (sized by `Compiled::run`).
    pub(super) window_cache: Vec<Window>,
    /// The bindings the launch leaves to compiled code (`JitCtx::pending`'s bits).
    pub(super) deferred: Vec<LanePointers>,
    /// Whether a thread's pending pointers are written when it ends (they are captured).
    pub(super) capture_pointers: bool,
}

/// Lane `4 * group + i`'s bit (`1 << (4 * group + i)`) at `[group][i]`, for 32 lanes.
#[repr(C, align(16))]
pub(crate) struct LaneBits(pub [[u32; 4]; 8]);

impl LaneBits {
    fn new() -> LaneBits {
        LaneBits(std::array::from_fn(|group| {
            std::array::from_fn(|i| 1u32 << (4 * group + i))
        }))
    }
}

/// The memory a native message found (`lower_mem`), kept for its next run: an empty window
/// (`len` 0) is never used.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Window {
    /// The first address of the memory (0 for a surface).
    pub base: u64,
    /// Its length in bytes.
    pub len: u64,
    /// The host address of its first byte.
    pub host: u64,
    /// A surface message's global offset.
    pub global: u64,
    /// `JitCtx::window_reusable` when it was found.
    pub reusable: u64,
    /// `JitCtx::window_state` when it was found.
    pub state: u64,
    /// For a message whose addresses come from a deferred binding (`bound_addresses`): the
    /// binding's bit in `JitCtx::pending` (0: none), the pointer its lane 0 holds on a thread
    /// whose first work-item is 0, and the binding's stride.
    pub pointer_bit: u64,
    pub pointer_first: u64,
    pub pointer_stride: u64,
    /// Set once the message's lanes were found not consecutive (`lower_mem`): a dword surface
    /// message then moves its lanes one by one without trying the block copy first.
    pub scattered: u64,
    /// What the block path of such a message needs, worked out from the fields above when the
    /// memory is found (`lower_mem::prepare_block`) so that a thread pays one add and one
    /// compare: lane 0's offset into the memory on a thread whose first work-item is 0
    /// (wrapping), the host address of that byte, and one more than the greatest offset at
    /// which the whole message fits (0 when it never moves as one block: a memory shorter
    /// than the message, a stride other than the block size, misaligned pointers).
    pub block_offset: u64,
    pub block_host: u64,
    pub block_room: u64,
}

impl JitCtx {
    pub(crate) fn new() -> JitCtx {
        JitCtx {
            grf: std::ptr::null_mut(),
            preds: std::ptr::null_mut(),
            em: 0,
            waiting: std::ptr::null_mut(),
            states: std::ptr::null_mut(),
            budget: 0,
            pc: 0,
            needed: 0,
            window_base: 0,
            window_len: 0,
            global_offset: 0,
            window_reusable: 0,
            window_state: 0,
            windows: std::ptr::null_mut(),
            pending: 0,
            first_item: 0,
            threads_left: 0,
            item_step: 0,
            next_pending: 0,
            start_em: 0,
            template_grf: std::ptr::null(),
            template_preds: std::ptr::null(),
            template_states: std::ptr::null(),
            restore: std::ptr::null(),
            restores: 0,
            group: 0,
            in_group: 0,
            global: 0,
            per_group: 0,
            simd: 0,
            lane_bits: LaneBits::new(),
            em_lanes: LaneBits([[0; 4]; 8]),
            em_lanes_of: 0,
            thread: std::ptr::null_mut(),
            mem: std::ptr::null(),
            fault: None,
            panic: None,
            window_cache: Vec::new(),
            deferred: Vec::new(),
            capture_pointers: false,
        }
    }
}

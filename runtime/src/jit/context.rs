//! The context compiled code runs with: what it and the helpers share (see `enter`).

use std::any::Any;
use std::ffi::c_void;

use crate::error::Fault;

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
    /// Channels parked by `goto` (non-zero when the thread's `waiting` list is not empty).
    pub waiting_len: u32,
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
    pub(super) thread: *mut c_void,
    pub(super) mem: *const c_void,
    /// A trap raised by a helper.
    pub fault: Option<Fault>,
    /// A panic caught in a helper, resumed once compiled code has returned.
    pub(super) panic: Option<Box<dyn Any + Send>>,
}

impl JitCtx {
    pub(crate) fn new() -> JitCtx {
        JitCtx {
            grf: std::ptr::null_mut(),
            preds: std::ptr::null_mut(),
            em: 0,
            waiting_len: 0,
            budget: 0,
            pc: 0,
            needed: 0,
            window_base: 0,
            window_len: 0,
            global_offset: 0,
            thread: std::ptr::null_mut(),
            mem: std::ptr::null(),
            fault: None,
            panic: None,
        }
    }
}

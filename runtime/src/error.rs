//! Load errors and execution traps.

use visa_isa::ast::Span;

/// Why a module cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at {span}")]
#[non_exhaustive]
pub struct LoadError {
    /// Where: the operand when the problem is one operand's, else the statement (line and
    /// column).
    pub span: Span,
    /// Whether the text is wrong or the runtime cannot run it.
    pub kind: LoadErrorKind,
    /// What is wrong.
    pub message: String,
    /// What was probably meant (a declared name near an undeclared one), if anything.
    pub suggestion: Option<String>,
}

/// What kind of problem stops a load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The text does not parse.
    Syntax,
    /// The text breaks a rule of vISA: the checker's error (`visa check` reports the same), or
    /// a document's rule under [`crate::LoadOptions::strict_docs`].
    Rule,
    /// Valid vISA that this runtime does not execute (an instruction without CPU semantics, a
    /// form the model leaves out); the message says what and why.
    NotExecuted,
    /// A resource limit of [`crate::LoadOptions`] (instructions, declarations, SLM size).
    Limit,
    /// An inline-assembly placeholder (`%0`, `$1`, `%[name]`) the load options do not declare
    /// ([`crate::LoadOptions::param`]): valid text, not yet bound to a kernel argument.
    Unbound,
}

impl LoadError {
    /// A broken rule of vISA at `span`.
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            kind: LoadErrorKind::Rule,
            message: message.into(),
            suggestion: None,
        }
    }

    /// Valid vISA this runtime does not execute.
    pub(crate) fn not_executed(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            kind: LoadErrorKind::NotExecuted,
            message: format!("not executed by this runtime: {}", message.into()),
            suggestion: None,
        }
    }

    /// A resource limit of the load options.
    pub(crate) fn limit(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            kind: LoadErrorKind::Limit,
            message: message.into(),
            suggestion: None,
        }
    }

    /// The same error suggesting `meant`.
    pub(crate) fn suggesting(mut self, meant: Option<String>) -> Self {
        self.suggestion = meant;
        self
    }

    /// A syntax error.
    pub(crate) fn syntax(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            kind: LoadErrorKind::Syntax,
            message: message.into(),
            suggestion: None,
        }
    }

    /// An inline-assembly placeholder the load options do not declare.
    pub(crate) fn unbound(span: Span, name: &str) -> Self {
        Self {
            span,
            kind: LoadErrorKind::Unbound,
            message: format!(
                "placeholder '{name}' is not bound: declare it with LoadOptions::param (visa run --param)"
            ),
            suggestion: None,
        }
    }

    /// Whether the text breaks a rule of vISA (a syntax error or the checker's error), as
    /// opposed to something valid this runtime does not run as loaded.
    pub fn breaks_a_rule(&self) -> bool {
        matches!(self.kind, LoadErrorKind::Syntax | LoadErrorKind::Rule)
    }
}

/// What went wrong while executing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrapKind {
    #[error("fuel exhausted: the launch executed more than {0} instructions")]
    OutOfFuel(u64),
    /// The launch's cancel flag was set while the thread ran: it stopped before this
    /// instruction (reported in [`LaunchError::Cancelled`], not as a trap of its own).
    #[error("cancelled")]
    Cancelled,
    #[error("read of uninitialized variable '{var}'")]
    Uninitialized { var: String },
    #[error("unmapped SVM address {address:#x}")]
    SvmUnmapped { address: u64 },
    #[error("SVM access of {len} bytes at {address:#x} runs past the end of its allocation")]
    SvmOutOfBounds { address: u64, len: usize },
    #[error("address {address:#x} is not aligned to {align} bytes")]
    Misaligned { address: u64, align: u32 },
    #[error("SLM access of {len} bytes at offset {offset:#x} is outside the {size}-byte SLM")]
    SlmOutOfBounds {
        offset: u64,
        len: usize,
        size: usize,
    },
    #[error("surface '{0}' is not bound")]
    UnboundSurface(String),
    #[error("surface '{var}' refers to binding-table entry {entry}, which {problem}")]
    SurfaceEntry {
        var: String,
        entry: u32,
        problem: &'static str,
    },
    #[error("indirect access at GRF byte {address:#x} ({len} bytes) is outside the register file")]
    IndirectOutOfBounds { address: i64, len: u32 },
    #[error("indirect access at GRF byte {address:#x} is not aligned to its {align}-byte type")]
    IndirectMisaligned { address: i64, align: u32 },
    #[error(
        "execution reached the end of the kernel with channels {mask:#x} still waiting at a goto target"
    )]
    WaitingAtEnd { mask: u32 },
    #[error(
        "divergent goto left no active channel and no later program point has waiting channels"
    )]
    NoReconvergencePoint,
    #[error("jmp skips instruction {skipped} where channels {mask:#x} wait to be reactivated")]
    JumpOverWaiting { skipped: usize, mask: u32 },
    #[error("switchjmp index {index} is outside its table of {labels} label(s)")]
    SwitchIndex { index: u64, labels: usize },
    #[error(
        "directed rounding (%cr0 bits 5:4) of {op} on {ty} is not modelled for this operation \
         or result (no exact remainder in f64)"
    )]
    UnsupportedRounding { op: String, ty: String },
    #[error(
        "barrier executed in divergent control flow (channels {mask:#x} wait at a goto target)"
    )]
    DivergentBarrier { mask: u32 },
    #[error("call to the subroutine at instruction {target}, which is already active (recursion)")]
    RecursiveCall { target: usize },
    #[error("execution reached the subroutine starting at instruction {pc} without a call")]
    SubroutineWithoutCall { pc: usize },
    #[error("fcall nesting exceeds {limit} active function calls")]
    CallTooDeep { limit: usize },
    #[error("named barrier {id}: {problem}")]
    NamedBarrier { id: u64, problem: String },
    #[error(
        "deadlock: every running thread of the group waits on a named barrier ({waiting} waiting)"
    )]
    NamedBarrierDeadlock { waiting: usize },
    #[error("group barrier: {problem}")]
    SplitBarrier { problem: String },
    /// A raw send whose payload describes a message this runtime cannot run (a 2D block shape
    /// its response registers do not hold, a shape the message does not allow).
    #[error("raw send ({message}): {problem}")]
    RawSend { message: String, problem: String },
    #[error("fret outside a function entered by fcall")]
    FretOutsideFunction,
    #[error("ret in the body of a function (a function returns with fret)")]
    RetInFunction,
    #[error("execution reached the end of function '{function}' without fret")]
    FunctionWithoutFret { function: String },
    #[error("fcall passes {given} {what} GRFs but function '{function}' declares {declared}")]
    CallSizeMismatch {
        function: String,
        what: &'static str,
        given: u32,
        declared: u32,
    },
}

/// An execution error, with where it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "trap in kernel '{kernel}' (group {group}, thread {thread}) at pc {pc} ({span}: `{instruction}`){}: {kind}",
    lane.map(|l| format!(", lane {l}")).unwrap_or_default()
)]
pub struct Trap {
    pub kernel: String,
    pub group: u32,
    pub thread: u32,
    pub pc: usize,
    pub span: Span,
    pub instruction: String,
    pub lane: Option<u32>,
    pub kind: TrapKind,
}

/// A trap before its location is known; the interpreter adds pc/instruction/thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fault {
    pub lane: Option<u32>,
    pub kind: TrapKind,
}

impl Fault {
    pub(crate) fn new(kind: TrapKind) -> Self {
        Self { lane: None, kind }
    }

    pub(crate) fn at_lane(kind: TrapKind, lane: u32) -> Self {
        Self {
            lane: Some(lane),
            kind,
        }
    }
}

/// Why a launch could not start (bad bindings), or the trap it stopped with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("binding '{name}': {message}")]
    Binding { name: String, message: String },
    /// A launch parameter outside its range (`parameter`: `simd`, `groups`,
    /// `threads_per_group`, `slm_size`), found before anything is allocated.
    #[error("{parameter}: {message}")]
    Grid {
        parameter: &'static str,
        message: String,
    },
    /// The launch would need more memory (SLM, register files, captured variables) than
    /// [`crate::Launch::max_memory`] allows; nothing was allocated.
    #[error(
        "the launch needs about {needed} bytes ({breakdown}), more than its limit of {limit} bytes"
    )]
    MemoryLimit {
        needed: u64,
        limit: u64,
        breakdown: String,
    },
    /// The system refused an allocation of the launch.
    #[error("cannot allocate {bytes} bytes for {what}")]
    OutOfMemory { what: &'static str, bytes: u64 },
    #[error(transparent)]
    Trap(#[from] Box<Trap>),
    /// The cancel flag ([`crate::Launch::cancel_flag`]) was set: groups not started did not
    /// run, and the threads running stopped within a chunk of instructions, each where
    /// `stopped` says (kind [`TrapKind::Cancelled`]: group, thread, pc, instruction, source).
    #[error("the launch was cancelled ({groups_done} of {groups} groups done)")]
    Cancelled {
        groups_done: u32,
        groups: u32,
        stopped: Vec<Trap>,
    },
}

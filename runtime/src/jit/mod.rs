//! The compiled tier: a program's decoded instructions compiled to host code with Cranelift,
//! once per [`Program`], on its first launch.
//!
//! Every instruction compiles: the common ones to native code (32-bit integer ALU operations
//! and comparisons on direct regions, `jmp`, divergent `goto` and the rejoins at its join
//! points, no-ops, SVM gathers and scatters of 4- or 8-byte blocks and dword scattered surface
//! messages), every other one to a call
//! of the interpreter's handler for that decoded instruction (`enter::helper_step`), so both
//! engines share one decoder and one implementation of everything not compiled natively.
//! [`Program::jit_report`] lists which instructions went which way.
//!
//! Compiled code is one host function per program with a block per instruction. It is entered
//! at a block leader (`plan`), charges fuel per block, and leaves with an exit status when the
//! thread ends, reaches a barrier, traps, runs out of drawn fuel, or reaches an instruction it
//! has no entry for; the driver (`driver`) then draws fuel or lets the interpreter run one
//! instruction and enters again. So traps, fuel exhaustion and barriers behave exactly as in
//! the interpreter. The compiled tier does not track undefined register bytes: threads run on
//! it start with every byte defined, and reading a never-written byte reads its initial value
//! (zero) instead of trapping; the interpreter remains the checking engine.

mod bound_addresses;
mod context;
mod driver;
mod emitter;
mod enter;
mod handlers;
mod lower;
mod lower_alu;
mod lower_float;
mod lower_mem;
mod lower_state;
mod plan;
mod promote;

use std::sync::Arc;

use crate::ops::Op;
use crate::program::{Engine, JitTier, Program};
pub(crate) use Tier as CodeTier;
pub(crate) use driver::{BatchStart, CompiledRun};
pub(crate) use enter::Compiled;
use plan::{Lowering, Plan};

/// Exit statuses of compiled code and helpers (a helper returns the next pc, or one of these).
pub(crate) mod status {
    /// The thread ended.
    pub const FINISHED: i64 = -1;
    /// The thread stopped at a barrier (resume point in `Thread::pc`).
    pub const BARRIER: i64 = -2;
    /// A helper raised a trap (`JitCtx::fault`).
    pub const TRAP: i64 = -3;
    /// The interpreter must run the instruction at `JitCtx::pc`.
    pub const INTERPRET: i64 = -4;
    /// The block at `JitCtx::pc` needs `JitCtx::needed` fuel, more than was drawn.
    pub const FUEL: i64 = -5;
    /// A helper panicked (resumed once compiled code has returned).
    pub const PANIC: i64 = -6;
}

/// Programs longer than this run on the interpreter (compile time grows with the length).
pub const MAX_COMPILED_INSTRUCTIONS: usize = 1 << 16;

/// How the compiled tier treats a program ([`Program::jit_report`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JitReport {
    /// Why the program runs on the interpreter, if it does.
    pub declined: Option<String>,
    /// Whether the report is of optimised code ([`crate::JitTier`]); quick code has the same
    /// native instructions.
    pub optimized: bool,
    /// Per instruction (in program order): its text and whether it compiled to native code
    /// (`false`: a call of the interpreter's handler).
    pub instructions: Vec<(String, bool)>,
}

impl JitReport {
    /// Instructions compiled to native code.
    pub fn native(&self) -> usize {
        self.instructions.iter().filter(|(_, n)| *n).count()
    }
}

impl std::fmt::Display for JitReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(reason) = &self.declined {
            return writeln!(f, "interpreted: {reason}");
        }
        writeln!(
            f,
            "{} of {} instructions native, the rest through the interpreter's handlers ({} code)",
            self.native(),
            self.instructions.len(),
            if self.optimized { "optimised" } else { "quick" }
        )?;
        for (pc, (text, native)) in self.instructions.iter().enumerate() {
            let how = if *native { "native " } else { "handler" };
            writeln!(f, "{pc:5} {how} {text}")?;
        }
        Ok(())
    }
}

/// Instructions per instruction of a program after which [`JitTier::Adaptive`] compiles
/// optimised code: a launch expected to execute `HOT_EXECUTIONS x program length` instructions
/// (its threads x [`Program::expected_steps`]), or a program whose launches have executed that
/// many on quick code. Optimising costs about 130 microseconds per
/// instruction more than quick code and saves about half the run time of native code.
pub const HOT_EXECUTIONS: u64 = 4096;

/// Instructions per instruction of a program below which [`JitTier::Lazy`] interprets a launch
/// rather than compile the program: measured on `examples/gather_add_scatter.visaasm` through
/// `visa run` (release build, callgrind), quick code costs about 3.3M host instructions to
/// build and saves about 2.2k per SIMD16 thread of that six-instruction kernel, so compiling pays
/// from about 1,500 threads on.
pub const COLD_EXECUTIONS: u64 = 1024;

/// Trips a launch expects of each loop when it chooses its code ([`Program::expected_steps`]):
/// few enough that a loop of the benches (31 to 64 trips) is not overestimated, enough that a
/// launch of a few hundred threads of a looping kernel gets the code its later launches get.
pub const LOOP_TRIPS: u64 = 8;

/// Which of the two code generators a program is compiled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tier {
    Quick,
    Optimized,
}

/// The code a launch runs on ([`Program::code_for`]).
pub(crate) enum CodeChoice<'p> {
    /// This compiled code.
    Ready(&'p Compiled),
    /// The interpreter: the program's engine is the interpreter, the compiled tier declines the
    /// program, or the launch is too small to repay compiling ([`JitTier::Lazy`]).
    Interpret,
    /// [`JitTier::Lazy`]: `tier`'s code is built beside the launch, which starts on `interim`
    /// (the quick code, when optimised code is being built) or on the interpreter, and moves
    /// to the new code task by task once it is there.
    Behind {
        tier: Tier,
        interim: Option<&'p Compiled>,
    },
}

impl Program {
    /// The instructions one thread is expected to execute, for the choice of code: each
    /// instruction once, those inside a loop (from a backward `jmp` or `goto`'s target to the
    /// branch) [`LOOP_TRIPS`] times. (Counting each instruction once put a loop kernel's first
    /// launch on quick code however many trips its loop ran.)
    pub(crate) fn expected_steps(&self) -> u64 {
        (self.in_loop().into_iter())
            .map(|inside| if inside { LOOP_TRIPS } else { 1 })
            .fold(0u64, u64::saturating_add)
    }

    /// Per instruction, whether it lies inside a loop: from a backward `jmp` or `goto`'s target
    /// to the branch.
    pub(crate) fn in_loop(&self) -> Vec<bool> {
        // Per instruction, how many loops start there minus how many ended just before.
        let mut starts = vec![0i64; self.code.len() + 1];
        for (pc, op) in self.code.iter().enumerate() {
            if let Op::Jmp { target, .. } | Op::Goto { target, .. } = *op
                && target <= pc
            {
                starts[target] += 1;
                starts[pc + 1] -= 1;
            }
        }
        let mut depth = 0;
        (starts[..self.code.len()].iter())
            .map(|start| {
                depth += start;
                depth > 0
            })
            .collect()
    }

    /// The code for a launch expected to execute about `work` instructions, when the program's
    /// engine is the JIT: compiled here on first use, or (with [`JitTier::Lazy`]) beside the
    /// launch.
    pub(crate) fn code_for(&self, work: u64) -> CodeChoice<'_> {
        if self.engine != Engine::Jit {
            return CodeChoice::Interpret;
        }
        let tier = match self.jit_tier {
            JitTier::Lazy if self.too_cold_to_compile(work) => return CodeChoice::Interpret,
            JitTier::Quick => Tier::Quick,
            JitTier::Optimized => Tier::Optimized,
            JitTier::Adaptive | JitTier::Lazy => {
                let hot = HOT_EXECUTIONS.saturating_mul(self.code.len() as u64);
                let optimized = self.jit_optimized.get().is_some()
                    || work >= hot
                    || self.quick_steps.get() >= hot;
                if optimized {
                    Tier::Optimized
                } else {
                    Tier::Quick
                }
            }
        };
        if self.jit_tier == JitTier::Lazy && self.slot(tier).get().is_none() {
            let interim = self.built(Tier::Quick);
            return CodeChoice::Behind { tier, interim };
        }
        match self.compile_once(tier) {
            Ok(code) => CodeChoice::Ready(code),
            Err(_) => CodeChoice::Interpret,
        }
    }

    /// `tier`'s code, compiling it now if that has not happened yet (`None`: declined).
    pub(crate) fn compile_tier(&self, tier: Tier) -> Option<&Compiled> {
        self.compile_once(tier).ok()
    }

    /// `tier`'s code if it has been compiled (never waits for a compile under way).
    pub(crate) fn built(&self, tier: Tier) -> Option<&Compiled> {
        match self.slot(tier).get()? {
            Ok(code) => code.downcast_ref::<Compiled>(),
            Err(_) => None,
        }
    }

    /// Whether this program has been compiled (quick or optimised code, or a failed attempt):
    /// false after launches that all ran on the interpreter, e.g. [`JitTier::Lazy`]'s cold ones.
    pub fn has_compiled_code(&self) -> bool {
        self.jit.get().is_some() || self.jit_optimized.get().is_some()
    }

    /// Whether a launch of `work` instructions is too small to repay compiling a program that has
    /// no compiled code yet ([`JitTier::Lazy`]).
    fn too_cold_to_compile(&self, work: u64) -> bool {
        !self.has_compiled_code() && work < COLD_EXECUTIONS.saturating_mul(self.code.len() as u64)
    }

    /// Records instructions a launch ran on `code`, for [`JitTier::Adaptive`].
    pub(crate) fn count_steps(&self, code: &Compiled, steps: u64) {
        if code.tier == Tier::Quick {
            self.quick_steps.add(steps);
        }
    }

    fn slot(
        &self,
        tier: Tier,
    ) -> &std::sync::OnceLock<Result<Arc<dyn std::any::Any + Send + Sync>, String>> {
        match tier {
            Tier::Quick => &self.jit,
            Tier::Optimized => &self.jit_optimized,
        }
    }

    fn compile_once(&self, tier: Tier) -> Result<&Compiled, &str> {
        let outcome = self.slot(tier).get_or_init(|| {
            compile(self, tier).map(|code| code as Arc<dyn std::any::Any + Send + Sync>)
        });
        match outcome {
            Ok(code) => code
                .downcast_ref::<Compiled>()
                .ok_or("the compiled code is of another type"),
            Err(reason) => Err(reason),
        }
    }

    /// How the compiled tier treats this program (compiling it if that has not happened yet,
    /// with the code a small launch would get): which instructions became native code and
    /// which call the interpreter's handlers, or why the program is interpreted.
    pub fn jit_report(&self) -> JitReport {
        let tier = match (self.jit_tier, self.jit_optimized.get()) {
            (JitTier::Optimized, _) | (JitTier::Adaptive | JitTier::Lazy, Some(_)) => {
                Tier::Optimized
            }
            _ => Tier::Quick,
        };
        let declined = self.compile_once(tier).err().map(str::to_string);
        let plan = plan(self);
        let instructions = self
            .sources
            .iter()
            .zip(&plan.lowering)
            .map(|(d, l)| (d.text.clone(), declined.is_none() && l.is_native()))
            .collect();
        JitReport {
            declined,
            optimized: tier == Tier::Optimized,
            instructions,
        }
    }
}

/// Why a program cannot be compiled at all, if it cannot.
fn decline_reason(program: &Program) -> Option<String> {
    if program.tsc_offset.is_some() {
        return Some("the program reads %tsc, which counts instructions one by one".into());
    }
    if program.code.len() > MAX_COMPILED_INSTRUCTIONS {
        return Some(format!(
            "{} instructions, more than the compiled tier takes ({MAX_COMPILED_INSTRUCTIONS})",
            program.code.len()
        ));
    }
    None
}

/// The plan of a program: each instruction's lowering.
fn plan(program: &Program) -> Plan {
    Plan::new(program, |op| lower::lowering(program, op))
}

/// Compiles a program.
fn compile(program: &Program, tier: Tier) -> Result<Arc<Compiled>, String> {
    if let Some(reason) = decline_reason(program) {
        return Err(reason);
    }
    let plan = plan(program);
    let (module, func) = lower::compile(program, &plan, tier)?;
    let addresses = bound_addresses::BoundAddresses::new(program, &plan, tier);
    let batches = plan.batches(program);
    let mut code = Compiled::new(
        module,
        func,
        tier,
        plan.windows,
        program.joins.len(),
        addresses,
    )?;
    code.batches = batches;
    code.ids = crate::launch::ids::ThreadIds::new(program);
    Ok(Arc::new(code))
}

/// Whether an operation is one the compiled tier lowers natively, before operand checks.
pub(crate) fn native_kind(op: &Op) -> Lowering {
    match op {
        Op::FastAlu(_) => Lowering::FastAlu,
        Op::FastCmp(_) => Lowering::FastCmp,
        Op::FastFloat(_) => Lowering::FastFloat,
        Op::Jmp { .. } => Lowering::Jmp,
        Op::Goto { .. } => Lowering::Goto,
        Op::PredLogic { .. } => Lowering::PredLogic,
        Op::Movs(_) => Lowering::StateMove,
        Op::Ret { .. } => Lowering::Ret,
        Op::Nop => Lowering::Nop,
        Op::SvmGather(_)
        | Op::SvmScatter(_)
        | Op::GatherScaled(_)
        | Op::ScatterScaled(_)
        | Op::Gather4(_)
        | Op::Scatter4(_) => Lowering::Memory,
        _ => Lowering::Handler,
    }
}

#[cfg(test)]
pub(crate) mod lazy_tier_tests {
    use crate::{Engine, JitTier, Launch, LoadOptions, Program, Svm};

    /// A kernel adding 1 to the dword its lane's `PTR` points at.
    pub(crate) const KERNEL: &str = "
.decl PTR v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=d num_elts=16 align=GRF
svm_gather.4.1 (M1, 16) PTR.0 X.0
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x1:d
svm_scatter.4.1 (M1, 16) PTR.0 X.0
";

    /// Runs `threads` SIMD16 threads of [`KERNEL`], each adding 1 to its 16 dwords, and checks
    /// the result; whether the program then has compiled code.
    fn launch_and_compiled(program: &Program, threads: u32) -> bool {
        let mut svm = Svm::new();
        let words = threads as usize * 16;
        let data: Vec<i32> = (0..words as i32).collect();
        let base = svm.alloc_from(&data);
        Launch::new(program)
            .simd(16)
            .groups(threads)
            .svm(&svm)
            .bind_svm_lanes("PTR", base, 4)
            .run()
            .expect("runs");
        let out: Vec<i32> = svm.read_vec(base, words).expect("reads back");
        assert!(out.iter().zip(&data).all(|(o, d)| *o == d + 1));
        program.jit.get().is_some() || program.jit_optimized.get().is_some()
    }

    pub(crate) fn program(tier: JitTier) -> Program {
        let options = LoadOptions::default().engine(Engine::Jit).jit_tier(tier);
        Program::from_text(KERNEL, &options).expect("loads")
    }

    #[test]
    fn a_cold_launch_runs_on_the_interpreter_and_a_large_one_compiles() {
        let lazy = program(JitTier::Lazy);
        assert!(!launch_and_compiled(&lazy, 4), "4 threads compiled");
        let threshold = super::COLD_EXECUTIONS as u32;
        assert!(
            !launch_and_compiled(&lazy, threshold - 1),
            "below the threshold"
        );
        assert!(launch_and_compiled(&lazy, threshold), "at the threshold");
        // Once compiled, small launches use the code too (its cost is paid).
        assert!(launch_and_compiled(&lazy, 1));
    }

    /// A launch interpreted in place of compiled code behaves as compiled code: a read of a
    /// never-written register does not trap, as it does on the interpreter proper.
    #[test]
    fn an_interpreted_cold_launch_does_not_trap_on_undefined_reads() {
        let text = "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
add (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x1:d
";
        let run = |options: LoadOptions| {
            let program = Program::from_text(text, &options).expect("loads");
            Launch::new(&program).simd(16).run().map(|_| ())
        };
        let lazy = LoadOptions::default()
            .engine(Engine::Jit)
            .jit_tier(JitTier::Lazy);
        assert!(run(lazy).is_ok());
        let interpreter = LoadOptions::default().engine(Engine::Interpreter);
        assert!(run(interpreter).is_err(), "the interpreter traps");
    }

    /// A launch that starts on the interpreter while its code is built, on pools of one and
    /// two threads (where tasks before and after the code is there run on different engines),
    /// computes what the interpreter computes, and leaves the program compiled.
    #[test]
    fn a_launch_beside_its_compile_computes_the_same() {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            let lazy = program(JitTier::Lazy);
            let count = 2 * super::COLD_EXECUTIONS as u32;
            assert!(pool.install(|| launch_and_compiled(&lazy, count)));
        }
    }

    #[test]
    fn the_adaptive_tier_compiles_even_the_smallest_launch() {
        assert!(launch_and_compiled(&program(JitTier::Adaptive), 1));
    }
}

#[cfg(test)]
mod expected_steps_tests {
    use super::{HOT_EXECUTIONS, LOOP_TRIPS};
    use crate::{Engine, JitTier, Launch, LoadOptions, Program};

    /// Two instructions before a `goto` loop of five (its first `add` to the `goto`) with a
    /// `jmp` loop nested in it, one after (labels are no instructions).
    const LOOPS: &str = "
.decl I v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
mov (M1, 16) I(0,0)<1> 0x0:d
mov (M1, 16) I(0,0)<1> 0x0:d
OUTER:
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
INNER:
cmp.lt (M1_NM, 16) P2 I(0,0)<1;1,0> 0x0:d
(P2.any) jmp (M1, 1) INNER
cmp.lt (M1, 16) P1 I(0,0)<1;1,0> 0x10:d
(P1) goto (M1, 16) OUTER
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
";

    fn load(text: &str) -> Program {
        let options = LoadOptions::default()
            .engine(Engine::Jit)
            .jit_tier(JitTier::Adaptive);
        Program::from_text(text, &options).expect("loads")
    }

    /// Each instruction from a backward branch's target to the branch counts `LOOP_TRIPS`
    /// times (nested loops not multiplied), every other once.
    #[test]
    fn loop_instructions_count_loop_trips_times() {
        let program = load(LOOPS);
        let texts: Vec<String> = (program.jit_report().instructions.into_iter())
            .map(|(text, _)| text)
            .collect();
        let at = |needle: &str| {
            texts
                .iter()
                .position(|t| t.contains(needle))
                .unwrap_or_else(|| panic!("no {needle} in {texts:?}"))
        };
        let (first, last) = (at("add"), at("goto"));
        let in_loop = (last - first + 1) as u64;
        let outside = texts.len() as u64 - in_loop;
        assert!(first > 0 && last + 1 < texts.len(), "{texts:?}");
        assert_eq!(
            program.expected_steps(),
            outside + LOOP_TRIPS * in_loop,
            "{texts:?}"
        );
        let straight = load(
            ".decl I v_type=G type=d num_elts=16 align=GRF\n\
             mov (M1, 16) I(0,0)<1> 0x0:d\n\
             add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d\n",
        );
        assert_eq!(straight.expected_steps(), straight.code.len() as u64);
    }

    /// A looping kernel's first launch is optimised once its threads times its expected steps
    /// reach the threshold, though its threads times its length do not.
    #[test]
    fn a_loop_kernels_first_launch_of_enough_threads_is_optimised() {
        let len = load(LOOPS).code.len() as u64;
        let threads =
            |program: &Program| (HOT_EXECUTIONS * len).div_ceil(program.expected_steps()) as u32;
        let launch = |threads: u32| {
            let program = load(LOOPS);
            Launch::new(&program)
                .simd(16)
                .groups(threads)
                .run()
                .expect("runs");
            program.jit_report().optimized
        };
        let enough = threads(&load(LOOPS));
        assert!(u64::from(enough) * len < HOT_EXECUTIONS * len);
        assert!(launch(enough), "{enough} threads: quick code");
        assert!(!launch(enough - 1), "{} threads: optimised", enough - 1);
    }
}

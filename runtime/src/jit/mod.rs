//! The compiled tier: a program's decoded instructions compiled to host code with Cranelift,
//! once per [`Program`], on its first launch.
//!
//! Every instruction compiles: the common ones to native code (32-bit integer ALU operations
//! and comparisons on direct regions of dwords, words or bytes, `jmp`, divergent `goto` and
//! the rejoins at its join points, no-ops, SVM gathers and scatters of 4- or 8-byte blocks and
//! byte, word and dword scattered surface messages), every other one to a call of the
//! interpreter's handler for that decoded instruction (`enter::helper_step`), so both
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
//!
//! Under [`JitTier::Lazy`] a build compiles only the blocks threads have entered
//! (`Program::reached`, noted by the interpreter); each other block is an exit to the driver,
//! which runs it on the interpreter and marks the code as missing it, so the program's next
//! launch builds again (`Program::jit` keeps [`CODE_GENERATIONS`] builds; the last compiles
//! every block).

mod bound_addresses;
mod chunks;
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
use crate::program::{CODE_GENERATIONS, CodeSlots, Engine, JitTier, Program};
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
    /// (`false`: a call of the interpreter's handler, or not compiled yet).
    pub instructions: Vec<(String, bool)>,
    /// The instructions (pcs, ascending) of blocks no thread had entered when the code was
    /// built ([`JitTier::Lazy`]): the interpreter runs them, and the next build compiles
    /// those a thread has entered since.
    pub not_entered: Vec<usize>,
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
        if !self.not_entered.is_empty() {
            writeln!(
                f,
                "{} instructions in blocks no thread had entered are not compiled yet (marked `later`)",
                self.not_entered.len()
            )?;
        }
        for (pc, (text, native)) in self.instructions.iter().enumerate() {
            let how = match *native {
                _ if self.not_entered.binary_search(&pc).is_ok() => "later  ",
                true => "native ",
                false => "handler",
            };
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
                let optimized = self.jit_optimized[0].get().is_some()
                    || work >= hot
                    || self.quick_steps.get() >= hot;
                if optimized {
                    Tier::Optimized
                } else {
                    Tier::Quick
                }
            }
        };
        if self.jit_tier == JitTier::Lazy && self.needs_build(tier) {
            // (The code being replaced, or quick code, runs until the new code is there.)
            let interim = self.built(tier).or_else(|| self.built(Tier::Quick));
            return CodeChoice::Behind { tier, interim };
        }
        match self.compile_once(tier) {
            Ok(code) => CodeChoice::Ready(code),
            Err(_) => CodeChoice::Interpret,
        }
    }

    /// `tier`'s code, compiling it now if that has not happened yet or the latest code left
    /// a block that threads entered to the interpreter (`None`: declined).
    pub(crate) fn compile_tier(&self, tier: Tier) -> Option<&Compiled> {
        match self.needs_build(tier) {
            true => self.build_next(tier).ok(),
            false => self.built(tier),
        }
    }

    /// `tier`'s latest code if it has been compiled (never waits for a compile under way).
    pub(crate) fn built(&self, tier: Tier) -> Option<&Compiled> {
        self.latest(tier)?.ok()
    }

    /// Whether `tier`'s code is to be built: it has not been, or the latest build left a block
    /// to the interpreter that a thread has since entered (lazy blocks, [`JitTier::Lazy`]).
    pub(crate) fn needs_build(&self, tier: Tier) -> bool {
        match self.latest(tier) {
            None => true,
            Some(Ok(code)) => code.missed(),
            Some(Err(_)) => false,
        }
    }

    /// Whether this program has been compiled (quick or optimised code, or a failed attempt):
    /// false after launches that all ran on the interpreter, e.g. [`JitTier::Lazy`]'s cold ones.
    pub fn has_compiled_code(&self) -> bool {
        self.jit[0].get().is_some() || self.jit_optimized[0].get().is_some()
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

    fn slots(&self, tier: Tier) -> &CodeSlots {
        match tier {
            Tier::Quick => &self.jit,
            Tier::Optimized => &self.jit_optimized,
        }
    }

    /// The latest build of `tier`'s code: the code, or why the program was declined.
    fn latest(&self, tier: Tier) -> Option<Result<&Compiled, &str>> {
        let built = self.slots(tier).iter().rev().find_map(|slot| slot.get())?;
        Some(match built {
            Ok(code) => code
                .downcast_ref::<Compiled>()
                .ok_or("the compiled code is of another type"),
            Err(reason) => Err(reason),
        })
    }

    /// `tier`'s latest code, built now if it has not been.
    fn compile_once(&self, tier: Tier) -> Result<&Compiled, &str> {
        match self.latest(tier) {
            Some(latest) => latest,
            None => self.build_next(tier),
        }
    }

    /// Builds `tier`'s code into its first free slot (the last slot's code compiles every
    /// block); a build under way for that slot is waited for.
    fn build_next(&self, tier: Tier) -> Result<&Compiled, &str> {
        let slots = self.slots(tier);
        let generation =
            (slots.iter().position(|slot| slot.get().is_none())).unwrap_or(CODE_GENERATIONS - 1);
        slots[generation].get_or_init(|| {
            compile(self, tier, generation).map(|code| code as Arc<dyn std::any::Any + Send + Sync>)
        });
        self.latest(tier).unwrap_or(Err("not compiled"))
    }

    /// How the compiled tier treats this program (compiling it if that has not happened yet,
    /// with the code a small launch would get): which instructions became native code and
    /// which call the interpreter's handlers, or why the program is interpreted.
    pub fn jit_report(&self) -> JitReport {
        let tier = match (self.jit_tier, self.jit_optimized[0].get()) {
            (JitTier::Optimized, _) | (JitTier::Adaptive | JitTier::Lazy, Some(_)) => {
                Tier::Optimized
            }
            _ => Tier::Quick,
        };
        let code = self.compile_once(tier);
        let plan = plan(self);
        let not_entered: Vec<usize> = match code {
            Ok(code) => (0..self.code.len())
                .filter(|&pc| code.is_cold(pc))
                .collect(),
            Err(_) => Vec::new(),
        };
        let declined = code.err().map(str::to_string);
        let instructions = (self.sources.iter().zip(&plan.lowering).enumerate())
            .map(|(pc, (d, l))| {
                let native = declined.is_none() && l.is_native();
                (
                    d.text.clone(),
                    native && not_entered.binary_search(&pc).is_err(),
                )
            })
            .collect();
        JitReport {
            declined,
            optimized: tier == Tier::Optimized,
            instructions,
            not_entered,
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

/// Compiles a program as the `generation`th build of `tier`'s code: under [`JitTier::Lazy`],
/// every build but the last leaves the blocks no thread has entered yet (`Program::reached`)
/// to the interpreter, so code is compiled only for blocks that run.
fn compile(program: &Program, tier: Tier, generation: usize) -> Result<Arc<Compiled>, String> {
    if let Some(reason) = decline_reason(program) {
        return Err(reason);
    }
    let lazy = program.jit_tier == JitTier::Lazy
        && generation + 1 < CODE_GENERATIONS
        && program.reached.any();
    let plan = match lazy {
        true => Plan::leaving_cold(
            program,
            |op| lower::lowering(program, op),
            |pc| program.reached.contains(pc),
        ),
        false => plan(program),
    };
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
    if plan.lowering.contains(&Lowering::Cold) {
        code.cold = plan.lowering.iter().map(|l| *l == Lowering::Cold).collect();
    }
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
        let data: Vec<i32> = (0..threads as i32 * 16).collect();
        let out = run_over(program, &data, |launch| launch);
        assert!(out.iter().zip(&data).all(|(o, d)| *o == d + 1));
        program.has_compiled_code()
    }

    /// Launches `program` on `input.len() / 16` SIMD16 threads (as `more` sets it up further),
    /// `PTR` pointing each lane at its dword of `input` in SVM: how the launch ended, and those
    /// dwords afterwards.
    fn try_over<'p>(
        program: &'p Program,
        input: &[i32],
        more: impl FnOnce(Launch<'p>) -> Launch<'p>,
    ) -> (Result<(), String>, Vec<i32>) {
        let mut svm = Svm::new();
        let base = svm.alloc_from(input);
        let ended = more(Launch::new(program))
            .simd(16)
            .groups((input.len() / 16) as u32)
            .svm(&svm)
            .bind_svm_lanes("PTR", base, 4)
            .run();
        let out = svm.read_vec(base, input.len()).expect("reads back");
        (ended.map(|_| ()).map_err(|e| e.to_string()), out)
    }

    /// [`try_over`] of a launch that runs to its end.
    fn run_over<'p>(
        program: &'p Program,
        input: &[i32],
        more: impl FnOnce(Launch<'p>) -> Launch<'p>,
    ) -> Vec<i32> {
        let (ended, out) = try_over(program, input, more);
        ended.expect("runs");
        out
    }

    /// A SIMD16 kernel over the dwords `PTR` points at: gathered into `X`, `body` (after the
    /// declarations `decls`; `P1` is declared) with a first block that parks the lanes whose
    /// `X` is not negative at `NOT_NEGATIVE`, then scattered back.
    fn over_ptr(decls: &str, body: &str) -> String {
        format!(
            ".decl PTR v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
{decls}
svm_gather.4.1 (M1, 16) PTR.0 X.0
cmp.ge (M1, 16) P1 X(0,0)<1;1,0> 0x0:d
(P1) goto (M1, 16) NOT_NEGATIVE
{body}
svm_scatter.4.1 (M1, 16) PTR.0 X.0
"
        )
    }

    /// Two blocks that run only for some data: doubling a negative value, adding 1000 to one
    /// above 1000; then every value gets 1 added.
    fn two_rare_blocks() -> String {
        over_ptr(
            "",
            "mul (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x2:d
NOT_NEGATIVE:
cmp.le (M1, 16) P1 X(0,0)<1;1,0> 0x3e8:d
(P1) goto (M1, 16) SMALL
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x3e8:d
SMALL:
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x1:d",
        )
    }

    fn lazy_program(text: &str) -> Program {
        let options = LoadOptions::default()
            .engine(Engine::Jit)
            .jit_tier(JitTier::Lazy);
        Program::from_text(text, &options).expect("loads")
    }

    /// Runs `f` on a pool of one worker, which builds before it runs a task when blocks were
    /// noted (on more, the tasks of a launch may all run on the code being replaced, and the
    /// build it triggers comes a launch later).
    fn on_one_worker(f: impl FnOnce() + Send) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        pool.install(f);
    }

    /// Launches [`two_rare_blocks`] on `threads` SIMD16 threads over `data` repeated, checking
    /// every result against the kernel's meaning.
    fn launch_rare(program: &Program, threads: u32, data: &[i32]) {
        let words = threads as usize * 16;
        let input: Vec<i32> = data.iter().copied().cycle().take(words).collect();
        let out = run_over(program, &input, |launch| launch);
        for (at, (&x, &got)) in input.iter().zip(&out).enumerate() {
            let y = if x < 0 { 2 * x } else { x };
            let z = if y > 1000 { y + 1000 } else { y };
            assert_eq!(got, z + 1, "work-item {at}, input {x}");
        }
    }

    /// The pcs of the instructions the latest quick code leaves to the interpreter, and which
    /// build it is (0 for the first).
    fn cold_pcs(program: &Program) -> (Vec<usize>, usize) {
        let code = program.built(super::Tier::Quick).expect("compiled");
        let cold = (0..program.code.len()).filter(|&pc| code.is_cold(pc));
        let builds = program
            .jit
            .iter()
            .filter(|slot| slot.get().is_some())
            .count();
        (cold.collect(), builds - 1)
    }

    /// Lazy blocks: the first build compiles what the interpreter's first task ran; a block
    /// entered later runs on the interpreter and the next launch builds again with it; the
    /// last build compiles everything. Every launch's results are checked (on one worker).
    #[test]
    fn lazy_builds_compile_the_blocks_threads_entered() {
        on_one_worker(lazy_builds_on_one_worker);
    }

    fn lazy_builds_on_one_worker() {
        let lazy = lazy_program(&two_rare_blocks());
        let pc_of = |text: &str| {
            (lazy.sources.iter())
                .position(|s| s.text.starts_with(text))
                .expect("in the kernel")
        };
        let (double, add_1000) = (
            pc_of("mul"),
            pc_of("add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x3e8"),
        );
        let threads = super::COLD_EXECUTIONS as u32;
        // A cold launch runs on the interpreter, noting what it ran; nothing compiled yet.
        launch_rare(&lazy, 4, &[5, 6, 7]);
        assert!(!lazy.has_compiled_code());
        assert!(lazy.reached.contains(0) && !lazy.reached.contains(double));
        launch_rare(&lazy, threads, &[5, 6, 7]);
        assert_eq!(cold_pcs(&lazy), (vec![double, add_1000], 0));
        let report = lazy.jit_report();
        assert_eq!(report.not_entered, [double, add_1000]);
        assert!(!report.instructions[double].1 && report.instructions[0].1);
        assert!(
            report
                .to_string()
                .contains(&format!("{double:5} later   mul"))
        );
        // Negative values enter the doubling block on the interpreter ...
        launch_rare(&lazy, threads, &[-3, 4, 9]);
        assert!(
            lazy.built(super::Tier::Quick)
                .is_some_and(|code| code.missed())
        );
        // ... and the next launch compiles it.
        launch_rare(&lazy, threads, &[-3, 1001, 2000]);
        assert_eq!(cold_pcs(&lazy), (vec![add_1000], 1));
        launch_rare(&lazy, threads, &[-3, 1001, 2000]);
        assert_eq!(cold_pcs(&lazy), (vec![], 2));
        // A first launch large enough to compile runs its first task on the interpreter,
        // noting the blocks its threads enter, and builds from that.
        let fresh = lazy_program(&two_rare_blocks());
        launch_rare(&fresh, threads, &[5, 6, 7]);
        assert_eq!(cold_pcs(&fresh), (vec![double, add_1000], 0));
        // Fuel runs out inside interpreted blocks exactly where it does on the interpreter.
        let interpreter = Program::from_text(
            &two_rare_blocks(),
            &LoadOptions::default().engine(Engine::Interpreter),
        )
        .expect("loads");
        for fuel in (1..=24).chain([1 << 20]) {
            let run = |program: &Program| {
                let input = &[-3i32, 2000, 5].repeat(11)[..32];
                try_over(program, input, |launch| launch.fuel(fuel))
            };
            assert_eq!(run(&fresh), run(&interpreter), "fuel {fuel}");
        }
        // (Those launches entered both blocks: each launch after one that did built again.)
        assert_eq!(cold_pcs(&fresh), (vec![], 2));
        // Other tiers compile every block at once.
        let adaptive = program(JitTier::Adaptive);
        launch_and_compiled(&adaptive, 4);
        assert!(
            adaptive
                .built(super::Tier::Quick)
                .is_some_and(|code| code.cold.is_empty())
        );
    }

    /// A block left to the interpreter writes a register that every thread reads before it
    /// writes it (the scalar `K`, from the launch): the next thread of a batch must start with
    /// the launch's value again, though no compiled instruction writes `K`.
    #[test]
    fn a_batch_thread_after_an_interpreted_block_starts_afresh() {
        let program = lazy_program(&over_ptr(
            ".decl K v_type=G type=d num_elts=1 align=dword",
            "add (M1_NM, 1) K(0,0)<1> K(0,0)<0;1,0> 0x3e8:d
NOT_NEGATIVE:
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> K(0,0)<0;1,0>",
        ));
        // With `negatives`, thread t has a negative lane when t % 3 == 1.
        let run = |threads: u32, negatives: bool| {
            let words = threads as usize * 16;
            let entering = |i: usize| negatives && i / 16 % 3 == 1;
            let input: Vec<i32> = (0..words)
                .map(|i| match i % 16 {
                    5 if entering(i) => -(i as i32),
                    _ => i as i32,
                })
                .collect();
            let out = run_over(&program, &input, |launch| launch.bind_scalar("K", 7i32));
            for (i, (x, got)) in input.iter().zip(&out).enumerate() {
                let k = if entering(i) { 1007 } else { 7 };
                assert_eq!(*got, x + k, "work-item {i}");
            }
        };
        on_one_worker(|| {
            // A first launch of one thread notes the blocks, the second builds optimised code
            // beside it (the only code that computes the pointers, so that threads run in
            // batches, `bound_addresses`), and the third runs on that code, batches of
            // threads entering the block left to the interpreter.
            run(1, false);
            run(super::HOT_EXECUTIONS as u32, false);
            let code = program.built(super::Tier::Optimized).expect("compiled");
            assert!(code.batches && !code.missed());
            run(super::HOT_EXECUTIONS as u32, true);
            assert!(code.missed(), "the block left to the interpreter ran");
        });
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

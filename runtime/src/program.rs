//! Loading: a parsed module becomes a [`Program`] (register-file layout + decoded instructions).

use std::collections::HashMap;

use visa_isa::ast::{ElemType, Module, Span, StmtKind};
use visa_isa::desc::InstrDesc;
use visa_isa::rules::Platform;
use visa_isa::text::CheckOptions;

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::decode::Decoder;
use crate::error::LoadError;
use crate::joins::JoinPoints;
use crate::layout::Layout;
use crate::ops::Op;

/// Which engine runs a program's threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Compiled code (Cranelift), the default on hosts Cranelift supports (x86-64, aarch64).
    Jit,
    /// The interpreter: slower, and the only engine that traps on reads of undefined bytes.
    Interpreter,
}

impl Engine {
    /// The default engine: `VISA_ENGINE=jit` or `VISA_ENGINE=interp` when set, otherwise the
    /// JIT where the host is supported.
    pub fn from_env() -> Engine {
        match std::env::var("VISA_ENGINE").as_deref().map(Engine::parse) {
            Ok(Some(engine)) => engine,
            _ if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) => Engine::Jit,
            _ => Engine::Interpreter,
        }
    }

    /// Parses `jit`, `interp` or `interpreter`.
    pub fn parse(name: &str) -> Option<Engine> {
        match name {
            "jit" => Some(Engine::Jit),
            "interp" | "interpreter" => Some(Engine::Interpreter),
            _ => None,
        }
    }
}

/// How the compiled tier ([`Engine::Jit`]) trades compile time against code speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum JitTier {
    /// Quick code first (Cranelift with no optimisation passes and its single-pass register
    /// allocator: several times faster to compile, about half as fast to run); optimised code
    /// for a launch expected to run [`crate::HOT_EXECUTIONS`] instructions per instruction of
    /// the program, and for every launch once the program has run that many on quick code.
    #[default]
    Adaptive,
    /// As [`JitTier::Adaptive`], but a launch expected to run fewer than
    /// [`crate::COLD_EXECUTIONS`] instructions per instruction of the program runs on the
    /// interpreter, when the program has no compiled code yet: compiling would cost more than
    /// it saves (`visa run`'s default when no engine is named). Its code compiles only the
    /// blocks some thread has entered (on the interpreter, which notes them); a block entered
    /// later runs on the interpreter, and the program's next launch builds the code again with
    /// it, the third build compiling every block.
    Lazy,
    /// Quick code only.
    Quick,
    /// Optimised code only (Cranelift's `speed` level and backtracking register allocator).
    Optimized,
}

/// How to load a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadOptions {
    /// Bytes per GRF: 32, or 64 on PVC and later. Changes `(row, col)` offsets, `align=GRF` and
    /// variable placement.
    pub grf_bytes: u32,
    /// Kernel parameters that the text uses without declaring (the `%0`, `%1` ... placeholders
    /// of inline assembly): name, element type, element count.
    pub params: Vec<(String, ElemType, u32)>,
    /// Most instructions a kernel may have (a load error beyond).
    pub max_instructions: usize,
    /// Most `.decl` declarations a kernel may have, of every kind (a load error beyond).
    pub max_variables: usize,
    /// Largest `SLMSize` kernel attribute accepted, in bytes (each group allocates that much).
    pub max_slm_bytes: usize,
    /// Make the rules only the per-instruction documents state (type maps, listed operand
    /// types, source-modifier properties) load errors, as `visa check --deny-warnings` does.
    /// Off by default: the Intel compiler accepts such code, and the runtime executes it.
    pub strict_docs: bool,
    /// The target platform: its rules apply (`None`: what some platform accepts). Its GRF size
    /// must be [`LoadOptions::grf_bytes`].
    pub platform: Option<Platform>,
    /// The engine that runs the program's threads (default: [`Engine::from_env`]).
    pub engine: Engine,
    /// How the compiled tier optimises (default: [`JitTier::Adaptive`]).
    pub jit_tier: JitTier,
}

impl LoadOptions {
    /// Default [`LoadOptions::max_instructions`].
    pub const DEFAULT_MAX_INSTRUCTIONS: usize = 1 << 20;
    /// Default [`LoadOptions::max_variables`].
    pub const DEFAULT_MAX_VARIABLES: usize = 1 << 16;
    /// Default [`LoadOptions::max_slm_bytes`]: 1 MiB, well above any device's SLM.
    pub const DEFAULT_MAX_SLM_BYTES: usize = 1 << 20;
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            grf_bytes: visa_isa::rules::DEFAULT_GRF_BYTES,
            params: Vec::new(),
            max_instructions: Self::DEFAULT_MAX_INSTRUCTIONS,
            max_variables: Self::DEFAULT_MAX_VARIABLES,
            max_slm_bytes: Self::DEFAULT_MAX_SLM_BYTES,
            strict_docs: false,
            platform: None,
            engine: Engine::from_env(),
            jit_tier: JitTier::Adaptive,
        }
    }
}

impl LoadOptions {
    /// Declares an undeclared kernel parameter.
    pub fn param(mut self, name: &str, ty: ElemType, num_elts: u32) -> Self {
        self.params.push((name.to_string(), ty, num_elts));
        self
    }

    /// Sets [`LoadOptions::grf_bytes`].
    pub fn grf_bytes(mut self, grf_bytes: u32) -> Self {
        self.grf_bytes = grf_bytes;
        self
    }

    /// Sets [`LoadOptions::engine`].
    pub fn engine(mut self, engine: Engine) -> Self {
        self.engine = engine;
        self
    }

    /// Sets [`LoadOptions::jit_tier`].
    pub fn jit_tier(mut self, tier: JitTier) -> Self {
        self.jit_tier = tier;
        self
    }

    /// Sets [`LoadOptions::strict_docs`].
    pub fn strict_docs(mut self, strict: bool) -> Self {
        self.strict_docs = strict;
        self
    }

    /// Names the platform ([`LoadOptions::platform`]) and takes its GRF size.
    pub fn platform(mut self, platform: Platform) -> Self {
        self.platform = Some(platform);
        self.grf_bytes = platform.grf_bytes();
        self
    }
}

/// Where an instruction comes from: its location and text, for traps and reports. Kept apart
/// from the decoded instructions (`Program::code`, the form the engines run) and indexed by the
/// same pc.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub span: Span,
    pub text: String,
}

/// A loaded kernel, ready to launch any number of times.
#[derive(Debug, Clone)]
pub struct Program {
    pub(crate) kernel: String,
    pub(crate) layout: Layout,
    /// The decoded instructions, by pc.
    pub(crate) code: Vec<Op>,
    /// Each instruction's location and text, by pc.
    pub(crate) sources: Vec<Source>,
    /// Names of the kernel parameters declared through [`LoadOptions::params`].
    pub(crate) params: Vec<String>,
    /// `SLMSize` kernel attribute, in bytes.
    pub(crate) slm_size: Option<usize>,
    /// [`LoadOptions::max_slm_bytes`] of the load: also the limit of [`crate::Launch::slm_size`].
    pub(crate) max_slm_bytes: usize,
    /// `SimdSize` kernel attribute.
    pub(crate) simd_size: Option<u32>,
    /// Register-file byte offset of `%cr0`, when the program names it.
    pub(crate) cr0_offset: Option<usize>,
    /// Register-file byte offsets of `%ce0` and `%tsc`, when the program names them.
    pub(crate) ce0_offset: Option<usize>,
    pub(crate) tsc_offset: Option<usize>,
    /// First instructions of subroutines (`.function` directives and `SUBROUTINE`), sorted:
    /// execution may only arrive there through `call`.
    pub(crate) subroutines: Vec<usize>,
    /// Stack-call functions (`.global_function` objects), in source order.
    pub(crate) functions: Vec<Function>,
    /// Where divergent `goto`s park channels (set at the end of the load).
    pub(crate) joins: JoinPoints,
    /// Register-file bytes of `%arg` and `%retval` (offset, size), when the program names them.
    pub(crate) arg_block: Option<(usize, usize)>,
    pub(crate) retval_block: Option<(usize, usize)>,
    /// Run memory messages on the general per-lane path only (tests compare both paths).
    pub(crate) general_only: bool,
    /// The engine that runs the program's threads.
    pub(crate) engine: Engine,
    /// The compiled tier's code for this program, made on first use (`crate::jit`): kept
    /// here, type-erased, so that the model layer does not depend on an executor. One slot
    /// per build: [`JitTier::Lazy`] code leaves the blocks no thread had entered to the
    /// interpreter, and is built again once one has.
    pub(crate) jit: CodeSlots,
    /// The same, optimised (see [`JitTier`]).
    pub(crate) jit_optimized: CodeSlots,
    pub(crate) jit_tier: JitTier,
    /// Instructions the program's launches have run on quick code.
    pub(crate) quick_steps: StepCount,
    /// The instructions threads have executed outside compiled code (`crate::jit`'s lazy
    /// blocks).
    pub(crate) reached: Reached,
    /// The bytes its threads write before reading them, by entry mask
    /// (`first_writes::written_first`), found by its first launch of each width.
    pub(crate) first_writes: ByMask,
}

/// How many times a program's code of one tier is built at most: the last build compiles
/// every block, the ones before only the blocks some thread had entered.
pub(crate) const CODE_GENERATIONS: usize = 3;

/// The builds of one tier's code, in order; a slot, once set, is never replaced (launches
/// under way keep running on the code they started with).
pub(crate) type CodeSlots =
    [OnceLock<Result<Arc<dyn Any + Send + Sync>, String>>; CODE_GENERATIONS];

/// A set of instructions (by pc, the end of the code included) shared by the launches of one
/// program: one bit per instruction, allocated on the first mark.
#[derive(Debug, Default)]
pub(crate) struct Reached(OnceLock<Box<[AtomicU64]>>);

impl Reached {
    /// Adds `pc` to the set of a program of `len` instructions (a pc beyond is ignored).
    pub(crate) fn mark(&self, pc: usize, len: usize) {
        let words = self
            .0
            .get_or_init(|| (0..=len / 64).map(|_| AtomicU64::new(0)).collect());
        if let Some(word) = words.get(pc / 64) {
            let bit = 1u64 << (pc % 64);
            // (Read first: once every bit is set, threads only share the cache line.)
            if word.load(Ordering::Relaxed) & bit == 0 {
                word.fetch_or(bit, Ordering::Relaxed);
            }
        }
    }

    pub(crate) fn contains(&self, pc: usize) -> bool {
        self.0
            .get()
            .and_then(|words| words.get(pc / 64))
            .is_some_and(|word| word.load(Ordering::Relaxed) & (1u64 << (pc % 64)) != 0)
    }

    /// Whether anything has been marked.
    pub(crate) fn any(&self) -> bool {
        self.0.get().is_some()
    }
}

/// A fact about a program's register bytes that depends on the execution mask its threads
/// start with, kept for the program's launches: one per mask, up to [`ByMask::MOST`] masks (a
/// launch has one of the SIMD widths' masks; beyond, the fact is found again each time).
#[derive(Debug, Default)]
pub(crate) struct ByMask(Mutex<Vec<(u32, Arc<[bool]>)>>);

impl ByMask {
    const MOST: usize = 8;

    /// The fact for `mask`, found by `find` the first time.
    pub(crate) fn get_or(&self, mask: u32, find: impl FnOnce() -> Vec<bool>) -> Arc<[bool]> {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, fact)) = kept.iter().find(|(kept, _)| *kept == mask) {
            return Arc::clone(fact);
        }
        let fact: Arc<[bool]> = find().into();
        if kept.len() < Self::MOST {
            kept.push((mask, Arc::clone(&fact)));
        }
        fact
    }
}

/// A clone finds the facts again (it may be changed before it runs).
impl Clone for ByMask {
    fn clone(&self) -> Self {
        ByMask::default()
    }
}

impl Program {
    /// Adds `pc` to [`Program::reached`].
    pub(crate) fn note_reached(&self, pc: usize) {
        self.reached.mark(pc, self.code.len());
    }
}

impl Clone for Reached {
    fn clone(&self) -> Self {
        let copy = Reached::default();
        if let Some(words) = self.0.get() {
            let words = words
                .iter()
                .map(|w| AtomicU64::new(w.load(Ordering::Relaxed)));
            let _ = copy.0.set(words.collect());
        }
        copy
    }
}

/// A count shared by the launches of one program (a clone of the program starts from the
/// count so far).
#[derive(Debug, Default)]
pub(crate) struct StepCount(AtomicU64);

impl StepCount {
    pub(crate) fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn add(&self, steps: u64) {
        self.0.fetch_add(steps, Ordering::Relaxed);
    }
}

impl Clone for StepCount {
    fn clone(&self) -> Self {
        StepCount(AtomicU64::new(self.get()))
    }
}

/// A stack-call function object: where it starts and the storage each activation owns.
#[derive(Debug, Clone)]
pub(crate) struct Function {
    pub name: String,
    /// First instruction of the body.
    pub entry: usize,
    /// Register-file byte ranges (offset, size) of the variables the function declares.
    pub storage: Vec<(usize, usize)>,
    /// Indices of the predicate variables the function declares.
    pub predicates: std::ops::Range<usize>,
    /// `ArgSize` / `RetValSize` attributes (in GRFs), when the function states them.
    pub arg_size: Option<u32>,
    pub ret_size: Option<u32>,
}

impl Program {
    /// Whether some instruction calls a subroutine or function (pushes a frame).
    pub(crate) fn calls(&self) -> bool {
        (self.code.iter()).any(|op| {
            matches!(
                op,
                crate::ops::Op::Call { .. } | crate::ops::Op::Fcall { .. }
            )
        })
    }

    /// Whether some `movs` can point a surface variable at another binding-table entry.
    pub(crate) fn repoints_surfaces(&self) -> bool {
        self.code.iter().any(|op| match op {
            crate::ops::Op::Movs(m) => match m.dst {
                crate::ops::MovsDst::State { var, .. } => self
                    .layout
                    .states
                    .get(usize::from(var))
                    .is_some_and(|s| !s.sampler),
                crate::ops::MovsDst::General(_) => false,
            },
            _ => false,
        })
    }

    /// Loads a module parsed with the generated instruction table ([`visa_isa::INSTRUCTIONS`]).
    pub fn load(module: &Module, options: &LoadOptions) -> Result<Program, LoadError> {
        Self::load_with_table(module, visa_isa::INSTRUCTIONS, options)
    }

    /// Parses assembly text and loads it; a syntax error becomes a [`LoadError`] at its
    /// location.
    pub fn from_text(src: &str, options: &LoadOptions) -> Result<Program, LoadError> {
        let module = visa_isa::text::parse(src).map_err(|errors| match errors.first() {
            Some(e) => LoadError::syntax(
                e.span,
                format!("found {}, expected {}", e.found, e.expected),
            ),
            None => LoadError::syntax(Span::default(), "syntax error"),
        })?;
        Self::load(&module, options)
    }

    /// Loads a module with the instruction table the module was parsed against.
    pub fn load_with_table(
        module: &Module,
        table: &'static [InstrDesc],
        options: &LoadOptions,
    ) -> Result<Program, LoadError> {
        check_rules(module, table, options)?;
        Self::build(module, table, options, &mut Refusals::FirstStops)
    }

    /// Everything the loader would refuse in `module` besides the checker's rules: each
    /// instruction this runtime does not execute, each limit and unbound name, not only the
    /// first. For tools that have run the checker themselves (`visa check` runs it once, then asks
    /// this); an empty list means [`Program::load`] succeeds once the checker passes.
    pub fn analyse(module: &Module, options: &LoadOptions) -> Vec<LoadError> {
        let mut refusals = Refusals::All(Vec::new());
        let last = Self::build(module, visa_isa::INSTRUCTIONS, options, &mut refusals).err();
        let Refusals::All(mut all) = refusals else {
            return last.into_iter().collect();
        };
        all.extend(last);
        all
    }

    /// Decodes a checked module; `refusals` says whether the first refusal stops the load or
    /// each is recorded and decoding goes on (a refusal that leaves nothing to go on with still
    /// stops it).
    fn build(
        module: &Module,
        table: &'static [InstrDesc],
        options: &LoadOptions,
        refusals: &mut Refusals,
    ) -> Result<Program, LoadError> {
        if !visa_isa::rules::GRF_SIZES.contains(&options.grf_bytes) {
            return Err(LoadError::new(
                Span::default(),
                format!("GRF size must be 32 or 64 bytes, not {}", options.grf_bytes),
            ));
        }
        if let Some(platform) = options
            .platform
            .filter(|p| p.grf_bytes() != options.grf_bytes)
        {
            return Err(LoadError::new(
                Span::default(),
                format!(
                    "{} has {}-byte GRFs, the load options say {}",
                    platform.name(),
                    platform.grf_bytes(),
                    options.grf_bytes
                ),
            ));
        }
        let (labels, function_ids) = collect_labels(module, table)?;
        let mut layout = Layout::new(options.grf_bytes);
        let mut params = Vec::new();
        for (name, ty, num_elts) in &options.params {
            layout.declare_param(name, *ty, *num_elts, Span::default())?;
            params.push(name.clone());
        }
        let mut program = Program {
            kernel: String::from("kernel"),
            layout: Layout::default(),
            code: Vec::new(),
            sources: Vec::new(),
            params,
            slm_size: None,
            max_slm_bytes: options.max_slm_bytes,
            simd_size: None,
            cr0_offset: None,
            ce0_offset: None,
            tsc_offset: None,
            subroutines: Vec::new(),
            functions: Vec::new(),
            joins: JoinPoints::default(),
            arg_block: None,
            retval_block: None,
            general_only: false,
            engine: options.engine,
            jit: Default::default(),
            jit_optimized: Default::default(),
            jit_tier: options.jit_tier,
            quick_steps: StepCount::default(),
            reached: Reached::default(),
            first_writes: ByMask::default(),
        };
        // Where the current function object's variables and predicates start.
        let mut object_start = (0usize, 0usize);
        let mut inputs = Vec::new();
        let mut declarations = 0usize;
        for stmt in &module.stmts {
            match &stmt.kind {
                StmtKind::Kernel { name } => program.kernel = name.clone(),
                // A `.function` inside a kernel starts a subroutine (SUBROUTINE.md).
                StmtKind::Function { global: false, .. } => {
                    program.subroutines.push(program.code.len());
                }
                // A `.global_function` ends the previous object (an end marker, so execution
                // cannot fall into the function) and starts a new name space.
                StmtKind::Function { name, .. } => {
                    close_object(&mut program, &layout, object_start);
                    let after_function = !program.functions.is_empty();
                    push_end_marker(&mut program, stmt.span, after_function);
                    layout.begin_function();
                    object_start = (layout.vars.len(), layout.predicates.len());
                    program.subroutines.push(program.code.len());
                    program.functions.push(Function {
                        name: name.clone(),
                        entry: program.code.len(),
                        storage: Vec::new(),
                        predicates: 0..0,
                        arg_size: None,
                        ret_size: None,
                    });
                }
                StmtKind::KernelAttr { name, value } => {
                    let number = value.as_deref().and_then(|v| v.trim().parse::<u32>().ok());
                    if name.eq_ignore_ascii_case("SLMSize") {
                        if let Some(bytes) = number.filter(|&n| n as usize > options.max_slm_bytes)
                        {
                            return Err(LoadError::limit(
                                stmt.span,
                                format!(
                                    "SLMSize {bytes} exceeds the limit of {} bytes",
                                    options.max_slm_bytes
                                ),
                            ));
                        }
                        program.slm_size = number.map(|n| n as usize);
                    } else if name.eq_ignore_ascii_case("SimdSize") {
                        program.simd_size = number;
                    } else if let Some(function) = program.functions.last_mut() {
                        if name.eq_ignore_ascii_case("ArgSize") {
                            function.arg_size = number;
                        } else if name.eq_ignore_ascii_case("RetValSize") {
                            function.ret_size = number;
                        }
                    }
                }
                StmtKind::Decl(decl) => {
                    declarations += 1;
                    if declarations > options.max_variables {
                        return Err(LoadError::limit(
                            stmt.span,
                            format!("more than {} variable declarations", options.max_variables),
                        ));
                    }
                    if let Err(e) = layout.declare(decl, stmt.span) {
                        refusals.record(e)?;
                    }
                }
                StmtKind::Input { name, .. } => inputs.push((name.clone(), stmt.span)),
                StmtKind::ScopeOpen => layout.open_scope(),
                StmtKind::ScopeClose => layout.close_scope(stmt.span)?,
                StmtKind::Instr(instr) => {
                    if program.code.len() >= options.max_instructions {
                        return Err(LoadError::limit(
                            instr.span,
                            format!("more than {} instructions", options.max_instructions),
                        ));
                    }
                    let desc = table.get(instr.desc).ok_or_else(|| {
                        LoadError::new(
                            instr.span,
                            format!("instruction table has no entry {}", instr.desc),
                        )
                    })?;
                    let decoded = Decoder {
                        layout: &mut layout,
                        labels: &labels,
                        functions: &function_ids,
                    }
                    .decode(desc, instr);
                    let op = match decoded {
                        Ok(op) => op,
                        Err(e) => {
                            refusals.record(e)?;
                            continue;
                        }
                    };
                    if crate::decode::opcode_of(desc) == Some(visa_isa::Opcode::Subroutine) {
                        program.subroutines.push(program.code.len());
                    }
                    program.code.push(op);
                    program.sources.push(Source {
                        span: instr.span,
                        text: visa_isa::text::format_instruction_with(table, instr),
                    });
                }
                StmtKind::Version { .. } | StmtKind::Label { .. } | StmtKind::Directive { .. } => {}
            }
        }
        if !program.functions.is_empty() {
            close_object(&mut program, &layout, object_start);
            let span = module.stmts.last().map_or_else(Span::default, |s| s.span);
            push_end_marker(&mut program, span, true);
        }
        for (name, span) in inputs {
            // A surface or sampler input carries a binding-table number, which its variable
            // already starts with (launch bindings fill the entry, as for any surface); a
            // general input's bytes are defined at thread start.
            if let Some(&index) = layout.top_level.get(&name) {
                layout.initialized.push(index);
            } else if !layout.top_level_states.contains_key(&name) {
                refusals.record(LoadError::new(
                    span,
                    format!("input '{name}' is not declared"),
                ))?;
            }
        }
        let offset_of = |name| {
            layout
                .predefined_index(name)
                .and_then(|i| layout.vars.get(i))
                .map(|v| v.offset as usize)
        };
        program.cr0_offset = offset_of("%cr0");
        program.ce0_offset = offset_of("%ce0");
        program.tsc_offset = offset_of("%tsc");
        let block = |name: &str| {
            layout
                .predefined_index(name)
                .and_then(|i| layout.vars.get(i))
                .map(|v| (v.offset as usize, v.size as usize))
        };
        program.arg_block = block("%arg");
        program.retval_block = block("%retval");
        program.layout = layout;
        for op in &mut program.code {
            crate::specialise::specialise(op);
        }
        program.joins = JoinPoints::new(&program.code);
        Ok(program)
    }

    /// The engine that runs this program's threads ([`LoadOptions::engine`]).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The kernel's name (`.kernel`), or `kernel`.
    pub fn kernel_name(&self) -> &str {
        &self.kernel
    }

    /// Number of decoded instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// Names of the parameters declared through [`LoadOptions::params`].
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The register-file layout (variable names, offsets, sizes).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// Whether a load stops at its first refusal ([`Program::load`]) or records them all and goes
/// on decoding ([`Program::analyse`]).
enum Refusals {
    FirstStops,
    All(Vec<LoadError>),
}

impl Refusals {
    /// Stops the load with `error`, or records it and lets decoding go on.
    fn record(&mut self, error: LoadError) -> Result<(), LoadError> {
        match self {
            Refusals::FirstStops => Err(error),
            Refusals::All(list) => {
                list.push(error);
                Ok(())
            }
        }
    }
}

/// The rules of vISA, checked by the one checker `visa check` and `isa!` run
/// ([`visa_isa::text::check_with_options`]) with this load's GRF size, platform and parameters:
/// its first error (or, under [`LoadOptions::strict_docs`], its first document rule) stops the
/// load. What the loader rejects after this is what the runtime does not execute, or a limit.
fn check_rules(
    module: &Module,
    table: &'static [InstrDesc],
    options: &LoadOptions,
) -> Result<(), LoadError> {
    let check = CheckOptions {
        platform: options.platform,
        grf_bytes: Some(options.grf_bytes),
        params: options.params.clone(),
    };
    let diagnostics = visa_isa::text::check_with_options(table, module, &check);
    let mut errors = diagnostics
        .iter()
        .filter(|d| d.is_error_with(options.strict_docs));
    match errors.next() {
        None => Ok(()),
        Some(first) => {
            let more = errors.count();
            let message = match more {
                0 => first.message.clone(),
                n => format!("{} ({n} more problem(s): run `visa check`)", first.message),
            };
            Err(LoadError::new(first.span, message).suggesting(first.suggestion.clone()))
        }
    }
}

/// Label name -> instruction index.
type Targets = HashMap<String, usize>;

/// Records the storage of the function object that ends here (nothing for the kernel).
fn close_object(program: &mut Program, layout: &Layout, (first_var, first_pred): (usize, usize)) {
    let Some(function) = program.functions.last_mut() else {
        return;
    };
    function.storage = layout
        .vars
        .iter()
        .enumerate()
        .skip(first_var)
        .filter(|(index, v)| v.root == *index && !v.name.starts_with('%'))
        .map(|(_, v)| (v.offset as usize, v.size as usize))
        .collect();
    function.predicates = first_pred..layout.predicates.len();
}

/// The end of a kernel or function body: falling off a kernel ends the thread, falling off a
/// function traps (it must leave through `fret`).
fn push_end_marker(program: &mut Program, span: Span, function: bool) {
    program.code.push(Op::EndOfObject { function });
    program.sources.push(Source {
        span,
        text: String::from(if function {
            "end of function"
        } else {
            "end of kernel"
        }),
    });
}

/// Label name -> index of the instruction it precedes (the `LABEL` instruction itself when the
/// label is written as one), and function name -> function index (`.global_function` objects;
/// each is preceded by an end marker, counted here as the loader inserts it).
fn collect_labels(
    module: &Module,
    table: &[InstrDesc],
) -> Result<(Targets, HashMap<String, u16>), LoadError> {
    let mut labels = HashMap::new();
    let mut functions = HashMap::new();
    let mut pc = 0usize;
    let mut define = |name: &str, pc: usize, span: Span| {
        if labels.insert(name.to_string(), pc).is_some() {
            return Err(LoadError::new(
                span,
                format!("label '{name}' is defined twice"),
            ));
        }
        Ok(())
    };
    for stmt in &module.stmts {
        match &stmt.kind {
            StmtKind::Label { name } => define(name, pc, stmt.span)?,
            StmtKind::Function { name, global: true } => {
                pc += 1;
                let index = u16::try_from(functions.len())
                    .map_err(|_| LoadError::new(stmt.span, "too many functions"))?;
                if functions.insert(name.clone(), index).is_some() {
                    return Err(LoadError::new(
                        stmt.span,
                        format!("function '{name}' is defined twice"),
                    ));
                }
            }
            StmtKind::Instr(instr) => {
                if let Some(name) = visa_isa::text::label_defined_by(table, instr) {
                    define(name, pc, stmt.span)?;
                }
                pc += 1;
            }
            _ => {}
        }
    }
    Ok((labels, functions))
}

#[cfg(test)]
mod tests {
    use crate::ops::Op;

    /// The engines walk `Program::code`; locations and texts live in `Program::sources`, and
    /// instructions with large operand sets are boxed. A variant that grows every instruction
    /// (a field that should be boxed) fails here. (With the text and span inline an instruction
    /// took 104 bytes; before `addc`/`subb` was boxed, 72.)
    #[test]
    fn the_decoded_instruction_is_compact() {
        let size = std::mem::size_of::<Op>();
        assert!(size <= 48, "Op takes {size} bytes");
    }
}

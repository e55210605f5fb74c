//! Helpers shared by the runtime tests.
#![allow(dead_code)]

use visa_runtime::{
    Element, Engine, JitTier, Launch, LaunchError, LaunchResult, LoadOptions, Program, Trap,
    TrapKind,
};

/// A kernel whose thread loops for ever: `mov` (pc 0, line 3), then `add` (pc 1, line 5) and
/// `jmp` (pc 2, line 6) back to it.
pub const FOREVER: &str = "\
.kernel \"forever\"
.decl N v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) N(0,0)<1> 0x0:d
TOP:
add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
jmp (M1, 1) TOP
";

/// Loads assembly text with the default options (32-byte GRF), panicking with the load error.
pub fn program(src: &str) -> Program {
    program_with(src, &LoadOptions::default())
}

/// Loads assembly text to run on the interpreter, the engine that tracks undefined bytes (for
/// tests of uninitialized reads and of which bytes a message leaves undefined).
pub fn interpreted(src: &str) -> Program {
    program_with(src, &LoadOptions::default().engine(Engine::Interpreter))
}

/// Whether programs loaded with the default options track undefined bytes (the interpreter
/// does; compiled code, the default engine, starts with every byte defined).
pub fn tracks_definedness() -> bool {
    Engine::from_env() == Engine::Interpreter
}

/// `src` loaded for the interpreter and for both code generators of the compiled tier, each
/// with a name for messages and whether it is compiled.
pub fn on_every_engine(src: &str) -> Vec<(String, bool, Program)> {
    [
        (Engine::Interpreter, JitTier::Adaptive),
        (Engine::Jit, JitTier::Quick),
        (Engine::Jit, JitTier::Optimized),
    ]
    .into_iter()
    .map(|(engine, tier)| {
        let options = LoadOptions::default().engine(engine).jit_tier(tier);
        let name = format!("{engine:?} {tier:?}");
        (name, engine == Engine::Jit, program_with(src, &options))
    })
    .collect()
}

pub fn program_with(src: &str, options: &LoadOptions) -> Program {
    Program::from_text(src, options).unwrap_or_else(|e| panic!("load failed: {e}\n{src}"))
}

/// The whole of variable `name` in thread `thread`, all bytes defined.
pub fn whole<T: Element>(result: &LaunchResult, name: &str, thread: usize) -> Vec<T> {
    let (bytes, defined) = result
        .thread_bytes(name, thread)
        .unwrap_or_else(|| panic!("{name} was not captured"));
    assert!(
        defined.iter().all(|d| *d),
        "{name} has undefined bytes: {defined:?}"
    );
    visa_runtime::Buffer::from_bytes(bytes).to_vec()
}

/// Per-byte definedness of variable `name` in thread 0.
pub fn defined(result: &LaunchResult, name: &str) -> Vec<bool> {
    result
        .thread_bytes(name, 0)
        .unwrap_or_else(|| panic!("{name} was not captured"))
        .1
        .to_vec()
}

/// Runs a SIMD-8 kernel with the dword vector `V` bound to `v`; returns `V` afterwards.
pub fn run_v(src: &str, v: &[u32]) -> Result<Vec<u32>, LaunchError> {
    run_v_on(&program(src), v)
}

/// [`run_v`] on the interpreter.
pub fn run_v_interpreted(src: &str, v: &[u32]) -> Result<Vec<u32>, LaunchError> {
    run_v_on(&interpreted(src), v)
}

fn run_v_on(p: &Program, v: &[u32]) -> Result<Vec<u32>, LaunchError> {
    Launch::new(p)
        .simd(8)
        .bind_vector("V", v)
        .run()
        .map(|r| r.vector::<u32>("V").unwrap())
}

/// The trap a launch ended with, panicking when it did not trap.
pub fn trap_of<T: std::fmt::Debug>(result: Result<T, LaunchError>) -> Box<Trap> {
    match result {
        Err(LaunchError::Trap(trap)) => trap,
        other => panic!("expected a trap, got {other:?}"),
    }
}

/// The kind of the trap a launch ended with, panicking when it did not trap.
pub fn trap_kind<T: std::fmt::Debug>(result: Result<T, LaunchError>) -> TrapKind {
    trap_of(result).kind
}

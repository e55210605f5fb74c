//! Arbitrary input as a kernel: text assembly, or (first byte 0) a bytecode stream behind a
//! fixed set of declarations. Loading may fail and running may trap, but nothing panics; and
//! the two engines agree: the compiled tier and the interpreter both finish with the same
//! memory, or both trap with the same kind at the same instruction (a read of undefined bytes,
//! which only the interpreter tracks, and running out of fuel, counted per block by the
//! compiled tier, are not compared). Each kernel runs twice: with SLM (group by group through
//! the scheduler) and without SLM, two threads per group (the compiled tier's launch loop
//! when the kernel has no barrier), on the interpreter, on quick code, on optimised code
//! (whose messages with every lane enabled move as block copies or unrolled lanes) and on
//! lazily built code (blocks a first launch with other data never entered left to the
//! interpreter).
#![no_main]

use libfuzzer_sys::fuzz_target;
use visa_isa::ast::{ElemType, Module, Span, Stmt, StmtKind};
use visa_isa::codec::{self, SymbolKind, SymbolTable};
use visa_runtime::{
    Buffer, Engine, JitTier, Launch, LaunchError, LoadOptions, Program, Svm, TrapKind,
};

/// Declarations for the names a decoded stream may use (see `symbols`).
const DECLARATIONS: &str = "\
.decl V32 v_type=G type=d num_elts=32 align=GRF
.decl V33 v_type=G type=f num_elts=16 align=GRF
.decl V34 v_type=G type=uq num_elts=16 align=GRF
.decl V35 v_type=G type=w num_elts=8
.decl A0 v_type=A num_elts=2
.decl A1 v_type=A num_elts=1
.decl A2 v_type=A num_elts=4
.decl A3 v_type=A num_elts=1
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.decl P3 v_type=P num_elts=8
.decl P4 v_type=P num_elts=32
";

fn symbols() -> SymbolTable {
    let mut syms = SymbolTable::new();
    for (kind, prefix) in [
        (SymbolKind::General, "V"),
        (SymbolKind::Address, "A"),
        (SymbolKind::Predicate, "P"),
        (SymbolKind::Sampler, "S"),
        (SymbolKind::Surface, "T"),
        (SymbolKind::Label, "L"),
        (SymbolKind::Function, "F"),
    ] {
        let first = kind.first_free();
        for id in first..first + 4 {
            syms.define(kind, id, &format!("{prefix}{id}"));
        }
    }
    syms
}

fn module(data: &[u8]) -> Option<Module> {
    match data.split_first() {
        Some((0, code)) => {
            let insts = codec::decode_module(code, &symbols()).ok()?;
            let mut m = visa_isa::text::parse(DECLARATIONS).ok()?;
            m.stmts.extend(insts.into_iter().map(|i| Stmt {
                kind: StmtKind::Instr(i),
                span: Span::default(),
            }));
            for id in 0..4 {
                m.stmts.push(Stmt {
                    kind: StmtKind::Label {
                        name: format!("L{id}"),
                    },
                    span: Span::default(),
                });
            }
            Some(m)
        }
        _ => visa_isa::text::parse(std::str::from_utf8(data).ok()?).ok(),
    }
}

/// What a launch leaves behind: the SVM destination and surface bytes, or the trap.
#[derive(Debug, PartialEq)]
enum Outcome {
    Finished { svm: Vec<u8>, surface: Vec<u8> },
    Trapped { kind: TrapKind, pc: usize, group: u32, thread: u32 },
    Other(String),
}

/// The launch shapes each kernel runs in: SLM bytes and threads per group.
const SHAPES: [(usize, u32); 2] = [(256, 1), (0, 2)];

fn run(module: &Module, (engine, tier): (Engine, JitTier), shape: (usize, u32)) -> Option<Outcome> {
    let options = LoadOptions::default()
        .engine(engine)
        .jit_tier(tier)
        .param("%0", ElemType::Uq, 16)
        .param("%1", ElemType::Uq, 16)
        .param("%2", ElemType::D, 16);
    let program = Program::load(module, &options).ok()?;
    if tier == JitTier::Lazy {
        // A first launch with another scalar, too small to compile, runs on the interpreter
        // noting the blocks its threads enter; the code is built from those (the report builds
        // it), and the launch compared runs on it.
        let _ = launch(&program, shape, 0);
        program.jit_report();
    }
    launch(&program, shape, 3)
}

/// One launch of `program` in `shape` with `scalar` as `%2`, on fresh memory.
fn launch(program: &Program, (slm, threads): (usize, u32), scalar: i32) -> Option<Outcome> {
    let mut svm = Svm::new();
    let src = svm.alloc_from(&(0..64u32).collect::<Vec<_>>());
    let dst = svm.alloc(512);
    let surface = Buffer::from_slice(&(0..64u32).collect::<Vec<_>>());
    let mut launch = Launch::new(program)
        .simd(16)
        .groups(2)
        .threads_per_group(threads)
        .fuel(4096)
        .slm_size(slm)
        .svm(&svm)
        .bind_svm_lanes("%0", src, 4)
        .bind_svm_lanes("%1", dst, 4)
        .bind_scalar("%2", scalar);
    for name in program.layout().surfaces() {
        launch = launch.bind_surface(name, &surface);
    }
    Some(match launch.run() {
        Ok(_) => {
            let mut out = vec![0u8; 512];
            svm.read(dst, &mut out).ok()?;
            Outcome::Finished {
                svm: out,
                surface: surface.to_vec::<u8>(),
            }
        }
        Err(LaunchError::Trap(trap)) => Outcome::Trapped {
            kind: trap.kind,
            pc: trap.pc,
            group: trap.group,
            thread: trap.thread,
        },
        Err(other) => Outcome::Other(other.to_string()),
    })
}

/// Outcomes the engines may legitimately differ on.
fn comparable(outcome: &Outcome) -> bool {
    !matches!(
        outcome,
        Outcome::Trapped {
            kind: TrapKind::Uninitialized { .. } | TrapKind::OutOfFuel(_),
            ..
        }
    )
}

fuzz_target!(|data: &[u8]| {
    let Some(module) = module(data) else {
        return;
    };
    for shape in SHAPES {
        let interpreted = run(&module, (Engine::Interpreter, JitTier::Adaptive), shape);
        // Quick code, optimised code with its block copies, unrolled messages and the
        // addresses computed from the `--svm` bindings (`jit::bound_addresses`), and code
        // built lazily.
        for tier in [JitTier::Quick, JitTier::Optimized, JitTier::Lazy] {
            let compiled = run(&module, (Engine::Jit, tier), shape);
            assert_eq!(
                interpreted.is_some(),
                compiled.is_some(),
                "one engine loads what the other does not"
            );
            if let (Some(i), Some(c)) = (&interpreted, &compiled)
                && comparable(i)
                && comparable(c)
            {
                assert_eq!(i, c, "the engines disagree ({shape:?}, {tier:?})");
            }
        }
    }
});

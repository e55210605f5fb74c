//! The two engines side by side (issue 17): the five shared real kernels
//! (`../shared/asm-corpus/kernels`) launched on the compiled tier and on the interpreter, the
//! first launch of a program (load + compile + run) on each, and the compiled tier's compile
//! time per 1,000 instructions.
//!
//! Every kernel's output is compared between the engines before timing. Goal: compile time
//! <= 10 ms per 1,000 instructions.

#[path = "../../benches/support/mod.rs"]
mod support;

use std::time::Instant;

use criterion::Criterion;
use support::{Figures, show, verdict};
use visa_isa::ast::ElemType;
use visa_runtime::{Engine, JitTier, Launch, LaunchResult, LoadOptions, Program, Svm};

/// How a kernel parameter is bound.
#[derive(Clone, Copy)]
enum Bind {
    /// A per-lane SVM pointer into a buffer of one dword per work-item.
    Svm,
    /// One value per work-item.
    Vector,
}

/// A shared kernel and its parameters (the bindings of `runtime/tests/corpus_kernels.rs`).
struct Case {
    file: &'static str,
    simd: u32,
    params: &'static [(&'static str, ElemType, Bind)],
}

/// Three dword vectors `%0`..`%2`, the parameters of two of the kernels.
const THREE_DWORD_VECTORS: &[(&str, ElemType, Bind)] = &[
    ("%0", ElemType::D, Bind::Vector),
    ("%1", ElemType::D, Bind::Vector),
    ("%2", ElemType::D, Bind::Vector),
];

const CASES: &[Case] = &[
    Case {
        file: "cs_single_basic_block.visaasm",
        simd: 16,
        params: &[
            ("%0", ElemType::Uq, Bind::Svm),
            ("%1", ElemType::Uq, Bind::Svm),
        ],
    },
    Case {
        file: "cs_template_var_decl.visaasm",
        simd: 16,
        params: THREE_DWORD_VECTORS,
    },
    Case {
        file: "llvm_asm_decl_in_scope.visaasm",
        simd: 16,
        params: THREE_DWORD_VECTORS,
    },
    Case {
        file: "llvm_letter_example.visaasm",
        simd: 16,
        params: &[("%0", ElemType::Uq, Bind::Svm)],
    },
    Case {
        file: "igc_inline_asm_2.visaasm",
        simd: 8,
        params: &[
            ("$0", ElemType::Ud, Bind::Vector),
            ("$1", ElemType::Ud, Bind::Vector),
            ("$2", ElemType::Ud, Bind::Vector),
            ("$3", ElemType::Ud, Bind::Vector),
        ],
    },
];

/// Groups per launch: enough work-items that a launch takes milliseconds.
const GROUPS: u32 = 2048;

/// Goal: milliseconds of compile time per 1,000 instructions.
const COMPILE_GOAL_MS: f64 = 10.0;

fn program(src: &str, case: &Case, engine: Engine) -> Program {
    let mut options = LoadOptions::default().engine(engine);
    for (name, ty, _) in case.params {
        options = options.param(name, *ty, case.simd);
    }
    Program::from_text(src, &options).unwrap_or_else(|e| panic!("{}: {e}", case.file))
}

/// One launch of `program` over [`GROUPS`] groups; returns the SVM buffers' contents and the
/// launch result.
fn launch(program: &Program, case: &Case) -> (Vec<Vec<u32>>, LaunchResult) {
    let items = (case.simd * GROUPS) as usize;
    let mut svm = Svm::new();
    let mut buffers = Vec::new();
    let values: Vec<u32> = (0..items as u32)
        .map(|i| i.wrapping_mul(7) % 1000)
        .collect();
    for (name, _, bind) in case.params {
        if let Bind::Svm = bind {
            buffers.push((name, svm.alloc_from(&values)));
        }
    }
    let mut launch = Launch::new(program)
        .simd(case.simd)
        .groups(GROUPS)
        .svm(&svm);
    for (name, base) in &buffers {
        launch = launch.bind_svm_lanes(name, *base, 4);
    }
    for (name, _, bind) in case.params {
        if let Bind::Vector = bind {
            launch = launch.bind_vector(name, &values);
        }
    }
    let result = launch
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", case.file));
    let memory = buffers
        .iter()
        .map(|(_, base)| svm.read_vec::<u32>(*base, items).expect("readable"))
        .collect();
    (memory, result)
}

/// A straight-line ALU kernel of `n` instructions (the instruction mix of the `alu` bench).
fn alu_kernel(n: usize) -> String {
    let mut src = String::from(
        ".decl A v_type=G type=d num_elts=16 align=GRF\n\
         .decl B v_type=G type=d num_elts=16 align=GRF\n\
         .decl F v_type=G type=f num_elts=16 align=GRF\n\
         .decl P1 v_type=P num_elts=16\n\
         mov (M1, 16) A(0,0)<1> 0x1:d\n\
         mov (M1, 16) B(0,0)<1> 0x2:d\n",
    );
    let body = [
        "add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
        "mad (M1, 16) B(0,0)<1> A(0,0)<1;1,0> 0x3:d B(0,0)<1;1,0>",
        "cmp.lt (M1, 16) P1 A(0,0)<1;1,0> B(0,0)<1;1,0>",
        "(P1) sel (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
        "mov (M1, 16) F(0,0)<1> A(0,0)<1;1,0>",
        "mul (M1, 16) F(0,0)<1> F(0,0)<1;1,0> 0x3f000000:f",
        "and (M1, 16) B(0,0)<1> B(0,0)<1;1,0> 0xffff:d",
        "shl (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d",
    ];
    for i in 0..n.saturating_sub(2) {
        src.push_str(body[i % body.len()]);
        src.push('\n');
    }
    src
}

fn main() {
    let figures = Figures::new();
    let mut c = Criterion::default().configure_from_args();
    let mut compared = Vec::new();
    let dir = visa_testutil::shared("asm-corpus/kernels");
    if let Some(dir) = &dir {
        let mut group = figures.group(&mut c, "engines");
        group.inner.sample_size(20);
        for case in CASES {
            let src = std::fs::read_to_string(dir.join(case.file)).expect("kernel is readable");
            let jit = program(&src, case, Engine::Jit);
            let interp = program(&src, case, Engine::Interpreter);
            let (jit_memory, jit_result) = launch(&jit, case);
            let (interp_memory, interp_result) = launch(&interp, case);
            assert_eq!(jit_memory, interp_memory, "{}: SVM differs", case.file);
            for (name, ty, _) in case.params {
                assert_eq!(
                    jit_result.vector_bytes(name, *ty).ok(),
                    interp_result.vector_bytes(name, *ty).ok(),
                    "{}: {name} differs",
                    case.file
                );
            }
            let report = jit.jit_report();
            compared.push((case.file, report.native(), report.instructions.len()));
            group.bench(&format!("{}/jit", case.file), || launch(&jit, case));
            group.bench(&format!("{}/interp", case.file), || launch(&interp, case));
            // The first launch of a new program: load, compile (JIT) and run.
            group.bench(&format!("{}/first_launch_jit", case.file), || {
                launch(&program(&src, case, Engine::Jit), case)
            });
            group.bench(&format!("{}/first_launch_interp", case.file), || {
                launch(&program(&src, case, Engine::Interpreter), case)
            });
        }
        group.finish();
    }

    // Compile time: load + compile minus load alone, for a 1,000-instruction kernel.
    let src = alu_kernel(1000);
    let options = LoadOptions::default().engine(Engine::Jit);
    let mut group = figures.group(&mut c, "compile");
    group.inner.sample_size(20);
    group.bench("load_1000", || {
        Program::from_text(&src, &options).expect("loads")
    });
    // The code a first small launch gets (`JitTier::Adaptive`: quick code), and optimised code.
    group.bench("load_and_compile_1000", || {
        let p = Program::from_text(&src, &options).expect("loads");
        assert!(p.jit_report().declined.is_none());
        p
    });
    let optimized = options.clone().jit_tier(JitTier::Optimized);
    group.bench("load_and_compile_optimized_1000", || {
        let p = Program::from_text(&src, &optimized).expect("loads");
        assert!(p.jit_report().optimized);
        p
    });
    group.finish();
    c.final_summary();

    println!("\n== engines (load {}) ==", support::load());
    if dir.is_none() {
        println!("skipped: ../shared not found (the shared kernels)");
    }
    for (file, native, total) in compared {
        let median = |id: &str| figures.median(&format!("engines/{file}/{id}"));
        println!(
            "{file}: {native} of {total} instructions native, {GROUPS} groups; output identical"
        );
        if let (Some(jit), Some(interp)) = (median("jit"), median("interp")) {
            println!(
                "  launch: jit {}, interp {}, interp / jit {:.2}x",
                show(jit),
                show(interp),
                interp.as_secs_f64() / jit.as_secs_f64()
            );
        }
        if let (Some(jit), Some(interp)) =
            (median("first_launch_jit"), median("first_launch_interp"))
        {
            println!(
                "  first launch (load + compile + run): jit {}, interp {}",
                show(jit),
                show(interp)
            );
        }
    }
    if let (Some(load), Some(both)) = (
        figures.median("compile/load_1000"),
        figures.median("compile/load_and_compile_1000"),
    ) {
        let compile = both.saturating_sub(load);
        let ms = compile.as_secs_f64() * 1e3;
        println!(
            "compile time for 1,000 instructions: {} (load {}, load + compile {}); goal <= \
             {COMPILE_GOAL_MS} ms: {}",
            show(compile),
            show(load),
            show(both),
            verdict(ms <= COMPILE_GOAL_MS)
        );
        if let Some(optimized) = figures.median("compile/load_and_compile_optimized_1000") {
            println!(
                "  optimised code (for launches of {} executions per instruction): {}",
                visa_runtime::HOT_EXECUTIONS,
                show(optimized.saturating_sub(load))
            );
        }
    }
    // A first launch of the README's main job shape is covered by the shared kernels above; a
    // standalone figure: load + compile + one launch of the 1,000-instruction kernel.
    let start = Instant::now();
    let p = Program::from_text(&src, &options).expect("loads");
    let _ = Launch::new(&p).simd(16).groups(1).run().expect("runs");
    println!(
        "first launch of the 1,000-instruction kernel (one group): {}",
        show(start.elapsed())
    );
}

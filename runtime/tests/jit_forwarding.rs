//! Register values the compiled tier keeps in SSA instead of loading them again (`jit::emitter`'s
//! `Known`): ALU results read by the next instruction, a block message's data read after it,
//! and values known before a message read after it, with messages that write part of what was
//! known, masks that switch lanes off (the paths that reload) and pointers that are and are not
//! consecutive (the block copy, computed or read, and the lane loops). Every register the kernel
//! uses ends in memory through scatters, and is captured when asked: memory, registers and any
//! trap must be the interpreter's.

use proptest::prelude::*;
use visa_runtime::{Buffer, Engine, JitTier, Launch, LaunchError, LoadOptions, Program, Svm};

const SIMD: u32 = 16;

/// The 16-dword variables the steps use; `XH` is the second half of `X` (an alias), so a
/// message on it writes part of what is known of `X`.
const VARS: [&str; 4] = ["X", "Y", "V", "XH"];

#[derive(Debug, Clone)]
enum Step {
    /// `op (M1, 16) dst src1 src2` on whole variables (`XH` is not an ALU operand), `src2`
    /// the variable's dword `scalar` in every lane when given.
    Alu {
        op: &'static str,
        dst: usize,
        a: usize,
        b: Option<usize>,
        scalar: Option<u32>,
    },
    /// `svm_gather.4.1 (M1, exec)` from `A` into `VARS[into]`.
    Gather { exec: u32, into: usize },
    /// `svm_scatter.4.1 (M1, exec)` of `VARS[from]` to `B`.
    Scatter { exec: u32, from: usize },
}

#[derive(Debug, Clone)]
struct Case {
    groups: u32,
    steps: Vec<Step>,
    /// `A`'s pointer step per work-item, in dwords (1: consecutive lanes).
    step: u64,
    capture: bool,
    active: Vec<bool>,
    /// Whether the steps run three times in a loop (where optimised code holds the busiest
    /// chunks in variables from trip to trip, `jit::promote`).
    looped: bool,
}

fn step() -> impl Strategy<Value = Step> {
    let exec = prop_oneof![3 => Just(16u32), 1 => Just(8u32)];
    prop_oneof![
        3 => (
            prop::sample::select(vec!["add", "mul", "xor", "max"]),
            0usize..3,
            0usize..3,
            prop::option::weighted(0.8, 0usize..3),
            prop::option::weighted(0.25, 0u32..16),
        )
            .prop_map(|(op, dst, a, b, scalar)| Step::Alu {
                op,
                dst,
                a,
                b,
                scalar
            }),
        // (`XH` holds 8 dwords: its messages are of 8 lanes.)
        2 => (exec.clone(), 0usize..4).prop_map(|(exec, into)| Step::Gather {
            exec: if into == 3 { 8 } else { exec },
            into,
        }),
        1 => (exec, 0usize..4).prop_map(|(exec, from)| Step::Scatter {
            exec: if from == 3 { 8 } else { exec },
            from,
        }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..4,
        prop::collection::vec(step(), 1..7),
        prop_oneof![4 => Just(1u64), 1 => Just(2u64)],
        prop::bool::ANY,
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.85), 3 * 16),
        ],
        prop::bool::ANY,
    )
        .prop_map(|(groups, steps, step, capture, active, looped)| Case {
            groups,
            steps,
            step,
            capture,
            active,
            looped,
        })
}

fn text(steps: &[Step], looped: bool) -> String {
    let mut src = String::from(
        ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
         .decl B v_type=G type=uq num_elts=16 align=GRF\n\
         .decl CX v_type=G type=uq num_elts=16 align=GRF\n\
         .decl CY v_type=G type=uq num_elts=16 align=GRF\n\
         .decl CV v_type=G type=uq num_elts=16 align=GRF\n\
         .decl X v_type=G type=d num_elts=16 align=GRF\n\
         .decl XH v_type=G type=d num_elts=8 alias=<X, 32>\n\
         .decl Y v_type=G type=d num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts=16 align=GRF\n\
         .decl I v_type=G type=d num_elts=1\n",
    );
    // (Without the loop the program is straight-line code, which optimised code compiles a
    // second time for threads with every channel enabled: `Plan::full_mask`.)
    if looped {
        src += ".decl P1 v_type=P num_elts=16\nmov (M1_NM, 1) I(0,0)<1> 0x0:d\nLOOP:\n";
    }
    let whole = |v: usize| format!("{}(0,0)<1;1,0>", VARS[v]);
    for s in steps {
        src += &match s {
            Step::Alu {
                op,
                dst,
                a,
                b,
                scalar,
            } => {
                let b = match (b, scalar) {
                    (None, _) => "0x7:d".to_string(),
                    (Some(b), None) => whole(*b),
                    (Some(b), Some(k)) => format!("{}(0,{k})<0;1,0>", VARS[*b]),
                };
                format!("{op} (M1, 16) {}(0,0)<1> {} {b}\n", VARS[*dst], whole(*a))
            }
            Step::Gather { exec, into } => {
                format!("svm_gather.4.1 (M1, {exec}) A.0 {}.0\n", VARS[*into])
            }
            Step::Scatter { exec, from } => {
                format!("svm_scatter.4.1 (M1, {exec}) B.0 {}.0\n", VARS[*from])
            }
        };
    }
    if looped {
        src += "add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:d\n\
                cmp.lt (M1, 16) P1 I(0,0)<0;1,0> 0x3:d\n\
                (P1) goto (M1, 16) LOOP\n";
    }
    // Every variable ends in memory, each through its own pointers.
    for v in ["X", "Y", "V"] {
        src += &format!("svm_scatter.4.1 (M1, 16) C{v}.0 {v}.0\n");
    }
    src
}

/// Memory of `B` and the `C` pointers', the captured registers of every thread, and any trap.
type Outcome = (Vec<u8>, Vec<u8>, Vec<Vec<u8>>, Option<String>);

fn run(case: &Case, engine: Engine, tier: JitTier) -> Outcome {
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&text(&case.steps, case.looped), &options).expect("loads");
    let items = u64::from(case.groups * SIMD);
    let mut svm = Svm::new();
    let a = svm.alloc_from(
        &(0..items * case.step)
            .map(|i| (i as i32) * 7 - 40)
            .collect::<Vec<i32>>(),
    );
    let b = svm.alloc_from(&(0..items).map(|i| 1000 + i as i32).collect::<Vec<i32>>());
    let c = [0; 3].map(|_| svm.alloc(4 * items as usize));
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(1)
        .svm(&svm)
        .trap_undefined_reads(false)
        .bind_svm_lanes("A", a, 4 * case.step)
        .bind_svm_lanes("B", b, 4)
        .bind_svm_lanes("CX", c[0], 4)
        .bind_svm_lanes("CY", c[1], 4)
        .bind_svm_lanes("CV", c[2], 4)
        .bind_elements("X", &(0..16).map(|i| 3 * i - 20).collect::<Vec<i32>>())
        .bind_elements("Y", &(0..16).map(|i| 100 - 5 * i).collect::<Vec<i32>>())
        .bind_elements("V", &(0..16).map(|i| i * i).collect::<Vec<i32>>());
    if case.capture {
        launch = launch.capture("X").capture("Y").capture("V");
    }
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    let one_worker = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let result = one_worker.install(|| launch.run());
    let b_bytes = svm.read_vec::<u8>(b, 4 * items as usize).unwrap();
    let c_bytes = (c.iter())
        .flat_map(|&c| svm.read_vec::<u8>(c, 4 * items as usize).unwrap())
        .collect();
    match result {
        Ok(r) => {
            let registers = (0..r.threads())
                .map(|t| {
                    let names: &[&str] = if case.capture { &["X", "Y", "V"] } else { &[] };
                    (names.iter())
                        .flat_map(|name| r.thread_bytes(name, t).unwrap().0.to_vec())
                        .collect()
                })
                .collect();
            (b_bytes, c_bytes, registers, None)
        }
        Err(LaunchError::Trap(t)) => (b_bytes, c_bytes, Vec::new(), Some(t.to_string())),
        Err(e) => panic!("launch: {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(128),
        ..ProptestConfig::default()
    })]

    #[test]
    fn forwarded_register_values_match_the_interpreter(case in case()) {
        let interpreted = run(&case, Engine::Interpreter, JitTier::Adaptive);
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let compiled = run(&case, Engine::Jit, tier);
            prop_assert_eq!(&interpreted, &compiled, "{:?} code", tier);
        }
    }
}

/// The kernel of the README's shape (two gathers, an ALU chain, a scatter), computed
/// independently: `out[i] = max(a[i] * 5 + b[i], -50)` for every work-item, on both tiers.
#[test]
fn an_alu_chain_between_messages_computes_each_work_item() {
    let src = ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
               .decl B v_type=G type=uq num_elts=16 align=GRF\n\
               .decl O v_type=G type=uq num_elts=16 align=GRF\n\
               .decl X v_type=G type=d num_elts=16 align=GRF\n\
               .decl Y v_type=G type=d num_elts=16 align=GRF\n\
               .decl S v_type=G type=d num_elts=16 align=GRF\n\
               svm_gather.4.1 (M1, 16) A.0 X.0\n\
               svm_gather.4.1 (M1, 16) B.0 Y.0\n\
               mul (M1, 16) S(0,0)<1> X(0,0)<1;1,0> 0x5:d\n\
               add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> Y(0,0)<1;1,0>\n\
               max (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 0xffffffce:d\n\
               svm_scatter.4.1 (M1, 16) O.0 S.0\n";
    let items = 8 * 16;
    let a: Vec<i32> = (0..items).map(|i| i - 70).collect();
    let b: Vec<i32> = (0..items).map(|i| 3 * i).collect();
    let expected: Vec<i32> = a
        .iter()
        .zip(&b)
        .map(|(a, b)| (a * 5 + b).max(-50))
        .collect();
    for tier in [JitTier::Quick, JitTier::Optimized] {
        let out = run_compiled(src, tier, 8, &[("A", &a), ("B", &b)]);
        assert_eq!(out, expected, "{tier:?}");
    }
}

/// Runs `src` as code of `tier` over `groups` SIMD16 threads, each `(name, dwords)` bound as
/// one pointer per lane, and returns what the lanes' pointers `O` point at (zeroed before).
fn run_compiled(src: &str, tier: JitTier, groups: u32, inputs: &[(&str, &[i32])]) -> Vec<i32> {
    let options = LoadOptions::default().engine(Engine::Jit).jit_tier(tier);
    let program = Program::from_text(src, &options).unwrap();
    let items = groups as usize * SIMD as usize;
    let mut svm = Svm::new();
    let bound: Vec<_> = (inputs.iter())
        .map(|&(name, dwords)| (name, svm.alloc_from(dwords)))
        .collect();
    let out = svm.alloc(4 * items);
    let launch = Launch::new(&program).simd(SIMD).groups(groups).svm(&svm);
    (bound.iter())
        .fold(launch, |l, &(name, at)| l.bind_svm_lanes(name, at, 4))
        .bind_svm_lanes("O", out, 4)
        .run()
        .unwrap();
    svm.read_vec::<i32>(out, items).unwrap()
}

/// A write the next instruction overwrites is not stored in straight-line code run with every
/// channel enabled (`Plan::overwritten_next`), unless the next instruction reads it other than
/// as the written chunks: here one of its dwords in every lane, after an ALU write and after
/// a gather's block copy. Computed independently: `s = x + 1` then `s[i] = s[2] + s[i]`, and
/// `x[i] = x[2] + x[i]`, with `[2]` the thread's third lane.
#[test]
fn an_overwritten_write_is_read_as_a_scalar_by_the_next() {
    let decls = ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
                 .decl O v_type=G type=uq num_elts=16 align=GRF\n\
                 .decl X v_type=G type=d num_elts=16 align=GRF\n\
                 .decl S v_type=G type=d num_elts=16 align=GRF\n\
                 svm_gather.4.1 (M1, 16) A.0 X.0\n";
    let threads = 4;
    let items = threads * 16;
    let a: Vec<i32> = (0..items).map(|i| 11 * i - 300).collect();
    let third = |i: i32| a[(i - i % 16) as usize + 2];
    let cases = [
        (
            "add (M1, 16) S(0,0)<1> X(0,0)<1;1,0> 0x1:d\n\
             add (M1, 16) S(0,0)<1> S(0,2)<0;1,0> S(0,0)<1;1,0>\n\
             svm_scatter.4.1 (M1, 16) O.0 S.0\n",
            (0..items)
                .map(|i| (third(i) + 1) + (a[i as usize] + 1))
                .collect::<Vec<i32>>(),
        ),
        (
            "add (M1, 16) X(0,0)<1> X(0,2)<0;1,0> X(0,0)<1;1,0>\n\
             svm_scatter.4.1 (M1, 16) O.0 X.0\n",
            (0..items).map(|i| third(i) + a[i as usize]).collect(),
        ),
    ];
    for (body, expected) in cases {
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let out = run_compiled(
                &format!("{decls}{body}"),
                tier,
                threads as u32,
                &[("A", &a)],
            );
            assert_eq!(out, expected, "{tier:?}: {body}");
        }
    }
}

/// Straight-line code run with every channel enabled holds the chunks it writes first in
/// variables (`jit::promote::held_in_copy`) and writes one back to the register file where a
/// message reads it as its addresses, once until it is written again: here an offset register
/// computed, read by a gather, advanced by one dword and read by a second gather, which must
/// see the advanced offsets. Computed independently: `out[i] = t6[i] + t6[i + 1]`.
#[test]
fn an_address_written_again_is_written_back_again() {
    let src = ".decl OFF v_type=G type=ud num_elts=16 align=GRF\n\
               .decl IDX v_type=G type=ud num_elts=16 align=GRF\n\
               .decl D v_type=G type=d num_elts=16 align=GRF\n\
               .decl E v_type=G type=d num_elts=16 align=GRF\n\
               add (M1, 16) IDX(0,0)<1> OFF(0,0)<1;1,0> 0x0:ud\n\
               gather_scaled.4 (M1, 16) T6 0x0:ud IDX.0 D.0\n\
               add (M1, 16) IDX(0,0)<1> IDX(0,0)<1;1,0> 0x4:ud\n\
               gather_scaled.4 (M1, 16) T6 0x0:ud IDX.0 E.0\n\
               add (M1, 16) D(0,0)<1> D(0,0)<1;1,0> E(0,0)<1;1,0>\n\
               scatter_scaled.4 (M1, 16) T7 0x0:ud OFF.0 D.0\n";
    let threads = 8u32;
    let items = (threads * SIMD) as usize;
    let t6: Vec<i32> = (0..=items as i32).map(|i| i * i - 7 * i + 5).collect();
    let expected: Vec<i32> = (0..items).map(|i| t6[i] + t6[i + 1]).collect();
    let offsets: Vec<u32> = (0..items as u32).map(|i| 4 * i).collect();
    for tier in [JitTier::Quick, JitTier::Optimized] {
        let options = LoadOptions::default().engine(Engine::Jit).jit_tier(tier);
        let program = Program::from_text(src, &options).unwrap();
        let (source, out) = (
            Buffer::from_slice(&t6),
            Buffer::from_slice(&vec![0i32; items]),
        );
        Launch::new(&program)
            .simd(SIMD)
            .groups(threads)
            .bind_surface("T6", &source)
            .bind_surface("T7", &out)
            .bind_vector("OFF", &offsets)
            .run()
            .unwrap();
        assert_eq!(out.to_vec::<i32>(), expected, "{tier:?}");
    }
}

//! The compiled tier's launch loop (a task's threads run one after another on one thread state
//! and one compiled-code context, for kernels without barriers or SLM) and its block copies
//! (a message whose enabled lanes are all on, with consecutive addresses, moves as one copy),
//! against the interpreter, which runs group by group. Launches of several groups and threads
//! per group, SVM pointers `base + work_item * stride` with strides that are and are not
//! the block size, bases that are misaligned or put the last threads out of bounds, surface
//! offsets of every shape, and entry masks that switch lanes off. Registers of every thread,
//! memory and any trap (group, thread, instruction) must be identical.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use visa_runtime::{
    Buffer, Engine, JitTier, Launch, LaunchError, LaunchResult, LoadOptions, Program, Svm,
};

/// A launch's shape and inputs.
#[derive(Debug, Clone)]
struct Case {
    groups: u32,
    threads: u32,
    /// Bytes per lane of the SVM messages (4 or 8).
    size: u64,
    exec: u32,
    /// Byte offset of the first work-item's source pointer into its allocation.
    src_shift: u64,
    /// Source pointer step per work-item, in blocks (0: every lane reads the same block).
    src_step: u64,
    /// Source allocation length, in blocks (fewer than the work-items: the last threads read
    /// out of bounds).
    src_blocks: u64,
    /// Destination pointer step per work-item, in blocks (at least 1: no two lanes write one
    /// block, so parallel tasks do not race).
    dst_step: u64,
    /// Per work-item: whether it is active at entry.
    active: Vec<bool>,
}

const SIMD: u32 = 16;

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..6,
        1u32..4,
        prop_oneof![Just(4u64), Just(8u64)],
        prop_oneof![3 => Just(16u32), 1 => Just(8u32), 1 => Just(1u32)],
        prop_oneof![6 => Just(0u64), 1 => Just(2u64), 1 => Just(8u64)],
        prop_oneof![6 => Just(1u64), 1 => Just(0u64), 1 => Just(2u64), 1 => Just(3u64)],
        prop_oneof![6 => Just(1024u64), 1 => 1u64..200],
        prop_oneof![4 => Just(1u64), 1 => Just(2u64)],
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.8), 5 * 3 * 16),
        ],
    )
        .prop_map(
            |(groups, threads, size, exec, src_shift, src_step, src_blocks, dst_step, active)| {
                Case {
                    groups,
                    threads,
                    size,
                    exec,
                    src_shift,
                    src_step,
                    src_blocks,
                    dst_step,
                    active,
                }
            },
        )
}

/// `V` of every thread (nothing after a trap), both allocations, and the trap if there was one.
type Outcome = (Vec<Vec<u8>>, Vec<u8>, Vec<u8>, Option<String>);

fn outcome(result: Result<LaunchResult, LaunchError>, a: Vec<u8>, b: Vec<u8>) -> Outcome {
    match result {
        Ok(r) => {
            let v = (0..r.threads())
                .map(|t| r.thread_bytes("V", t).unwrap().0.to_vec())
                .collect();
            (v, a, b, None)
        }
        Err(LaunchError::Trap(t)) => (Vec::new(), a, b, Some(t.to_string())),
        Err(e) => panic!("launch: {e}"),
    }
}

fn run(case: &Case, engine: Engine, tier: JitTier) -> Outcome {
    let (size, exec) = (case.size, case.exec);
    let src = format!(
        ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
         .decl B v_type=G type=uq num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts=32 align=GRF\n\
         svm_gather.{size}.1 (M1, {exec}) A.0 V.0\n\
         add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> %thread_x(0,0)<0;1,0>\n\
         svm_scatter.{size}.1 (M1, {exec}) B.0 V.0\n"
    );
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).expect("loads");
    let items = u64::from(case.groups * case.threads * SIMD);
    let mut svm = Svm::new();
    let words = |blocks: u64| (blocks * size / 4) as i32;
    let a = svm.alloc_from(
        &(0..words(case.src_blocks))
            .map(|i| i * 7 - 3)
            .collect::<Vec<_>>(),
    );
    let dst_len = items * case.dst_step;
    let b = svm.alloc_from(&(0..words(dst_len)).map(|i| 1000 + i).collect::<Vec<_>>());
    let initial: Vec<i32> = (0..32).map(|i| -i).collect();
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .svm(&svm)
        .bind_svm_lanes("A", a + case.src_shift, case.src_step * size)
        .bind_svm_lanes("B", b, case.dst_step * size)
        .bind_elements("V", &initial)
        .capture("V");
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    let result = launch.run();
    let memory = |base, blocks: u64| svm.read_vec::<u8>(base, (blocks * size) as usize).unwrap();
    outcome(result, memory(a, case.src_blocks), memory(b, dst_len))
}

/// Surface messages in a launch loop: per work-item source offsets of one of several shapes
/// (consecutive dwords, a stride, one dword for all, misaligned, past the end) and distinct
/// destination offsets.
#[derive(Debug, Clone)]
struct SurfaceCase {
    groups: u32,
    threads: u32,
    exec: u32,
    global: u32,
    /// Source offset of work-item `i`: `shift + i * stride` bytes.
    shift: u32,
    stride: u32,
    /// Source surface length in dwords.
    dwords: u32,
    /// Threads whose lanes take their offsets in reverse order (not consecutive, so a message
    /// found scattered on one thread meets consecutive lanes on another): 0 none, 1 the odd
    /// threads, 2 the even ones.
    reversed: u32,
    active: Vec<bool>,
}

fn surface_case() -> impl Strategy<Value = SurfaceCase> {
    (
        1u32..6,
        1u32..4,
        prop_oneof![3 => Just(16u32), 1 => Just(8u32), 1 => Just(4u32), 1 => Just(2u32)],
        prop_oneof![4 => Just(0u32), 1 => Just(4u32), 1 => Just(2u32)],
        prop_oneof![6 => Just(0u32), 1 => Just(2u32), 1 => Just(u32::MAX - 7)],
        prop_oneof![6 => Just(4u32), 1 => Just(0u32), 1 => Just(8u32), 1 => Just(5u32)],
        prop_oneof![6 => Just(1024u32), 1 => 2u32..200],
        prop_oneof![3 => Just(0u32), 1 => Just(1u32), 1 => Just(2u32)],
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.8), 5 * 3 * 16),
        ],
    )
        .prop_map(
            |(groups, threads, exec, global, shift, stride, dwords, reversed, active)| {
                SurfaceCase {
                    groups,
                    threads,
                    exec,
                    global,
                    shift,
                    stride,
                    dwords,
                    reversed,
                    active,
                }
            },
        )
}

fn run_surfaces(case: &SurfaceCase, engine: Engine, tier: JitTier) -> Outcome {
    let (exec, global) = (case.exec, case.global);
    let src = format!(
        ".decl A v_type=G type=ud num_elts=16 align=GRF\n\
         .decl B v_type=G type=ud num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts=16 align=GRF\n\
         gather_scaled.4 (M1, {exec}) T6 {global}:ud A.0 V.0\n\
         add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> %group_id_x(0,0)<0;1,0>\n\
         scatter_scaled.4 (M1, {exec}) T7 0x0:ud B.0 V.0\n"
    );
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).expect("loads");
    let items = case.groups * case.threads * SIMD;
    let t6 = Buffer::from_slice(
        &(0..case.dwords as i32)
            .map(|i| i * 7 - 3)
            .collect::<Vec<_>>(),
    );
    let t7 = Buffer::from_slice(&(0..items as i32).map(|i| 1000 + i).collect::<Vec<_>>());
    let sources: Vec<u32> = (0..items)
        .map(|i| {
            let (thread, lane) = (i / SIMD, i % SIMD);
            let reversed = case.reversed != 0 && thread % 2 == case.reversed % 2;
            let i = if reversed {
                i - lane + SIMD - 1 - lane
            } else {
                i
            };
            case.shift.wrapping_add(i.wrapping_mul(case.stride))
        })
        .collect();
    let destinations: Vec<u32> = (0..items).map(|i| 4 * i).collect();
    let initial: Vec<i32> = (0..16).map(|i| -i).collect();
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .bind_surface("T6", &t6)
        .bind_surface("T7", &t7)
        .bind_vector("A", &sources)
        .bind_vector("B", &destinations)
        .bind_elements("V", &initial)
        .capture("V");
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    outcome(launch.run(), t6.to_vec::<u8>(), t7.to_vec::<u8>())
}

/// The interpreter and the compiled tier's two code generators.
const EVERY_ENGINE: [(Engine, JitTier); 3] = [
    (Engine::Interpreter, JitTier::Adaptive),
    (Engine::Jit, JitTier::Quick),
    (Engine::Jit, JitTier::Optimized),
];

fn engines_agree<C>(
    case: &C,
    run: fn(&C, Engine, JitTier) -> Outcome,
) -> Result<(), TestCaseError> {
    let interpreted = run(case, Engine::Interpreter, JitTier::Adaptive);
    for tier in [JitTier::Quick, JitTier::Optimized] {
        let compiled = run(case, Engine::Jit, tier);
        prop_assert_eq!(&interpreted, &compiled, "{:?} code", tier);
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(128),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn svm_launch_loops_match_the_interpreter(case in case()) {
        engines_agree(&case, run)?;
    }

    #[test]
    fn surface_launch_loops_match_the_interpreter(case in surface_case()) {
        engines_agree(&case, run_surfaces)?;
    }
}

/// Independently computed: `svm_add` over 5 groups of 3 threads, consecutive pointers (one
/// block copy per message in optimised code), each work-item's result at its own place.
#[test]
fn consecutive_lanes_move_as_blocks_with_the_right_values() {
    let src = ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
               .decl B v_type=G type=uq num_elts=16 align=GRF\n\
               .decl V v_type=G type=d num_elts=16 align=GRF\n\
               svm_gather.4.1 (M1, 16) A.0 V.0\n\
               mul (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x3:d\n\
               svm_scatter.4.1 (M1, 16) B.0 V.0\n";
    for (engine, tier) in EVERY_ENGINE {
        let options = LoadOptions::default().engine(engine).jit_tier(tier);
        let program = Program::from_text(src, &options).unwrap();
        let mut svm = Svm::new();
        let items = 5 * 3 * 16;
        let a = svm.alloc_from(&(0..items).map(|i| i - 100).collect::<Vec<i32>>());
        let b = svm.alloc(4 * items as usize);
        Launch::new(&program)
            .simd(16)
            .groups(5)
            .threads_per_group(3)
            .svm(&svm)
            .bind_svm_lanes("A", a, 4)
            .bind_svm_lanes("B", b, 4)
            .run()
            .unwrap();
        let expected: Vec<i32> = (0..items).map(|i| (i - 100) * 3).collect();
        assert_eq!(
            svm.read_vec::<i32>(b, items as usize).unwrap(),
            expected,
            "{engine:?}"
        );
    }
}

/// Straight-line kernels whose registers are read before, after or without being written, in
/// every channel or only some (partial and offset execution sizes, `NoMask`, predicates), with
/// an instruction of unknown footprint (a strided `mov`, a jump) somewhere: the launch loop
/// restores from the template only what a thread may read before writing it, so a register a
/// thread reads first must still hold the template's value on the next thread, and one it
/// writes first must not leak the previous thread's value into its captured bytes.
#[derive(Debug, Clone)]
struct FreshCase {
    groups: u32,
    threads: u32,
    body: Vec<String>,
    active: Vec<bool>,
}

/// 16-dword variables (`W` has 32), a scalar and an SVM pointer per lane.
const FRESH_DECLS: &str = ".decl X v_type=G type=d num_elts=16 align=GRF\n\
     .decl Y v_type=G type=d num_elts=16 align=GRF\n\
     .decl Z v_type=G type=d num_elts=16 align=GRF\n\
     .decl W v_type=G type=d num_elts=32 align=GRF\n\
     .decl S v_type=G type=d num_elts=1\n\
     .decl PTR v_type=G type=uq num_elts=16 align=GRF\n\
     .decl P1 v_type=P num_elts=16\n";

/// An operand's variable and first element for `exec` channels: (name, element).
fn operand(exec: u32) -> impl Strategy<Value = (&'static str, u32)> {
    let halves = if exec <= 8 { vec![0u32, 8] } else { vec![0u32] };
    (
        prop::sample::select(vec!["X", "Y", "Z", "W"]),
        prop::sample::select(halves),
        prop::bool::ANY,
    )
        .prop_map(|(name, element, upper)| {
            // W's upper half is another 16 dwords.
            let element = if name == "W" && upper {
                element + 16
            } else {
                element
            };
            (name, element)
        })
}

/// Execution size and mask control (SIMD16 launch): (size, text).
fn exec_ctl() -> impl Strategy<Value = (u32, &'static str)> {
    prop::sample::select(vec![
        (16, "(M1, 16)"),
        (16, "(M1, 16)"),
        (8, "(M1, 8)"),
        (8, "(M3, 8)"),
        (16, "(M1_NM, 16)"),
        (8, "(M1_NM, 8)"),
        (1, "(M1, 1)"),
    ])
}

fn source(exec: u32) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => operand(exec).prop_map(|(v, e)| format!("{v}(0,{e})<1;1,0>")),
        1 => operand(exec).prop_map(|(v, e)| format!("{v}(0,{e})<0;1,0>")),
        1 => Just("S(0,0)<0;1,0>".to_string()),
        1 => Just("%thread_x(0,0)<0;1,0>".to_string()),
        1 => Just("%group_id_x(0,0)<0;1,0>".to_string()),
        1 => (-9i32..9).prop_map(|i| format!("{i}:d")),
    ]
}

fn fresh_instruction() -> impl Strategy<Value = Vec<String>> {
    exec_ctl().prop_flat_map(|(exec, ctl)| {
        let alu = (
            prop::sample::select(vec!["add", "mul", "mov", "xor"]),
            operand(exec),
            source(exec),
            source(exec),
            prop::bool::weighted(0.2),
        )
            .prop_map(move |(op, (d, e), a, b, predicated)| {
                let pred = if predicated { "(P1) " } else { "" };
                let srcs = if op == "mov" { a } else { format!("{a} {b}") };
                vec![format!("{pred}{op} {ctl} {d}(0,{e})<1> {srcs}")]
            });
        let cmp = (source(exec), source(exec))
            .prop_map(move |(a, b)| vec![format!("cmp.lt {ctl} P1 {a} {b}")]);
        let gather = prop::sample::select(vec!["X", "Y", "Z", "W"])
            .prop_map(move |d| vec![format!("svm_gather.4.1 {ctl} PTR.0 {d}.0")]);
        // Not a fast form: where the analysis of what is written first stops.
        let strided = (operand(8), operand(8)).prop_map(|((d, _), (s, f))| {
            vec![format!("mov (M1, 8) {d}(0,0)<2> {s}(0,{f})<1;1,0>")]
        });
        prop_oneof![6 => alu, 1 => cmp, 1 => gather, 1 => strided]
    })
}

fn fresh_case() -> impl Strategy<Value = FreshCase> {
    (
        1u32..4,
        1u32..4,
        prop::collection::vec(fresh_instruction(), 1..9),
        prop::option::of(0usize..9),
        prop_oneof![
            4 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.8), 3 * 3 * 16),
        ],
    )
        .prop_map(|(groups, threads, instructions, jump, active)| {
            let mut body: Vec<String> = instructions.into_iter().flatten().collect();
            // A uniform jump over the next instruction.
            if let Some(at) = jump.filter(|at| *at < body.len()) {
                body.insert(at, "jmp (M1, 1) SKIP".to_string());
                body.insert((at + 2).min(body.len()), "SKIP:".to_string());
            }
            FreshCase {
                groups,
                threads,
                body,
                active,
            }
        })
}

/// Every captured variable of every thread (nothing after a trap), the trap if there was one.
fn run_fresh(case: &FreshCase, engine: Engine, tier: JitTier) -> Option<Outcome> {
    let src = format!("{FRESH_DECLS}{}\n", case.body.join("\n"));
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).ok()?;
    let items = case.groups * case.threads * SIMD;
    let mut svm = Svm::new();
    let data = svm.alloc_from(&(0..items as i32).map(|i| i * 5 + 3).collect::<Vec<_>>());
    let x: Vec<i32> = (0..16).map(|i| 100 + i).collect();
    let w: Vec<i32> = (0..items as i32).map(|i| -7 * i).collect();
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .svm(&svm)
        .trap_undefined_reads(false)
        .bind_svm_lanes("PTR", data, 4)
        .bind_elements("X", &x)
        .bind_scalar("S", 11i32)
        .bind_vector("W", &w)
        .capture("X")
        .capture("Y")
        .capture("Z");
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    let registers = match launch.run() {
        Ok(r) => (0..r.threads())
            .flat_map(|t| {
                ["X", "Y", "Z", "W"].map(|name| r.thread_bytes(name, t).unwrap().0.to_vec())
            })
            .collect(),
        Err(LaunchError::Trap(t)) => {
            return Some((Vec::new(), Vec::new(), Vec::new(), Some(t.to_string())));
        }
        Err(e) => panic!("launch: {e}"),
    };
    Some((registers, Vec::new(), Vec::new(), None))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn launch_loop_threads_start_afresh(case in fresh_case()) {
        let interpreted = run_fresh(&case, Engine::Interpreter, JitTier::Adaptive);
        prop_assume!(interpreted.is_some());
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let compiled = run_fresh(&case, Engine::Jit, tier);
            prop_assert_eq!(&interpreted, &compiled, "{:?} code", tier);
        }
    }
}

/// Per-lane SVM pointer bindings that compiled code computes instead of reading (the launch
/// loop leaves them unwritten until something else may look): the pointer variable captured
/// or not, strides equal to and different from the block size, misaligned and out-of-bounds
/// last threads, entry masks, fuel running out mid-thread, and instructions that read or
/// write the pointers (through the interpreter's handler or natively through an alias).
#[derive(Debug, Clone)]
struct PointerCase {
    groups: u32,
    threads: u32,
    size: u64,
    exec: u32,
    /// Byte offset of the first work-item's pointer into its allocation.
    shift: u64,
    /// Pointer step per work-item, in blocks.
    step: u64,
    /// Source allocation length, in blocks.
    blocks: u64,
    capture_pointers: bool,
    /// Whether `V` and `R` are captured (without, a straight-line kernel's threads run in
    /// batches inside compiled code: only memory and traps are compared).
    capture_registers: bool,
    touch: Touch,
    /// Fuel of the launch (run on one worker, so the trap is at one place).
    fuel: Option<u64>,
    active: Vec<bool>,
}

/// What else the kernel does with the source pointers `A`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Touch {
    Nothing,
    /// A handler's `mov` of 64-bit pointers into another variable, after the gather.
    HandlerReads,
    /// A handler's `mov` of lane 1's pointer into lane 0, before the gather.
    HandlerWrites,
    /// A native 32-bit `add` reading the pointers' dwords through an alias.
    NativeReads,
}

fn pointer_case() -> impl Strategy<Value = PointerCase> {
    (
        (1u32..5, 1u32..4),
        prop_oneof![Just(4u64), Just(8u64)],
        prop_oneof![4 => Just(16u32), 1 => Just(8u32)],
        prop_oneof![6 => Just(0u64), 1 => Just(2u64), 1 => Just(8u64)],
        prop_oneof![6 => Just(1u64), 1 => Just(0u64), 1 => Just(2u64)],
        prop_oneof![5 => Just(1024u64), 1 => 1u64..200],
        (prop::bool::ANY, prop::bool::weighted(0.6)),
        prop::sample::select(vec![
            Touch::Nothing,
            Touch::Nothing,
            Touch::HandlerReads,
            Touch::HandlerWrites,
            Touch::NativeReads,
        ]),
        prop_oneof![4 => Just(None), 1 => (1u64..40).prop_map(Some)],
        prop_oneof![
            3 => Just(Vec::new()),
            // Per thread: all lanes off (it ends without running), or each lane likely on.
            1 => prop::collection::vec(
                (prop::bool::weighted(0.3), prop::collection::vec(prop::bool::weighted(0.8), 16)),
                4 * 3,
            )
            .prop_map(|threads| {
                threads
                    .into_iter()
                    .flat_map(|(off, lanes)| lanes.into_iter().map(move |on| on && !off))
                    .collect()
            }),
        ],
    )
        .prop_map(
            |(
                (groups, threads),
                size,
                exec,
                shift,
                step,
                blocks,
                captures,
                touch,
                fuel,
                active,
            )| {
                let (capture_pointers, capture_registers) = captures;
                PointerCase {
                    groups,
                    threads,
                    size,
                    exec,
                    shift,
                    step,
                    blocks,
                    capture_pointers,
                    capture_registers,
                    touch,
                    fuel,
                    active,
                }
            },
        )
}

/// Captured `V`, `R` and `A` (as asked) of every thread, both allocations, any trap. (The
/// kernel's own instructions are native: only `touch` calls a handler.)
fn run_pointers(case: &PointerCase, engine: Engine, tier: JitTier) -> Outcome {
    let (size, exec) = (case.size, case.exec);
    let before = match case.touch {
        Touch::HandlerWrites => "mov (M1, 1) A(0,0)<1> A(0,1)<0;1,0>\n",
        Touch::NativeReads => "add (M1, 16) R(0,0)<1> AD(0,0)<1;1,0> AD(0,16)<1;1,0>\n",
        _ => "",
    };
    let after = match case.touch {
        Touch::HandlerReads => "mov (M1, 8) R(0,0)<1> A(0,4)<1;1,0>\n",
        _ => "",
    };
    // Only what the kernel uses is declared (a variable no instruction touches is restored
    // from the template for every thread, which keeps threads out of batches).
    let uses_r = matches!(case.touch, Touch::HandlerReads | Touch::NativeReads);
    let extra = if uses_r {
        ".decl AD v_type=G type=d num_elts=32 alias=<A, 0>\n\
         .decl R v_type=G type=uq num_elts=16 align=GRF\n"
    } else {
        ""
    };
    let v_elts = 16 * size / 4;
    let src = format!(
        ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
         .decl B v_type=G type=uq num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts={v_elts} align=GRF\n\
         {extra}\
         .decl Q v_type=G type=d num_elts={v_elts} align=GRF\n\
         .decl S v_type=G type=d num_elts=1\n\
         {before}\
         svm_gather.{size}.1 (M1, {exec}) A.0 V.0\n\
         {after}\
         add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> S(0,0)<0;1,0>\n\
         add (M1, 16) Q(0,0)<1> Q(0,0)<1;1,0> V(0,0)<1;1,0>\n\
         svm_scatter.{size}.1 (M1, {exec}) B.0 Q.0\n"
    );
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).expect("loads");
    let items = u64::from(case.groups * case.threads * SIMD);
    let mut svm = Svm::new();
    let words = |blocks: u64| (blocks * size / 4) as i32;
    let a = svm.alloc_from(
        &(0..words(case.blocks))
            .map(|i| i * 7 - 3)
            .collect::<Vec<_>>(),
    );
    let dst_len = items;
    let b = svm.alloc_from(&(0..words(dst_len)).map(|i| 1000 + i).collect::<Vec<_>>());
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .svm(&svm)
        .trap_undefined_reads(false)
        .bind_svm_lanes("A", a + case.shift, case.step * size)
        .bind_svm_lanes("B", b, size)
        // `S` is read and never written, `Q` read before it is written: each thread must
        // start with their bound values.
        .bind_scalar("S", 3i32)
        .bind_elements("Q", &(0..v_elts as i32).map(|i| 50 - i).collect::<Vec<_>>());
    if case.capture_registers {
        launch = launch.capture("V");
        if uses_r {
            launch = launch.capture("R");
        }
    }
    if case.capture_pointers {
        launch = launch.capture("A");
    }
    if let Some(fuel) = case.fuel {
        launch = launch.fuel(fuel);
    }
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    let one_worker = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let result = one_worker.install(|| launch.run());
    let memory = |base, blocks: u64| svm.read_vec::<u8>(base, (blocks * size) as usize).unwrap();
    let (a_bytes, b_bytes) = (memory(a, case.blocks), memory(b, dst_len));
    match result {
        Ok(r) => {
            let mut names = Vec::new();
            if case.capture_registers {
                names.push("V");
                if uses_r {
                    names.push("R");
                }
            }
            if case.capture_pointers {
                names.push("A");
            }
            // One entry per thread (the number of threads is compared too).
            let registers = (0..r.threads())
                .map(|t| {
                    (names.iter())
                        .flat_map(|name| r.thread_bytes(name, t).unwrap().0.to_vec())
                        .collect()
                })
                .collect();
            (registers, a_bytes, b_bytes, None)
        }
        Err(LaunchError::Trap(t)) => (Vec::new(), a_bytes, b_bytes, Some(t.to_string())),
        Err(e) => panic!("launch: {e}"),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn computed_pointer_addresses_match_the_interpreter(case in pointer_case()) {
        engines_agree(&case, run_pointers)?;
    }
}

/// Independently computed: the captured pointers of every thread are the binding's
/// (`base + work_item * stride`) though the launch loop leaves them to compiled code, and the
/// data moved is each work-item's own.
#[test]
fn captured_pointers_are_the_bindings() {
    let src = ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
               .decl B v_type=G type=uq num_elts=16 align=GRF\n\
               .decl V v_type=G type=d num_elts=16 align=GRF\n\
               svm_gather.4.1 (M1, 16) A.0 V.0\n\
               svm_scatter.4.1 (M1, 16) B.0 V.0\n";
    for tier in [JitTier::Quick, JitTier::Optimized] {
        let options = LoadOptions::default().engine(Engine::Jit).jit_tier(tier);
        let program = Program::from_text(src, &options).unwrap();
        let mut svm = Svm::new();
        let items = 4 * 16;
        let a = svm.alloc_from(&(0..items).map(|i| 5 * i).collect::<Vec<i32>>());
        let b = svm.alloc(4 * items as usize);
        let result = Launch::new(&program)
            .simd(16)
            .groups(2)
            .threads_per_group(2)
            .svm(&svm)
            .bind_svm_lanes("A", a, 4)
            .bind_svm_lanes("B", b, 4)
            .capture("A")
            .run()
            .unwrap();
        for thread in 0..4 {
            let bytes = result.thread_bytes("A", thread).unwrap().0.to_vec();
            let expected: Vec<u8> = (0..16u64)
                .flat_map(|lane| (a + (thread as u64 * 16 + lane) * 4).to_le_bytes())
                .collect();
            assert_eq!(bytes, expected, "{tier:?} thread {thread}");
        }
        let moved: Vec<i32> = svm.read_vec(b, items as usize).unwrap();
        assert_eq!(
            moved,
            (0..items).map(|i| 5 * i).collect::<Vec<_>>(),
            "{tier:?}"
        );
    }
}

/// A trap in a later thread of a batch (threads of a straight-line kernel run inside compiled
/// code, nothing captured) names the thread that raised it, on both engines: the third thread
/// reads past its allocation, or the fuel (four instructions a thread) runs out in it.
#[test]
fn a_trap_inside_a_batch_names_its_thread() {
    let case = |blocks: u64, fuel: Option<u64>| PointerCase {
        groups: 1,
        threads: 4,
        size: 4,
        exec: 16,
        shift: 0,
        step: 1,
        blocks,
        capture_pointers: false,
        capture_registers: false,
        touch: Touch::Nothing,
        fuel,
        active: Vec::new(),
    };
    for case in [case(40, None), case(1024, Some(9))] {
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let interpreted = run_pointers(&case, Engine::Interpreter, JitTier::Adaptive);
            let compiled = run_pointers(&case, Engine::Jit, tier);
            let trap = compiled.3.clone().unwrap_or_default();
            assert!(trap.contains("thread 2"), "{tier:?}: {trap}");
            assert_eq!(interpreted, compiled, "{tier:?} {case:?}");
        }
    }
}

/// Per-thread ids in the launch loop: a straight-line surface kernel whose threads differ only
/// by their ids runs in batches inside compiled code, which writes each next thread's ids
/// itself (and the driver, when the interpreter ended the thread before: the fuel running
/// out mid-batch). Every id the thread start writes (`%group_id_x`, `%local_id_x`, `%hw_id`,
/// elements of `%r0`, `%thread_x` through an instruction compiled code leaves to the
/// interpreter's handler, which keeps threads out of batches), hashed into one value per lane
/// scattered to the work-item's own dword; groups of several threads, entry masks and
/// captures (no batch), one or two workers.
#[derive(Debug, Clone)]
struct IdCase {
    groups: u32,
    threads: u32,
    /// The ids added into each lane's value, in order.
    ids: Vec<&'static str>,
    capture: bool,
    fuel: Option<u64>,
    workers: usize,
    active: Vec<bool>,
}

/// Ids as sources (`%thread_x` is a word: it goes through `T` first).
const IDS: [&str; 7] = [
    "%group_id_x(0,0)",
    "%local_id_x(0,0)",
    "%hw_id(0,0)",
    "%r0(0,0)",
    "%r0(0,1)",
    "%r0(0,5)",
    "%thread_x(0,0)",
];

fn id_case() -> impl Strategy<Value = IdCase> {
    (
        (1u32..7, 1u32..5),
        prop::collection::vec(prop::sample::select(IDS.to_vec()), 1..5),
        prop::bool::weighted(0.2),
        prop_oneof![4 => Just(None), 1 => (1u64..80).prop_map(Some)],
        1usize..3,
        prop_oneof![
            4 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.8), 6 * 4 * 16),
        ],
    )
        .prop_map(
            |((groups, threads), ids, capture, fuel, workers, active)| IdCase {
                groups,
                threads,
                ids,
                capture,
                fuel,
                workers,
                active,
            },
        )
}

/// The kernel of an [`IdCase`]: `OFF = LANE + %hw_id * 64`, `V = LANE`, then per id
/// `V = V * 31 + id`, and `V` scattered to `T7` at `OFF`.
fn id_kernel(ids: &[&str]) -> String {
    let mut src = String::from(
        ".decl LANE v_type=G type=ud num_elts=16 align=GRF\n\
         .decl BASE v_type=G type=ud num_elts=1\n\
         .decl OFF v_type=G type=ud num_elts=16 align=GRF\n\
         .decl V v_type=G type=ud num_elts=16 align=GRF\n\
         .decl T v_type=G type=ud num_elts=16 align=GRF\n\
         mul (M1_NM, 1) BASE(0,0)<1> %hw_id(0,0)<0;1,0> 0x40:ud\n\
         add (M1, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> BASE(0,0)<0;1,0>\n\
         mov (M1, 16) V(0,0)<1> LANE(0,0)<1;1,0>\n",
    );
    for id in ids {
        src.push_str("mul (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x1f:ud\n");
        let source = if id.starts_with("%thread_x") {
            src.push_str(&format!("mov (M1, 16) T(0,0)<1> {id}<0;1,0>\n"));
            "T(0,0)<1;1,0>".to_string()
        } else {
            format!("{id}<0;1,0>")
        };
        src.push_str(&format!("add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> {source}\n"));
    }
    src.push_str("scatter_scaled.4 (M1, 16) T7 0x0:ud OFF.0 V.0\n");
    src
}

fn run_ids(case: &IdCase, engine: Engine, tier: JitTier) -> Outcome {
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&id_kernel(&case.ids), &options).expect("loads");
    let items = case.groups * case.threads * SIMD;
    let t7 = Buffer::from_slice(&(0..items).map(|i| 7 + i).collect::<Vec<u32>>());
    let lanes: Vec<u32> = (0..16).map(|lane| 4 * lane).collect();
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .bind_surface("T7", &t7)
        .bind_elements("LANE", &lanes);
    if case.capture {
        launch = launch.capture("V");
    }
    if let Some(fuel) = case.fuel {
        launch = launch.fuel(fuel);
    }
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items as usize]);
    }
    run_on_workers(
        launch,
        (case.workers, case.fuel.is_some()),
        &t7,
        |r, t| match case.capture {
            true => r.thread_bytes("V", t).unwrap().0.to_vec(),
            false => Vec::new(),
        },
    )
}

/// Runs `launch` on `workers` workers (one when `fuel_limited`: where the fuel runs out is the
/// same on every engine then): what `captured` takes of each thread, and `memory` afterwards.
fn run_on_workers(
    launch: Launch<'_>,
    (workers, fuel_limited): (usize, bool),
    memory: &Buffer,
    captured: impl Fn(&LaunchResult, usize) -> Vec<u8>,
) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(if fuel_limited { 1 } else { workers })
        .build()
        .unwrap();
    let result = pool.install(|| launch.run());
    let memory = memory.to_vec::<u8>();
    match result {
        Ok(r) => {
            let v = (0..r.threads()).map(|t| captured(&r, t)).collect();
            (v, Vec::new(), memory, None)
        }
        Err(LaunchError::Trap(t)) => (Vec::new(), Vec::new(), memory, Some(t.to_string())),
        Err(e) => panic!("launch: {e}"),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn thread_ids_in_launch_loops_match_the_interpreter(case in id_case()) {
        engines_agree(&case, run_ids)?;
    }

    #[test]
    fn batches_with_control_flow_match_the_interpreter(case in flow_case()) {
        engines_agree(&case, run_flow)?;
    }
}

/// Independently computed: each work-item's dword holds the hash of its thread's ids, in
/// launches of three groups of two threads on one and two workers (batches on compiled code).
#[test]
fn batched_threads_get_their_own_ids() {
    let ids = [
        "%group_id_x(0,0)",
        "%local_id_x(0,0)",
        "%hw_id(0,0)",
        "%r0(0,1)",
    ];
    let (groups, threads) = (3u32, 2u32);
    let mut expected = Vec::new();
    for global in 0..groups * threads {
        let (group, in_group) = (global / threads, global % threads);
        for lane in 0..16u32 {
            let mut v = 4 * lane;
            for id in [group, in_group * 16, global, group] {
                v = v.wrapping_mul(31).wrapping_add(id);
            }
            expected.push(v);
        }
    }
    for (engine, tier) in EVERY_ENGINE {
        for workers in [1, 2] {
            let case = IdCase {
                groups,
                threads,
                ids: ids.to_vec(),
                capture: false,
                fuel: None,
                workers,
                active: Vec::new(),
            };
            let (_, _, t7, trap) = run_ids(&case, engine, tier);
            assert_eq!(trap, None);
            let got: Vec<u32> = t7
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            assert_eq!(got, expected, "{engine:?} {tier:?} on {workers} workers");
        }
    }
}

/// Kernels with control flow in the launch loop: loops with per-lane trip counts, divergent
/// `goto`s, predicated and partial writes, a kernel-level `ret` while channels are parked, and
/// predicates and registers read before the thread writes them. Compiled code runs a task's
/// threads in one batch, starting each next thread itself: its registers restored from the
/// template, its predicates the template's, no channel parked (`CompiledRun::run_threads`);
/// the driver starts it when the interpreter ended the thread (the fuel running out
/// mid-batch). Each thread's `X`, `Y`, `Z` and predicates (as `F`) are scattered to its own
/// dwords of `T7`; memory and any trap must be the interpreter's.
#[derive(Debug, Clone)]
struct FlowCase {
    groups: u32,
    threads: u32,
    body: Vec<String>,
    fuel: Option<u64>,
    workers: usize,
}

/// A source of a statement: a variable's lanes (or half of them), an id, an immediate.
fn flow_source(exec: u32) -> impl Strategy<Value = String> {
    let half = if exec == 8 { vec![0u32, 8] } else { vec![0] };
    prop_oneof![
        4 => (prop::sample::select(vec!["X", "Y", "Z", "C", "LANE"]), prop::sample::select(half))
            .prop_map(|(v, e)| format!("{v}(0,{e})<1;1,0>")),
        1 => prop::sample::select(vec!["%group_id_x", "%local_id_x", "%hw_id"])
            .prop_map(|id| format!("{id}(0,0)<0;1,0>")),
        1 => (-5i32..9).prop_map(|i| format!("{i}:d")),
    ]
}

fn flow_alu() -> impl Strategy<Value = Vec<String>> {
    prop::sample::select(vec![(16, "(M1, 16)"), (8, "(M1, 8)"), (16, "(M1_NM, 16)")]).prop_flat_map(
        |(exec, ctl)| {
            (
                prop::sample::select(vec!["", "(P1) ", "(!P2) "]),
                prop::sample::select(vec!["add", "mul", "xor", "mov"]),
                prop::sample::select(vec!["X", "Y", "Z"]),
                prop::sample::select(if exec == 8 { vec![0u32, 8] } else { vec![0] }),
                flow_source(exec),
                flow_source(exec),
            )
                .prop_map(move |(pred, op, dst, at, a, b)| {
                    let srcs = if op == "mov" { a } else { format!("{a} {b}") };
                    vec![format!("{pred}{op} {ctl} {dst}(0,{at})<1> {srcs}")]
                })
        },
    )
}

fn flow_cmp() -> impl Strategy<Value = Vec<String>> {
    (
        prop::sample::select(vec!["lt", "eq", "gt"]),
        prop::sample::select(vec!["P1", "P2"]),
        flow_source(16),
        flow_source(16),
    )
        .prop_map(|(rel, p, a, b)| vec![format!("cmp.{rel} (M1, 16) {p} {a} {b}")])
}

/// Statements, `depth` levels of nesting at most; labels are named later (`name_labels`).
fn flow_statements(depth: u32) -> BoxedStrategy<Vec<String>> {
    let leaf = prop_oneof![4 => flow_alu(), 2 => flow_cmp()];
    if depth == 0 {
        return prop::collection::vec(leaf, 1..4)
            .prop_map(|v| v.concat())
            .boxed();
    }
    let inner = flow_statements(depth - 1);
    let branch = (
        prop::sample::select(vec!["(P1)", "(!P1)", "(P2)"]),
        inner.clone(),
    )
        .prop_map(|(pred, body)| {
            let mut v = vec![format!("{pred} goto (M1, 16) @B")];
            v.extend(body);
            v.push("@B:".to_string());
            v
        });
    // 1 to 4 trips per lane (`C` starts at `LANE & 3`).
    let looped = inner.prop_map(|body| {
        let mut v = vec![
            "and (M1, 16) C(0,0)<1> LANE(0,0)<1;1,0> 0x3:d".to_string(),
            "@LOOP:".to_string(),
        ];
        v.extend(body);
        v.push("add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d".to_string());
        v.push("cmp.lt (M1, 16) P2 C(0,0)<1;1,0> 0x4:d".to_string());
        v.push("(P2) goto (M1, 16) @LOOP".to_string());
        v
    });
    // Channels of P1 parked while the others reach a kernel-level `ret`.
    let ret = Just(vec![
        "(P1) goto (M1, 16) @B".to_string(),
        "ret (M1, 1)".to_string(),
        "@B:".to_string(),
    ]);
    let statement = prop_oneof![4 => leaf, 2 => branch, 2 => looped, 1 => ret];
    prop::collection::vec(statement, 1..4)
        .prop_map(|v| v.concat())
        .boxed()
}

/// Gives each statement's label a name of its own: a branch's (and a `ret`'s) `@B` is
/// opened by its goto and closed by its label, a loop's `@LOOP` opened by its label and
/// closed by its goto; each kind nests.
fn name_labels(body: Vec<String>) -> Vec<String> {
    let mut next = 0;
    let (mut branches, mut loops): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut fresh = |open: &mut Vec<usize>| {
        open.push(next);
        next += 1;
        next - 1
    };
    body.into_iter()
        .map(|line| {
            if line == "@B:" {
                format!("L{}:", branches.pop().unwrap_or(0))
            } else if line.ends_with("@B") {
                line.replace("@B", &format!("L{}", fresh(&mut branches)))
            } else if line == "@LOOP:" {
                format!("L{}:", fresh(&mut loops))
            } else if line.ends_with("@LOOP") {
                line.replace("@LOOP", &format!("L{}", loops.pop().unwrap_or(0)))
            } else {
                line
            }
        })
        .collect()
}

fn flow_case() -> impl Strategy<Value = FlowCase> {
    (
        (1u32..4, 1u32..5),
        flow_statements(2),
        prop_oneof![4 => Just(None), 1 => (1u64..400).prop_map(Some)],
        1usize..3,
    )
        .prop_map(|((groups, threads), body, fuel, workers)| FlowCase {
            groups,
            threads,
            body: name_labels(body),
            fuel,
            workers,
        })
}

/// The kernel of a [`FlowCase`]; `items` work-items in the launch.
fn flow_kernel(body: &[String], items: u32) -> String {
    let mut src = String::from(
        ".decl LANE v_type=G type=d num_elts=16 align=GRF\n\
         .decl BASE v_type=G type=ud num_elts=1\n\
         .decl OFF v_type=G type=ud num_elts=16 align=GRF\n\
         .decl X v_type=G type=d num_elts=16 align=GRF\n\
         .decl Y v_type=G type=d num_elts=16 align=GRF\n\
         .decl Z v_type=G type=d num_elts=16 align=GRF\n\
         .decl C v_type=G type=d num_elts=16 align=GRF\n\
         .decl F v_type=G type=d num_elts=16 align=GRF\n\
         .decl G v_type=G type=d num_elts=16 align=GRF\n\
         .decl P1 v_type=P num_elts=16\n\
         .decl P2 v_type=P num_elts=16\n\
         mul (M1_NM, 1) BASE(0,0)<1> %hw_id(0,0)<0;1,0> 0x40:ud\n\
         mul (M1_NM, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> 0x4:ud\n\
         add (M1_NM, 16) OFF(0,0)<1> OFF(0,0)<1;1,0> BASE(0,0)<0;1,0>\n",
    );
    for line in body {
        src.push_str(line);
        src.push('\n');
    }
    src.push_str(
        "(P1) sel (M1_NM, 16) F(0,0)<1> 0x1:d 0x0:d\n\
         (P2) sel (M1_NM, 16) G(0,0)<1> 0x2:d 0x0:d\n\
         add (M1_NM, 16) F(0,0)<1> F(0,0)<1;1,0> G(0,0)<1;1,0>\n",
    );
    for (k, var) in ["X", "Y", "Z", "F"].iter().enumerate() {
        let at = k as u32 * items * 4;
        src.push_str(&format!(
            "scatter_scaled.4 (M1_NM, 16) T7 {at:#x}:ud OFF.0 {var}.0\n"
        ));
    }
    src
}

fn run_flow(case: &FlowCase, engine: Engine, tier: JitTier) -> Outcome {
    let items = case.groups * case.threads * SIMD;
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&flow_kernel(&case.body, items), &options).expect("loads");
    let t7 = Buffer::from_slice(
        &(0..4 * items)
            .map(|i| 0x5a5a_0000 + i)
            .collect::<Vec<u32>>(),
    );
    let lanes: Vec<i32> = (0..16).collect();
    let x: Vec<i32> = (0..16).map(|i| 3 * i - 20).collect();
    let mut launch = Launch::new(&program)
        .simd(SIMD)
        .groups(case.groups)
        .threads_per_group(case.threads)
        .trap_undefined_reads(false)
        .bind_surface("T7", &t7)
        .bind_elements("LANE", &lanes)
        .bind_elements("X", &x);
    if let Some(fuel) = case.fuel {
        launch = launch.fuel(fuel);
    }
    run_on_workers(launch, (case.workers, case.fuel.is_some()), &t7, |_, _| {
        Vec::new()
    })
}

/// Independently computed: every thread of a batch starts as the template, whatever the
/// previous one left. Each thread adds 5 to `Y` under `P1` (the template's `P1` is clear:
/// nothing), sets `P1` for lanes 0 to 7, parks them and adds 1 to `Y` in lanes 8 to 15 (a
/// partial write: `Y` must be restored for the next thread). So `Y` is 0 in lanes 0 to 7 and
/// 1 in lanes 8 to 15, and `F` (`P1` as 1) is 1 in lanes 0 to 7, in every thread. With more
/// join points than compiled code checks at the end of the code (17 gotos no channel takes),
/// the interpreter ends each thread and the driver starts the next.
#[test]
fn each_thread_of_a_batch_starts_as_the_template() {
    let body: Vec<String> = [
        "(P1) add (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x5:d",
        "cmp.lt (M1, 16) P1 LANE(0,0)<1;1,0> 0x8:d",
        "(P1) goto (M1, 16) SKIP",
        "add (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x1:d",
        "SKIP:",
    ]
    .map(String::from)
    .to_vec();
    let joins: Vec<String> = (0..17)
        .flat_map(|k| [format!("(P2) goto (M1, 16) J{k}"), format!("J{k}:")])
        .collect();
    let (groups, threads) = (3u32, 2u32);
    let items = (groups * threads * SIMD) as usize;
    for (engine, tier) in EVERY_ENGINE {
        for (workers, fuel, many_joins) in [
            (1, None, false),
            (2, None, false),
            (1, Some(40), false),
            (1, None, true),
        ] {
            let body = match many_joins {
                true => [&joins[..], &body[..]].concat(),
                false => body.clone(),
            };
            let case = FlowCase {
                groups,
                threads,
                body,
                fuel,
                workers,
            };
            let (_, _, t7, trap) = run_flow(&case, engine, tier);
            let dwords: Vec<i32> = t7
                .chunks_exact(4)
                .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let lane = |i: usize| i % 16;
            let y: Vec<i32> = (0..items).map(|i| i32::from(lane(i) >= 8)).collect();
            let f: Vec<i32> = (0..items).map(|i| i32::from(lane(i) < 8)).collect();
            let what =
                format!("{engine:?} {tier:?} on {workers} workers, fuel {fuel:?}, {many_joins}");
            match fuel {
                // (About 15 instructions per thread: the third thread runs out.)
                Some(_) => assert!(trap.is_some_and(|t| t.contains("thread 0")), "{what}"),
                None => assert_eq!(trap, None, "{what}"),
            }
            // A thread that got to its last scatter (of `F`) wrote `Y` before.
            let finished: Vec<usize> = (0..items / 16)
                .filter(|t| dwords[3 * items + 16 * t] != 0x5a5a_0000 + (3 * items + 16 * t) as i32)
                .collect();
            let expected = if fuel.is_some() { 2 } else { items / 16 };
            assert_eq!(finished.len(), expected, "{what}");
            for t in finished {
                let lanes = 16 * t..16 * t + 16;
                assert_eq!(
                    dwords[items..][lanes.clone()],
                    y[lanes.clone()],
                    "Y: {what}"
                );
                assert_eq!(dwords[3 * items..][lanes.clone()], f[lanes], "F: {what}");
            }
        }
    }
}

/// Independently computed: a thread that ends at a kernel-level `ret` with channels parked
/// leaves none parked to the next thread of the batch. Even threads park lanes 8 to 15 at
/// `L0` and end; odd threads skip `L0` with lanes 8 to 15 (parked at `L1`) and add 1 to `Z`
/// at `L0`: in lanes 0 to 7 only, unless the even thread's parked lanes rejoined there.
#[test]
fn a_thread_ending_with_channels_parked_leaves_none_to_the_next() {
    let body: Vec<String> = [
        "and (M1, 16) G(0,0)<1> %hw_id(0,0)<0;1,0> 0x1:d",
        "cmp.eq (M1, 16) P2 G(0,0)<1;1,0> 0x0:d",
        "(!P2) goto (M1, 16) ODD",
        "cmp.gt (M1, 16) P1 LANE(0,0)<1;1,0> 0x7:d",
        "(P1) goto (M1, 16) L0",
        "ret (M1, 1)",
        "ODD:",
        "cmp.gt (M1, 16) P1 LANE(0,0)<1;1,0> 0x7:d",
        "(P1) goto (M1, 16) L1",
        "L0:",
        "add (M1, 16) Z(0,0)<1> Z(0,0)<1;1,0> 0x1:d",
        "L1:",
    ]
    .map(String::from)
    .to_vec();
    let (groups, threads) = (3u32, 2u32);
    let items = (groups * threads * SIMD) as usize;
    for (engine, tier) in EVERY_ENGINE {
        let case = FlowCase {
            groups,
            threads,
            body: body.clone(),
            fuel: None,
            workers: 1,
        };
        let (_, _, t7, trap) = run_flow(&case, engine, tier);
        assert_eq!(trap, None, "{engine:?} {tier:?}");
        let z: Vec<i32> = t7[4 * 2 * items..4 * 3 * items]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        for thread in 0..items / 16 {
            let got = &z[16 * thread..16 * thread + 16];
            let expected: Vec<i32> = match thread % 2 {
                // (Ended before its scatters: `T7` as it was.)
                0 => (0..16)
                    .map(|lane| 0x5a5a_0000 + (2 * items + 16 * thread + lane) as i32)
                    .collect(),
                _ => (0..16).map(|lane| i32::from(lane < 8)).collect(),
            };
            assert_eq!(got, expected, "{engine:?} {tier:?}: thread {thread}");
        }
    }
}

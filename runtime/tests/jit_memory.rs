//! The compiled tier's native scattered memory messages against the interpreter: SVM gathers
//! and scatters with random lane addresses (mostly inside one allocation, some in another,
//! misaligned, past the end or unmapped), block sizes 4 and 8, and byte, word and dword
//! `gather_scaled` / `scatter_scaled` on surfaces with offsets in and out of bounds, misaligned
//! or consecutive (the block path), under execution sizes, predicates and entry masks. Registers, memory and any trap must be
//! identical on the interpreter and on both code generators.

mod common;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use visa_runtime::{
    Buffer, Engine, JitTier, Launch, LaunchError, LaunchResult, LoadOptions, Program, Svm,
};

const UNMAPPED: u64 = 0x10;

/// Where one lane's address points.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Element `k` of the allocation the message mostly uses.
    Home(u8),
    /// Element `k` of the other allocation.
    Other(u8),
    /// Element `k`, plus 2 bytes.
    Misaligned(u8),
    /// Past the end of the home allocation.
    PastEnd,
    Unmapped,
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        40 => (0u8..16).prop_map(Place::Home),
        1 => (0u8..16).prop_map(Place::Other),
        1 => (0u8..16).prop_map(Place::Misaligned),
        1 => Just(Place::PastEnd),
        1 => Just(Place::Unmapped),
    ]
}

/// Allocations: 16 elements each, elements of `size` bytes.
fn address(place: Place, home: u64, other: u64, size: u64) -> u64 {
    match place {
        Place::Home(k) => home + size * u64::from(k),
        Place::Other(k) => other + size * u64::from(k),
        Place::Misaligned(k) => home + size * u64::from(k) + 2,
        Place::PastEnd => home + size * 16,
        Place::Unmapped => UNMAPPED,
    }
}

#[derive(Debug, Clone)]
struct Case {
    size: u64,
    exec: u32,
    predicated: bool,
    gather: Vec<Place>,
    scatter: Vec<Place>,
    mask: Vec<bool>,
    active: Vec<bool>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(4u64), Just(8u64)],
        prop_oneof![Just(1u32), Just(8), Just(16)],
        any::<bool>(),
        prop::collection::vec(place(), 16),
        prop::collection::vec(place(), 16),
        prop::collection::vec(any::<bool>(), 16),
        prop::collection::vec(prop::bool::weighted(0.9), 16),
    )
        .prop_map(
            |(size, exec, predicated, gather, scatter, mask, active)| Case {
                size,
                exec,
                predicated,
                gather,
                scatter,
                mask,
                active,
            },
        )
}

/// Registers of `V`, both allocations, and the trap if there was one.
type Outcome = (Vec<u8>, Vec<u8>, Vec<u8>, Option<String>);

fn run(case: &Case, engine: Engine, tier: JitTier) -> Outcome {
    let pred = if case.predicated { "(P1) " } else { "" };
    let (size, exec) = (case.size, case.exec);
    let src = format!(
        ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
         .decl B v_type=G type=uq num_elts=16 align=GRF\n\
         .decl M v_type=G type=d num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts=32 align=GRF\n\
         .decl P1 v_type=P num_elts=16\n\
         cmp.ne (M1, 16) P1 M(0,0)<1;1,0> 0x0:d\n\
         {pred}svm_gather.{size}.1 (M1, {exec}) A.0 V.0\n\
         add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x10:d\n\
         {pred}svm_scatter.{size}.1 (M1, {exec}) B.0 V.0\n"
    );
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).expect("loads");
    let mut svm = Svm::new();
    let elements = 16 * size as usize / 4;
    let x = svm.alloc_from(&(0..elements as i32).map(|i| i * 7 - 3).collect::<Vec<_>>());
    let y = svm.alloc_from(&(0..elements as i32).map(|i| 1000 + i).collect::<Vec<_>>());
    let gather: Vec<u64> = case
        .gather
        .iter()
        .map(|p| address(*p, x, y, size))
        .collect();
    let scatter: Vec<u64> = case
        .scatter
        .iter()
        .map(|p| address(*p, y, x, size))
        .collect();
    let mask: Vec<i32> = case.mask.iter().map(|m| i32::from(*m)).collect();
    let initial: Vec<i32> = (0..32).map(|i| -i).collect();
    let result = Launch::new(&program)
        .simd(16)
        .svm(&svm)
        .active_lanes(&case.active)
        .bind_vector("A", &gather)
        .bind_vector("B", &scatter)
        .bind_vector("M", &mask)
        .bind_elements("V", &initial)
        .capture("V")
        .run();
    let memory = |base| svm.read_vec::<u8>(base, 16 * size as usize).unwrap();
    outcome(result, memory(x), memory(y))
}

/// `V` of the one thread (nothing after a trap), the two memories, and the trap if there was
/// one.
fn outcome(result: Result<LaunchResult, LaunchError>, a: Vec<u8>, b: Vec<u8>) -> Outcome {
    match result {
        Ok(r) => {
            let (v, _) = r.thread_bytes("V", 0).unwrap();
            (v.to_vec(), a, b, None)
        }
        Err(LaunchError::Trap(t)) => (Vec::new(), a, b, Some(t.to_string())),
        Err(e) => panic!("launch: {e}"),
    }
}

/// What `run` gives on the interpreter and on both code generators of the compiled tier, which
/// must agree.
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
            .unwrap_or(256),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn native_svm_messages_match_the_interpreter(case in case()) {
        engines_agree(&case, run)?;
    }
}

/// Bytes of each surface.
const SURFACE_BYTES: u32 = 128;

/// A surface message's lane, drawn mostly in bounds.
#[derive(Debug, Clone, Copy)]
enum Offset {
    /// Element `k` (modulo the surface's elements): in bounds, aligned.
    Element(u32),
    /// Any byte offset up to 32 bytes past the end.
    Byte(u32),
    /// An offset that wraps when the global offset is added.
    Huge,
}

fn surface_offset() -> impl Strategy<Value = Offset> {
    prop_oneof![
        30 => (0u32..SURFACE_BYTES).prop_map(Offset::Element),
        1 => (0u32..SURFACE_BYTES + 32).prop_map(Offset::Byte),
        1 => Just(Offset::Huge),
    ]
}

/// A message's offsets: one per lane, or consecutive elements from element `start` (the block
/// path when they are all inside the surface, which about half of the starts give for dwords).
#[derive(Debug, Clone)]
enum Offsets {
    Lanes(Vec<Offset>),
    Consecutive(u32),
}

fn offsets() -> impl Strategy<Value = Offsets> {
    prop_oneof![
        prop::collection::vec(surface_offset(), 16).prop_map(Offsets::Lanes),
        (0u32..SURFACE_BYTES).prop_map(Offsets::Consecutive),
    ]
}

impl Offsets {
    /// The byte offsets of 16 lanes for elements of `bytes` bytes.
    fn bytes(&self, bytes: u32) -> Vec<u32> {
        let elements = SURFACE_BYTES / bytes;
        match self {
            Offsets::Lanes(lanes) => lanes
                .iter()
                .map(|o| match *o {
                    Offset::Element(k) => k % elements * bytes,
                    Offset::Byte(b) => b,
                    Offset::Huge => u32::MAX - 1,
                })
                .collect(),
            Offsets::Consecutive(start) => {
                (0..16).map(|i| (start % elements + i) * bytes).collect()
            }
        }
    }
}

#[derive(Debug, Clone)]
struct SurfaceCase {
    bytes: u32,
    exec: u32,
    predicated: bool,
    global: u32,
    gather: Offsets,
    scatter: Offsets,
    mask: Vec<bool>,
    active: Vec<bool>,
}

fn surface_case() -> impl Strategy<Value = SurfaceCase> {
    (
        prop_oneof![Just(1u32), Just(2), Just(4)],
        prop_oneof![1 => Just(1u32), 1 => Just(8), 2 => Just(16)],
        any::<bool>(),
        prop_oneof![4 => Just(0u32), 1 => Just(4u32), 1 => Just(2u32), 1 => Just(64u32)],
        offsets(),
        offsets(),
        prop::collection::vec(any::<bool>(), 16),
        // (Every lane on: the unrolled and block paths.)
        prop_oneof![
            Just(vec![true; 16]),
            prop::collection::vec(prop::bool::weighted(0.9), 16)
        ],
    )
        .prop_map(
            |(bytes, exec, predicated, global, gather, scatter, mask, active)| SurfaceCase {
                bytes,
                exec,
                predicated,
                global,
                gather,
                scatter,
                mask,
                active,
            },
        )
}

/// Registers of `V`, both surfaces, and the trap if there was one.
fn run_surfaces(case: &SurfaceCase, engine: Engine, tier: JitTier) -> Outcome {
    let pred = if case.predicated { "(P1) " } else { "" };
    let (bytes, exec, global) = (case.bytes, case.exec, case.global);
    // The add reads only the gathered bytes of each lane's dword (the interpreter traps on a
    // read of the undefined upper bytes).
    let gathered = match bytes {
        1 => "VB(0,0)<4;1,0>",
        2 => "VW(0,0)<2;1,0>",
        _ => "V(0,0)<1;1,0>",
    };
    let src = format!(
        ".decl A v_type=G type=ud num_elts=16 align=GRF\n\
         .decl B v_type=G type=ud num_elts=16 align=GRF\n\
         .decl M v_type=G type=d num_elts=16 align=GRF\n\
         .decl V v_type=G type=d num_elts=16 align=GRF\n\
         .decl VB v_type=G type=ub num_elts=64 align=GRF alias=<V, 0>\n\
         .decl VW v_type=G type=uw num_elts=32 align=GRF alias=<V, 0>\n\
         .decl W v_type=G type=d num_elts=16 align=GRF\n\
         .decl P1 v_type=P num_elts=16\n\
         cmp.ne (M1, 16) P1 M(0,0)<1;1,0> 0x0:d\n\
         {pred}gather_scaled.{bytes} (M1, {exec}) T6 {global}:ud A.0 V.0\n\
         add (M1, 16) W(0,0)<1> {gathered} 0x10:d\n\
         {pred}scatter_scaled.{bytes} (M1, {exec}) T7 {global}:ud B.0 W.0\n"
    );
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&src, &options).expect("loads");
    let words = SURFACE_BYTES as i32 / 4;
    // Bytes that differ from their neighbours (a widened or narrowed byte shows).
    let t6: Vec<i32> = (0..words).map(|i| i * 0x0101_0301 - 0x0a0b_0c0d).collect();
    let t6 = Buffer::from_slice(&t6);
    let t7 = Buffer::from_slice(&(0..words).map(|i| 1000 + i).collect::<Vec<i32>>());
    let mask: Vec<i32> = case.mask.iter().map(|m| i32::from(*m)).collect();
    let initial: Vec<i32> = (0..16).map(|i| -i).collect();
    let result = Launch::new(&program)
        .simd(16)
        .bind_surface("T6", &t6)
        .bind_surface("T7", &t7)
        .active_lanes(&case.active)
        .bind_vector("A", &case.gather.bytes(bytes))
        .bind_vector("B", &case.scatter.bytes(bytes))
        .bind_vector("M", &mask)
        .bind_elements("V", &initial)
        .capture("V")
        .run();
    outcome(result, t6.to_vec::<u8>(), t7.to_vec::<u8>())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn native_surface_messages_match_the_interpreter(case in surface_case()) {
        engines_agree(&case, run_surfaces)?;
    }
}

#[test]
fn memory_messages_compile_natively() {
    let src = ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
               .decl V v_type=G type=q num_elts=16 align=GRF\n\
               svm_gather.4.1 (M1, 16) A.0 V.0\n\
               svm_scatter.8.1 (M1, 16) A.0 V.0\n\
               svm_gather.1.4 (M1, 16) A.0 V.0\n\
               gather_scaled.4 (M1, 16) T6 0x0:ud A.0 V.0\n\
               scatter_scaled.1 (M1, 16) T6 0x0:ud A.0 V.0\n\
               gather_scaled.2 (M1, 16) T6 0x0:ud A.0 V.0\n";
    let options = LoadOptions::default().engine(Engine::Jit);
    let program = Program::from_text(src, &options).unwrap();
    let report = program.jit_report();
    let native: Vec<bool> = report.instructions.iter().map(|(_, n)| *n).collect();
    // SVM byte blocks go through the handler.
    assert_eq!(native, [true, true, false, true, true, true], "{report}");
}

#[test]
fn in_place_gathers_overwrite_their_addresses_lane_by_lane() {
    // The data lands on the address operand itself: each lane's address is used before its own
    // (and only its own or a later lane's) data overwrites it.
    for size in [4u64, 8] {
        let src = format!(
            ".decl A v_type=G type=uq num_elts=16 align=GRF\n\
             svm_gather.{size}.1 (M1, 16) A.0 A.0\n"
        );
        let mut outcomes = Vec::new();
        for (engine, tier) in [
            (Engine::Interpreter, JitTier::Adaptive),
            (Engine::Jit, JitTier::Quick),
            (Engine::Jit, JitTier::Optimized),
        ] {
            let options = LoadOptions::default().engine(engine).jit_tier(tier);
            let program = Program::from_text(&src, &options).unwrap();
            assert!(program.jit_report().instructions[0].1, "compiled natively");
            let mut svm = Svm::new();
            let values: Vec<u64> = (0..16).map(|i| 0x1111_0000_0000_0000 + i).collect();
            let base = svm.alloc_from(&values);
            // Lane i reads element 15 - i.
            let addresses: Vec<u64> = (0..16).map(|i| base + size * (15 - i)).collect();
            let r = Launch::new(&program)
                .simd(16)
                .svm(&svm)
                .bind_vector("A", &addresses)
                .capture("A")
                .run()
                .unwrap();
            outcomes.push(r.thread_bytes("A", 0).unwrap().0.to_vec());
        }
        // Independently: the bound addresses, then lane i's block (the `size` bytes at byte
        // (15 - i) * size of the buffer) written at byte i * size.
        let memory: Vec<u8> = (0..16u64)
            .flat_map(|i| (0x1111_0000_0000_0000 + i).to_le_bytes())
            .collect();
        let mut expected: Vec<u8> = Vec::new();
        for outcome in &outcomes {
            assert_eq!(outcome.len(), 128);
        }
        // (The buffer's base is the same in every run: each has its own new `Svm`.)
        let base = {
            let mut svm = Svm::new();
            svm.alloc(128)
        };
        for lane in 0..16u64 {
            expected.extend((base + size * (15 - lane)).to_le_bytes());
        }
        let size = size as usize;
        for lane in 0..16usize {
            let at = (15 - lane) * size;
            expected[lane * size..(lane + 1) * size].copy_from_slice(&memory[at..at + size]);
        }
        assert_eq!(outcomes[0], expected, "size {size}");
        assert_eq!(outcomes[0], outcomes[1]);
        assert_eq!(outcomes[0], outcomes[2]);
    }
}

/// The declarations of [`SURFACE_LOOP`].
const SURFACE_LOOP_DECLS: &str = ".decl OFF v_type=G type=ud num_elts=16 align=GRF\n\
     .decl D v_type=G type=d num_elts=16 align=GRF\n\
     .decl ACC v_type=G type=d num_elts=16 align=GRF\n\
     .decl I v_type=G type=d num_elts=1 align=GRF\n\
     .decl G v_type=G type=ud num_elts=1 align=GRF\n\
     .decl P1 v_type=P num_elts=1\n";

/// IGC's form: `movs` of an immediate binding-table number before the message. The one
/// gather runs three times per thread: at entry 6 (T6's own), then twice at entry 7 with
/// the global offset (a register) 4 then 8 bytes; the next thread starts at entry 6 again.
/// Each run's data is kept in ACC's decimal digits.
const SURFACE_LOOP: &str = "mov (M1, 16) ACC(0,0)<1> 0x0:d\n\
     mov (M1_NM, 1) I(0,0)<1> 0x0:d\n\
     mov (M1_NM, 1) G(0,0)<1> 0x0:ud\n\
     LOOP:\n\
     gather_scaled.4 (M1, 16) T6 G(0,0)<0;1,0> OFF.0 D.0\n\
     mul (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x64:d\n\
     add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> D(0,0)<1;1,0>\n\
     movs (M1_NM, 1) T6(0) 0x7:ud\n\
     add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:d\n\
     shl (M1_NM, 1) G(0,0)<1> I(0,0)<0;1,0> 0x2:ud\n\
     cmp.lt (M1_NM, 1) P1 I(0,0)<0;1,0> 0x3:d\n\
     (P1) jmp (M1, 1) LOOP\n";

/// [`SURFACE_LOOP`]'s program on every engine (all of it native on compiled code), with the
/// buffers it reads at entries 6 and 7.
fn surface_loop_runs(src: &str) -> Vec<(String, Program, Buffer, Buffer)> {
    let mut runs = Vec::new();
    for (engine, compiled, program) in common::on_every_engine(src) {
        if compiled {
            let report = program.jit_report();
            assert!(report.instructions.iter().all(|(_, n)| *n), "{report}");
        }
        let t6 = Buffer::from_slice(&(10..26).collect::<Vec<i32>>());
        let t7 = Buffer::from_slice(&(50..68).collect::<Vec<i32>>());
        runs.push((engine, program, t6, t7));
    }
    runs
}

/// [`SURFACE_LOOP`] with its results scattered to `T8` instead of captured, and its offsets
/// the same in every thread: compiled code runs the group's three threads in one batch and must start
/// each with the template's state slot (`T6` at entry 6 again), not the entry 7 the previous
/// thread left there.
#[test]
fn each_thread_of_a_batch_starts_with_the_template_surfaces() {
    let src = format!(
        "{SURFACE_LOOP_DECLS}\
         .decl LANE v_type=G type=ud num_elts=16 align=GRF\n\
         .decl OUT v_type=G type=ud num_elts=16 align=GRF\n\
         .decl BASE v_type=G type=ud num_elts=1\n\
         mul (M1_NM, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> 0x4:ud\n\
         mul (M1_NM, 1) BASE(0,0)<1> %hw_id(0,0)<0;1,0> 0x40:ud\n\
         add (M1_NM, 16) OUT(0,0)<1> OFF(0,0)<1;1,0> BASE(0,0)<0;1,0>\n\
         {SURFACE_LOOP}\
         scatter_scaled.4 (M1, 16) T8 0x0:ud OUT.0 ACC.0\n"
    );
    let lanes: Vec<u32> = (0..16).collect();
    let expected: Vec<i32> = (0..48)
        .map(|item| {
            let lane = item % 16;
            ((10 + lane) * 100 + 51 + lane) * 100 + 52 + lane
        })
        .collect();
    for (engine, program, t6, t7) in surface_loop_runs(&src) {
        let t8 = Buffer::zeroed(4 * 48);
        Launch::new(&program)
            .simd(16)
            .threads_per_group(3)
            .bind_surface("T6", &t6)
            .bind_surface("T7", &t7)
            .bind_surface("T8", &t8)
            .bind_elements("LANE", &lanes)
            .run()
            .unwrap();
        assert_eq!(t8.to_vec::<i32>(), expected, "{engine}");
    }
}

#[test]
fn a_message_finds_the_buffer_its_surface_points_at_each_time_it_runs() {
    let src = format!("{SURFACE_LOOP_DECLS}{SURFACE_LOOP}");
    // Every thread reads the same sixteen dwords.
    let offsets: Vec<u32> = (0..48).map(|item| 4 * (item % 16)).collect();
    let expected: Vec<i32> = (0..16)
        .map(|lane| ((10 + lane) * 100 + 51 + lane) * 100 + 52 + lane)
        .collect();
    for (engine, program, t6, t7) in surface_loop_runs(&src) {
        let result = Launch::new(&program)
            .simd(16)
            .groups(3)
            .bind_surface("T6", &t6)
            .bind_surface("T7", &t7)
            .bind_vector("OFF", &offsets)
            .capture("ACC")
            .run()
            .unwrap();
        for thread in 0..3 {
            let (acc, _) = result.thread_bytes("ACC", thread).unwrap();
            let acc: Vec<i32> = (acc.chunks_exact(4))
                .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            assert_eq!(acc, expected, "{engine}, thread {thread}");
        }
    }
}

//! F `add`, `mul` and `mad` in compiled code (`jit::lower_float`) against the interpreter: random
//! sources (normals, denormals, zeros, infinities, NaNs with payloads), regions (contiguous,
//! scalar, immediate), source modifiers, predicates and partial masks, in IGC's float mode
//! (denormals kept: native code) and in others (denormals flushed, a directed rounding: the
//! handler). Destinations must be bit for bit the interpreter's, on quick and optimised code.

use proptest::prelude::*;
use visa_runtime::{Engine, JitTier, Launch, LoadOptions, Program};

const SPECIALS: [u32; 10] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0007, // a denormal
    0x807f_fff0, // a negative denormal
    0x7f7f_ffff, // the largest F
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc1_2345, // a quiet NaN with a payload
    0xff80_0001, // a negative signalling NaN
    0x3f80_0000, // 1
];

fn element() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => (-1000.0f32..1000.0).prop_map(f32::to_bits),
        1 => prop::sample::select(SPECIALS.to_vec()),
        1 => any::<u32>(),
    ]
}

#[derive(Debug, Clone)]
struct Case {
    op: &'static str,
    /// Per source: 0 contiguous, 1 scalar, 2 immediate.
    regions: [usize; 3],
    modifiers: [&'static str; 3],
    mode: &'static str,
    exec: &'static str,
    predicate: &'static str,
    inputs: [[u32; 16]; 3],
    imm: u32,
    pred_bits: u16,
    active: u16,
}

fn case() -> impl Strategy<Value = Case> {
    let modifier = prop::sample::select(vec!["", "", "(-)", "(abs)", "(-abs)"]);
    (
        (
            prop::sample::select(vec!["add", "mul", "mad"]),
            [0usize..3, 0usize..3, 0usize..3],
            [modifier.clone(), modifier.clone(), modifier],
            // IGC's mode (native), then the default (denormals flushed) and round-up.
            prop::sample::select(vec!["0x4c0", "0x4c0", "0x4c0", "0x0", "0x4d0"]),
        ),
        (
            prop::sample::select(vec!["(M1, 16)", "(M1, 8)", "(M1_NM, 16)", "(M1, 4)"]),
            prop::sample::select(vec!["", "", "(P1) ", "(!P1) "]),
            // (One vector of 48, not three arrays of 16: the arrays' value trees overflowed the
            // test thread's stack in debug builds.)
            prop::collection::vec(element(), 48),
            element(),
            any::<u16>(),
            prop_oneof![3 => Just(0xffffu16), 1 => any::<u16>()],
        ),
    )
        .prop_map(
            |(
                (op, regions, modifiers, mode),
                (exec, predicate, elements, imm, pred_bits, active),
            )| {
                let inputs = [0, 1, 2].map(|k| std::array::from_fn(|lane| elements[16 * k + lane]));
                Case {
                    op,
                    regions,
                    modifiers,
                    mode,
                    exec,
                    predicate,
                    inputs,
                    imm,
                    pred_bits,
                    active,
                }
            },
        )
}

fn text(c: &Case) -> String {
    let mut text = String::from(
        ".decl S0 v_type=G type=f num_elts=16 align=GRF\n\
         .decl S1 v_type=G type=f num_elts=16 align=GRF\n\
         .decl S2 v_type=G type=f num_elts=16 align=GRF\n\
         .decl D v_type=G type=f num_elts=16 align=GRF\n\
         .decl PB v_type=G type=uw num_elts=1\n\
         .decl P1 v_type=P num_elts=16\n",
    );
    text += &format!(
        "or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> {}:ud\n",
        c.mode
    );
    text += "setp (M1_NM, 16) P1 PB(0,0)<0;1,0>\n";
    let arity = if c.op == "mad" { 3 } else { 2 };
    let srcs: Vec<String> = (0..arity)
        .map(|k| {
            let m = c.modifiers[k];
            match c.regions[k] {
                0 => format!("{m}S{k}(0,0)<1;1,0>"),
                1 => format!("{m}S{k}(0,3)<0;1,0>"),
                // (An immediate takes no modifier.)
                _ => format!("0x{:08x}:f", c.imm),
            }
        })
        .collect();
    text += &format!(
        "{}{} {} D(0,0)<1> {}\n",
        c.predicate,
        c.op,
        c.exec,
        srcs.join(" ")
    );
    text
}

fn run(c: &Case, engine: Engine, tier: JitTier) -> Vec<u8> {
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(&text(c), &options).expect("loads");
    let [s0, s1, s2] = c.inputs.map(|v| v.map(f32::from_bits));
    let active: Vec<bool> = (0..16).map(|lane| c.active >> lane & 1 == 1).collect();
    let result = Launch::new(&program)
        .simd(16)
        .bind_vector("S0", &s0)
        .bind_vector("S1", &s1)
        .bind_vector("S2", &s2)
        .bind_vector("D", &[0.5f32; 16])
        .bind_scalar("PB", c.pred_bits)
        .active_lanes(&active)
        .capture("D")
        .run()
        .expect("runs");
    result.thread_bytes("D", 0).expect("captured").0.to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn compiled_float_code_matches_the_interpreter(c in case()) {
        let interpreted = run(&c, Engine::Interpreter, JitTier::Adaptive);
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let compiled = run(&c, Engine::Jit, tier);
            prop_assert_eq!(&interpreted, &compiled, "{:?} code of\n{}", tier, text(&c));
        }
    }
}

/// The three operations compile to native code in IGC's mode, and compute what IEEE single
/// precision gives: `mad` rounded once, denormals kept.
#[test]
fn float_operations_are_native_and_ieee() {
    let src = ".decl X v_type=G type=f num_elts=16 align=GRF\n\
               .decl Y v_type=G type=f num_elts=16 align=GRF\n\
               .decl Z v_type=G type=f num_elts=16 align=GRF\n\
               .decl A v_type=G type=f num_elts=16 align=GRF\n\
               .decl M v_type=G type=f num_elts=16 align=GRF\n\
               .decl F v_type=G type=f num_elts=16 align=GRF\n\
               or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud\n\
               add (M1, 16) A(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>\n\
               mul (M1, 16) M(0,0)<1> X(0,0)<1;1,0> 0x40000000:f\n\
               mad (M1, 16) F(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0> Z(0,0)<1;1,0>\n";
    let x: Vec<f32> = (0..16)
        .map(|i| match i {
            0 => 1.0 + 2f32.powi(-12),
            1 => f32::from_bits(3),
            _ => i as f32 * 0.75,
        })
        .collect();
    let y: Vec<f32> = (0..16).map(|i| 1.0 - i as f32).collect();
    let mut z = vec![0.25f32; 16];
    z[0] = -(1.0 + 2f32.powi(-11));
    for tier in [JitTier::Quick, JitTier::Optimized] {
        let options = LoadOptions::default().engine(Engine::Jit).jit_tier(tier);
        let program = Program::from_text(src, &options).expect("loads");
        let report = program.jit_report();
        for (text, native) in &report.instructions[1..] {
            assert!(native, "not native: {text}\n{report}");
        }
        let result = Launch::new(&program)
            .simd(16)
            .bind_vector("X", &x)
            .bind_vector("Y", &y)
            .bind_vector("Z", &z)
            .capture("A")
            .capture("M")
            .capture("F")
            .run()
            .expect("runs");
        let read = |name: &str| -> Vec<f32> {
            let (bytes, _) = result.thread_bytes(name, 0).expect("captured");
            (bytes.chunks_exact(4))
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        let expected_add: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
        let expected_mul: Vec<f32> = x.iter().map(|a| a * 2.0).collect();
        let expected_mad: Vec<f32> = x.iter().zip(&z).map(|(a, c)| a.mul_add(*a, *c)).collect();
        assert_eq!(read("A"), expected_add);
        assert_eq!(read("M"), expected_mul);
        assert_eq!(read("F"), expected_mad);
        // Rounded once: (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24; the denormal doubled stays one.
        assert_eq!(read("F")[0], 2f32.powi(-24));
        assert_eq!(read("M")[1].to_bits(), 6);
    }
}

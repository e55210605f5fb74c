//! The F fast path (`exec::fast_float`) against the general path and against hand-worked
//! results: every pair (and, for `mad`, triple) of special values (zeros, denormals, the largest
//! and smallest normals, infinities, quiet and signalling NaNs with payloads and signs), with
//! each source modifier, with denormals flushed (`%cr0` as a kernel starts) and kept (IGC's
//! kernels set `%cr0` bits 6, 7 and 10).

use super::fast_tests::general_form;
use crate::ops::Op;
use crate::{Launch, LoadOptions, Program};

/// Sixteen F bit patterns, one per lane.
const SPECIALS: [u32; 16] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbfc0_0000, // -1.5
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // largest normal
    0xff7f_ffff, // most negative normal
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0xffc1_2345, // negative quiet NaN with a payload
    0x7f80_0001, // signalling NaN
    0x4049_0fdb, // pi
    0x3400_0000, // 2^-23
];

fn kernel(op: &str, modifiers: [&str; 3], keep_denormals: bool) -> String {
    let mut text = String::from(
        ".decl X v_type=G type=f num_elts=16 align=GRF\n\
         .decl Y v_type=G type=f num_elts=16 align=GRF\n\
         .decl Z v_type=G type=f num_elts=16 align=GRF\n\
         .decl D v_type=G type=f num_elts=16 align=GRF\n",
    );
    if keep_denormals {
        text += "or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud\n";
    }
    let [mx, my, mz] = modifiers;
    let srcs = match op {
        "mad" => format!("{mx}X(0,0)<1;1,0> {my}Y(0,0)<1;1,0> {mz}Z(0,0)<1;1,0>"),
        _ => format!("{mx}X(0,0)<1;1,0> {my}Y(0,0)<1;1,0>"),
    };
    text += &format!("{op} (M1, 16) D(0,0)<1> {srcs}\n");
    text
}

/// The destination's dwords.
fn run(program: &Program, inputs: [[u32; 16]; 3]) -> Vec<u32> {
    let [x, y, z] = inputs.map(|v| v.map(f32::from_bits));
    let result = Launch::new(program)
        .simd(16)
        .bind_vector("X", &x)
        .bind_vector("Y", &y)
        .bind_vector("Z", &z)
        .capture("D")
        .run()
        .expect("runs");
    let (bytes, _) = result.thread_bytes("D", 0).expect("captured");
    (bytes.chunks_exact(4))
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

fn load(text: &str) -> Program {
    let program = Program::from_text(text, &LoadOptions::default()).expect("loads");
    assert!(
        program.code.iter().any(|op| matches!(op, Op::FastFloat(_))),
        "no fast form in:\n{text}"
    );
    program
}

/// `SPECIALS` rotated by `by` lanes.
fn rotated(by: usize) -> [u32; 16] {
    std::array::from_fn(|lane| SPECIALS[(lane + by) % 16])
}

#[test]
fn every_special_pair_agrees_with_the_general_path() {
    for op in ["add", "mul", "mad"] {
        for keep in [false, true] {
            for modifiers in [
                ["", "", ""],
                ["(-)", "(abs)", "(-abs)"],
                ["(-abs)", "", "(-)"],
            ] {
                let fast = load(&kernel(op, modifiers, keep));
                let general = general_form(&fast);
                for y in 0..16 {
                    // (`mad`: a third of the rotations of the addend per multiplier.)
                    let zs: Vec<usize> = match op {
                        "mad" => vec![y, (y + 5) % 16, (y + 11) % 16],
                        _ => vec![0],
                    };
                    for z in zs {
                        let inputs = [SPECIALS, rotated(y), rotated(z)];
                        assert_eq!(
                            run(&fast, inputs),
                            run(&general, inputs),
                            "{op} {modifiers:?} keep denormals {keep}, y rotated {y}, z {z}"
                        );
                    }
                }
            }
        }
    }
    // (The three sets put each modifier on each source.)
}

/// Results worked out by hand: rounding, denormals flushed or kept, `mad` rounded once.
#[test]
fn results_match_hand_worked_values() {
    let lane = |op: &str, keep: bool, x: f32, y: f32, z: f32| {
        let program = load(&kernel(op, ["", "", ""], keep));
        let inputs = [[x.to_bits(); 16], [y.to_bits(); 16], [z.to_bits(); 16]];
        f32::from_bits(run(&program, inputs)[0])
    };
    assert_eq!(lane("add", false, 1.5, 2.25, 0.0), 3.75);
    assert_eq!(lane("mul", false, -1.5, 4.0, 0.0), -6.0);
    assert_eq!(lane("mad", false, 1.5, 2.0, 0.25), 3.25);
    // 1 + 2^-24 is a tie: to even, 1.
    assert_eq!(lane("add", false, 1.0, 2f32.powi(-24), 0.0), 1.0);
    // (1 + 2^-12)^2 - 1 - 2^-11 = 2^-24 only when the product is not rounded first.
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    assert_eq!(lane("mad", false, a, a, c), 2f32.powi(-24));
    // A denormal sum: flushed to +0 by default, kept when `%cr0` says so.
    let tiny = f32::from_bits(1);
    assert_eq!(lane("add", false, tiny, tiny, 0.0).to_bits(), 0);
    assert_eq!(lane("add", true, tiny, tiny, 0.0).to_bits(), 2);
    // A denormal source is flushed before the operation: 2^-149 * 2^100 is 0, not 2^-49.
    assert_eq!(lane("mul", false, tiny, 2f32.powi(100), 0.0), 0.0);
    assert_eq!(lane("mul", true, tiny, 2f32.powi(100), 0.0), 2f32.powi(-49));
    assert_eq!(lane("add", false, f32::MAX, f32::MAX, 0.0), f32::INFINITY);
}

//! `plane` (PLANE.md): `dst = b*v + (a*u + c)` with `a`, `b`, `c` at elements 0, 1, 3 of src0
//! and `u`, `v` in blocks of sixteen floats of src1. Expected values are worked out by hand
//! (small integers and halves, exact in F) or written as powers of two.

mod common;

use common::program;
use visa_runtime::{Launch, LaunchResult, LoadOptions, Program};

const DECLS: &str = "
.decl D v_type=G type=f num_elts=16 align=GRF
.decl C v_type=G type=f num_elts=8 align=GRF
.decl UV v_type=G type=f num_elts=32 align=GRF
.decl P v_type=P num_elts=16
";

/// Runs `body` with `C` and `UV` bound to the same values in every thread, `D` starting as
/// -1.0 everywhere, and returns `D` of thread 0.
fn run_with(p: &Program, simd: u32, cr0: u32, c: &[f32], uv: &[f32]) -> Vec<f32> {
    let r: LaunchResult = Launch::new(p)
        .simd(simd)
        .cr0(cr0)
        .bind_elements("C", c)
        .bind_elements("UV", uv)
        .bind_elements("D", &[-1.0f32; 16])
        .capture("D")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    common::whole::<f32>(&r, "D", 0)
}

fn run(body: &str, simd: u32, c: &[f32], uv: &[f32]) -> Vec<f32> {
    run_with(&program(&format!("{DECLS}{body}")), simd, 0, c, uv)
}

/// `a = 2`, `b = 3`, element 2 (never read) `99`, `c = 0.5`.
const COEFFS: [f32; 4] = [2.0, 3.0, 99.0, 0.5];

/// `UV[j] = j`.
fn ramp() -> Vec<f32> {
    (0..32).map(|j| j as f32).collect()
}

#[test]
fn eight_lanes_read_u_then_v_from_one_block() {
    // Lane i: u = i, v = 8 + i, so 2i + 3(8 + i) + 0.5 = 5i + 24.5; element 2 is not used.
    let d = run(
        "plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &COEFFS,
        &ramp(),
    );
    let expected = [24.5, 29.5, 34.5, 39.5, 44.5, 49.5, 54.5, 59.5];
    assert_eq!(&d[..8], &expected);
    assert_eq!(
        &d[8..],
        &[-1.0; 8],
        "lanes past the execution size are untouched"
    );
}

#[test]
fn sixteen_lanes_take_their_second_eight_from_the_second_block() {
    // Lanes 8..15 (k = lane - 8): u = 16 + k, v = 24 + k: 2(16 + k) + 3(24 + k) + 0.5.
    let d = run(
        "plane (M1, 16) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        16,
        &COEFFS,
        &ramp(),
    );
    let expected = [
        24.5, 29.5, 34.5, 39.5, 44.5, 49.5, 54.5, 59.5, 104.5, 109.5, 114.5, 119.5, 124.5, 129.5,
        134.5, 139.5,
    ];
    assert_eq!(d, expected);
}

#[test]
fn the_written_source_regions_are_ignored() {
    // A scalar region on src1 and a strided one on src0 read the same elements.
    let d = run(
        "plane (M1, 8) D(0,0)<1> C(0,0)<2;1,0> UV(0,0)<0;1,0>\n",
        8,
        &COEFFS,
        &ramp(),
    );
    assert_eq!(&d[..8], &[24.5, 29.5, 34.5, 39.5, 44.5, 49.5, 54.5, 59.5]);
}

#[test]
fn predicates_and_the_execution_mask_select_the_lanes_written() {
    // Lanes 0, 2, 5, 7 (0xA5) are predicated on; the others keep -1.
    let d = run(
        "setp (M1_NM, 16) P 0xA5:uw\n(P) plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &COEFFS,
        &ramp(),
    );
    assert_eq!(&d[..8], &[24.5, -1.0, 34.5, -1.0, -1.0, 49.5, -1.0, 59.5]);
    // SIMD4 dispatch: lanes 4..7 are outside the execution mask unless NoMask is given.
    let body = |mask: &str| format!("plane ({mask}, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n");
    let d = run(&body("M1"), 4, &COEFFS, &ramp());
    assert_eq!(&d[..8], &[24.5, 29.5, 34.5, 39.5, -1.0, -1.0, -1.0, -1.0]);
    let d = run(&body("M1_NM"), 4, &COEFFS, &ramp());
    assert_eq!(&d[..8], &[24.5, 29.5, 34.5, 39.5, 44.5, 49.5, 54.5, 59.5]);
}

#[test]
fn saturation_clamps_to_the_unit_interval() {
    // a = 1, b = 0, c = -0.25: the result is u - 0.25 for u = 0, 0.5, 1, 2, and NaN.
    let mut uv = vec![0.0f32; 16];
    uv[..5].copy_from_slice(&[0.0, 0.5, 1.0, 2.0, f32::NAN]);
    let d = run(
        "plane.sat (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &[1.0, 0.0, 0.0, -0.25],
        &uv,
    );
    assert_eq!(&d[..5], &[0.0, 0.25, 0.75, 1.0, 0.0]);
    // Lanes 5..7: u = 0 gives -0.25, clamped to 0.
    assert_eq!(&d[5..8], &[0.0; 3]);
}

#[test]
fn source_modifiers_apply_to_every_value_of_their_operand() {
    // (-)src0 negates a, b and c: -(5i + 24.5).
    let d = run(
        "plane (M1, 8) D(0,0)<1> (-)C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &COEFFS,
        &ramp(),
    );
    assert_eq!(
        &d[..8],
        &[-24.5, -29.5, -34.5, -39.5, -44.5, -49.5, -54.5, -59.5]
    );
}

#[test]
fn each_step_is_a_fused_multiply_add_rounded_once() {
    let x = 1.0 + 2f32.powi(-12);
    // Step 1 fused: x*x - 1 = 2^-11 + 2^-24 exactly (a separately rounded product would lose
    // the 2^-24: x*x = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11). b = 0 leaves t.
    let mut uv = vec![0.0f32; 16];
    uv[0] = x;
    let d = run(
        "plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &[x, 0.0, 0.0, -1.0],
        &uv,
    );
    assert_eq!(d[0], 2f32.powi(-11) + 2f32.powi(-24));
    // Two roundings, not one: t = 1*1 + 2^-24 is a tie and rounds to 1, so t - 1*1 = 0, where
    // a single rounding of the exact 1 + 2^-24 - 1 would give 2^-24.
    let mut uv = vec![0.0f32; 16];
    uv[0] = 1.0;
    uv[8] = -1.0;
    let d = run(
        "plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
        8,
        &[1.0, 1.0, 0.0, 2f32.powi(-24)],
        &uv,
    );
    assert_eq!(d[0], 0.0);
}

#[test]
fn the_cr0_rounding_mode_applies_to_both_steps() {
    // 1 + 2^-30 rounds to 1 to nearest, up to 1 + 2^-23 with RU (%cr0 bits 5:4 = 01).
    let p = program(&format!(
        "{DECLS}plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n"
    ));
    let mut uv = vec![0.0f32; 16];
    uv[0] = 1.0;
    let c = [1.0, 0.0, 0.0, 2f32.powi(-30)];
    assert_eq!(run_with(&p, 8, 0, &c, &uv)[0], 1.0);
    assert_eq!(run_with(&p, 8, 0x10, &c, &uv)[0], 1.0 + 2f32.powi(-23));
}

#[test]
fn indirect_sources_read_from_their_address() {
    let d = run(
        ".decl A v_type=A num_elts=2
mov (M1_NM, 1) A(0)<1> &C
mov (M1_NM, 1) A(1)<1> &UV
plane (M1, 8) D(0,0)<1> r[A(0), 0]<0;1,0>:f r[A(1), 0]<1;1,0>:f\n",
        8,
        &COEFFS,
        &ramp(),
    );
    assert_eq!(&d[..8], &[24.5, 29.5, 34.5, 39.5, 44.5, 49.5, 54.5, 59.5]);
}

/// The load error of `body`, as text, with and without the type maps enforced.
fn load_errors(decls: &str, body: &str) -> [String; 2] {
    let src = format!("{decls}{body}");
    [true, false].map(|maps| {
        Program::from_text(&src, &LoadOptions::default().strict_docs(maps))
            .err()
            .unwrap_or_else(|| panic!("{body} loaded (type maps {maps})"))
            .to_string()
    })
}

#[test]
fn operands_other_than_f_are_load_errors() {
    let decls = "
.decl DI v_type=G type=d num_elts=16 align=GRF
.decl C v_type=G type=f num_elts=4 align=GRF
.decl UV v_type=G type=f num_elts=32 align=GRF
";
    let [maps, no_maps] = load_errors(
        decls,
        "plane (M1, 8) DI(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n",
    );
    // PLANE takes F only, and the compiler's verifier enforces it (PLANE.md's `Compiler
    // checks`): an error with or without the documents' other rules.
    for message in [maps, no_maps] {
        assert!(
            message.starts_with("plane: <dst> has type d, supported types are F"),
            "{message}"
        );
    }
}

#[test]
fn misaligned_or_short_sources_are_load_errors() {
    let [err, _] = load_errors(
        DECLS,
        "plane (M1, 8) D(0,0)<1> C(0,1)<0;1,0> UV(0,0)<1;1,0>\n",
    );
    assert_eq!(err, "plane: <src0> must start on a 16-byte boundary at 6:1");
    let [err, _] = load_errors(
        DECLS,
        "plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,4)<1;1,0>\n",
    );
    assert_eq!(err, "plane: <src1> must start on a 32-byte boundary at 6:1");
    // Sixteen lanes need 32 floats of src1; UV(1,0) leaves 24.
    let [err, _] = load_errors(
        DECLS,
        "plane (M1, 16) D(0,0)<1> C(0,0)<0;1,0> UV(1,0)<1;1,0>\n",
    );
    assert!(err.contains("operand reaches outside 'UV'"), "{err}");
    assert!(err.ends_with("at 6:1"), "{err}");
}

#[test]
fn alt_mode_turns_an_overflow_into_the_largest_finite_value() {
    // a*u overflows F: +inf in IEEE mode; with %cr0 ALT mode (bit 0) the largest finite F.
    let p = program(&format!(
        "{DECLS}plane (M1, 8) D(0,0)<1> C(0,0)<0;1,0> UV(0,0)<1;1,0>\n"
    ));
    let coeffs = [f32::MAX, 0.0, 0.0, 0.0];
    let mut uv = vec![0.0f32; 32];
    uv[0] = 4.0;
    uv[1] = -4.0;
    let ieee = run_with(&p, 8, 0, &coeffs, &uv);
    assert_eq!(&ieee[..3], &[f32::INFINITY, f32::NEG_INFINITY, 0.0]);
    let alt = run_with(&p, 8, 1, &coeffs, &uv);
    assert_eq!(&alt[..3], &[f32::MAX, -f32::MAX, 0.0]);
}

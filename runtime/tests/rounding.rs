//! Directed rounding selected by `%cr0` bits 5:4 (00 RTNE, 01 RU, 10 RD, 11 RTZ).
//!
//! Expectations come from the definition of each mode: among the neighbouring values of the
//! destination type, RD is the largest not above the exact result, RU the smallest not below
//! it, RTZ the one of those two nearer to zero. The exact result is known exactly in f64 for
//! the chosen operands (products of two F values, sums of close magnitudes), or compared
//! exactly through a product (`q * b <= a` for quotients, `s * s <= a` for square roots);
//! the remaining cases are worked out by hand in their comments.

mod common;

use common::program;
use visa_runtime::{Launch, LaunchError, TrapKind};

const RNE: u32 = 0b00 << 4;
const RU: u32 = 0b01 << 4;
const RD: u32 = 0b10 << 4;
const RTZ: u32 = 0b11 << 4;
const MODES: [u32; 4] = [RNE, RU, RD, RTZ];

/// Runs `op (M1, 4) D A B [C]` on F operands and returns D.
fn run_f(instr: &str, cr0: u32, a: [f32; 4], b: [f32; 4], c: [f32; 4]) -> Vec<f32> {
    let src = format!(
        ".decl A v_type=G type=f num_elts=4 align=GRF
.decl B v_type=G type=f num_elts=4 align=GRF
.decl C v_type=G type=f num_elts=4 align=GRF
.decl D v_type=G type=f num_elts=4 align=GRF
{instr}
"
    );
    let p = program(&src);
    Launch::new(&p)
        .simd(4)
        .cr0(cr0 | 1 << 7)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("C", &c)
        .capture("D")
        .run()
        .unwrap()
        .vector::<f32>("D")
        .unwrap()
}

/// The F value the mode selects for an exact value `v` known exactly as an f64.
fn expected_f32(v: f64, cr0: u32) -> f32 {
    let near = v as f32;
    let candidates = [near.next_down(), near, near.next_up()];
    let down = candidates
        .iter()
        .copied()
        .filter(|c| f64::from(*c) <= v)
        .fold(f32::NEG_INFINITY, f32::max);
    let up = candidates
        .iter()
        .copied()
        .filter(|c| f64::from(*c) >= v)
        .fold(f32::INFINITY, f32::min);
    match cr0 {
        RNE => near,
        RU => up,
        RD => down,
        _ if v >= 0.0 => down,
        _ => up,
    }
}

/// Pairs of F operands whose sums and products are exact in f64 but not representable in F.
fn operands() -> ([f32; 4], [f32; 4]) {
    (
        [1.0 + 2f32.powi(-20), -3.0, 0.1, -1234.567],
        [2f32.powi(-24) * 3.0, 1.0 + 2f32.powi(-23), 0.7, 0.001],
    )
}

#[test]
fn add_and_mul_round_in_every_mode() {
    let (a, b) = operands();
    for mode in MODES {
        let sum = run_f(
            "add (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
            mode,
            a,
            b,
            [0.0; 4],
        );
        let product = run_f(
            "mul (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
            mode,
            a,
            b,
            [0.0; 4],
        );
        for lane in 0..4 {
            let (x, y) = (f64::from(a[lane]), f64::from(b[lane]));
            assert_eq!(
                sum[lane],
                expected_f32(x + y, mode),
                "add lane {lane} mode {mode:#x}"
            );
            assert_eq!(
                product[lane],
                expected_f32(x * y, mode),
                "mul lane {lane} mode {mode:#x}"
            );
        }
    }
}

#[test]
fn rounding_directions_differ_where_they_should() {
    // 1 + 3 * 2^-24 lies between 1 + 2^-23 and 1 + 2^-22, nearer the upper one.
    let a = [1.0f32; 4];
    let b = [
        3.0 * 2f32.powi(-24),
        -3.0 * 2f32.powi(-24),
        2f32.powi(-60),
        -2f32.powi(-60),
    ];
    let add = |mode| {
        run_f(
            "add (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
            mode,
            a,
            b,
            [0.0; 4],
        )
    };
    let one_up = 1.0 + 2f32.powi(-23);
    let two_up = 1.0 + 2f32.powi(-22);
    let one_down = 1.0 - 2f32.powi(-24);
    // The F spacing below 1 is 2^-24: 1 - 3 * 2^-24 is representable, so every mode gives it.
    let exact_below = 1.0 - 3.0 * 2f32.powi(-24);
    // 1 + 2^-60 is above 1 by far less than half a unit (2^-24): RNE and RD give 1, RU the
    // next value; 1 - 2^-60 is just below 1: RD gives 1 - 2^-24, RNE and RU give 1. The f64
    // sum of these rounds back to 1, so only an exact remainder gets them right.
    assert_eq!(add(RNE), [two_up, exact_below, 1.0, 1.0]);
    assert_eq!(add(RU), [two_up, exact_below, one_up, 1.0]);
    assert_eq!(add(RD), [one_up, exact_below, 1.0, one_down]);
    assert_eq!(add(RTZ), [one_up, exact_below, 1.0, one_down]);
}

#[test]
fn fused_mad_rounds_once_in_the_mode() {
    let (a, b) = operands();
    let c = [-1.0f32, 2.5, 1e-3, 7.0];
    for mode in MODES {
        let d = run_f(
            "mad (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>",
            mode,
            a,
            b,
            c,
        );
        for lane in 0..4 {
            // The product is exact in f64; the sum is exact too for these magnitudes
            // (checked by the inverse subtraction below).
            let p = f64::from(a[lane]) * f64::from(b[lane]);
            let v = p + f64::from(c[lane]);
            assert_eq!(v - f64::from(c[lane]), p, "lane {lane}: f64 sum not exact");
            assert_eq!(
                d[lane],
                expected_f32(v, mode),
                "mad lane {lane} mode {mode:#x}"
            );
        }
    }
}

#[test]
fn division_and_square_root_pick_the_neighbour_of_the_mode() {
    let a = [1.0f32, 2.0, 10.0, -7.0];
    let b = [3.0f32, 7.0, 0.3, 9.0];
    for mode in MODES {
        let q = run_f(
            "div (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
            mode,
            a,
            b,
            [0.0; 4],
        );
        let s = run_f("sqrt (M1, 4) D(0,0)<1> B(0,0)<1;1,0>", mode, a, b, [0.0; 4]);
        for lane in 0..4 {
            let (x, y) = (f64::from(a[lane]), f64::from(b[lane]));
            let got = f64::from(q[lane]);
            // q * y is exact in f64 (two F values); y > 0, so q <= x / y iff q * y <= x.
            let below = got * y <= x;
            let next_up_below = f64::from(q[lane].next_up()) * y <= x;
            let above = got * y >= x;
            let next_down_above = f64::from(q[lane].next_down()) * y >= x;
            match mode {
                RD => assert!(below && !next_up_below, "div RD lane {lane}"),
                RU => assert!(above && !next_down_above, "div RU lane {lane}"),
                RTZ if x / y > 0.0 => assert!(below && !next_up_below, "div RTZ lane {lane}"),
                RTZ => assert!(above && !next_down_above, "div RTZ lane {lane}"),
                _ => assert_eq!(q[lane], (x / y) as f32),
            }
            let root = f64::from(s[lane]);
            let next_up = f64::from(s[lane].next_up());
            let next_down = f64::from(s[lane].next_down());
            match mode {
                RD | RTZ => assert!(
                    root * root <= y && next_up * next_up > y,
                    "sqrt lane {lane}"
                ),
                RU => assert!(
                    root * root >= y && next_down * next_down < y,
                    "sqrt lane {lane}"
                ),
                _ => assert_eq!(s[lane], y.sqrt() as f32),
            }
        }
    }
}

#[test]
fn overflow_goes_to_infinity_or_the_largest_value_by_mode() {
    let a = [f32::MAX, -f32::MAX, f32::MAX, -f32::MAX];
    let add = |mode| {
        run_f(
            "add (M1, 4) D(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>",
            mode,
            a,
            a,
            a,
        )
    };
    let (inf, max) = (f32::INFINITY, f32::MAX);
    assert_eq!(add(RNE), [inf, -inf, inf, -inf]);
    assert_eq!(add(RU), [inf, -max, inf, -max]);
    assert_eq!(add(RD), [max, -inf, max, -inf]);
    assert_eq!(add(RTZ), [max, -max, max, -max]);
}

/// DF and HF operations, and conversions.
fn run_typed(decls: &str, instr: &str, cr0: u32, a: &[f64]) -> Result<Vec<u8>, LaunchError> {
    let p = program(&format!("{decls}\n{instr}\n"));
    Launch::new(&p)
        .simd(1)
        .cr0(cr0 | 0b111 << 6 | 1 << 10)
        .bind_elements("A", a)
        .capture("D")
        .run()
        .map(|r| r.thread_bytes("D", 0).unwrap().0.to_vec())
}

#[test]
fn double_precision_add_and_mul_use_exact_remainders() {
    let decls = ".decl A v_type=G type=df num_elts=2 align=GRF
.decl D v_type=G type=df num_elts=1 align=GRF";
    let df = |instr: &str, mode, a: [f64; 2]| {
        let bytes = run_typed(decls, instr, mode, &a).unwrap();
        f64::from_le_bytes(bytes[..8].try_into().unwrap())
    };
    let add = "add (M1, 1) D(0,0)<1> A(0,0)<0;1,0> A(0,1)<0;1,0>";
    let mul = "mul (M1, 1) D(0,0)<1> A(0,0)<0;1,0> A(0,1)<0;1,0>";
    let u = 2f64.powi(-52);
    // 1 + 2^-60: RU gives the next double, the others 1.
    assert_eq!(df(add, RU, [1.0, 2f64.powi(-60)]), 1.0 + u);
    assert_eq!(df(add, RD, [1.0, 2f64.powi(-60)]), 1.0);
    assert_eq!(df(add, RTZ, [-1.0, -2f64.powi(-60)]), -1.0);
    assert_eq!(df(add, RD, [-1.0, -2f64.powi(-60)]), -1.0 - u);
    // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104.
    let x = 1.0 + u;
    assert_eq!(df(mul, RNE, [x, x]), 1.0 + 2.0 * u);
    assert_eq!(df(mul, RD, [x, x]), 1.0 + 2.0 * u);
    assert_eq!(df(mul, RU, [x, x]), 1.0 + 3.0 * u);
    assert_eq!(df(mul, RTZ, [-x, x]), -(1.0 + 2.0 * u));
    // A DF mad has no exact remainder in f64: reported, not guessed.
    let mad = ".decl A v_type=G type=df num_elts=2 align=GRF
.decl D v_type=G type=df num_elts=1 align=GRF";
    let err = run_typed(
        mad,
        "mad (M1, 1) D(0,0)<1> A(0,0)<0;1,0> A(0,1)<0;1,0> A(0,0)<0;1,0>",
        RU,
        &[x, x],
    )
    .unwrap_err();
    let LaunchError::Trap(trap) = err else {
        panic!("{err}")
    };
    assert!(
        matches!(trap.kind, TrapKind::UnsupportedRounding { .. }),
        "{trap}"
    );
}

#[test]
fn half_precision_and_conversions_round_in_the_mode() {
    // HF: 1 + 2^-12 lies between 1 and 1 + 2^-10 (HF spacing at 1), nearer 1.
    let decls = ".decl A v_type=G type=f num_elts=2 align=GRF
.decl H v_type=G type=hf num_elts=2 align=GRF
.decl D v_type=G type=hf num_elts=1 align=GRF";
    let hf = |instr: &str, mode, a: [f32; 2]| {
        let p = program(&format!(
            "{decls}\nmov (M1_NM, 2) H(0,0)<1> A(0,0)<1;1,0>\n{instr}\n"
        ));
        let r = Launch::new(&p)
            .simd(1)
            .cr0(mode | 1 << 10)
            .bind_elements("A", &a)
            .capture("D")
            .run()
            .unwrap();
        let bytes = r.thread_bytes("D", 0).unwrap().0;
        u16::from_le_bytes([bytes[0], bytes[1]])
    };
    let add = "add (M1, 1) D(0,0)<1> H(0,0)<0;1,0> H(0,1)<0;1,0>";
    let (one, one_up, one_down) = (0x3c00u16, 0x3c01u16, 0x3bffu16);
    assert_eq!(hf(add, RNE, [1.0, 2f32.powi(-12)]), one);
    assert_eq!(hf(add, RU, [1.0, 2f32.powi(-12)]), one_up);
    assert_eq!(hf(add, RD, [1.0, -2f32.powi(-12)]), one_down);
    assert_eq!(hf(add, RTZ, [1.0, -2f32.powi(-12)]), one_down);
    assert_eq!(hf(add, RTZ, [-1.0, -2f32.powi(-12)]), 0x8000 | one);
    // Conversion F -> HF by mov: 1 + 2^-12 (exact in F) rounds by the mode.
    let mov = "mov (M1, 1) D(0,0)<1> A(0,0)<0;1,0>";
    assert_eq!(hf(mov, RNE, [1.0 + 2f32.powi(-12), 0.0]), one);
    assert_eq!(hf(mov, RU, [1.0 + 2f32.powi(-12), 0.0]), one_up);
    assert_eq!(hf(mov, RD, [-(1.0 + 2f32.powi(-12)), 0.0]), 0x8000 | one_up);
    assert_eq!(hf(mov, RTZ, [65519.0, 0.0]), 0x7bff); // 65504, the largest HF
    assert_eq!(hf(mov, RNE, [65519.0, 0.0]), 0x7bff); // below the rounding boundary 65520
    assert_eq!(hf(mov, RU, [65505.0, 0.0]), 0x7c00); // infinity
}

#[test]
fn double_to_float_conversion_picks_the_neighbour_of_the_mode() {
    let decls = ".decl A v_type=G type=df num_elts=1 align=GRF
.decl D v_type=G type=f num_elts=1 align=GRF";
    for v in [1.0 / 3.0, -1.0 / 3.0, 1e30 / 7.0, 2f64.powi(-140) / 3.0] {
        for mode in MODES {
            let bytes =
                run_typed(decls, "mov (M1, 1) D(0,0)<1> A(0,0)<0;1,0>", mode, &[v]).unwrap();
            let got = f32::from_le_bytes(bytes[..4].try_into().unwrap());
            assert_eq!(got, expected_f32(v, mode), "{v} mode {mode:#x}");
        }
    }
}

#[test]
fn frc_and_exact_zero_sums_follow_the_mode() {
    // frc(-2^-30) = 1 - 2^-30: between 1 - 2^-24 and 1 in F.
    let a = [-2f32.powi(-30), 1.5, -0.0, 2.0];
    let b = [0.0f32, -1.5, 0.0, -2.0];
    let frc = |mode| run_f("frc (M1, 4) D(0,0)<1> A(0,0)<1;1,0>", mode, a, b, b);
    let add = |mode| {
        run_f(
            "add (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
            mode,
            a,
            b,
            b,
        )
    };
    let below_one = 1.0 - 2f32.powi(-24);
    assert_eq!(frc(RNE)[0], 1.0);
    assert_eq!(frc(RD)[0], below_one);
    assert_eq!(frc(RTZ)[0], below_one);
    assert_eq!(frc(RU)[0], 1.0);
    // An exact zero sum of operands of opposite signs is +0, or -0 when rounding down.
    for mode in MODES {
        let sums = add(mode);
        let negative = mode == RD;
        assert_eq!(sums[1].is_sign_negative(), negative, "mode {mode:#x}");
        assert_eq!(sums[3].is_sign_negative(), negative, "mode {mode:#x}");
        // -0 + +0 is +0 except when rounding down.
        assert_eq!(sums[2].is_sign_negative(), negative, "mode {mode:#x}");
    }
}

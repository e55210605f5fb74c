//! Exhaustive (where the input space allows) checks of the FP8/TF32 conversions against
//! references written here from the formats' definitions with f64 arithmetic: values are decoded
//! with the textbook formula, round to nearest even picks the nearest representable value by
//! search (ties to the even code), stochastic rounding is evaluated on the value.

use super::*;

/// The value of `bits` in a format with `m` mantissa and `e` exponent bits (bias 2^(e-1)-1);
/// `ieee`: the all-ones exponent is infinity/NaN, else only its all-ones mantissa is NaN.
fn value_of(bits: u32, m: u32, e: u32, ieee: bool) -> f64 {
    let sign = if bits >> (m + e) & 1 == 1 { -1.0 } else { 1.0 };
    let field = (bits >> m) & ((1 << e) - 1);
    let mantissa = f64::from(bits & ((1 << m) - 1));
    let bias = (1 << (e - 1)) - 1;
    let all_ones = (1 << e) - 1;
    if field == all_ones && ieee {
        return if mantissa == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if field == all_ones && mantissa == f64::from((1u32 << m) - 1) {
        return f64::NAN;
    }
    let scale = |p: i32| 2f64.powi(p);
    if field == 0 {
        sign * mantissa * scale(1 - bias - m as i32)
    } else {
        sign * (1.0 + mantissa / scale(m as i32)) * scale(field as i32 - bias)
    }
}

fn hf_value(h: u16) -> f64 {
    value_of(h.into(), 10, 5, true)
}

fn bf8_value(b: u8) -> f64 {
    value_of(b.into(), 2, 5, true)
}

fn hf8_value(b: u8) -> f64 {
    value_of(b.into(), 3, 4, false)
}

/// Same value and, for zeros, same sign.
fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
}

/// The positive finite codes of an 8-bit format with their values, plus `sentinel`: the value
/// and code the format would have one step past its largest finite value.
fn ladder(last_finite: u8, value: fn(u8) -> f64, sentinel: (f64, u8)) -> Vec<(f64, u8)> {
    let mut codes: Vec<(f64, u8)> = (0..=last_finite).map(|c| (value(c), c)).collect();
    codes.push(sentinel);
    codes
}

/// Round to nearest by search; a tie goes to the even code.
fn nearest_even(a: f64, ladder: &[(f64, u8)]) -> u8 {
    let mut best = ladder[0];
    for &(v, c) in ladder {
        let (d, bd) = ((a - v).abs(), (a - best.0).abs());
        if d < bd || (d == bd && c % 2 == 0) {
            best = (v, c);
        }
    }
    best.1
}

/// Expected HF -> BF8 (RNE) from the value.
fn reference_hf_to_bf8(h: u16, saturate: bool, ladder: &[(f64, u8)]) -> Option<u8> {
    let v = hf_value(h);
    let sign = if h & 0x8000 != 0 { 0x80 } else { 0 };
    if v.is_nan() {
        return None; // checked separately
    }
    if v.is_infinite() {
        return Some(sign | 0x7c);
    }
    let code = nearest_even(v.abs(), ladder);
    Some(match code {
        0x7c if saturate => sign | 0x7b,
        c => sign | c,
    })
}

#[test]
fn every_bf8_code_converts_exactly_to_hf_and_back() {
    for b in 0..=255u8 {
        let h = bf8_to_hf(b);
        assert!(
            same(hf_value(h), bf8_value(b)),
            "bf8 {b:#04x} gave hf {h:#06x}"
        );
        for saturate in [false, true] {
            assert_eq!(hf_to_bf8(h, saturate), b, "round trip of {b:#04x}");
        }
    }
}

#[test]
fn every_hf_value_rounds_to_the_nearest_even_bf8() {
    let ladder = ladder(0x7b, bf8_value, (65536.0, 0x7c));
    for h in 0..=u16::MAX {
        for saturate in [false, true] {
            let got = hf_to_bf8(h, saturate);
            match reference_hf_to_bf8(h, saturate, &ladder) {
                Some(want) => assert_eq!(got, want, "hf {h:#06x} sat {saturate}"),
                None => {
                    // NaN: sign kept, still a NaN, leading payload bits kept or the quiet bit.
                    assert!(bf8_value(got).is_nan(), "hf NaN {h:#06x} gave {got:#04x}");
                    assert_eq!(got & 0x80 != 0, h & 0x8000 != 0);
                    let top = ((h >> 8) & 3) as u8;
                    assert_eq!(got & 3, if top == 0 { 2 } else { top });
                }
            }
        }
    }
}

#[test]
fn every_hf8_code_converts_exactly_to_hf_and_back() {
    for b in 0..=255u8 {
        let h = hf8_to_hf(b);
        let v = hf8_value(b);
        if v.is_nan() {
            assert_eq!(h, if b & 0x80 != 0 { 0xfe00 } else { 0x7e00 });
        } else {
            assert!(same(hf_value(h), v), "hf8 {b:#04x} gave hf {h:#06x}");
        }
        for saturate in [false, true] {
            assert_eq!(hf_to_hf8(h, saturate), b, "round trip of {b:#04x}");
        }
    }
}

#[test]
fn every_hf_value_rounds_to_the_nearest_even_hf8() {
    // 480 would be the code 0x7f (NaN): reaching it is an overflow.
    let ladder = ladder(0x7e, hf8_value, (480.0, 0x7f));
    for h in 0..=u16::MAX {
        let v = hf_value(h);
        let sign = if h & 0x8000 != 0 { 0x80 } else { 0 };
        for saturate in [false, true] {
            let got = hf_to_hf8(h, saturate);
            let want = if v.is_nan() {
                sign | 0x7f
            } else if v.is_infinite() {
                sign | if saturate { 0x7e } else { 0x7f }
            } else {
                match nearest_even(v.abs(), &ladder) {
                    0x7f if saturate => sign | 0x7e,
                    c => sign | c,
                }
            };
            assert_eq!(got, want, "hf {h:#06x} ({v}) sat {saturate}");
        }
    }
    // Spot checks written out: the tie at 464 stays at 448, just above overflows.
    assert_eq!(hf_to_hf8(0x5f40, false), 0x7e); // 464
    assert_eq!(hf_to_hf8(0x5f41, false), 0x7f); // 464.25
    assert_eq!(hf_to_hf8(0x5f41, true), 0x7e);
    assert_eq!(hf_to_hf8(0x0001, false), 0x00); // 2^-24 is far below half of 2^-9
}

/// A deterministic sample of F bit patterns: every exponent with boundary and pseudo-random
/// mantissas, both signs.
fn f32_samples() -> Vec<u32> {
    let mut out = Vec::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let fixed = [
        0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3000, 0x5000, 0x7fe000, 0x7ff000, 0x7ff001,
        0x7fffff, 0x400000, 0x3ff000, 0x3fffff,
    ];
    for exponent in 0..=255u32 {
        for sign in [0, 0x8000_0000u32] {
            for &m in &fixed {
                out.push(sign | exponent << 23 | m);
            }
            for _ in 0..24 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                out.push(sign | exponent << 23 | ((state >> 33) as u32 & 0x7f_ffff));
            }
        }
    }
    out
}

/// Unbiased exponent of a finite non-zero f64, from its bits.
fn exponent_of(a: f64) -> i32 {
    let mut a = a.abs();
    let mut adjust = 0;
    if a < f64::MIN_POSITIVE {
        a *= 2f64.powi(64);
        adjust = 64;
    }
    ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023 - adjust
}

#[test]
fn f_to_tf32_rounds_to_nearest_even_and_flushes_denormals() {
    let max_tf32 = f64::from(f32::from_bits(0x7f7f_e000));
    for f in f32_samples() {
        let v = f64::from(f32::from_bits(f));
        for saturate in [false, true] {
            let got = f_to_tf32(f, saturate);
            assert_eq!(got & 0x1fff, 0, "{f:#010x}: low bits of {got:#010x}");
            if v.is_nan() {
                assert!(f32::from_bits(got).is_nan());
                assert_eq!(got & 0x8000_0000, f & 0x8000_0000);
                continue;
            }
            let want = if v.is_infinite() || v == 0.0 {
                v
            } else if v.abs() < f64::from(f32::MIN_POSITIVE) {
                0.0f64.copysign(v)
            } else {
                let step = 2f64.powi(exponent_of(v) - 10);
                let q = v.abs() / step;
                let low = q.floor();
                let up = q - low > 0.5 || (q - low == 0.5 && low % 2.0 == 1.0);
                let r = (if up { low + 1.0 } else { low }) * step;
                let r = if r > max_tf32 {
                    if saturate { max_tf32 } else { f64::INFINITY }
                } else {
                    r
                };
                r.copysign(v)
            };
            assert!(
                same(f64::from(f32::from_bits(got)), want),
                "{f:#010x} sat {saturate}: got {got:#010x}, want {want}"
            );
        }
    }
    // Written out: the halfway case above the largest TF32 value overflows (odd mantissa).
    assert_eq!(f_to_tf32(0x7f7f_f000, false), 0x7f80_0000);
    assert_eq!(f_to_tf32(0x7f7f_f000, true), 0x7f7f_e000);
    assert_eq!(f_to_tf32(0x3f80_1000, false), 0x3f80_0000); // tie to even (down)
    assert_eq!(f_to_tf32(0x3f80_3000, false), 0x3f80_4000); // tie to even (up)
    assert_eq!(f_to_tf32(0x8000_0001, false), 0x8000_0000); // denormal flushed, sign kept
}

/// Stochastic rounding evaluated on the value: `bits` random bits aligned under the step of the
/// destination at |v| (`mantissa` bits, smallest normal exponent `min_exp`), rest truncated.
fn reference_srnd(v: f64, random: u32, bits: u32, mantissa: i32, min_exp: i32) -> f64 {
    let step = 2f64.powi(exponent_of(v).max(min_exp) - mantissa);
    let fine = step / 2f64.powi(bits as i32);
    let ticks = (v.abs() / fine).floor();
    let sum = ticks + f64::from(random);
    (sum / 2f64.powi(bits as i32)).floor() * step
}

#[test]
fn srnd_hf_to_bf8_matches_the_value_rule_for_every_input() {
    for h in 0..=u16::MAX {
        let v = hf_value(h);
        for random in 0..=255u8 {
            for saturate in [false, true] {
                let got = srnd_hf_to_bf8(h, random, saturate);
                if v.is_nan() {
                    assert!(bf8_value(got).is_nan());
                    assert_eq!(got & 0x80 != 0, h & 0x8000 != 0);
                    continue;
                }
                let want = if v.is_infinite() || v == 0.0 {
                    v
                } else {
                    let m = reference_srnd(v, random.into(), 8, 2, -14);
                    let m = if m > 57344.0 {
                        if saturate { 57344.0 } else { f64::INFINITY }
                    } else {
                        m
                    };
                    m.copysign(v)
                };
                assert!(
                    same(bf8_value(got), want),
                    "hf {h:#06x} r {random} sat {saturate}: got {got:#04x}, want {want}"
                );
            }
        }
    }
}

#[test]
fn srnd_hf_to_bf8_extremes_written_out() {
    // 1 + 2^-10 (0x3c01): random 0 truncates, 255 rounds up (1.25 = 0x3d), exact values stay.
    assert_eq!(srnd_hf_to_bf8(0x3c01, 0, false), 0x3c);
    assert_eq!(srnd_hf_to_bf8(0x3c01, 255, false), 0x3d);
    assert_eq!(srnd_hf_to_bf8(0x3c00, 255, false), 0x3c);
    // 1.75 + 2^-10 carries into the exponent: 2.0.
    assert_eq!(srnd_hf_to_bf8(0x3f01, 255, false), 0x40);
    // Largest HF (65504): random 0 truncates to the largest BF8 (57344); 255 carries to 65536,
    // past it: infinity, or 57344 with .sat.
    assert_eq!(srnd_hf_to_bf8(0x7bff, 0, false), 0x7b);
    assert_eq!(srnd_hf_to_bf8(0x7bff, 255, false), 0x7c);
    assert_eq!(srnd_hf_to_bf8(0xfbff, 255, true), 0xfb);
    // HF denormal 2^-24: BF8 step there is 2^-16; only random 255 rounds up.
    assert_eq!(srnd_hf_to_bf8(0x0001, 254, false), 0x00);
    assert_eq!(srnd_hf_to_bf8(0x0001, 255, false), 0x01);
    assert_eq!(srnd_hf_to_bf8(0x8000, 255, false), 0x80);
}

#[test]
fn srnd_f_to_hf_matches_the_value_rule() {
    let randoms = [
        0u16, 1, 0x0fff, 0x1000, 0x1001, 0x1ffe, 0x1fff, 0xe000, 0xffff, 0x0aaa,
    ];
    for f in f32_samples() {
        let v = f64::from(f32::from_bits(f));
        for &random in &randoms {
            for saturate in [false, true] {
                let got = srnd_f_to_hf(f, random, saturate);
                if v.is_nan() {
                    assert!(hf_value(got).is_nan());
                    assert_eq!(got & 0x8000 != 0, f >> 31 == 1);
                    continue;
                }
                let want = if v.is_infinite() || v == 0.0 {
                    v
                } else {
                    let m = reference_srnd(v, u32::from(random & 0x1fff), 13, 10, -14);
                    let m = if m > 65504.0 {
                        if saturate { 65504.0 } else { f64::INFINITY }
                    } else {
                        m
                    };
                    m.copysign(v)
                };
                assert!(
                    same(hf_value(got), want),
                    "f {f:#010x} r {random:#06x} sat {saturate}: got {got:#06x}, want {want}"
                );
            }
        }
    }
}

#[test]
fn srnd_f_to_hf_extremes_written_out() {
    // 1 + 2^-23: random 0 keeps 1.0, 0x1fff reaches the next HF (1 + 2^-10).
    assert_eq!(srnd_f_to_hf(0x3f80_0001, 0, false), 0x3c00);
    assert_eq!(srnd_f_to_hf(0x3f80_0001, 0x1fff, false), 0x3c01);
    // Bits above the low 13 of the random number are ignored.
    assert_eq!(srnd_f_to_hf(0x3f80_0001, 0xe000, false), 0x3c00);
    // Halfway (1 + 2^-11): rounds up exactly when random >= 0x1000.
    assert_eq!(srnd_f_to_hf(0x3f80_1000, 0x0fff, false), 0x3c00);
    assert_eq!(srnd_f_to_hf(0x3f80_1000, 0x1000, false), 0x3c01);
    // FLT_MAX and 65536: infinity, or 65504 with .sat; infinity stays infinity with .sat.
    assert_eq!(srnd_f_to_hf(0x7f7f_ffff, 0, false), 0x7c00);
    assert_eq!(srnd_f_to_hf(0xc780_0000, 0, true), 0xfbff);
    assert_eq!(srnd_f_to_hf(0x7f80_0000, 0, true), 0x7c00);
    // 65520 (0x477ff000) lies halfway between 65504 and 65536: random 0 gives 65504, all ones
    // overflows.
    assert_eq!(srnd_f_to_hf(0x477f_f000, 0, false), 0x7bff);
    assert_eq!(srnd_f_to_hf(0x477f_f000, 0x1fff, false), 0x7c00);
    assert_eq!(srnd_f_to_hf(0x477f_f000, 0x1fff, true), 0x7bff);
    // HF denormal range: 2^-25 (half the smallest HF denormal) rounds up when random >= 0x1000.
    assert_eq!(srnd_f_to_hf(0x3300_0000, 0x0fff, false), 0x0000);
    assert_eq!(srnd_f_to_hf(0x3300_0000, 0x1000, false), 0x0001);
    // Smallest F normal: zero for any random number; a quiet NaN stays the HF quiet NaN.
    assert_eq!(srnd_f_to_hf(0x0080_0000, 0x1fff, false), 0x0000);
    assert_eq!(srnd_f_to_hf(0x7fc0_0000, 42, false), 0x7e00);
}

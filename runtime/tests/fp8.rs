//! `fcvt` and `srnd` (FCVT.md, SRND.md) executed in kernels: every expectation below is written
//! out by hand from the format definitions (BF8 = E5M2 bias 15, HF8 = E4M3 bias 7 without
//! infinities, TF32 = F with 10 mantissa bits), with the reasoning in the comment beside it.

mod common;

use common::{program, whole};
use visa_runtime::{Launch, LoadOptions, Program};

/// Runs `line` once (SIMD-1 launch, so M1 masks enable only channel 0) with `I` (input) and
/// `R` (random numbers) bound, `O` preset, and returns `O`.
fn run<TI, TR, TO>(decls: &str, line: &str, input: &[TI], random: &[TR], preset: &[TO]) -> Vec<TO>
where
    TI: visa_runtime::Element,
    TR: visa_runtime::Element,
    TO: visa_runtime::Element,
{
    run_simd(1, decls, line, input, random, preset)
}

fn run_simd<TI, TR, TO>(
    simd: u32,
    decls: &str,
    line: &str,
    input: &[TI],
    random: &[TR],
    preset: &[TO],
) -> Vec<TO>
where
    TI: visa_runtime::Element,
    TR: visa_runtime::Element,
    TO: visa_runtime::Element,
{
    let p = program(&format!("{decls}\n{line}\n"));
    let mut launch = Launch::new(&p)
        .simd(simd)
        .bind_elements("I", input)
        .bind_elements("O", preset)
        .capture("O");
    if !random.is_empty() {
        launch = launch.bind_elements("R", random);
    }
    let r = launch.run().unwrap_or_else(|e| panic!("{line}: {e}"));
    whole::<TO>(&r, "O", 0)
}

/// `values` followed by zeros up to `n` elements (every channel reads a defined element).
fn padded<T: Default + Clone>(values: &[T], n: usize) -> Vec<T> {
    let mut out = values.to_vec();
    out.resize(n.max(values.len()), T::default());
    out
}

const HF_TO_BF8: &str = "
.decl I v_type=G type=hf num_elts=32 align=GRF
.decl O v_type=G type=ub num_elts=32 align=GRF
";

/// HF inputs and their BF8 results without and with `.sat`.
const HF_BF8_CASES: [(u16, u8, u8); 20] = [
    (0x0000, 0x00, 0x00), // +0
    (0x8000, 0x80, 0x80), // -0
    (0x7c00, 0x7c, 0x7c), // +inf stays inf, also with .sat
    (0xfc00, 0xfc, 0xfc), // -inf
    (0x7e00, 0x7e, 0x7e), // quiet NaN: payload 0b10 kept
    (0x7c01, 0x7e, 0x7e), // NaN whose payload is all below BF8's bits: quiet bit set
    (0xfd00, 0xfd, 0xfd), // negative NaN, payload 0b01 kept
    (0x3c00, 0x3c, 0x3c), // 1.0
    (0x3c80, 0x3c, 0x3c), // 1.125: halfway 1.0 (mantissa 00) / 1.25 (01): even is 1.0
    (0x3d80, 0x3e, 0x3e), // 1.375: halfway 1.25 (01) / 1.5 (10): even is 1.5
    (0x3c81, 0x3d, 0x3d), // just above 1.125: 1.25
    (0xc100, 0xc1, 0xc1), // -2.5 exact
    (0x7b00, 0x7b, 0x7b), // 57344, the largest BF8
    (0x7b7f, 0x7b, 0x7b), // just below halfway to 65536: 57344
    (0x7b80, 0x7c, 0x7b), // 61440 halfway, 57344 is odd: overflow (inf / max with .sat)
    (0x7bff, 0x7c, 0x7b), // 65504: overflow
    (0x0001, 0x00, 0x00), // 2^-24: BF8's step there is 2^-16, far below half of it
    (0x0080, 0x00, 0x00), // 2^-17, halfway 0 / 2^-16: even is 0
    (0x0180, 0x02, 0x02), // 1.5 * 2^-16: halfway 0x01 / 0x02: even 0x02 (denormal kept)
    (0x8400, 0x84, 0x84), // -2^-14, smallest normal
];

#[test]
fn fcvt_rounds_hf_to_bf8_to_nearest_even_with_and_without_sat() {
    let input: Vec<u16> = padded(&HF_BF8_CASES.map(|c| c.0), 32);
    for (sat, pick) in [("", 1), (".sat", 2)] {
        let line = format!("fcvt{sat} (M1_NM, 32) O(0,0)<1> I(0,0)<1;1,0>");
        let out = run::<u16, u8, u8>(HF_TO_BF8, &line, &input, &[], &[0; 32]);
        for (k, case) in HF_BF8_CASES.iter().enumerate() {
            let want = if pick == 1 { case.1 } else { case.2 };
            assert_eq!(out[k], want, "{line}: hf {:#06x}", case.0);
        }
    }
}

#[test]
fn fcvt_bf8_to_hf_is_exact_for_all_256_codes() {
    // BF8 has HF's sign and exponent layout with the mantissa cut to 2 bits: the HF bits are the
    // BF8 byte followed by eight zero bits, NaN payloads included.
    let decls = "
.decl I v_type=G type=ub num_elts=256 align=GRF
.decl O v_type=G type=hf num_elts=256 align=GRF
";
    let lines: String = (0..8)
        .map(|k| format!("fcvt (M1_NM, 32) O({},0)<1> I({},0)<1;1,0>\n", 2 * k, k))
        .collect();
    let codes: Vec<u8> = (0..=255).collect();
    let out = run::<u8, u8, u16>(decls, &lines, &codes, &[], &[0; 256]);
    for b in 0..=255u8 {
        assert_eq!(out[usize::from(b)], u16::from(b) << 8, "bf8 {b:#04x}");
    }
}

#[test]
fn fcvt_converts_between_hf_and_hf8() {
    let decls = "
.decl I v_type=G type=hf num_elts=16 align=GRF
.decl O v_type=G type=b num_elts=16 align=GRF
";
    // HF input, HF8 without and with .sat.
    let cases: [(u16, u8, u8); 11] = [
        (0x3c00, 0x38, 0x38), // 1.0 = 2^0: field 7, mantissa 0
        (0x5f00, 0x7e, 0x7e), // 448, the largest HF8 (1.75 * 2^8)
        (0x5f40, 0x7e, 0x7e), // 464: halfway 448 (110, even) / 480: 448
        (0x5f41, 0x7f, 0x7e), // above 464: overflow, NaN (no infinity) / 448
        (0x7c00, 0x7f, 0x7e), // +inf: NaN / 448 with .sat
        (0xfc00, 0xff, 0xfe), // -inf
        (0x7e00, 0x7f, 0x7f), // NaN
        (0x1800, 0x01, 0x01), // 2^-9, the smallest HF8 denormal
        (0x1400, 0x00, 0x00), // 2^-10: halfway 0 / 2^-9: even 0
        (0x8000, 0x80, 0x80), // -0
        (0xc600, 0xcc, 0xcc), // -6 = -1.5 * 2^2: sign, field 9 (1001), mantissa 100
    ];
    let input: Vec<u16> = padded(&cases.map(|c| c.0), 16);
    for (sat, pick) in [("", 1), (".sat", 2)] {
        let line = format!("fcvt{sat} (M1_NM, 16) O(0,0)<1> I(0,0)<1;1,0>");
        let out = run::<u16, u8, u8>(decls, &line, &input, &[], &[0; 16]);
        for (k, case) in cases.iter().enumerate() {
            let want = if pick == 1 { case.1 } else { case.2 };
            assert_eq!(out[k], want, "{line}: hf {:#06x}", case.0);
        }
    }
    let back = "
.decl I v_type=G type=b num_elts=8 align=GRF
.decl O v_type=G type=hf num_elts=8 align=GRF
";
    let codes = padded(&[0x7fu8, 0xff, 0x01, 0x7e, 0xb8, 0x80], 8);
    // NaN -> HF quiet NaN of its sign; 2^-9; 448; -1.0; -0.
    let want: [u16; 6] = [0x7e00, 0xfe00, 0x1800, 0x5f00, 0xbc00, 0x8000];
    let out = run::<u8, u8, u16>(
        back,
        "fcvt (M1_NM, 8) O(0,0)<1> I(0,0)<1;1,0>",
        &codes,
        &[],
        &[0; 8],
    );
    assert_eq!(&out[..6], &want);
}

#[test]
fn fcvt_tf32_rounds_to_nearest_even_and_copies_back() {
    let decls = "
.decl I v_type=G type=f num_elts=8 align=GRF
.decl O v_type=G type=ud num_elts=8 align=GRF
";
    let cases: [(u32, u32, u32); 7] = [
        (0x3f80_0001, 0x3f80_0000, 0x3f80_0000), // 1 + 2^-23 below half a TF32 step
        (0x3f80_1000, 0x3f80_0000, 0x3f80_0000), // halfway, kept mantissa even: down
        (0x3f80_3000, 0x3f80_4000, 0x3f80_4000), // halfway, kept mantissa odd: up
        (0x0000_0001, 0x0000_0000, 0x0000_0000), // denormal flushed
        (0x807f_ffff, 0x8000_0000, 0x8000_0000), // negative denormal flushed to -0
        (0x7f7f_ffff, 0x7f80_0000, 0x7f7f_e000), // FLT_MAX: overflow / largest TF32
        (0xff80_0000, 0xff80_0000, 0xff80_0000), // -inf
    ];
    let input: Vec<u32> = padded(&cases.map(|c| c.0), 8);
    for (sat, pick) in [("", 1), (".sat", 2)] {
        let line = format!("fcvt{sat} (M1_NM, 8) O(0,0)<1> I(0,0)<1;1,0>");
        let out = run::<u32, u8, u32>(decls, &line, &input, &[], &[0; 8]);
        for (k, case) in cases.iter().enumerate() {
            let want = if pick == 1 { case.1 } else { case.2 };
            assert_eq!(out[k], want, "{line}: f {:#010x}", case.0);
        }
    }
    let back = "
.decl I v_type=G type=ud num_elts=8 align=GRF
.decl O v_type=G type=f num_elts=8 align=GRF
";
    let bits = [0x1234_5678u32, 0x7fc0_0001, 0x0000_0001, 0xbf80_0000];
    let out = run::<u32, u8, u32>(
        back,
        "fcvt (M1, 4) O(0,0)<1> I(0,0)<1;1,0>",
        &bits,
        &[],
        &[0; 8],
    );
    // SIMD-1 launch with M1: only channel 0 is enabled; the bits are copied unchanged.
    assert_eq!(&out[..4], &[0x1234_5678, 0, 0, 0]);
}

#[test]
fn fcvt_obeys_regions_and_the_execution_mask() {
    let decls = "
.decl I v_type=G type=ub num_elts=16 align=GRF
.decl O v_type=G type=hf num_elts=16 align=GRF
";
    // Source <2;1,0> reads every other code; destination stride 2 leaves odd elements alone.
    let codes: Vec<u8> = (0..16).map(|k| 0x30 + k).collect();
    let out = run_simd::<u8, u8, u16>(
        2,
        decls,
        "fcvt (M1, 4) O(0,0)<2> I(0,0)<2;1,0>",
        &codes,
        &[],
        &[0xaaaa; 16],
    );
    // A SIMD-2 launch enables channels 0 and 1 only: codes 0x30 and 0x32 land at 0 and 2.
    assert_eq!(
        &out[..8],
        &[
            0x3000, 0xaaaa, 0x3200, 0xaaaa, 0xaaaa, 0xaaaa, 0xaaaa, 0xaaaa
        ]
    );
}

#[test]
fn srnd_hf_to_bf8_adds_the_random_byte_below_the_kept_mantissa() {
    let decls = "
.decl I v_type=G type=hf num_elts=16 align=GRF
.decl R v_type=G type=ub num_elts=16 align=GRF
.decl O v_type=G type=ub num_elts=16 align=GRF
";
    // (HF input, random byte, BF8 without .sat, with .sat)
    let cases: [(u16, u8, u8, u8); 14] = [
        (0x3c01, 0x00, 0x3c, 0x3c), // 1 + 2^-10, random 0: truncated to 1.0
        (0x3c01, 0xff, 0x3d, 0x3d), // random all ones: 1 + 2^-10 + 255 * 2^-10 reaches 1.25
        (0x3c01, 0xfe, 0x3c, 0x3c), // one short of the carry: 1.0
        (0x3c00, 0xff, 0x3c, 0x3c), // exact values never move
        (0x3f01, 0xff, 0x40, 0x40), // 1.75 + 2^-10 carries into the exponent: 2.0
        (0x7bff, 0x00, 0x7b, 0x7b), // 65504 truncates to 57344
        (0x7bff, 0xff, 0x7c, 0x7b), // 65504 + 255 * 32 passes 65536: inf / 57344
        (0xfbff, 0xff, 0xfc, 0xfb), // negative side
        (0x7c00, 0xff, 0x7c, 0x7c), // inf stays inf
        (0x7e00, 0x00, 0x7e, 0x7e), // NaN stays NaN
        (0x8000, 0xff, 0x80, 0x80), // -0 stays -0
        (0x0001, 0xff, 0x01, 0x01), // 2^-24 + 255 * 2^-24 = 2^-16: smallest BF8 denormal
        (0x0001, 0xfe, 0x00, 0x00), // one short: 0
        (0x0081, 0x7f, 0x01, 0x01), // 129 * 2^-24 + 127 * 2^-24 = 2^-16
    ];
    let input: Vec<u16> = padded(&cases.map(|c| c.0), 16);
    let random: Vec<u8> = padded(&cases.map(|c| c.1), 16);
    for (sat, pick) in [("", 2), (".sat", 3)] {
        let line = format!("srnd{sat} (M1_NM, 16) O(0,0)<1> I(0,0)<1;1,0> R(0,0)<1;1,0>");
        let out = run::<u16, u8, u8>(decls, &line, &input, &random, &[0; 16]);
        for (k, c) in cases.iter().enumerate() {
            let want = if pick == 2 { c.2 } else { c.3 };
            assert_eq!(out[k], want, "{line}: hf {:#06x} r {:#04x}", c.0, c.1);
        }
    }
}

#[test]
fn srnd_f_to_hf_adds_13_random_bits_and_obeys_the_predicate() {
    let decls = "
.decl I v_type=G type=f num_elts=8 align=GRF
.decl R v_type=G type=uw num_elts=8 align=GRF
.decl O v_type=G type=hf num_elts=8 align=GRF
.decl P v_type=P num_elts=8
";
    // (F input, random, HF result); channel 7 is predicated off.
    let cases: [(u32, u16, u16); 7] = [
        (0x3f80_0001, 0x0000, 0x3c00), // 1 + 2^-23, random 0: 1.0
        (0x3f80_0001, 0x1fff, 0x3c01), // all 13 ones: 1 + 2^-10
        (0x3f80_0001, 0xe000, 0x3c00), // bits 13-15 ignored: as random 0
        (0x3f80_1000, 0x1000, 0x3c01), // halfway 1 + 2^-11 with random 2^12: up
        (0x477f_f000, 0x1fff, 0x7c00), // 65520 + (8191/8192) * 32 passes 65536: inf
        (0x3300_0000, 0x1000, 0x0001), // 2^-25 (HF denormal range): the random bits sit
        //                                under HF's last bit; half plus half reaches 2^-24
        (0xff80_0000, 0x1fff, 0xfc00), // -inf
    ];
    let mut input: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let mut random: Vec<u16> = cases.iter().map(|c| c.1).collect();
    input.push(0x3f80_0000);
    random.push(0);
    let line = "setp (M1_NM, 8) P 0x7f:ud\n\
                (P) srnd (M1_NM, 8) O(0,0)<1> I(0,0)<1;1,0> R(0,0)<1;1,0>";
    let out = run::<u32, u16, u16>(decls, line, &input, &random, &[0x5555; 8]);
    for (k, c) in cases.iter().enumerate() {
        assert_eq!(out[k], c.2, "f {:#010x} r {:#06x}", c.0, c.1);
    }
    assert_eq!(out[7], 0x5555, "channel 7 is predicated off");
    // Immediate random numbers; .sat turns the overflow into 65504.
    let out = run::<u32, u16, u16>(
        decls,
        "srnd.sat (M1_NM, 8) O(0,0)<1> I(0,0)<1;1,0> 0x1fff:uw",
        &input,
        &[],
        &[0; 8],
    );
    assert_eq!(out[4], 0x7bff);
    assert_eq!(out[6], 0xfc00, "infinity is not clamped");
}

#[test]
fn unsupported_forms_are_load_errors_with_a_reason() {
    let load = |decls: &str, line: &str| {
        Program::from_text(&format!("{decls}\n{line}\n"), &LoadOptions::default())
            .map(|_| ())
            .unwrap_err()
            .message
    };
    let decls = "
.decl H v_type=G type=hf num_elts=32 align=GRF
.decl U v_type=G type=ub num_elts=32 align=GRF
.decl S v_type=G type=b num_elts=32 align=GRF
.decl Z v_type=G type=bf num_elts=32 align=GRF
.decl F v_type=G type=f num_elts=32 align=GRF
.decl W v_type=G type=uw num_elts=32 align=GRF
";
    let e = load(decls, "fcvt (M1, 32) U(0,0)<1> H(0,0)<1;1,0>");
    assert!(e.contains("NoMask"), "{e}");
    let e = load(decls, "fcvt (M1_NM, 16) H(0,0)<1> F(0,0)<1;1,0>");
    assert!(e.contains("fcvt"), "{e}");
    let e = load(
        decls,
        "srnd (M1_NM, 16) S(0,0)<1> Z(0,0)<1;1,0> U(0,0)<1;1,0>",
    );
    assert!(e.contains("not modelled"), "{e}");
    // The compiler takes UB, UW, F or HF random numbers for any pair; this runtime lines up
    // UW ones with an HF result only.
    let e = load(
        decls,
        "srnd (M1_NM, 16) H(0,0)<1> F(0,0)<1;1,0> U(0,0)<1;1,0>",
    );
    assert!(e.contains("not executed by this runtime"), "{e}");
    assert!(e.contains("must have type uw"), "{e}");
    // A source the verifier does not pair with the destination is a rule error.
    let e = load(
        decls,
        "srnd (M1_NM, 16) H(0,0)<1> H(0,0)<1;1,0> W(0,0)<1;1,0>",
    );
    assert!(e.contains("no type map"), "{e}");
    let e = load(decls, "fcvt (M1_NM, 16) H(0,0)<1> (-)U(0,0)<1;1,0>");
    assert!(e.contains("modifier"), "{e}");
    // The compiler's verifier enforces FCVT's pairs (FCVT.md's `Compiler checks`).
    let e = Program::from_text(
        &format!("{decls}\nfcvt (M1_NM, 16) F(0,0)<1> W(0,0)<1;1,0>\n"),
        &LoadOptions::default(),
    )
    .map(|_| ())
    .unwrap_err()
    .message;
    assert!(
        e.contains("no type map allows dst type f with source types uw"),
        "{e}"
    );
    // The NoMask rule does not apply to the exact direction.
    let ok = format!("{decls}\nfcvt (M1, 16) H(0,0)<1> U(0,0)<1;1,0>\n");
    assert!(Program::from_text(&ok, &LoadOptions::default()).is_ok());
}

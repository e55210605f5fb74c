//! Per-instruction semantics of the ALU subset: types, regions, modifiers, saturation, packed
//! immediates, masks and predication. Expected values are computed by hand or by plain Rust.
//! (Tests that need only bindings and printed results are data: cli/tests/run/*.visaasm.)

mod common;

use common::{interpreted, program, program_with, whole};
use visa_runtime::{Launch, LaunchError, LoadOptions, TrapKind};

#[test]
fn row_offsets_depend_on_the_grf_size() {
    let src = "
.decl S v_type=G type=d num_elts=32 align=GRF
.decl D v_type=G type=d num_elts=16 align=GRF
mov (M1_NM, 4) D(0,0)<1> S(1,1)<1;1,0>
";
    let s: Vec<i32> = (0..32).map(|i| i * 10).collect();
    for (grf, first) in [(32u32, 9usize), (64, 17)] {
        let p = program_with(src, &LoadOptions::default().grf_bytes(grf));
        let r = Launch::new(&p)
            .simd(1)
            .bind_elements("S", &s)
            .bind_scalar("D", 0i32)
            .capture("D")
            .run()
            .unwrap();
        let d: Vec<i32> = whole(&r, "D", 0);
        assert_eq!(&d[..4], &s[first..first + 4], "GRF {grf}");
    }
}

#[test]
fn mov_converts_between_types() {
    let p = program(
        "
.decl F v_type=G type=f num_elts=8 align=GRF
.decl I v_type=G type=d num_elts=8 align=GRF
.decl U v_type=G type=ud num_elts=8 align=GRF
.decl B v_type=G type=ub num_elts=8 align=GRF
.decl BS v_type=G type=ub num_elts=8 align=GRF
.decl G v_type=G type=f num_elts=8 align=GRF
mov (M1, 8) I(0,0)<1> F(0,0)<1;1,0>
mov (M1, 8) U(0,0)<1> F(0,0)<1;1,0>
mov (M1, 8) B(0,0)<1> I(0,0)<1;1,0>
mov.sat (M1, 8) BS(0,0)<1> I(0,0)<1;1,0>
mov (M1, 8) G(0,0)<1> I(0,0)<1;1,0>
",
    );
    let f = [1.9f32, -1.9, 3e10, -3e10, f32::NAN, 255.5, 300.0, -0.0];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("F", &f)
        .capture("I")
        .capture("U")
        .capture("B")
        .capture("BS")
        .capture("G")
        .run()
        .unwrap();
    // float -> int: truncate toward zero, clamp, NaN -> 0; negative -> unsigned clamps to 0.
    let i = [1, -1, i32::MAX, i32::MIN, 0, 255, 300, 0];
    assert_eq!(r.vector::<i32>("I").unwrap(), i);
    assert_eq!(
        r.vector::<u32>("U").unwrap(),
        [1, 0, u32::MAX, 0, 0, 255, 300, 0]
    );
    // int -> narrower int: keep the low bits; with .sat: clamp.
    let b: Vec<u8> = i.iter().map(|v| *v as u8).collect();
    assert_eq!(r.vector::<u8>("B").unwrap(), b);
    let bs: Vec<u8> = i.iter().map(|v| (*v).clamp(0, 255) as u8).collect();
    assert_eq!(r.vector::<u8>("BS").unwrap(), bs);
    let g: Vec<f32> = i.iter().map(|v| *v as f32).collect();
    assert_eq!(r.vector::<f32>("G").unwrap(), g);
}

#[test]
fn half_float_conversions_round_to_nearest_even() {
    let p = program(
        "
.decl F v_type=G type=f num_elts=8 align=GRF
.decl H v_type=G type=hf num_elts=8 align=GRF
.decl BACK v_type=G type=f num_elts=8 align=GRF
mov (M1, 8) H(0,0)<1> F(0,0)<1;1,0>
mov (M1, 8) BACK(0,0)<1> H(0,0)<1;1,0>
",
    );
    let f = [
        1.0f32,
        -2.0,
        65504.0,
        70000.0,
        1.0 + 1.0 / 2048.0,
        1.0 + 3.0 / 2048.0,
        5.960_464_5e-8,
        0.1,
    ];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("F", &f)
        .capture("H")
        .capture("BACK")
        .run()
        .unwrap();
    let h = r.vector::<u16>("H").unwrap();
    assert_eq!(
        &h[..7],
        &[0x3c00, 0xc000, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001]
    );
    // 0.1 in binary16 is 0x2e66 (0.0999755859375).
    assert_eq!(h[7], 0x2e66);
    assert_eq!(r.vector::<f32>("BACK").unwrap()[7], 0.099_975_586);
}

#[test]
fn packed_immediates_give_one_value_per_channel() {
    let p = program(
        "
.decl W v_type=G type=w num_elts=8 align=GRF
.decl UW v_type=G type=uw num_elts=8 align=GRF
.decl F v_type=G type=f num_elts=4 align=GRF
mov (M1, 8) W(0,0)<1> 0xF8107654:v
mov (M1, 8) UW(0,0)<1> 0xFEDCBA98:uv
mov (M1, 4) F(0,0)<1> 0x7F30C800:vf
",
    );
    let r = Launch::new(&p)
        .simd(8)
        .capture("W")
        .capture("UW")
        .capture("F")
        .run()
        .unwrap();
    // Nibbles LSB first, sign-extended for V.
    assert_eq!(whole::<i16>(&r, "W", 0), [4, 5, 6, 7, 0, 1, -8, -1]);
    assert_eq!(whole::<u16>(&r, "UW", 0), [8, 9, 10, 11, 12, 13, 14, 15]);
    // VF bytes LSB first: 0x00 = 0, 0xC8 = -3, 0x30 = 1, 0x7F = 31.
    assert_eq!(whole::<f32>(&r, "F", 0), [0.0, -3.0, 1.0, 31.0]);
}

#[test]
fn source_modifiers_apply_before_widening() {
    let p = program(
        "
.decl S v_type=G type=d num_elts=8 align=GRF
.decl NEG v_type=G type=q num_elts=8 align=GRF
.decl ABS v_type=G type=d num_elts=8 align=GRF
.decl NABS v_type=G type=d num_elts=8 align=GRF
.decl NOTV v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) NEG(0,0)<1> (-)S(0,0)<1;1,0>
add (M1, 8) ABS(0,0)<1> (abs)S(0,0)<1;1,0> 0x0:d
add (M1, 8) NABS(0,0)<1> (-abs)S(0,0)<1;1,0> 0x1:d
and (M1, 8) NOTV(0,0)<1> (~)S(0,0)<1;1,0> 0xff:d
",
    );
    let s = [i32::MIN, -5, -1, 0, 1, 7, i32::MAX, 100];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("S", &s)
        .capture("NEG")
        .capture("ABS")
        .capture("NABS")
        .capture("NOTV")
        .run()
        .unwrap();
    let neg: Vec<i64> = s.iter().map(|v| -i64::from(*v)).collect();
    assert_eq!(r.vector::<i64>("NEG").unwrap(), neg);
    let abs: Vec<i32> = s.iter().map(|v| v.wrapping_abs()).collect();
    assert_eq!(r.vector::<i32>("ABS").unwrap(), abs);
    let nabs: Vec<i32> = s
        .iter()
        .map(|v| (-(i64::from(*v).abs()) + 1) as i32)
        .collect();
    assert_eq!(r.vector::<i32>("NABS").unwrap(), nabs);
    let not: Vec<i32> = s.iter().map(|v| !v & 0xff).collect();
    assert_eq!(r.vector::<i32>("NOTV").unwrap(), not);
}

#[test]
fn saturation_clamps_integers_and_floats() {
    let p = program(
        "
.decl A v_type=G type=ub num_elts=8 align=GRF
.decl B v_type=G type=ub num_elts=8 align=GRF
.decl S v_type=G type=ub num_elts=8 align=GRF
.decl X v_type=G type=f num_elts=8 align=GRF
.decl Y v_type=G type=f num_elts=8 align=GRF
.decl W v_type=G type=w num_elts=8 align=GRF
.decl T v_type=G type=w num_elts=8 align=GRF
add.sat (M1, 8) S(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
add.sat (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x3f000000:f
add.sat (M1, 8) T(0,0)<1> W(0,0)<1;1,0> (-)W(0,0)<0;1,0>
",
    );
    let a = [200u8, 100, 0, 255, 1, 128, 127, 50];
    let b = [100u8, 100, 0, 255, 254, 128, 128, 50];
    let x = [
        0.0f32,
        0.25,
        0.75,
        -1.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.5,
    ];
    let w = [-32768i16, 32767, 0, 1, -1, 100, -100, 5];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("X", &x)
        .bind_vector("W", &w)
        .capture("S")
        .capture("Y")
        .capture("T")
        .run()
        .unwrap();
    let s: Vec<u8> = a.iter().zip(b).map(|(a, b)| a.saturating_add(b)).collect();
    assert_eq!(r.vector::<u8>("S").unwrap(), s);
    let y: Vec<f32> = x
        .iter()
        .map(|v| {
            let sum = v + 0.5;
            if sum.is_nan() {
                0.0
            } else {
                sum.clamp(0.0, 1.0)
            }
        })
        .collect();
    assert_eq!(r.vector::<f32>("Y").unwrap(), y);
    // w[i] - w[0] with w[0] = -32768, clamped to the W range.
    let t: Vec<i16> = w
        .iter()
        .map(|v| (i32::from(*v) + 32768).clamp(-32768, 32767) as i16)
        .collect();
    assert_eq!(r.vector::<i16>("T").unwrap(), t);
}

#[test]
fn multiply_family_keeps_full_precision() {
    let p = program(
        "
.decl A v_type=G type=d num_elts=8 align=GRF
.decl B v_type=G type=d num_elts=8 align=GRF
.decl UA v_type=G type=ud num_elts=8 align=GRF
.decl UB v_type=G type=ud num_elts=8 align=GRF
.decl P v_type=G type=q num_elts=8 align=GRF
.decl L v_type=G type=d num_elts=8 align=GRF
.decl H v_type=G type=d num_elts=8 align=GRF
.decl UH v_type=G type=ud num_elts=8 align=GRF
.decl M v_type=G type=d num_elts=8 align=GRF
.decl V v_type=G type=d num_elts=8 align=GRF
mul (M1, 8) P(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
mul (M1, 8) L(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
mulh (M1, 8) H(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
mulh (M1, 8) UH(0,0)<1> UA(0,0)<1;1,0> UB(0,0)<1;1,0>
mad (M1, 8) M(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> 0x7:d
avg (M1, 8) V(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
",
    );
    let a = [3, -4, 65536, i32::MAX, i32::MIN, -7, 100_000, 1];
    let b = [5, 6, 65536, i32::MAX, -1, -2, -100_000, -2];
    let ua = [0xffff_ffffu32, 2, 0x8000_0000, 12345, 0, 1, 0xdead_beef, 7];
    let ub = [0xffff_ffffu32, 3, 4, 67890, 9, 0xffff_ffff, 0xcafe_babe, 7];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("UA", &ua)
        .bind_vector("UB", &ub)
        .capture("P")
        .capture("L")
        .capture("H")
        .capture("UH")
        .capture("M")
        .capture("V")
        .run()
        .unwrap();
    let full: Vec<i64> = a
        .iter()
        .zip(b)
        .map(|(a, b)| i64::from(*a) * i64::from(b))
        .collect();
    assert_eq!(r.vector::<i64>("P").unwrap(), full);
    let low: Vec<i32> = full.iter().map(|p| *p as i32).collect();
    assert_eq!(r.vector::<i32>("L").unwrap(), low);
    let high: Vec<i32> = full.iter().map(|p| (p >> 32) as i32).collect();
    assert_eq!(r.vector::<i32>("H").unwrap(), high);
    let uhigh: Vec<u32> = ua
        .iter()
        .zip(ub)
        .map(|(a, b)| ((u64::from(*a) * u64::from(b)) >> 32) as u32)
        .collect();
    assert_eq!(r.vector::<u32>("UH").unwrap(), uhigh);
    let mad: Vec<i32> = full.iter().map(|p| (p + 7) as i32).collect();
    assert_eq!(r.vector::<i32>("M").unwrap(), mad);
    let avg: Vec<i32> = a
        .iter()
        .zip(b)
        .map(|(a, b)| ((i64::from(*a) + i64::from(b) + 1) >> 1) as i32)
        .collect();
    assert_eq!(r.vector::<i32>("V").unwrap(), avg);
}

#[test]
fn float_mad_is_fused() {
    let p = program(
        "
.decl A v_type=G type=f num_elts=4 align=GRF
.decl B v_type=G type=f num_elts=4 align=GRF
.decl C v_type=G type=f num_elts=4 align=GRF
.decl D v_type=G type=f num_elts=4 align=GRF
mad (M1, 4) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>
",
    );
    let e = f32::EPSILON;
    let a = [1.0 + e, 2.5, -3.0, 1e20];
    let b = [1.0 - e, 4.0, 0.5, 1e20];
    let c = [-1.0, 1.0, 0.25, -1e40f64 as f32];
    let r = Launch::new(&p)
        .simd(4)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("C", &c)
        .capture("D")
        .run()
        .unwrap();
    let expected: Vec<f32> = (0..4).map(|i| a[i].mul_add(b[i], c[i])).collect();
    assert_eq!(r.vector::<f32>("D").unwrap(), expected);
    // The unfused result of lane 0 would be exactly 0.
    assert_ne!(expected[0], 0.0);
}

#[test]
fn min_max_on_integers_and_floats_with_nan() {
    let p = program(
        "
.decl A v_type=G type=d num_elts=4 align=GRF
.decl B v_type=G type=ud num_elts=4 align=GRF
.decl X v_type=G type=f num_elts=4 align=GRF
.decl Y v_type=G type=f num_elts=4 align=GRF
.decl MI v_type=G type=d num_elts=4 align=GRF
.decl MU v_type=G type=ud num_elts=4 align=GRF
.decl FMIN v_type=G type=f num_elts=4 align=GRF
.decl FMAX v_type=G type=f num_elts=4 align=GRF
min (M1, 4) MI(0,0)<1> A(0,0)<1;1,0> 0x0:d
max (M1, 4) MU(0,0)<1> B(0,0)<1;1,0> 0x10:ud
min (M1, 4) FMIN(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>
max (M1, 4) FMAX(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>
",
    );
    let a = [-5, 5, 0, i32::MIN];
    let b = [0xffff_fff0u32, 3, 16, 17];
    let x = [1.0f32, f32::NAN, 2.0, -0.0];
    let y = [2.0f32, 3.0, f32::NAN, 0.0];
    let r = Launch::new(&p)
        .simd(4)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("X", &x)
        .bind_vector("Y", &y)
        .capture("MI")
        .capture("MU")
        .capture("FMIN")
        .capture("FMAX")
        .run()
        .unwrap();
    assert_eq!(r.vector::<i32>("MI").unwrap(), [-5, 0, 0, i32::MIN]);
    assert_eq!(r.vector::<u32>("MU").unwrap(), [0xffff_fff0, 16, 16, 17]);
    let fmin = r.vector::<f32>("FMIN").unwrap();
    assert_eq!(&fmin[..3], &[1.0, 3.0, 2.0]);
    assert!(fmin[3] == 0.0 && fmin[3].is_sign_negative());
    let fmax = r.vector::<f32>("FMAX").unwrap();
    assert_eq!(&fmax[..3], &[2.0, 3.0, 2.0]);
    assert!(fmax[3] == 0.0 && fmax[3].is_sign_positive());
}

#[test]
fn cmp_writes_predicates_and_general_masks_and_sel_selects() {
    let p = program(
        "
.decl A v_type=G type=d num_elts=8 align=GRF
.decl B v_type=G type=d num_elts=8 align=GRF
.decl X v_type=G type=f num_elts=8 align=GRF
.decl M v_type=G type=uw num_elts=8 align=GRF
.decl FF v_type=G type=f num_elts=8 align=GRF
.decl FM v_type=G type=ud num_elts=8 alias=<FF, 0>
.decl S v_type=G type=d num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
cmp.lt (M1, 8) P1 A(0,0)<1;1,0> B(0,0)<1;1,0>
cmp.ge (M1, 8) M(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
cmp.ne (M1, 8) FF(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>
(P1) sel (M1, 8) S(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
",
    );
    let a = [1, 5, -3, 7, 0, i32::MIN, 9, 2];
    let b = [2, 5, -4, 8, 0, i32::MAX, -9, 3];
    let x = [
        0.0f32,
        f32::NAN,
        1.0,
        f32::NAN,
        -0.0,
        2.0,
        f32::INFINITY,
        3.0,
    ];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .bind_vector("X", &x)
        .capture("M")
        .capture("FM")
        .capture("S")
        .run()
        .unwrap();
    let m: Vec<u16> = a
        .iter()
        .zip(b)
        .map(|(a, b)| if *a >= b { 0xffff } else { 0 })
        .collect();
    assert_eq!(r.vector::<u16>("M").unwrap(), m);
    // NaN != NaN is the only true "ne" of a value with itself.
    let fm: Vec<u32> = x
        .iter()
        .map(|v| if v.is_nan() { u32::MAX } else { 0 })
        .collect();
    assert_eq!(r.vector::<u32>("FM").unwrap(), fm);
    let s: Vec<i32> = a
        .iter()
        .zip(b)
        .map(|(a, b)| if *a < b { *a } else { b })
        .collect();
    assert_eq!(r.vector::<i32>("S").unwrap(), s);
}

#[test]
fn no_mask_writes_channels_outside_the_dispatch_mask() {
    let p = program(
        "
.decl D v_type=G type=d num_elts=16 align=GRF
.decl E v_type=G type=d num_elts=16 align=GRF
mov (M1_NM, 16) D(0,0)<1> 0x7:d
mov (M1, 16) E(0,0)<1> 0x7:d
",
    );
    let r = Launch::new(&p)
        .simd(8)
        .bind_elements("D", &[0i32; 16])
        .bind_elements("E", &[0i32; 16])
        .capture("D")
        .capture("E")
        .run()
        .unwrap();
    assert_eq!(whole::<i32>(&r, "D", 0), [7; 16]);
    let e: Vec<i32> = (0..16).map(|i| if i < 8 { 7 } else { 0 }).collect();
    assert_eq!(whole::<i32>(&r, "E", 0), e);
}

#[test]
fn indirect_operands_follow_address_variables() {
    let p = program(
        "
.decl T v_type=G type=d num_elts=16 align=GRF
.decl D v_type=G type=d num_elts=8 align=GRF
.decl M v_type=G type=d num_elts=8 align=GRF
.decl W v_type=G type=d num_elts=16 align=GRF
.decl A0 v_type=A num_elts=4
addr_add (M1_NM, 1) A0(0)<1> &T[8] 0x4:uw
mov (M1, 4) D(0,0)<1> r[A0(0), 4]<2;1,0>:d
addr_add (M1_NM, 4) A0(0)<1> &T 0x0:v
addr_add (M1_NM, 4) A0(0)<1> A0(0)<4> 0x3120:v
addr_add (M1_NM, 4) A0(0)<1> A0(0)<4> A0(0)<4>
addr_add (M1_NM, 4) A0(0)<1> A0(0)<4> A0(0)<4>
mov (M1, 4) M(0,0)<1> r[A0(0), 0]<1,0>:d
addr_add (M1_NM, 1) A0(0)<1> &W[4] 0x0:uw
mov (M1, 4) r[A0(0), 8]<2>:d T(0,0)<1;1,0>
",
    );
    let t: Vec<i32> = (0..16).map(|i| 100 + i).collect();
    let r = Launch::new(&p)
        .simd(8)
        .bind_elements("T", &t)
        .bind_elements("D", &[0i32; 8])
        .bind_elements("M", &[0i32; 8])
        .bind_elements("W", &[0i32; 16])
        .capture("D")
        .capture("M")
        .capture("W")
        .run()
        .unwrap();
    // A0(0) = &T + 12; element i at byte 12 + 4 + 8i -> T[4 + 2i].
    assert_eq!(&whole::<i32>(&r, "D", 0)[..4], &[t[4], t[6], t[8], t[10]]);
    // A0 = &T + 4*{0,2,1,3} (0x3120 packed: 0,2,1,3 then doubled twice); one address per channel.
    assert_eq!(&whole::<i32>(&r, "M", 0)[..4], &[t[0], t[2], t[1], t[3]]);
    // Destination at &W + 4 + 8 with stride 2: W[3], W[5], W[7], W[9].
    let mut w = [0i32; 16];
    for i in 0..4 {
        w[3 + 2 * i] = t[i];
    }
    assert_eq!(whole::<i32>(&r, "W", 0), w);
}

#[test]
fn reading_an_unwritten_variable_traps_with_its_name_and_lane() {
    let p = interpreted(
        "
.decl A v_type=G type=d num_elts=8 align=GRF
.decl B v_type=G type=d num_elts=8 align=GRF
mov (M1, 4) A(0,0)<1> 0x1:d
add (M1, 8) B(0,0)<1> A(0,0)<1;1,0> 0x1:d
",
    );
    let err = Launch::new(&p).simd(8).run().unwrap_err();
    let LaunchError::Trap(trap) = err else {
        panic!("expected a trap, got {err}")
    };
    assert_eq!(trap.kind, TrapKind::Uninitialized { var: "A".into() });
    assert_eq!(trap.lane, Some(4));
    assert_eq!(trap.pc, 1);
    assert_eq!(
        trap.instruction,
        "add (M1, 8) B(0,0)<1> A(0,0)<1;1,0> 0x1:d"
    );
}

#[test]
fn regions_outside_their_variable_are_load_errors() {
    let err = visa_runtime::Program::from_text(
        "
.decl A v_type=G type=d num_elts=8 align=GRF
mov (M1, 16) A(0,0)<1> 0x1:d
",
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.span.line, 3);
    assert!(err.message.contains("outside 'A'"), "{err}");
}

const DENORMAL_ADD: &str = "
.decl A v_type=G type=f num_elts=4 align=GRF
.decl S v_type=G type=f num_elts=4 align=GRF
.decl M v_type=G type=f num_elts=4 align=GRF
add (M1, 4) S(0,0)<1> A(0,0)<1;1,0> 0x0:f
mov (M1, 4) M(0,0)<1> A(0,0)<1;1,0>
";

#[test]
fn float_denormals_follow_the_cr0_keep_bit() {
    let p = program(DENORMAL_ADD);
    let tiny = f32::from_bits(1); // smallest positive denormal
    let a = [tiny, -tiny, f32::MIN_POSITIVE, 1.5];
    let run = |cr0: u32| {
        Launch::new(&p)
            .simd(4)
            .cr0(cr0)
            .bind_vector("A", &a)
            .capture("S")
            .capture("M")
            .run()
            .unwrap()
    };
    // %cr0 = 0: arithmetic flushes denormal inputs to signed zero (and -0 + +0 = +0); mov
    // copies them.
    let flushed = run(0);
    let s = flushed.vector::<f32>("S").unwrap();
    assert_eq!(
        s.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        [0, 0, f32::MIN_POSITIVE.to_bits(), 1.5f32.to_bits()]
    );
    assert_eq!(flushed.vector::<f32>("M").unwrap(), a);
    // Bit 7 keeps single-precision denormals.
    assert_eq!(run(0x80).vector::<f32>("S").unwrap(), a);
}

const ALT_MODE: &str = "
.decl A v_type=G type=f num_elts=4 align=GRF
.decl B v_type=G type=f num_elts=4 align=GRF
.decl MUL v_type=G type=f num_elts=4 align=GRF
.decl INV v_type=G type=f num_elts=4 align=GRF
.decl LOG v_type=G type=f num_elts=4 align=GRF
.decl SQRT v_type=G type=f num_elts=4 align=GRF
.decl RSQ v_type=G type=f num_elts=4 align=GRF
.decl H v_type=G type=hf num_elts=4 align=GRF
mul (M1, 4) MUL(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
inv (M1, 4) INV(0,0)<1> A(0,0)<1;1,0>
log (M1, 4) LOG(0,0)<1> A(0,0)<1;1,0>
sqrt (M1, 4) SQRT(0,0)<1> A(0,0)<1;1,0>
rsqrt (M1, 4) RSQ(0,0)<1> A(0,0)<1;1,0>
mul (M1, 4) H(0,0)<1> H(0,0)<1;1,0> 0x7bff:hf
";

#[test]
fn alt_mode_keeps_single_precision_results_finite() {
    // 2_datatypes.md, ALT mode: infinite F results become the largest finite F of their sign;
    // log, rsqrt and sqrt take |src|. It exists for F only: HF keeps its infinities.
    let p = program(ALT_MODE);
    let a = [3.0e38f32, -4.0, 0.0, -0.0];
    let b = [10.0f32, 1.0e38, 1.0, 1.0];
    let h = [0x7bffu16; 4]; // 65504, the largest finite HF: squared, it overflows
    let run = |cr0: u32| {
        Launch::new(&p)
            .simd(4)
            .cr0(cr0)
            .bind_vector("A", &a)
            .bind_vector("B", &b)
            .bind_vector("H", &h)
            .capture("MUL")
            .capture("INV")
            .capture("LOG")
            .capture("SQRT")
            .capture("RSQ")
            .run()
            .unwrap()
    };
    let max = f32::MAX;
    let ieee = run(0);
    assert_eq!(
        ieee.vector::<f32>("MUL").unwrap(),
        [f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0]
    );
    assert!(ieee.vector::<f32>("SQRT").unwrap()[1].is_nan());
    let alt = run(0x1);
    assert_eq!(alt.vector::<f32>("MUL").unwrap(), [max, -max, 0.0, -0.0]);
    let inv = alt.vector::<f32>("INV").unwrap();
    assert_eq!(&inv[1..], [-0.25, max, -max], "1/±0 is ±fmax");
    assert_eq!(
        alt.vector::<f32>("LOG").unwrap()[1..],
        [2.0, -max, -max],
        "log2 |-4| = 2, log2 0 = -fmax"
    );
    assert_eq!(alt.vector::<f32>("SQRT").unwrap()[1], 2.0, "sqrt |-4|");
    assert_eq!(
        alt.vector::<f32>("RSQ").unwrap()[1..],
        [0.5, max, max],
        "rsqrt |-4| = 0.5; rsqrt of ±0 is +inf, hence fmax"
    );
    assert_eq!(alt.vector::<u16>("H").unwrap(), [0x7c00; 4], "HF: +inf");
}

#[test]
fn half_precision_arithmetic_rounds_once() {
    let p = program(
        "
.decl A v_type=G type=hf num_elts=4 align=GRF
.decl B v_type=G type=hf num_elts=4 align=GRF
.decl S v_type=G type=hf num_elts=4 align=GRF
.decl P v_type=G type=hf num_elts=4 align=GRF
add (M1, 4) S(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
mul (M1, 4) P(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
",
    );
    // 1.0 = 0x3c00, 2^-11 = 0x1000, 3.0 = 0x4200, 65504 = 0x7bff, 2.0 = 0x4000, 0.5 = 0x3800.
    let a = [0x3c00u16, 0x3c01, 0x7bff, 0x4200];
    let b = [0x1000u16, 0x1000, 0x4000, 0x3800];
    let r = Launch::new(&p)
        .simd(4)
        .cr0(1 << 10)
        .bind_vector("A", &a)
        .bind_vector("B", &b)
        .capture("S")
        .capture("P")
        .run()
        .unwrap();
    // 1 + 2^-11 ties to even (1.0); (1 + 2^-10) + 2^-11 ties to even upwards (1 + 2^-9);
    // 65504 + 2 rounds to 65504; 3 + 0.5 = 3.5 (0x4300).
    assert_eq!(
        r.vector::<u16>("S").unwrap(),
        [0x3c00, 0x3c02, 0x7bff, 0x4300]
    );
    // 2^-11 products; 65504 * 2 overflows to +inf; 3 * 0.5 = 1.5 (0x3e00).
    assert_eq!(
        r.vector::<u16>("P").unwrap(),
        [0x1000, 0x1001, 0x7c00, 0x3e00]
    );
}

#[test]
fn predefined_variables_are_named_in_any_case() {
    // The compiler prints `%SR0` as well as `%sr0`: both name the state register, whose dword
    // 2 is the dispatch mask (all 8 channels here). `%CR0` and `%cr0` are one register too.
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
and (M1_NM, 1) V(0,0)<1> %SR0(0,2)<0;1,0> 0xffff:ud
and (M1_NM, 1) V(0,1)<1> %sr0(0,2)<0;1,0> 0xffff:ud
mov (M1_NM, 1) %CR0(0,0)<1> 0x80:ud
mov (M1_NM, 1) V(0,2)<1> %cr0(0,0)<0;1,0>
mov (M1_NM, 1) V(0,3)<1> 0x0:ud
",
    );
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("V", &[7u32; 8])
        .run()
        .unwrap();
    assert_eq!(
        r.vector::<u32>("V").unwrap(),
        [0xff, 0xff, 0x80, 0, 7, 7, 7, 7]
    );
}

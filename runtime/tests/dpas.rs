//! `dpas` (DPAS.md) executed in kernels. Every expectation is computed here, independently of
//! the runtime, from the document's definition `D = C + A x B` (A = Src2, M x K; B = Src1,
//! K x N; M = RC, N = exec size, K = SD * OPS) with plain matrix loops, or written out by hand.
//! The operands are packed into registers by the layout the document gives: Dst, Src0 and Src2
//! row-major; Src1 one dword per channel and GRF, each dword feeding 32 / (OPS * bits(W))
//! consecutive stages.

mod common;

use common::{program_with, whole};
use visa_runtime::{Element, Launch, LoadOptions, Program};

/// Elements per channel and stage (DPAS.md Semantics).
fn ops(w: &str, a: &str) -> u32 {
    match (w, a) {
        ("tf32", _) => 1,
        ("bf" | "hf", _) => 2,
        _ if bits(w) == 8 || bits(a) == 8 => 4,
        _ => 8,
    }
}

fn bits(p: &str) -> u32 {
    match p {
        "u1" | "s1" => 1,
        "u2" | "s2" => 2,
        "u4" | "s4" => 4,
        "u8" | "s8" => 8,
        "bf" | "hf" => 16,
        _ => 32,
    }
}

/// The range of an integer precision.
fn range(p: &str) -> (i64, i64) {
    let b = bits(p);
    if p.starts_with('s') {
        (-(1 << (b - 1)), (1 << (b - 1)) - 1)
    } else {
        (0, (1 << b) - 1)
    }
}

/// Sets `value` (its low `width` bits) at bit `offset` of a dword vector.
fn put_bits(dwords: &mut [u32], offset: u32, width: u32, value: u64) {
    for i in 0..width {
        let bit = offset + i;
        let d = &mut dwords[(bit / 32) as usize];
        if (value >> i) & 1 == 1 {
            *d |= 1 << (bit % 32);
        } else {
            *d &= !(1 << (bit % 32));
        }
    }
}

/// The shape of one DPAS.
#[derive(Clone, Copy)]
struct Shape<'a> {
    w: &'a str,
    a: &'a str,
    sd: u32,
    rc: u32,
    /// Exec size N; the GRF is 4 * N bytes.
    n: u32,
}

impl Shape<'_> {
    fn k(&self) -> u32 {
        self.sd * ops(self.w, self.a)
    }

    /// Src1 dwords holding B (K x N, element codes): column n in dword n of each GRF.
    fn pack_b(&self, b: &[Vec<u64>]) -> Vec<u32> {
        let ops = ops(self.w, self.a);
        let wb = bits(self.w);
        let per_dword = 32 / (ops * wb);
        let grfs = self.sd.div_ceil(per_dword);
        let mut out = vec![0u32; (grfs * self.n) as usize];
        for (k, row) in b.iter().enumerate() {
            let k = k as u32;
            let (stage, j) = (k / ops, k % ops);
            let grf = stage / per_dword;
            let index = (stage % per_dword) * ops + j;
            for (n, &code) in row.iter().enumerate() {
                let dword = grf * self.n + n as u32;
                put_bits(&mut out, dword * 32 + index * wb, wb, code);
            }
        }
        out
    }

    /// Src2 dwords holding A (M x K, element codes) row-major, packed at bit granularity.
    fn pack_a(&self, a: &[Vec<u64>]) -> Vec<u32> {
        let ab = bits(self.a);
        let total = self.rc * self.k() * ab;
        let mut out = vec![0u32; total.div_ceil(32) as usize];
        for (m, row) in a.iter().enumerate() {
            for (k, &code) in row.iter().enumerate() {
                let offset = (m as u32 * self.k() + k as u32) * ab;
                put_bits(&mut out, offset, ab, code);
            }
        }
        out
    }

    fn line(&self, src0: &str) -> String {
        format!(
            "dpas.{}.{}.{}.{} (M1, {}) D.0 {src0} B.0 A(0,0)",
            self.w, self.a, self.sd, self.rc, self.n
        )
    }

    fn options(&self) -> LoadOptions {
        LoadOptions::default().grf_bytes(self.n * 4)
    }
}

/// Declarations of D (dst), C (src0), B (src1) and A (src2) for `shape`.
fn decls(shape: &Shape, dst: &str, src0: &str, b_len: usize, a_len: usize) -> String {
    let mn = shape.rc * shape.n;
    format!(
        ".decl D v_type=G type={dst} num_elts={mn} align=GRF\n\
         .decl C v_type=G type={src0} num_elts={mn} align=GRF\n\
         .decl B v_type=G type=ud num_elts={b_len} align=GRF\n\
         .decl A v_type=G type=ud num_elts={a_len} align=GRF\n"
    )
}

/// Runs one DPAS (SIMD-`simd` launch) and returns D.
#[allow(clippy::too_many_arguments)]
fn run<TC: Element, TD: Element>(
    shape: &Shape,
    line: &str,
    dst_ty: &str,
    src0_ty: &str,
    b: &[u32],
    a: &[u32],
    c: &[TC],
    preset: &[TD],
    simd: u32,
) -> Vec<TD> {
    let src = format!(
        "{}{line}\n",
        decls(shape, dst_ty, src0_ty, b.len(), a.len())
    );
    let p = program_with(&src, &shape.options());
    let mut launch = Launch::new(&p)
        .simd(simd)
        .bind_elements("B", b)
        .bind_elements("A", a)
        .bind_elements("D", preset)
        .capture("D");
    if !c.is_empty() {
        launch = launch.bind_elements("C", c);
    }
    let r = launch.run().unwrap_or_else(|e| panic!("{line}: {e}"));
    whole::<TD>(&r, "D", 0)
}

/// A deterministic pseudo-random sequence (64-bit LCG, upper bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// A value of `[lo, hi]`; every fifth draw is an end of the range.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        let r = self.next();
        match r % 5 {
            0 => lo,
            1 => hi,
            _ => lo + (r / 5 % (hi - lo + 1) as u64) as i64,
        }
    }
}

/// The element code of an integer value of precision `p`.
fn code(p: &str, v: i64) -> u64 {
    (v as u64) & ((1u64 << bits(p)) - 1)
}

/// Integer DPAS with random operands (ends of each range included) against the matrix loop.
fn check_int(shape: Shape, seed: u64, null_src0: bool) {
    let (m, k, n) = (shape.rc as usize, shape.k() as usize, shape.n as usize);
    let mut rng = Lcg(seed);
    let (wl, wh) = range(shape.w);
    let (al, ah) = range(shape.a);
    let bm: Vec<Vec<i64>> = (0..k)
        .map(|_| (0..n).map(|_| rng.int(wl, wh)).collect())
        .collect();
    let am: Vec<Vec<i64>> = (0..m)
        .map(|_| (0..k).map(|_| rng.int(al, ah)).collect())
        .collect();
    // Accumulators near both ends of the 32-bit range, so that some sums wrap.
    let cm: Vec<Vec<i64>> = (0..m)
        .map(|_| {
            (0..n)
                .map(|_| match rng.next() % 4 {
                    0 => i64::from(i32::MAX) - (rng.next() % 1000) as i64,
                    1 => i64::from(i32::MIN) + (rng.next() % 1000) as i64,
                    _ => rng.int(-100_000, 100_000),
                })
                .collect()
        })
        .collect();
    let mut expected = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            let mut d = if null_src0 { 0 } else { cm[i][j] };
            for (kk, row) in bm.iter().enumerate() {
                d += am[i][kk] * row[j];
            }
            expected.push(d as u32); // wrap modulo 2^32
        }
    }
    let b = shape.pack_b(
        &bm.iter()
            .map(|r| r.iter().map(|&v| code(shape.w, v)).collect())
            .collect::<Vec<_>>(),
    );
    let a = shape.pack_a(
        &am.iter()
            .map(|r| r.iter().map(|&v| code(shape.a, v)).collect())
            .collect::<Vec<_>>(),
    );
    let c: Vec<u32> = if null_src0 {
        Vec::new()
    } else {
        cm.iter().flatten().map(|&v| v as u32).collect()
    };
    let preset = vec![0xdead_beefu32; m * n];
    let src0 = if null_src0 { "%null.0" } else { "C.0" };
    let got = run(
        &shape,
        &shape.line(src0),
        "d",
        "ud",
        &b,
        &a,
        &c,
        &preset,
        shape.n,
    );
    assert_eq!(got, expected, "{}", shape.line(src0));
}

const INT: [&str; 8] = ["u1", "s1", "u2", "s2", "u4", "s4", "u8", "s8"];

#[test]
fn every_integer_precision_pair_exec16_grf64() {
    let mut seed = 1;
    for w in INT {
        for a in INT {
            for (sd, rc) in [(8, 1 + (seed as u32 % 8)), (2, 3)] {
                let shape = Shape {
                    w,
                    a,
                    sd,
                    rc,
                    n: 16,
                };
                check_int(shape, seed, false);
                seed += 1;
            }
        }
    }
}

#[test]
fn integer_depths_and_repeats_exec8_grf32() {
    let mut seed = 1000;
    for (w, a) in [
        ("s8", "s8"),
        ("u8", "s4"),
        ("s2", "u8"),
        ("u4", "s4"),
        ("s1", "u2"),
    ] {
        for sd in [1, 2, 4, 8] {
            for rc in [1, 2, 5, 8] {
                check_int(Shape { w, a, sd, rc, n: 8 }, seed, seed % 3 == 0);
                seed += 1;
            }
        }
    }
}

#[test]
fn null_src0_is_a_zero_accumulator() {
    check_int(
        Shape {
            w: "s8",
            a: "u8",
            sd: 8,
            rc: 4,
            n: 16,
        },
        77,
        true,
    );
}

/// The layout written out by hand: u8 x u8, SD 1, one row: B's dword for every channel holds
/// bytes 1, 2, 3, 4 and A's dword bytes 10, 20, 30, 40, so each channel adds 10 + 40 + 90 +
/// 160 = 300 to its accumulator.
#[test]
fn hand_written_u8_layout() {
    let shape = Shape {
        w: "u8",
        a: "u8",
        sd: 1,
        rc: 1,
        n: 8,
    };
    let b = vec![0x0403_0201u32; 8];
    let a = vec![0x281e_140au32];
    let c: Vec<u32> = (0..8).collect();
    let got = run(
        &shape,
        &shape.line("C.0"),
        "ud",
        "ud",
        &b,
        &a,
        &c,
        &[0u32; 8],
        8,
    );
    let expected: Vec<u32> = (0..8).map(|ch| 300 + ch).collect();
    assert_eq!(got, expected);
}

/// s2 weights with u8 activations: OPS is 4 (one source is 8-bit), so one weight dword feeds
/// 32 / (4 * 2) = 4 stages. Stage 0 takes 2-bit elements 0..3 = [1, -2, 0, -1] (codes 01 10 00
/// 11, byte 0xC9), stage 1 elements 4..7 = [1, 1, 1, 1] (byte 0x55). A's row has 8 bytes
/// 1..8. Stage 0: 1*1 + 2*(-2) + 3*0 + 4*(-1) = -7; stage 1: 5 + 6 + 7 + 8 = 26; total 19.
#[test]
fn hand_written_sub_byte_layout() {
    let shape = Shape {
        w: "s2",
        a: "u8",
        sd: 2,
        rc: 1,
        n: 8,
    };
    let b = vec![0x0000_55c9u32; 8];
    let a = vec![0x0403_0201u32, 0x0807_0605];
    let got = run::<u32, u32>(
        &shape,
        &shape.line("%null.0"),
        "d",
        "d",
        &b,
        &a,
        &[],
        &[0; 8],
        8,
    );
    assert_eq!(got, vec![19u32; 8]);
}

/// 32-bit wrap-around: i32::MAX plus 127 * 127 * 32 (s8 x s8, SD 8, every element 127).
#[test]
fn integer_accumulation_wraps() {
    let shape = Shape {
        w: "s8",
        a: "s8",
        sd: 8,
        rc: 1,
        n: 8,
    };
    let b = vec![0x7f7f_7f7fu32; 64];
    let a = vec![0x7f7f_7f7fu32; 8];
    let c = vec![i32::MAX as u32; 8];
    let got = run(
        &shape,
        &shape.line("C.0"),
        "d",
        "d",
        &b,
        &a,
        &c,
        &[0u32; 8],
        8,
    );
    let expected = (i32::MAX as u32).wrapping_add(127 * 127 * 32);
    // 2^31 - 1 + 516128 leaves the D range: it wraps to -2146967521, bits 0x8007E01F.
    assert_eq!(expected as i32, -2_146_967_521);
    assert_eq!(got, vec![expected; 8]);
}

/// bfloat16 bits of a value that bf16 holds exactly.
fn bf(x: f32) -> u64 {
    let b = x.to_bits();
    assert_eq!(b & 0xffff, 0, "{x} is not a bfloat16 value");
    u64::from(b >> 16)
}

/// binary16 bits of a normal (or zero) value that binary16 holds exactly.
fn hf(x: f32) -> u64 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let sign = (b >> 31) << 15;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&exp) && b & 0x1fff == 0,
        "{x} is not a normal half"
    );
    u64::from(sign | (exp as u32) << 10 | (b >> 13) & 0x3ff)
}

/// The value of binary16 bits (normal or zero).
fn hf_value(h: u16) -> f32 {
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f32::from(h & 0x3ff);
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    match exp {
        0 => sign * mant * 2f32.powi(-24),
        e => sign * (1.0 + mant / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Small values whose products and sums stay exact in F.
const SMALL: [f32; 9] = [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0];

/// A float DPAS over values from SMALL; the reference sums in f64, exactly.
/// A matrix of F values, row by row.
type Matrix = Vec<Vec<f32>>;

fn float_matrices(shape: &Shape, seed: u64) -> (Matrix, Matrix, Matrix) {
    let (m, k, n) = (shape.rc as usize, shape.k() as usize, shape.n as usize);
    let mut rng = Lcg(seed);
    let mut pick = || SMALL[(rng.next() % SMALL.len() as u64) as usize];
    let bm = (0..k).map(|_| (0..n).map(|_| pick()).collect()).collect();
    let am = (0..m).map(|_| (0..k).map(|_| pick()).collect()).collect();
    let cm = (0..m)
        .map(|_| (0..n).map(|_| pick() * 4.0).collect())
        .collect();
    (am, bm, cm)
}

fn reference(am: &[Vec<f32>], bm: &[Vec<f32>], cm: Option<&[Vec<f32>]>) -> Vec<f32> {
    let mut out = Vec::new();
    for (i, arow) in am.iter().enumerate() {
        for j in 0..bm[0].len() {
            let mut d = cm.map_or(0.0, |c| f64::from(c[i][j]));
            for (kk, brow) in bm.iter().enumerate() {
                d += f64::from(arow[kk]) * f64::from(brow[j]);
            }
            out.push(d as f32); // exact: every partial sum is a small multiple of 1/4
        }
    }
    out
}

fn encode(p: &str, x: f32) -> u64 {
    match p {
        "bf" => bf(x),
        "hf" => hf(x),
        _ => u64::from(x.to_bits()),
    }
}

fn pack_float(shape: &Shape, am: &[Vec<f32>], bm: &[Vec<f32>]) -> (Vec<u32>, Vec<u32>) {
    let enc = |m: &[Vec<f32>], p: &str| -> Vec<Vec<u64>> {
        m.iter()
            .map(|r| r.iter().map(|&x| encode(p, x)).collect())
            .collect()
    };
    (
        shape.pack_b(&enc(bm, shape.w)),
        shape.pack_a(&enc(am, shape.a)),
    )
}

#[test]
fn bf_with_f_accumulator_exec16() {
    for (sd, rc, seed) in [(8, 4, 1), (8, 1, 2), (4, 3, 3), (1, 8, 4)] {
        let shape = Shape {
            w: "bf",
            a: "bf",
            sd,
            rc,
            n: 16,
        };
        let (am, bm, cm) = float_matrices(&shape, seed);
        let (b, a) = pack_float(&shape, &am, &bm);
        let c: Vec<f32> = cm.iter().flatten().copied().collect();
        let preset = vec![f32::NAN; c.len()];
        let got = run(
            &shape,
            &shape.line("C.0"),
            "f",
            "f",
            &b,
            &a,
            &c,
            &preset,
            16,
        );
        assert_eq!(got, reference(&am, &bm, Some(&cm)), "sd {sd} rc {rc}");
    }
}

#[test]
fn bf_with_bf_accumulators_and_null_src0() {
    let shape = Shape {
        w: "bf",
        a: "bf",
        sd: 8,
        rc: 2,
        n: 8,
    };
    let (am, bm, cm) = float_matrices(&shape, 11);
    let (b, a) = pack_float(&shape, &am, &bm);
    let c: Vec<u16> = cm.iter().flatten().map(|&x| bf(x) as u16).collect();
    let got: Vec<u16> = run(
        &shape,
        &shape.line("C.0"),
        "bf",
        "bf",
        &b,
        &a,
        &c,
        &[0u16; 16],
        8,
    );
    let expected: Vec<u16> = reference(&am, &bm, Some(&cm))
        .iter()
        .map(|&x| bf(x) as u16)
        .collect();
    assert_eq!(got, expected);
    let got: Vec<u16> = run::<u16, u16>(
        &shape,
        &shape.line("%null.0"),
        "bf",
        "bf",
        &b,
        &a,
        &[],
        &[0; 16],
        8,
    );
    let expected: Vec<u16> = reference(&am, &bm, None)
        .iter()
        .map(|&x| bf(x) as u16)
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn hf_with_hf_and_f_accumulators() {
    for (n, sd, rc) in [(8, 8, 2), (16, 8, 3), (16, 2, 1)] {
        let shape = Shape {
            w: "hf",
            a: "hf",
            sd,
            rc,
            n,
        };
        let (am, bm, cm) = float_matrices(&shape, u64::from(n + sd + rc));
        let (b, a) = pack_float(&shape, &am, &bm);
        let expected = reference(&am, &bm, Some(&cm));
        // HF Dst and Src0.
        let c: Vec<u16> = cm.iter().flatten().map(|&x| hf(x) as u16).collect();
        let preset = vec![0u16; c.len()];
        let got: Vec<u16> = run(
            &shape,
            &shape.line("C.0"),
            "hf",
            "hf",
            &b,
            &a,
            &c,
            &preset,
            n,
        );
        let got: Vec<f32> = got.into_iter().map(hf_value).collect();
        assert_eq!(got, expected);
        // F Dst from an HF Src0.
        let got: Vec<f32> = run(
            &shape,
            &shape.line("C.0"),
            "f",
            "hf",
            &b,
            &a,
            &c,
            &vec![0f32; c.len()],
            n,
        );
        assert_eq!(got, expected);
    }
}

#[test]
fn tf32_ignores_the_low_13_bits() {
    let shape = Shape {
        w: "tf32",
        a: "tf32",
        sd: 8,
        rc: 2,
        n: 16,
    };
    let (am, bm, cm) = float_matrices(&shape, 5);
    let (mut b, mut a) = pack_float(&shape, &am, &bm);
    // Garbage below the 10 TF32 mantissa bits must not change the result.
    for d in b.iter_mut().chain(a.iter_mut()) {
        *d |= 0x1fff;
    }
    let c: Vec<f32> = cm.iter().flatten().copied().collect();
    let got = run(
        &shape,
        &shape.line("C.0"),
        "f",
        "f",
        &b,
        &a,
        &c,
        &[0f32; 32],
        16,
    );
    assert_eq!(got, reference(&am, &bm, Some(&cm)));
}

/// One channel's bf DPAS with SD 2: returns D[0] for accumulator `c` and the two stages' pairs
/// `(a0, b0, a1, b1)`.
fn bf_stages(c: f32, stages: [(f32, f32, f32, f32); 2]) -> f32 {
    let shape = Shape {
        w: "bf",
        a: "bf",
        sd: 2,
        rc: 1,
        n: 8,
    };
    let mut b = vec![0u32; 16];
    let mut a = vec![0u32; 2];
    for (s, (a0, b0, a1, b1)) in stages.iter().enumerate() {
        for ch in 0..8 {
            b[s * 8 + ch] = (bf(*b0) | bf(*b1) << 16) as u32;
        }
        a[s] = (bf(*a0) | bf(*a1) << 16) as u32;
    }
    let got = run(
        &shape,
        &shape.line("C.0"),
        "f",
        "f",
        &b,
        &a,
        &[c; 8],
        &[0f32; 8],
        8,
    );
    assert!(got.iter().all(|&x| x.to_bits() == got[0].to_bits()));
    got[0]
}

/// The float rounding choice: each stage rounds (accumulator + its products), summed exactly,
/// once to F, to nearest even. With ulp(1) = 2^-23 in F:
#[test]
fn float_stages_round_once_each() {
    let t24 = 2f32.powi(-24);
    // Two stages each adding 2^-24 to 1: each stage sum 1 + 2^-24 is a tie and rounds to 1
    // (even). Summing the whole dot product exactly first would give 1 + 2^-23 instead.
    let got = bf_stages(1.0, [(t24, 1.0, 0.0, 0.0), (t24, 1.0, 0.0, 0.0)]);
    assert_eq!(got.to_bits(), 0x3f80_0000);
    // One stage with both products 2^-24: the exact stage sum 1 + 2^-23 is representable.
    // Adding the products to the accumulator one at a time would round twice to 1.
    let got = bf_stages(1.0, [(t24, 1.0, t24, 1.0), (0.0, 0.0, 0.0, 0.0)]);
    assert_eq!(got.to_bits(), 0x3f80_0001);
    // 1 + 2^-24 + 2^-60: just above the tie, rounds up to 1 + 2^-23. An f64 sum would round
    // the 2^-60 away first and then tie to 1.
    let t30 = 2f32.powi(-30);
    let got = bf_stages(1.0, [(t24, 1.0, t30, t30), (0.0, 0.0, 0.0, 0.0)]);
    assert_eq!(got.to_bits(), 0x3f80_0001);
    // Cancellation is exact: 2^100 - 2^100 + 2^-100 (products 2^50 * 2^50 and -(2^50 * 2^50),
    // accumulator 2^-100) gives 2^-100.
    let p = 2f32.powi(50);
    let got = bf_stages(2f32.powi(-100), [(p, p, -p, p), (0.0, 0.0, 0.0, 0.0)]);
    assert_eq!(got, 2f32.powi(-100));
}

#[test]
fn float_special_values() {
    let inf = f32::INFINITY;
    // An infinite product gives an infinity that later finite stages keep.
    let got = bf_stages(1.0, [(inf, 2.0, 1.0, 1.0), (1.0, 1.0, 0.0, 0.0)]);
    assert_eq!(got, inf);
    // Infinity times zero: the F NaN 0x7FC00000, kept by the next stage.
    let got = bf_stages(1.0, [(inf, 0.0, 1.0, 1.0), (1.0, 1.0, 0.0, 0.0)]);
    assert_eq!(got.to_bits(), 0x7fc0_0000);
    // Infinities of opposite signs.
    let got = bf_stages(inf, [(-inf, 1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0)]);
    assert_eq!(got.to_bits(), 0x7fc0_0000);
    // A sum above the largest F overflows to infinity: 2^127 * 1.5 + 2^127 * 1.5 = 3 * 2^127.
    let big = 2f32.powi(127);
    let got = bf_stages(0.0, [(big, 1.5, big, 1.5), (0.0, 0.0, 0.0, 0.0)]);
    assert_eq!(got, inf);
}

/// HF denormals are used as they are: 2^-24 * 2^-24 = 2^-48, a normal F value.
#[test]
fn hf_denormals_are_not_flushed() {
    let shape = Shape {
        w: "hf",
        a: "hf",
        sd: 1,
        rc: 1,
        n: 8,
    };
    let b = vec![0x0000_0001u32; 8]; // elements 2^-24 and 0
    let a = vec![0x0000_0001u32]; // 2^-24 and 0
    let got = run::<f32, f32>(
        &shape,
        &shape.line("%null.0"),
        "f",
        "f",
        &b,
        &a,
        &[],
        &[1.0; 8],
        8,
    );
    assert_eq!(got, vec![2f32.powi(-48); 8]);
}

/// A SIMD-8 launch runs an exec-16 DPAS with channels 8..15 disabled: their elements keep their
/// values in every row; with M1_NM all channels are written.
#[test]
fn disabled_channels_keep_their_values() {
    let shape = Shape {
        w: "u8",
        a: "u8",
        sd: 8,
        rc: 2,
        n: 16,
    };
    let b = vec![0x0101_0101u32; 128];
    let a = vec![0x0101_0101u32; 16];
    let preset = vec![7u32; 32];
    let line = shape.line("%null.0");
    let got = run::<u32, u32>(&shape, &line, "ud", "ud", &b, &a, &[], &preset, 8);
    for row in 0..2 {
        for ch in 0..16 {
            let want = if ch < 8 { 32 } else { 7 };
            assert_eq!(got[row * 16 + ch], want, "row {row} channel {ch}");
        }
    }
    let line = line.replace("(M1, 16)", "(M1_NM, 16)");
    let got = run::<u32, u32>(&shape, &line, "ud", "ud", &b, &a, &[], &preset, 8);
    assert_eq!(got, vec![32; 32]);
}

/// Loads one DPAS line with declarations; returns the load error message.
fn load_error(decls: &str, line: &str, grf: u32) -> String {
    let src = format!("{decls}{line}\n");
    match Program::from_text(&src, &LoadOptions::default().grf_bytes(grf)) {
        Ok(_) => panic!("{line} loaded"),
        Err(e) => e.to_string(),
    }
}

const DECLS: &str = "\
.decl DF v_type=G type=f num_elts=128 align=GRF
.decl DD v_type=G type=d num_elts=128 align=GRF
.decl DB v_type=G type=bf num_elts=128 align=GRF
.decl DH v_type=G type=hf num_elts=128 align=GRF
.decl DQ v_type=G type=df num_elts=64 align=GRF
.decl B v_type=G type=ud num_elts=128 align=GRF
.decl BF v_type=G type=f num_elts=128 align=GRF
.decl A v_type=G type=ud num_elts=64 align=GRF
.decl SMALL v_type=G type=ud num_elts=16 align=GRF
";

#[test]
fn illegal_forms_are_load_errors() {
    let cases: [(&str, u32, &str); 16] = [
        (
            "dpas.s8.s8.8.1 (M1, 16) DD.0 DD.0 B.0 A(0,0)",
            32,
            "execution size 16",
        ),
        (
            "dpas.s8.s8.8.1 (M1, 8) DD.0 DD.0 B.0 A(0,0)",
            64,
            "execution size 8",
        ),
        (
            "dpas.bf.hf.8.1 (M1, 16) DF.0 DF.0 B.0 A(0,0)",
            64,
            "cannot be combined",
        ),
        (
            "dpas.bf.s8.8.1 (M1, 16) DF.0 DF.0 B.0 A(0,0)",
            64,
            "cannot be combined",
        ),
        (
            "dpas.s8.s8.8.1 (M1, 16) DF.0 DD.0 B.0 A(0,0)",
            64,
            "Dst must have type d or ud",
        ),
        (
            "dpas.bf.bf.8.1 (M1, 16) DH.0 DF.0 B.0 A(0,0)",
            64,
            "Dst must have type f or bf",
        ),
        (
            "dpas.hf.hf.8.1 (M1, 16) DF.0 DB.0 B.0 A(0,0)",
            64,
            "Src0 must have type f or hf",
        ),
        (
            "dpas.tf32.tf32.8.1 (M1, 16) DB.0 DF.0 B.0 A(0,0)",
            64,
            "must have type f,",
        ),
        ("dpas.s8.s8.8.1 (M1, 16) DQ.0 DD.0 B.0 A(0,0)", 64, "not df"),
        (
            "dpas.s8.s8.8.1 (M1, 16) DD.0 DD.0 BF.0 A(0,0)",
            64,
            "Src1 holds packed elements",
        ),
        (
            "dpas.s8.s8.3.1 (M1, 16) DD.0 DD.0 B.0 A(0,0)",
            64,
            "systolic depth 3",
        ),
        (
            "dpas.s8.s8.8.9 (M1, 16) DD.0 DD.0 B.0 A(0,0)",
            64,
            "repeat count 9",
        ),
        (
            "dpas.s8.s8.8.0 (M1, 16) DD.0 DD.0 B.0 A(0,0)",
            64,
            "repeat count 0",
        ),
        (
            "dpas.s8.s8.8.1 (M1, 16) %null.0 DD.0 B.0 A(0,0)",
            64,
            "destination cannot be %null",
        ),
        (
            "dpas.s8.s8.8.1 (M1, 16) DD.0 DD.0 SMALL.0 A(0,0)",
            64,
            "needs 512 bytes",
        ),
        (
            "dpas.s8.s8.8.1 (M1, 16) DD.4 DD.0 B.0 A(0,0)",
            64,
            "Dst must start at a multiple of 64",
        ),
    ];
    for (line, grf, want) in cases {
        let message = load_error(DECLS, line, grf);
        assert!(message.contains(want), "{line}: {message}");
        // The DPAS is line 10, after the nine declarations; the column is the instruction's
        // or, for a problem of one operand, that operand's (a word after a blank).
        let columns: Vec<String> = std::iter::once(1)
            .chain(line.match_indices(' ').map(|(i, _)| i + 2))
            .map(|col| format!("at 10:{col}"))
            .collect();
        assert!(
            columns.iter().any(|c| message.ends_with(c.as_str())),
            "{line}: no location in {message}"
        );
    }
    // Src2 rows of s8 at SD 8 are 32 bytes: A(0,4) is 16 bytes in.
    let message = load_error(DECLS, "dpas.s8.s8.8.1 (M1, 16) DD.0 DD.0 B.0 A(0,4)", 64);
    assert!(
        message.contains("Src2 must start at a multiple of 32"),
        "{message}"
    );
}

/// Lines in the compiler's style: parsed, printed back unchanged, accepted by the checker and
/// loaded by the runtime with 64-byte GRFs. Precisions without a documented code do not parse.
#[test]
fn compiler_style_lines_round_trip_check_and_load() {
    let decls = "\
.decl D1 v_type=G type=f num_elts=16 align=GRF
.decl C1 v_type=G type=f num_elts=16 align=GRF
.decl B1 v_type=G type=ud num_elts=128 align=GRF
.decl A1 v_type=G type=ud num_elts=16 align=GRF
.decl D4 v_type=G type=d num_elts=64 align=GRF
.decl C4 v_type=G type=d num_elts=64 align=GRF
.decl B4 v_type=G type=d num_elts=128 align=GRF
.decl A4 v_type=G type=ud num_elts=32 align=GRF
.decl ACC v_type=G type=hf num_elts=128 align=GRF
.decl V1 v_type=G type=ud num_elts=128 align=GRF
";
    let lines = [
        "dpas.bf.bf.8.1 (M1, 16) D1.0 C1.0 B1.0 A1(0,0)",
        "dpas.s8.u8.8.4 (M1, 16) D4.0 C4.0 B4.0 A4(0,0)",
        "dpas.u4.s4.8.4 (M1, 16) D4.0 C4.0 B4.0 A4(0,0)",
        "dpas.tf32.tf32.8.1 (M1, 16) D1.0 C1.0 B1.0 A1(0,0)",
        "dpas.hf.hf.8.8 (M1, 16) ACC.0 %null.0 V1.0 V1(0,0)",
    ];
    for line in lines {
        let instr =
            visa_isa::text::parse_instruction(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert_eq!(visa_isa::text::format_instruction(&instr), line);
        let src = format!(".kernel \"k\"\n{decls}{line}\nret (M1, 1)\n");
        let module = visa_isa::text::parse(&src).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        let diagnostics = visa_isa::text::check(&module);
        assert!(diagnostics.is_empty(), "{line}: {diagnostics:?}");
        Program::from_text(&src, &LoadOptions::default().grf_bytes(64))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    for line in [
        "dpas.bf8.bf8.8.4 (M1, 16) D1.0 C1.0 B1.0 A1(0,0)",
        "dpas.e2m1.e2m1.8.1 (M1, 16) D1.0 C1.0 B1.0 A1(0,0)",
        "dpas.?.?.0.0 (M1, 16) D1.0 %null.0 B1.0 A1(0,0)",
    ] {
        assert!(
            visa_isa::text::parse_instruction(line).is_err(),
            "{line} parsed"
        );
    }
}

/// The tiles of a GEMM step as the Intel compiler and the template libraries lay them out: A
/// (8 x 32 signed bytes) and B (32 x 16 signed bytes, VNNI-packed) loaded by
/// `lsc_load_block2d` into two aliases of one variable, then read by `dpas` through narrower
/// aliases over the loaded tiles (one GRF each: `dpas` reads its 4 and 8 registers through them,
/// past the alias but inside the root variable). B is loaded either through the six operands or
/// through a payload register (`flat[P + (0,0)]`). Expected: the plain matrix product, computed
/// here.
#[test]
fn dpas_through_aliases_on_loaded_tiles() {
    let (m, k, n) = (8usize, 32usize, 16usize);
    let mut rng = Lcg(0x5EED_D9A5);
    let a: Vec<i8> = (0..m * k).map(|_| rng.int(-128, 127) as i8).collect();
    let b: Vec<i8> = (0..k * n).map(|_| rng.int(-128, 127) as i8).collect();
    let mut expected = vec![0i32; m * n];
    for row in 0..m {
        for col in 0..n {
            expected[row * n + col] = (0..k)
                .map(|i| i32::from(a[row * k + i]) * i32::from(b[i * n + col]))
                .sum();
        }
    }
    let head = "\
.decl A_BASE v_type=G type=uq num_elts=1
.decl B_BASE v_type=G type=uq num_elts=1
.decl TILES v_type=G type=d num_elts=192 align=GRF
.decl A_T v_type=G type=d num_elts=64 alias=<TILES, 0>
.decl B_T v_type=G type=d num_elts=128 alias=<TILES, 256>
.decl A_V v_type=G type=d num_elts=16 alias=<A_T, 0>
.decl B_V v_type=G type=ud num_elts=16 alias=<B_T, 0>
.decl C v_type=G type=d num_elts=128 align=GRF
.decl P v_type=G type=ud num_elts=16 align=GRF
.decl P64 v_type=G type=uq num_elts=8 alias=<P, 0>
lsc_load_block2d.ugm (M1, 1) A_T:d8.32x8nn flat[A_BASE,0x1F,0x7,0x1F,0x0,0x0]
";
    let b_loads = [
        "lsc_load_block2d.ugm (M1, 1) B_T:d8.16x32nt flat[B_BASE,0xF,0x1F,0xF,0x0,0x0]\n"
            .to_string(),
        // The payload: base, width, height and pitch minus 1, X, Y, then 16x32 (minus 1 each).
        "mov (M1, 1) P64(0,0)<1> B_BASE(0,0)<0;1,0>\n\
         mov (M1, 1) P(0,2)<1> 0xF:ud\n\
         mov (M1, 1) P(0,3)<1> 0x1F:ud\n\
         mov (M1, 1) P(0,4)<1> 0xF:ud\n\
         mov (M1, 2) P(0,5)<1> 0x0:ud\n\
         mov (M1, 1) P(0,7)<1> 0x1F0F:ud\n\
         lsc_load_block2d.ugm (M1, 1) B_T:d8.16x32nt flat[P + (0,0)]\n"
            .to_string(),
    ];
    for b_load in b_loads {
        let src = format!("{head}{b_load}dpas.s8.s8.8.8 (M1, 16) C.0 %null.0 B_V.0 A_V(0,0)\n");
        let module = visa_isa::text::parse(&src).expect("parses");
        let options = visa_isa::text::CheckOptions {
            platform: visa_isa::rules::Platform::parse("pvc"),
            ..Default::default()
        };
        let errors: Vec<String> =
            visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &options)
                .iter()
                .filter(|d| d.is_error())
                .map(ToString::to_string)
                .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let p = program_with(&src, &LoadOptions::default().grf_bytes(64));
        let mut svm = visa_runtime::Svm::new();
        let a_base = svm.alloc_from(&a.iter().map(|v| *v as u8).collect::<Vec<_>>());
        let b_base = svm.alloc_from(&b.iter().map(|v| *v as u8).collect::<Vec<_>>());
        let r = Launch::new(&p)
            .simd(16)
            .svm(&svm)
            .bind_scalar("A_BASE", a_base)
            .bind_scalar("B_BASE", b_base)
            .capture("C")
            .run()
            .unwrap_or_else(|e| panic!("{b_load}: {e}"));
        assert_eq!(whole::<i32>(&r, "C", 0), expected, "{b_load}");
    }
}

/// An operand through an alias may reach past the alias inside its root variable (the compiler
/// allows it): it reads and writes the root's bytes. Past the root it is refused at load, naming
/// the alias and its root.
#[test]
fn alias_accesses_extend_inside_the_root_and_stop_at_its_end() {
    // R: 32 dwords (two 64-byte GRFs); AL: 4 dwords at byte 16 of R.
    let decls = "\
.decl R v_type=G type=ud num_elts=32 align=GRF
.decl AL v_type=G type=ud num_elts=4 alias=<R, 16>
.decl O v_type=G type=ud num_elts=16 align=GRF
";
    // Dwords 8..15 of R (AL's column 4) get 100 + i; AL(1,0) is dword 20 of R, read 8 wide.
    let src = format!(
        "{decls}mov (M1, 16) R(0,0)<1> 0x0:ud\n\
         mov (M1, 16) R(1,0)<1> 0x7:ud\n\
         mov (M1, 8) AL(0,4)<1> 0x64:ud\n\
         add (M1, 8) AL(0,4)<1> AL(0,4)<1;1,0> O(0,0)<1;1,0>\n\
         mov (M1, 8) O(0,8)<1> AL(1,0)<1;1,0>\n"
    );
    let p = program_with(&src, &LoadOptions::default().grf_bytes(64));
    let o: Vec<u32> = (0..16).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_elements("O", &o)
        .capture("R")
        .capture("O")
        .run()
        .unwrap();
    let mut want_r = vec![0u32; 32];
    for w in want_r.iter_mut().skip(16) {
        *w = 7;
    }
    for i in 0..8 {
        want_r[8 + i] = 100 + i as u32;
    }
    assert_eq!(whole::<u32>(&r, "R", 0), want_r);
    let mut want_o = o.clone();
    for w in want_o.iter_mut().skip(8) {
        *w = 7;
    }
    assert_eq!(whole::<u32>(&r, "O", 0), want_o);
    // Past R's end: AL(1,4) is dword 24 of R and 16 dwords from it end at dword 40; the load's
    // 128 bytes from byte 64 of AL end at byte 208 of R.
    for line in [
        "mov (M1, 16) AL(1,4)<1> 0x1:ud",
        "lsc_load.ugm (M1, 16) AL.64:d32x2 flat[O]:a32",
    ] {
        let e = Program::from_text(
            &format!("{decls}{line}\n"),
            &LoadOptions::default().grf_bytes(64),
        )
        .expect_err(line);
        assert!(
            e.to_string()
                .contains("'AL' (an alias of 16 bytes at byte 16 of 'R', 128 bytes)"),
            "{line}: {e}"
        );
    }
}

/// Src1 written for channels 0 to 7 only (`mov (M1, 8)` into each of its GRFs): a launch that
/// enables those channels never reads the others' bytes, and gets `8 * 4` sums of ones; one that
/// enables all 16 traps at the first channel whose weights were never written, channel 8.
/// (`dpas` reads whole operands at once where it can; a read that meets unwritten bytes must
/// leave the reporting to the channel-by-channel reads, and a disabled channel must not trap.)
#[test]
fn unwritten_weights_trap_only_in_an_enabled_channel() {
    let shape = Shape {
        w: "u8",
        a: "u8",
        sd: 8,
        rc: 1,
        n: 16,
    };
    let mut src = decls(&shape, "ud", "ud", 128, 8);
    for grf in 0..8 {
        src.push_str(&format!("mov (M1_NM, 8) B({grf},0)<1> 0x01010101:ud\n"));
    }
    src.push_str("mov (M1_NM, 8) A(0,0)<1> 0x01010101:ud\n");
    src.push_str(&shape.line("%null.0"));
    src.push('\n');
    let options = shape.options().engine(visa_runtime::Engine::Interpreter);
    let p = program_with(&src, &options);
    let preset = vec![7u32; 16];
    let launch = |simd| {
        Launch::new(&p)
            .simd(simd)
            .bind_elements("D", &preset)
            .capture("D")
            .run()
    };
    let got = launch(8).unwrap_or_else(|e| panic!("SIMD8: {e}"));
    let want: Vec<u32> = (0..16).map(|ch| if ch < 8 { 32 } else { 7 }).collect();
    assert_eq!(whole::<u32>(&got, "D", 0), want);
    match launch(16) {
        Err(visa_runtime::LaunchError::Trap(trap)) => {
            assert_eq!(
                trap.kind,
                visa_runtime::TrapKind::Uninitialized { var: "B".into() }
            );
            assert_eq!((trap.pc, trap.lane), (9, Some(8)));
        }
        other => panic!("SIMD16: expected a trap, got {other:?}"),
    }
}

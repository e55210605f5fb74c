//! Operand-type forms the Intel compiler accepts although the documents' type maps do not list
//! them (visa-verifier-rules §4.1-4.2, §4.8), executed with the hardware's meaning: `shr` is a
//! logical shift whatever the types, `asr` arithmetic on the source's bits, 64-bit shifts mask
//! the count to 6 bits, 64-bit pointer arithmetic wraps, immediate SVM addresses are
//! zero-extended, and mixed integer widths compute exactly then truncate to the destination.
//! Each kernel passes the shared checker (`visa check`, `isa!`) without an error and loads with
//! the default options (the documents' type maps are warnings); expected values come from
//! Rust's own integer operations.

mod common;

use common::program_with;
use visa_runtime::{Launch, LoadOptions, Program, Svm, TrapKind};

fn load(src: &str) -> Program {
    let module = visa_isa::text::parse(src).expect("parses");
    let errors: Vec<String> = visa_isa::text::check(&module)
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "the checker rejects it: {errors:?}");
    program_with(src, &LoadOptions::default())
}

/// Shift counts that exercise the masking: in range, the width itself, past it, negative.
const COUNTS32: [i32; 16] = [0, 1, 4, 15, 16, 31, 32, 33, 36, 63, 64, 65, -1, -31, 7, 100];

#[test]
fn shr_with_a_signed_destination_is_logical() {
    // The line: D:d, S:ud, C:d.
    let p = load(
        "
.decl D v_type=G type=d num_elts=16 align=GRF
.decl S v_type=G type=ud num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
shr (M1, 16) D(0,0)<1> S(0,0)<1;1,0> C(0,0)<1;1,0>
",
    );
    let s: Vec<u32> = (0..16u32)
        .map(|i| 0x8000_0001u32.wrapping_mul(i + 1) ^ 0x00F0_0000)
        .collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("S", &s)
        .bind_vector("C", &COUNTS32)
        .bind_vector("D", &[0i32; 16])
        .run()
        .unwrap();
    let expected: Vec<i32> = s
        .iter()
        .zip(COUNTS32)
        .map(|(s, c)| (s >> (c as u32 & 31)) as i32)
        .collect();
    assert_eq!(r.vector::<i32>("D").unwrap(), expected);
    // The top bit of a shifted-by-zero source stays a sign bit: some results are negative.
    assert!(expected.iter().any(|v| *v < 0));
}

#[test]
fn shifts_of_signed_sources_shift_the_bits() {
    // shr on d sources is logical; asr on ud sources is arithmetic; shl on w wraps in 16 bits
    // when the destination is w; shr from d into a q destination zero-extends the 32 bits.
    let p = load(
        "
.decl S v_type=G type=d num_elts=16 align=GRF
.decl U v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=w num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
.decl LSR v_type=G type=d num_elts=16 align=GRF
.decl ASR v_type=G type=ud num_elts=16 align=GRF
.decl SHLW v_type=G type=w num_elts=16 align=GRF
.decl WIDE v_type=G type=q num_elts=16 align=GRF
shr (M1, 16) LSR(0,0)<1> S(0,0)<1;1,0> C(0,0)<1;1,0>
asr (M1, 16) ASR(0,0)<1> U(0,0)<1;1,0> C(0,0)<1;1,0>
shl (M1, 16) SHLW(0,0)<1> W(0,0)<1;1,0> C(0,0)<1;1,0>
shr (M1, 16) WIDE(0,0)<1> S(0,0)<1;1,0> 0x4:d
",
    );
    let s: Vec<i32> = (0..16)
        .map(|i| -1_000_003 * (i + 1) + (i & 1) * 0x7000_0000)
        .collect();
    let u: Vec<u32> = s.iter().map(|v| *v as u32).collect();
    let w: Vec<i16> = (0..16).map(|i| -300 * i as i16 + 77).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("S", &s)
        .bind_vector("U", &u)
        .bind_vector("W", &w)
        .bind_vector("C", &COUNTS32)
        .capture("LSR")
        .capture("ASR")
        .capture("SHLW")
        .capture("WIDE")
        .run()
        .unwrap();
    let count = |c: i32| c as u32 & 31;
    let lsr: Vec<i32> = s
        .iter()
        .zip(COUNTS32)
        .map(|(v, c)| ((*v as u32) >> count(c)) as i32)
        .collect();
    let asr: Vec<u32> = s
        .iter()
        .zip(COUNTS32)
        .map(|(v, c)| (v >> count(c)) as u32)
        .collect();
    // The w source is widened (sign-extended) before the shift; the d-typed count keeps 5
    // bits; the result is truncated to 16 bits.
    let shlw: Vec<i16> = w
        .iter()
        .zip(COUNTS32)
        .map(|(v, c)| ((i32::from(*v) as u32) << count(c)) as i16)
        .collect();
    let wide: Vec<i64> = s.iter().map(|v| i64::from((*v as u32) >> 4)).collect();
    assert_eq!(r.vector::<i32>("LSR").unwrap(), lsr);
    assert_eq!(r.vector::<u32>("ASR").unwrap(), asr);
    assert_eq!(r.vector::<i16>("SHLW").unwrap(), shlw);
    assert_eq!(r.vector::<i64>("WIDE").unwrap(), wide);
}

#[test]
fn sixty_four_bit_shifts_mask_the_count_to_six_bits() {
    let p = load(
        "
.decl A v_type=G type=q num_elts=8 align=GRF
.decl C v_type=G type=q num_elts=8 align=GRF
.decl SHL v_type=G type=q num_elts=8 align=GRF
.decl SHR v_type=G type=q num_elts=8 align=GRF
.decl ASR v_type=G type=q num_elts=8 align=GRF
shl (M1, 8) SHL(0,0)<1> A(0,0)<1;1,0> C(0,0)<1;1,0>
shr (M1, 8) SHR(0,0)<1> A(0,0)<1;1,0> C(0,0)<1;1,0>
asr (M1, 8) ASR(0,0)<1> A(0,0)<1;1,0> C(0,0)<1;1,0>
",
    );
    let a: Vec<i64> = vec![
        -0x0123_4567_89AB_CDEF,
        0x7654_3210_FEDC_BA98,
        -1,
        1,
        i64::MIN,
        0x0000_0001_0000_0000,
        -0x8000_0000,
        0x5555_5555_5555_5555,
    ];
    let c: Vec<i64> = vec![0, 1, 31, 32, 63, 64, 65, -1];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("A", &a)
        .bind_vector("C", &c)
        .capture("SHL")
        .capture("SHR")
        .capture("ASR")
        .run()
        .unwrap();
    let n = |c: i64| (c & 63) as u32;
    let shl: Vec<i64> = a.iter().zip(&c).map(|(a, c)| a << n(*c)).collect();
    let shr: Vec<i64> = a
        .iter()
        .zip(&c)
        .map(|(a, c)| ((*a as u64) >> n(*c)) as i64)
        .collect();
    let asr: Vec<i64> = a.iter().zip(&c).map(|(a, c)| a >> n(*c)).collect();
    assert_eq!(r.vector::<i64>("SHL").unwrap(), shl);
    assert_eq!(r.vector::<i64>("SHR").unwrap(), shr);
    assert_eq!(r.vector::<i64>("ASR").unwrap(), asr);
}

#[test]
fn pointer_arithmetic_on_uq_wraps_at_64_bits() {
    // The line, and the same step with a q immediate and a d (sign-extended) one.
    let p = load(
        "
.decl P v_type=G type=uq num_elts=16 align=GRF
.decl Q v_type=G type=uq num_elts=16 align=GRF
.decl R v_type=G type=uq num_elts=16 align=GRF
add (M1, 16) P(0,0)<1> P(0,0)<1;1,0> 0x4:uq
add (M1, 16) Q(0,0)<1> P(0,0)<1;1,0> -8:q
add (M1, 16) R(0,0)<1> P(0,0)<1;1,0> -16:d
",
    );
    let p0: Vec<u64> = (0..16u64)
        .map(|i| match i {
            0 => u64::MAX - 1,
            1 => u64::MAX - 3,
            2 => 0,
            _ => 0x7fff_ffff_fff0 + i * 0x1_0000_0001,
        })
        .collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("P", &p0)
        .capture("Q")
        .capture("R")
        .run()
        .unwrap();
    let plus4: Vec<u64> = p0.iter().map(|v| v.wrapping_add(4)).collect();
    assert_eq!(r.vector::<u64>("P").unwrap(), plus4);
    let minus8: Vec<u64> = plus4.iter().map(|v| v.wrapping_sub(8)).collect();
    assert_eq!(r.vector::<u64>("Q").unwrap(), minus8);
    let minus16: Vec<u64> = plus4.iter().map(|v| v.wrapping_sub(16)).collect();
    assert_eq!(r.vector::<u64>("R").unwrap(), minus16);
}

#[test]
fn mixed_integer_widths_compute_exactly_then_truncate() {
    let p = load(
        "
.decl B v_type=G type=ub num_elts=16 align=GRF
.decl W v_type=G type=w num_elts=16 align=GRF
.decl D v_type=G type=d num_elts=16 align=GRF
.decl UQ v_type=G type=uq num_elts=16 align=GRF
.decl ADDW v_type=G type=w num_elts=16 align=GRF
.decl MULD v_type=G type=d num_elts=16 align=GRF
.decl MADB v_type=G type=b num_elts=16 align=GRF
.decl SUBQ v_type=G type=q num_elts=16 align=GRF
.decl SATW v_type=G type=uw num_elts=16 align=GRF
add (M1, 16) ADDW(0,0)<1> B(0,0)<1;1,0> D(0,0)<1;1,0>
mul (M1, 16) MULD(0,0)<1> W(0,0)<1;1,0> B(0,0)<1;1,0>
mad (M1, 16) MADB(0,0)<1> W(0,0)<1;1,0> B(0,0)<1;1,0> D(0,0)<1;1,0>
add (M1, 16) SUBQ(0,0)<1> UQ(0,0)<1;1,0> (-)D(0,0)<1;1,0>
add.sat (M1, 16) SATW(0,0)<1> W(0,0)<1;1,0> D(0,0)<1;1,0>
",
    );
    let b: Vec<u8> = (0..16).map(|i| (i * 37 + 200) as u8).collect();
    let w: Vec<i16> = (0..16).map(|i| (i as i16 - 8) * 4001).collect();
    let d: Vec<i32> = (0..16i32)
        .map(|i| ((i - 5) * 123_457).wrapping_add((i % 3) * (i32::MIN / 2)))
        .collect();
    let uq: Vec<u64> = (0..16u64).map(|i| i * 0x1_0000_0003 + 5).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("B", &b)
        .bind_vector("W", &w)
        .bind_vector("D", &d)
        .bind_vector("UQ", &uq)
        .capture("ADDW")
        .capture("MULD")
        .capture("MADB")
        .capture("SUBQ")
        .capture("SATW")
        .run()
        .unwrap();
    let lanes = 0..16usize;
    let addw: Vec<i16> = lanes
        .clone()
        .map(|i| (i64::from(b[i]) + i64::from(d[i])) as i16)
        .collect();
    let muld: Vec<i32> = lanes
        .clone()
        .map(|i| (i64::from(w[i]) * i64::from(b[i])) as i32)
        .collect();
    let madb: Vec<i8> = lanes
        .clone()
        .map(|i| (i64::from(w[i]) * i64::from(b[i]) + i64::from(d[i])) as i8)
        .collect();
    let subq: Vec<i64> = lanes
        .clone()
        .map(|i| (i128::from(uq[i]) - i128::from(d[i])) as i64)
        .collect();
    let satw: Vec<u16> = lanes
        .map(|i| (i64::from(w[i]) + i64::from(d[i])).clamp(0, 0xffff) as u16)
        .collect();
    assert_eq!(r.vector::<i16>("ADDW").unwrap(), addw);
    assert_eq!(r.vector::<i32>("MULD").unwrap(), muld);
    assert_eq!(r.vector::<i8>("MADB").unwrap(), madb);
    assert_eq!(r.vector::<i64>("SUBQ").unwrap(), subq);
    assert_eq!(r.vector::<u16>("SATW").unwrap(), satw);
}

#[test]
fn immediate_svm_addresses_are_zero_extended() {
    let mut svm = Svm::new();
    // 16 pixels of 4 dwords: pixel i holds 100*i + channel.
    let pixels: Vec<u32> = (0..64u32).map(|k| 100 * (k / 4) + k % 4).collect();
    let base = svm.alloc_from(&pixels);
    let block_words: Vec<u32> = (0..8).map(|i| 0xA000 + i).collect();
    let block = svm.alloc_from(&block_words);
    assert!(
        base < 1 << 32 && block < 1 << 32,
        "test allocations below 4 GiB"
    );
    // A `ud` immediate of 0 as the global address (the form), a `d` immediate -16 whose
    // zero-extension 0xFFFF_FFF0 the per-lane offsets compensate, and an immediate `ud` block
    // address.
    let src = format!(
        "
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.decl ADDR2 v_type=G type=uq num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=48 align=GRF
.decl V2 v_type=G type=ud num_elts=16 align=GRF
.decl BLK v_type=G type=ud num_elts=8 align=GRF
svm_gather4scaled.RGB (M1, 16) 0x0:ud ADDR.0 V.0
svm_gather4scaled.G (M1, 16) -16:d ADDR2.0 V2.0
svm_block_ld (2) {block:#x}:ud BLK.0
"
    );
    let p = load(&src);
    let lane_pixel = |lane: u64| (lane * 7) % 16;
    let addr: Vec<u64> = (0..16).map(|l| base + 16 * lane_pixel(l)).collect();
    let addr2: Vec<u64> = addr.iter().map(|a| a.wrapping_sub(0xFFFF_FFF0)).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("ADDR", &addr)
        .bind_vector("ADDR2", &addr2)
        .capture("V")
        .capture("V2")
        .capture("BLK")
        .run()
        .unwrap();
    let (v, _) = r.thread_bytes("V", 0).unwrap();
    let v = visa_runtime::Buffer::from_bytes(v).to_vec::<u32>();
    // Channel-major: 16 R dwords, then 16 G, then 16 B.
    let expected: Vec<u32> = (0..3u64)
        .flat_map(|c| (0..16).map(move |l| (100 * lane_pixel(l) + c) as u32))
        .collect();
    assert_eq!(v, expected);
    let g: Vec<u32> = (0..16).map(|l| (100 * lane_pixel(l) + 1) as u32).collect();
    assert_eq!(r.vector::<u32>("V2").unwrap(), g);
    let (blk, _) = r.thread_bytes("BLK", 0).unwrap();
    assert_eq!(
        visa_runtime::Buffer::from_bytes(blk).to_vec::<u32>(),
        block_words
    );

    // Sign-extending the -16 would have addressed 0xFFFF_FFF0 bytes below the pixels instead:
    // with offsets meant for a sign-extended base, the gather leaves the allocations and traps.
    let sign_extended: Vec<u64> = addr.iter().map(|a| a + 16).collect();
    let result = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("ADDR", &addr)
        .bind_vector("ADDR2", &sign_extended)
        .run();
    assert!(
        matches!(common::trap_kind(result), TrapKind::SvmUnmapped { .. }),
        "a sign-extended reading of the immediate would have been in range"
    );
}

#[test]
fn mixed_signedness_comparisons_use_each_sources_own_type() {
    // Dword forms (the fast paths and compiled code take them): ud against d compare as
    // mathematical values, so 0x8000_0000:ud is greater than -1:d.
    let p = load(
        "
.decl U v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=d num_elts=16 align=GRF
.decl MX v_type=G type=d num_elts=16 align=GRF
.decl MN v_type=G type=ud num_elts=16 align=GRF
.decl LT v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
max (M1, 16) MX(0,0)<1> U(0,0)<1;1,0> D(0,0)<1;1,0>
min (M1, 16) MN(0,0)<1> U(0,0)<1;1,0> D(0,0)<1;1,0>
cmp.lt (M1, 16) P1 U(0,0)<1;1,0> D(0,0)<1;1,0>
(P1) sel (M1, 16) LT(0,0)<1> 0x1:d 0x0:d
",
    );
    let u: Vec<u32> = (0..16u32)
        .map(|i| i.wrapping_mul(0x0222_2222) ^ (i & 1) << 31)
        .collect();
    let d: Vec<i32> = (0..16i32).map(|i| (i - 8) * 0x0777_7777).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("U", &u)
        .bind_vector("D", &d)
        .capture("MX")
        .capture("MN")
        .capture("LT")
        .run()
        .unwrap();
    let pairs = || {
        u.iter()
            .zip(&d)
            .map(|(u, d)| (i64::from(*u), i64::from(*d)))
    };
    let mx: Vec<i32> = pairs().map(|(u, d)| u.max(d) as i32).collect();
    let mn: Vec<u32> = pairs().map(|(u, d)| u.min(d) as u32).collect();
    let lt: Vec<i32> = pairs().map(|(u, d)| i32::from(u < d)).collect();
    assert_eq!(r.vector::<i32>("MX").unwrap(), mx);
    assert_eq!(r.vector::<u32>("MN").unwrap(), mn);
    assert_eq!(r.vector::<i32>("LT").unwrap(), lt);
    // Both outcomes occur, including a large ud against a negative d.
    assert!(lt.contains(&0) && lt.contains(&1));
}

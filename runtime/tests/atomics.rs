//! Atomic messages: every operation of the documents' table, the 16- and 64-bit forms, return
//! values, lane order within one instruction, and real atomicity across groups running in
//! parallel (histograms and counters whose exact totals and returned tickets are checked).

mod common;

use common::{program, tracks_definedness, whole};
use visa_runtime::{Buffer, Launch, LaunchError, Svm, TrapKind};

const HISTOGRAM: &str = "
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl BIN v_type=G type=ud num_elts=16 align=GRF
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
and (M1, 16) BIN(0,0)<1> V(0,0)<1;1,0> 0xf:ud
shl (M1, 16) OFF(0,0)<1> BIN(0,0)<1;1,0> 0x2:ud
dword_atomic.inc (M1, 16) T6 OFF.0 %null.0 %null.0 OLD.0
";

fn values(n: usize) -> Vec<u32> {
    // A deterministic, uneven spread over the 16 bins.
    (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7 ^ (i % 5))
        .collect()
}

#[test]
fn surface_histogram_is_exact_at_any_group_count() {
    let p = program(HISTOGRAM);
    for groups in [1u32, 2, 64] {
        let launch = Launch::new(&p).simd(16).groups(groups).threads_per_group(2);
        let v = values(launch.work_items());
        let bins = Buffer::zeroed(16 * 4);
        let r = launch
            .bind_vector("V", &v)
            .bind_surface("T6", &bins)
            .capture("OLD")
            .run()
            .unwrap();
        let mut expected = [0u32; 16];
        for x in &v {
            expected[(x % 16) as usize] += 1;
        }
        assert_eq!(bins.to_vec::<u32>(), expected, "{groups} groups");
        // Every increment returned a distinct ticket: per bin, the old values are 0..count.
        let old = r.vector::<u32>("OLD").unwrap();
        for (bin, count) in expected.iter().enumerate() {
            let mut tickets: Vec<u32> = v
                .iter()
                .zip(&old)
                .filter(|(x, _)| (*x % 16) as usize == bin)
                .map(|(_, o)| *o)
                .collect();
            tickets.sort_unstable();
            assert_eq!(tickets, (0..*count).collect::<Vec<_>>(), "bin {bin}");
        }
    }
}

#[test]
fn lanes_naming_one_location_run_in_lane_order() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
.decl NEW v_type=G type=ud num_elts=16 align=GRF
.decl MEM v_type=G type=ud num_elts=4 align=GRF
mov (M1, 16) OFF(0,0)<1> 0x20:ud
dword_atomic.inc (M1, 16) %slm OFF.0 %null.0 %null.0 OLD.0
dword_atomic.predec (M1, 16) %slm OFF.0 %null.0 %null.0 NEW.0
oword_ld (1) %slm 0x2:ud MEM.0
",
    );
    // The counter at SLM byte 32 starts at 0 (SLM is zeroed per group); the predecs bring it
    // back to 0.
    let r = Launch::new(&p)
        .simd(16)
        .slm_size(64)
        .capture("OLD")
        .capture("NEW")
        .capture("MEM")
        .run()
        .unwrap();
    assert_eq!(r.vector::<u32>("OLD").unwrap(), (0..16).collect::<Vec<_>>());
    // predec returns the value after the decrement: 15, 14, ..., 0.
    assert_eq!(
        r.vector::<u32>("NEW").unwrap(),
        (0..16).rev().collect::<Vec<_>>()
    );
    let mem: Vec<u32> = whole(&r, "MEM", 0);
    assert_eq!(mem, [0, 0, 0, 0]);
}

/// Runs one `svm_atomic` line over 8 lanes whose addresses are `base + 4 * lane` (or 8 for
/// 64-bit), with `S0`/`S1` bound per lane; returns the returned values and the memory after.
fn svm_case<T: visa_runtime::Element>(
    line: &str,
    ty: &str,
    memory: &[T],
    s0: &[T],
    s1: &[T],
) -> (Vec<T>, Vec<T>) {
    let size = std::mem::size_of::<T>() as u64;
    let p = program(&format!(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl S0 v_type=G type={ty} num_elts=8 align=GRF
.decl S1 v_type=G type={ty} num_elts=8 align=GRF
.decl OLD v_type=G type={ty} num_elts=8 align=GRF
{line}
"
    ));
    let mut svm = Svm::new();
    let base = svm.alloc_from(memory);
    let r = Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_elements("A", &(0..8).map(|i| base + i * size).collect::<Vec<u64>>())
        .bind_elements("S0", s0)
        .bind_elements("S1", s1)
        .capture("OLD")
        .run()
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let old: Vec<T> = whole(&r, "OLD", 0);
    (old, svm.read_vec::<T>(base, 8).unwrap())
}

#[test]
fn svm_integer_operations_follow_the_table() {
    let mem: [u32; 8] = [10, 0, u32::MAX, 7, 0xF0F0, 5, 0x8000_0000, 3];
    let s0: [u32; 8] = [5, 1, 2, 7, 0xFF00, 9, 1, 4];
    let s1: [u32; 8] = [7, 0, 0, 7, 0, 5, 0, 3];
    type Reference = fn(u32, u32, u32) -> u32;
    let cases: [(&str, Reference); 13] = [
        ("add", |m, a, _| m.wrapping_add(a)),
        ("sub", |m, a, _| m.wrapping_sub(a)),
        ("inc", |m, _, _| m.wrapping_add(1)),
        ("dec", |m, _, _| m.wrapping_sub(1)),
        ("min", |m, a, _| m.min(a)),
        ("max", |m, a, _| m.max(a)),
        ("xchg", |_, a, _| a),
        ("cmpxchg", |m, a, b| if m == b { a } else { m }),
        ("and", |m, a, _| m & a),
        ("or", |m, a, _| m | a),
        ("xor", |m, a, _| m ^ a),
        ("imin", |m, a, _| (m as i32).min(a as i32) as u32),
        ("imax", |m, a, _| (m as i32).max(a as i32) as u32),
    ];
    for (op, reference) in cases {
        let (old, after) = svm_case(
            &format!("svm_atomic.{op} (M1_NM, 8) A.0 OLD.0 S0.0 S1.0"),
            "ud",
            &mem,
            &s0,
            &s1,
        );
        assert_eq!(old, mem, "{op} returns the old values");
        let expected: Vec<u32> = (0..8).map(|i| reference(mem[i], s0[i], s1[i])).collect();
        assert_eq!(after, expected, "{op}");
    }
    let (new, after) = svm_case(
        "svm_atomic.predec (M1_NM, 8) A.0 OLD.0 %null.0 %null.0",
        "ud",
        &mem,
        &s0,
        &s1,
    );
    let expected: Vec<u32> = mem.iter().map(|m| m.wrapping_sub(1)).collect();
    assert_eq!(new, expected);
    assert_eq!(after, expected);
}

#[test]
fn svm_float_operations_use_min_num_and_ieee_equality() {
    let mem = [1.0f32, -0.0, f32::NAN, 2.0, 0.0, f32::NAN, 3.0, -5.0];
    let s0 = [2.0f32, 0.0, 4.0, f32::NAN, -0.0, f32::NAN, 3.0, -6.0];
    let s1 = [9.0f32; 8];
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    let (_, max) = svm_case(
        "svm_atomic.fmax (M1_NM, 8) A.0 OLD.0 S0.0 %null.0",
        "f",
        &mem,
        &s0,
        &s1,
    );
    assert_eq!(bits(&max[..5]), bits(&[2.0, 0.0, 4.0, 2.0, 0.0]));
    assert!(max[5].is_nan());
    assert_eq!(&max[6..], &[3.0, -5.0]);
    let (_, min) = svm_case(
        "svm_atomic.fmin (M1_NM, 8) A.0 OLD.0 S0.0 %null.0",
        "f",
        &mem,
        &s0,
        &s1,
    );
    assert_eq!(bits(&min[..5]), bits(&[1.0, -0.0, 4.0, 2.0, -0.0]));
    assert_eq!(&min[6..], &[3.0, -6.0]);
    let (old, wr) = svm_case(
        "svm_atomic.fcmpwr (M1_NM, 8) A.0 OLD.0 S0.0 S1.0",
        "f",
        &mem,
        &s0,
        &s1,
    );
    assert_eq!(bits(&old), bits(&mem));
    // Written where memory equals src0: -0 == +0 (lanes 1 and 4) and 3 == 3; never for NaN.
    assert_eq!(wr[0], 1.0);
    assert_eq!(wr[1], 9.0);
    assert!(wr[2].is_nan());
    assert_eq!(&wr[3..5], &[2.0, 9.0]);
    assert!(wr[5].is_nan());
    assert_eq!(&wr[6..], &[9.0, -5.0]);
}

#[test]
fn svm_64_bit_operations() {
    let mem: [u64; 8] = [u64::from(u32::MAX), 0, u64::MAX, 7, 1 << 40, 5, 1 << 63, 3];
    let s0: [u64; 8] = [1, 1, 2, 7, 1 << 41, 9, 1, 4];
    let s1: [u64; 8] = [0, 0, 0, 7, 0, 5, 0, 3];
    let (old, add) = svm_case(
        "svm_atomic.add.64 (M1_NM, 8) A.0 OLD.0 S0.0 %null.0",
        "uq",
        &mem,
        &s0,
        &s1,
    );
    assert_eq!(old, mem);
    let expected: Vec<u64> = (0..8).map(|i| mem[i].wrapping_add(s0[i])).collect();
    assert_eq!(add, expected);
    assert_eq!(add[0], 1 << 32); // the carry crosses the dword boundary
    let (_, cmpxchg) = svm_case(
        "svm_atomic.cmpxchg.64 (M1_NM, 8) A.0 OLD.0 S0.0 S1.0",
        "uq",
        &mem,
        &s0,
        &s1,
    );
    let expected: Vec<u64> = (0..8)
        .map(|i| if mem[i] == s1[i] { s0[i] } else { mem[i] })
        .collect();
    assert_eq!(cmpxchg, expected);
    let (_, imin) = svm_case(
        "svm_atomic.imin.64 (M1_NM, 8) A.0 OLD.0 S0.0 %null.0",
        "q",
        &mem.map(|m| m as i64),
        &s0.map(|s| s as i64),
        &s1.map(|s| s as i64),
    );
    let expected: Vec<i64> = (0..8).map(|i| (mem[i] as i64).min(s0[i] as i64)).collect();
    assert_eq!(imin, expected);
}

#[test]
fn svm_16_bit_operations_touch_only_their_half() {
    // Eight 16-bit counters packed two per dword; lane i works on the UW at byte 2 * i.
    let p = program(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl S0 v_type=G type=ud num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
svm_atomic.add.16 (M1_NM, 8) A.0 OLD.0 S0.0 %null.0
",
    );
    let mut svm = Svm::new();
    let mem: Vec<u16> = vec![0xFFFF, 1, 2, 3, 0x8000, 5, 6, 7];
    let base = svm.alloc_from(&mem);
    let r = Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_elements("A", &(0..8).map(|i| base + 2 * i).collect::<Vec<u64>>())
        .bind_elements("S0", &[0x1_0002u32; 8])
        .capture("OLD")
        .run()
        .unwrap();
    // Only the low 16 bits of S0 (2) take part; additions wrap at 16 bits.
    let after = svm.read_vec::<u16>(base, 8).unwrap();
    let expected: Vec<u16> = mem.iter().map(|m| m.wrapping_add(2)).collect();
    assert_eq!(after, expected);
    // The low halves of the returned dwords are the old values; the upper halves undefined.
    let (bytes, defined) = r.thread_bytes("OLD", 0).unwrap();
    for i in 0..8 {
        assert_eq!(u16::from_le_bytes([bytes[4 * i], bytes[4 * i + 1]]), mem[i]);
        if tracks_definedness() {
            assert!(defined[4 * i] && !defined[4 * i + 2] && !defined[4 * i + 3]);
        }
    }
}

#[test]
fn contention_across_many_groups_loses_no_update() {
    // Every lane of every group adds its work-item index to one 32-bit counter and
    // 0xFFFFFFFF to one 64-bit counter (whose carries cross the dword boundary).
    let p = program(
        "
.decl A32 v_type=G type=uq num_elts=16 align=GRF
.decl A64 v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl ALL v_type=G type=uq num_elts=16 align=GRF
mov (M1, 16) ALL(0,0)<1> 0xffffffff:ud
svm_atomic.add (M1, 8) A32.0 %null.0 X.0 %null.0
svm_atomic.add (M3, 8) A32(0,8) %null.0 X(0,8) %null.0
svm_atomic.add.64 (M1, 8) A64.0 %null.0 ALL.0 %null.0
svm_atomic.add.64 (M3, 8) A64(2,0) %null.0 ALL(2,0) %null.0
",
    );
    let mut svm = Svm::new();
    let c32 = svm.alloc(4);
    let c64 = svm.alloc(8);
    let launch = Launch::new(&p).simd(16).groups(64).threads_per_group(2);
    let n = launch.work_items() as u64;
    let x: Vec<u32> = (0..n as u32).collect();
    launch
        .svm(&svm)
        .bind_svm_lanes("A32", c32, 0)
        .bind_svm_lanes("A64", c64, 0)
        .bind_vector("X", &x)
        .run()
        .unwrap();
    assert_eq!(
        svm.read_vec::<u32>(c32, 1).unwrap()[0] as u64,
        n * (n - 1) / 2
    );
    assert_eq!(svm.read_vec::<u64>(c64, 1).unwrap()[0], n * 0xFFFF_FFFF);
}

#[test]
fn out_of_range_lanes() {
    // A user surface lane out of bounds returns 0 and writes nothing.
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl S v_type=G type=ud num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
dword_atomic.xchg (M1, 8) T6 OFF.0 S.0 %null.0 OLD.0
",
    );
    let surface = Buffer::from_slice(&[1u32, 2, 3, 4]);
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &[0u32, 4, 8, 12, 16, 20, 1 << 20, 0xFFFF_FFFC])
        .bind_vector("S", &[10u32, 20, 30, 40, 50, 60, 70, 80])
        .capture("OLD")
        .run()
        .unwrap();
    assert_eq!(r.vector::<u32>("OLD").unwrap(), [1, 2, 3, 4, 0, 0, 0, 0]);
    assert_eq!(surface.to_vec::<u32>(), [10, 20, 30, 40]);
    // Misaligned SVM addresses trap at their lane.
    let p = program(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
svm_atomic.inc (M1, 8) A.0 %null.0 %null.0 %null.0
",
    );
    let mut svm = Svm::new();
    let base = svm.alloc(64);
    let err = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_svm_lanes("A", base + 2, 4)
        .run()
        .unwrap_err();
    match err {
        LaunchError::Trap(trap) => {
            assert!(
                matches!(trap.kind, TrapKind::Misaligned { align: 4, .. }),
                "{trap}"
            )
        }
        other => panic!("expected a trap, got {other}"),
    }
}

#[test]
fn slm_histogram_merged_after_a_barrier_is_exact() {
    // Every thread counts into its group's SLM bins; after the barrier thread 0 adds the
    // group's bins to the global ones with one atomic add per bin.
    let p = program(
        "
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl BIN v_type=G type=ud num_elts=16 align=GRF
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl LOCAL v_type=G type=ud num_elts=16 align=GRF
.decl GOFF v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=1
and (M1, 16) BIN(0,0)<1> V(0,0)<1;1,0> 0xf:ud
shl (M1, 16) OFF(0,0)<1> BIN(0,0)<1;1,0> 0x2:ud
dword_atomic.inc (M1, 16) %slm OFF.0 %null.0 %null.0 %null.0
barrier
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(!P1) ret (M1, 1)
oword_ld (4) %slm 0x0:ud LOCAL.0
dword_atomic.add (M1, 16) T6 GOFF.0 LOCAL.0 %null.0 %null.0
",
    );
    let offsets: Vec<u32> = (0..16).map(|bin| bin * 4).collect();
    for groups in [1u32, 2, 64] {
        let launch = Launch::new(&p)
            .simd(16)
            .groups(groups)
            .threads_per_group(4)
            .slm_size(64);
        let v = values(launch.work_items());
        let bins = Buffer::zeroed(16 * 4);
        launch
            .bind_vector("V", &v)
            .bind_elements("GOFF", &offsets)
            .bind_surface("T6", &bins)
            .run()
            .unwrap();
        let mut expected = [0u32; 16];
        for x in &v {
            expected[(x % 16) as usize] += 1;
        }
        assert_eq!(bins.to_vec::<u32>(), expected, "{groups} groups");
    }
}

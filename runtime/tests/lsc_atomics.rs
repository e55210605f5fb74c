//! The LSC atomics (`lsc_atomic_*`): every operation of the document against a Rust model on
//! lanes with their own locations, the 16- and 64-bit shapes, and real atomicity under
//! contention: every lane of 64 groups (two threads each) updating one location through flat
//! SVM addresses, a binding-table surface or the group's SLM, with exact totals and distinct
//! returned tickets. The tests run on both engines (`VISA_ENGINE`).

mod common;

use common::program;
use visa_runtime::{Buffer, Launch, Svm};

const GROUPS: u32 = 64;

/// One operation on eight lanes, each with its own dword: returns (memory after, old values).
fn run_d32(
    mnemonic: &str,
    uses: (bool, bool),
    mem: &[u32],
    a: &[u32],
    b: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let s1 = if uses.0 { "S1" } else { "%null" };
    let s2 = if uses.1 { "S2" } else { "%null" };
    let p = program(&format!(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl S1 v_type=G type=ud num_elts=8 align=GRF
.decl S2 v_type=G type=ud num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
{mnemonic}.ugm (M1, 8) OLD:d32 flat[A]:a64 {s1} {s2}
"
    ));
    let mut svm = Svm::new();
    let base = svm.alloc_from(mem);
    // Lane l updates dword 7 - l.
    let addresses: Vec<u64> = (0..8).map(|l| base + 4 * (7 - l)).collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("A", &addresses)
        .bind_vector("S1", a)
        .bind_vector("S2", b)
        .capture("OLD")
        .run()
        .unwrap_or_else(|e| panic!("{mnemonic}: {e}"));
    (
        svm.read_vec::<u32>(base, 8).unwrap(),
        r.vector::<u32>("OLD").unwrap(),
    )
}

#[test]
fn every_integer_and_float_operation_follows_its_definition() {
    type Op = fn(u32, u32, u32) -> u32;
    let f = f32::from_bits;
    let bits = |v: f32| v.to_bits();
    let int_cases: &[(&str, (bool, bool), Op)] = &[
        ("lsc_atomic_iinc", (false, false), |m, _, _| {
            m.wrapping_add(1)
        }),
        ("lsc_atomic_idec", (false, false), |m, _, _| {
            m.wrapping_sub(1)
        }),
        ("lsc_atomic_load", (false, false), |m, _, _| m),
        ("lsc_atomic_store", (true, false), |_, a, _| a),
        ("lsc_atomic_iadd", (true, false), |m, a, _| {
            m.wrapping_add(a)
        }),
        ("lsc_atomic_isub", (true, false), |m, a, _| {
            m.wrapping_sub(a)
        }),
        ("lsc_atomic_smin", (true, false), |m, a, _| {
            (m as i32).min(a as i32) as u32
        }),
        ("lsc_atomic_smax", (true, false), |m, a, _| {
            (m as i32).max(a as i32) as u32
        }),
        ("lsc_atomic_umin", (true, false), |m, a, _| m.min(a)),
        ("lsc_atomic_umax", (true, false), |m, a, _| m.max(a)),
        // Compare with Src1Data, store Src2Data.
        (
            "lsc_atomic_icas",
            (true, true),
            |m, a, b| if m == a { b } else { m },
        ),
        ("lsc_atomic_and", (true, false), |m, a, _| m & a),
        ("lsc_atomic_or", (true, false), |m, a, _| m | a),
        ("lsc_atomic_xor", (true, false), |m, a, _| m ^ a),
    ];
    let mem: Vec<u32> = vec![0, 1, 0xFFFF_FFFF, 0x8000_0000, 17, 0x7FFF_FFFF, 5, 1234];
    let a: Vec<u32> = vec![3, 0xFFFF_FFFE, 2, 0x7FFF_FFFF, 17, 0x8000_0001, 9, 1234];
    let b: Vec<u32> = (0..8).map(|l| 0xB000 + l).collect();
    let check = |name: &str, uses, op: Op, mem: &[u32], a: &[u32], b: &[u32]| {
        let (after, old) = run_d32(name, uses, mem, a, b);
        // Lane l's dword is 7 - l.
        let mut expected = mem.to_vec();
        let mut returned = vec![0; 8];
        for l in 0..8 {
            let k = 7 - l;
            returned[l] = mem[k];
            expected[k] = op(mem[k], a[l], b[l]);
        }
        assert_eq!(after, expected, "{name}: memory");
        assert_eq!(old, returned, "{name}: returned");
    };
    for &(name, uses, op) in int_cases {
        // Operands reversed, so that lane l's operand meets memory dword l where they match.
        let a: Vec<u32> = a.iter().rev().copied().collect();
        check(name, uses, op, &mem, &a, &b);
    }
    let float_cases: &[(&str, (bool, bool), Op)] = &[
        ("lsc_atomic_fadd", (true, false), |m, a, _| {
            (f32::from_bits(m) + f32::from_bits(a)).to_bits()
        }),
        ("lsc_atomic_fsub", (true, false), |m, a, _| {
            (f32::from_bits(m) - f32::from_bits(a)).to_bits()
        }),
        // Rust's min/max return the other operand of a NaN, as IEEE minNum/maxNum do.
        ("lsc_atomic_fmin", (true, false), |m, a, _| {
            f32::from_bits(m).min(f32::from_bits(a)).to_bits()
        }),
        ("lsc_atomic_fmax", (true, false), |m, a, _| {
            f32::from_bits(m).max(f32::from_bits(a)).to_bits()
        }),
        ("lsc_atomic_fcas", (true, true), |m, a, b| {
            if f32::from_bits(m) == f32::from_bits(a) {
                b
            } else {
                m
            }
        }),
    ];
    let fmem: Vec<u32> = [1.5, -2.0, 0.1, 1e30, f32::NAN, 3.0, -0.5, 7.25]
        .map(bits)
        .to_vec();
    // Reversed as above: lane l meets dword 7 - l.
    let fa: Vec<u32> = [1.5, 3.0, 1.5, 2.0, -1e30, 3.0, -2.0, 1.5]
        .map(bits)
        .into_iter()
        .rev()
        .collect();
    let fb: Vec<u32> = (0..8).map(|l| bits(100.0 + l as f32)).collect();
    // fcas matches on dwords 0 and 5.
    let matching = (0..8).filter(|&l| f(fa[l]) == f(fmem[7 - l])).count();
    assert_eq!(matching, 2);
    for &(name, uses, op) in float_cases {
        check(name, uses, op, &fmem, &fa, &fb);
    }
}

/// `d16u32`: 16-bit locations, operands and results in the low half of each lane's dword (the
/// old value zero-extended); `d64`: 64-bit locations and operands.
#[test]
fn sixteen_and_sixty_four_bit_shapes() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl Q v_type=G type=uq num_elts=8 align=GRF
.decl S v_type=G type=ud num_elts=8 align=GRF
.decl S64 v_type=G type=uq num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
.decl OLD64 v_type=G type=uq num_elts=8 align=GRF
lsc_atomic_iadd.ugm (M1, 8) OLD:d16u32 flat[A]:a64 S %null
lsc_atomic_umax.ugm (M1, 8) OLD64:d64 flat[Q]:a64 S64 %null
",
    );
    let halves: Vec<u16> = vec![0xFFFF, 1, 0x8000, 0, 0x1234, 0xFFFE, 7, 9];
    let quads: Vec<u64> = (0..8).map(|i| 0x1_0000_0000u64 * (i + 1) + 5).collect();
    let mut svm = Svm::new();
    let hb = svm.alloc_from(&halves);
    let qb = svm.alloc_from(&quads);
    let a: Vec<u64> = (0..8).map(|l| hb + 2 * l).collect();
    let q: Vec<u64> = (0..8).map(|l| qb + 8 * l).collect();
    // Upper halves set: only the low 16 bits take part.
    let s: Vec<u32> = (0..8).map(|l| 0xABCD_0000 | (3 + l * 0x1000)).collect();
    let s64: Vec<u64> = (0..8).map(|l| 0x3_0000_0000u64 + l).collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("A", &a)
        .bind_vector("Q", &q)
        .bind_vector("S", &s)
        .bind_vector("S64", &s64)
        .capture("OLD")
        .capture("OLD64")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let added: Vec<u16> = (0..8)
        .map(|l| halves[l].wrapping_add(s[l] as u16))
        .collect();
    assert_eq!(svm.read_vec::<u16>(hb, 8).unwrap(), added);
    let old: Vec<u32> = halves.iter().map(|&h| u32::from(h)).collect();
    assert_eq!(r.vector::<u32>("OLD").unwrap(), old);
    let maxed: Vec<u64> = (0..8).map(|l| quads[l].max(s64[l])).collect();
    assert_eq!(svm.read_vec::<u64>(qb, 8).unwrap(), maxed);
    assert_eq!(r.vector::<u64>("OLD64").unwrap(), quads);
}

/// The tickets (old values) the lanes got, sorted, are exactly 0, 1, ..., n - 1.
fn assert_tickets(mut tickets: Vec<u32>, n: u32, what: &str) {
    tickets.sort_unstable();
    assert_eq!(tickets, (0..n).collect::<Vec<_>>(), "{what}: tickets");
}

#[test]
fn iadd_and_iinc_under_contention_count_every_lane() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl ONE v_type=G type=ud num_elts=16 align=GRF
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
.decl TICKET v_type=G type=ud num_elts=16 align=GRF
lsc_atomic_iadd.ugm (M1, 16) OLD:d32 flat[A]:a64 ONE %null
lsc_atomic_iinc.ugm (M1, 16) TICKET:d32 bti(0x6)[OFF]:a32 %null %null
",
    );
    let mut svm = Svm::new();
    let counter = svm.alloc_from(&[0u32; 4]);
    let surface = Buffer::zeroed(16);
    let launch = Launch::new(&p).simd(16).groups(GROUPS).threads_per_group(2);
    let n = launch.work_items();
    // The surface counter is dword 2; work-item 5 addresses past the end: it returns 0 and
    // adds nothing.
    let mut off = vec![8u32; n];
    off[5] = 64;
    let r = launch
        .svm(&svm)
        .bind_vector("A", &vec![counter + 4; n])
        .bind_vector("ONE", &vec![1u32; n])
        .bind_vector("OFF", &off)
        .bind_surface("T6", &surface)
        .capture("OLD")
        .capture("TICKET")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, 2048);
    assert_eq!(svm.read_vec::<u32>(counter, 4).unwrap(), [0, 2048, 0, 0]);
    assert_tickets(r.vector::<u32>("OLD").unwrap(), 2048, "iadd");
    assert_eq!(surface.to_vec::<u32>(), [0, 0, 2047, 0]);
    let mut tickets = r.vector::<u32>("TICKET").unwrap();
    assert_eq!(tickets.remove(5), 0, "the lane out of bounds");
    // The 2047 others took the tickets 0..2047.
    assert_tickets(tickets, 2047, "iinc");
}

#[test]
fn float_adds_of_exact_values_under_contention_are_exact() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl B v_type=G type=uq num_elts=16 align=GRF
.decl HALF v_type=G type=f num_elts=16 align=GRF
.decl QUARTER v_type=G type=df num_elts=16 align=GRF
lsc_atomic_fadd.ugm (M1, 16) %null:d32 flat[A]:a64 HALF %null
lsc_atomic_fsub.ugm (M1, 16) %null:d64 flat[B]:a64 QUARTER %null
",
    );
    let mut svm = Svm::new();
    let fc = svm.alloc_from(&[3.0f32]);
    let dc = svm.alloc_from(&[1.0f64]);
    let launch = Launch::new(&p).simd(16).groups(GROUPS).threads_per_group(2);
    let n = launch.work_items();
    launch
        .svm(&svm)
        .bind_vector("A", &vec![fc; n])
        .bind_vector("B", &vec![dc; n])
        .bind_vector("HALF", &vec![0.5f32; n])
        .bind_vector("QUARTER", &vec![0.25f64; n])
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(svm.read_vec::<f32>(fc, 1).unwrap(), [3.0 + 0.5 * n as f32]);
    assert_eq!(svm.read_vec::<f64>(dc, 1).unwrap(), [1.0 - 0.25 * n as f64]);
}

/// A compare-and-swap loop: each lane reads the counter, tries to store it plus one, and
/// retries until its compare matched; every lane gets a distinct ticket.
#[test]
fn a_cas_loop_under_contention_counts_every_lane() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl CUR v_type=G type=ud num_elts=16 align=GRF
.decl NEW v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
LOOP:
lsc_atomic_load.ugm (M1, 16) CUR:d32 flat[A]:a64 %null %null
add (M1, 16) NEW(0,0)<1> CUR(0,0)<1;1,0> 0x1:ud
lsc_atomic_icas.ugm (M1, 16) OLD:d32 flat[A]:a64 CUR NEW
cmp.ne (M1, 16) P1 OLD(0,0)<1;1,0> CUR(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
",
    );
    let mut svm = Svm::new();
    let counter = svm.alloc_from(&[0u32]);
    let launch = Launch::new(&p).simd(16).groups(GROUPS).threads_per_group(2);
    let n = launch.work_items();
    let r = launch
        .svm(&svm)
        .bind_vector("A", &vec![counter; n])
        .capture("OLD")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(svm.read_vec::<u32>(counter, 1).unwrap(), [n as u32]);
    assert_tickets(r.vector::<u32>("OLD").unwrap(), n as u32, "cas");
}

#[test]
fn min_and_max_under_contention_find_the_extremes() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
lsc_atomic_smin.ugm (M1, 16) %null:d32 flat[A]:a64 V %null
lsc_atomic_smax.ugm (M1, 16) %null:d32 flat[A+0x4]:a64 V %null
lsc_atomic_umin.ugm (M1, 16) %null:d32 flat[A+0x8]:a64 V %null
lsc_atomic_umax.ugm (M1, 16) %null:d32 flat[A+0xC]:a64 V %null
",
    );
    let mut svm = Svm::new();
    let counters = svm.alloc_from(&[i32::MAX as u32, i32::MIN as u32, u32::MAX, 0]);
    let launch = Launch::new(&p).simd(16).groups(GROUPS).threads_per_group(2);
    let n = launch.work_items();
    let v: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(7) ^ 0x5555)
        .collect();
    launch
        .svm(&svm)
        .bind_vector("A", &vec![counters; n])
        .bind_vector("V", &v)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let signed = |x: &u32| *x as i32;
    let expected = [
        v.iter().map(signed).min().unwrap() as u32,
        v.iter().map(signed).max().unwrap() as u32,
        *v.iter().min().unwrap(),
        *v.iter().max().unwrap(),
    ];
    assert!((expected[0] as i32) < 0);
    assert_eq!(svm.read_vec::<u32>(counters, 4).unwrap(), expected);
}

/// The document's SLM example: each group's lanes add 1 to one SLM dword; within every group
/// the 32 lanes (two threads) get the tickets 0..32.
#[test]
fn slm_iadd_gives_each_group_its_own_counter() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl INC v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
lsc_atomic_iadd.slm (M1, 16) OLD:d32 flat[OFF]:a32 INC %null
",
    );
    let launch = Launch::new(&p)
        .simd(16)
        .groups(GROUPS)
        .threads_per_group(2)
        .slm_size(64);
    let n = launch.work_items();
    let r = launch
        .bind_vector("OFF", &vec![12u32; n])
        .bind_vector("INC", &vec![1u32; n])
        .capture("OLD")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let old = r.vector::<u32>("OLD").unwrap();
    for (g, group) in old.chunks(32).enumerate() {
        assert_tickets(group.to_vec(), 32, &format!("group {g}"));
    }
}

/// bfloat16 atomics on `d16u32` data: 256 adds of 1.0 reach 256.0 exactly (bfloat16 holds
/// every integer up to 256); bfmax keeps the largest value.
#[test]
fn bfloat16_atomics_round_to_bfloat16() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl ONE v_type=G type=ud num_elts=16 align=GRF
.decl OLD v_type=G type=ud num_elts=16 align=GRF
lsc_atomic_bfadd.ugm (M1, 16) %null:d16u32 flat[A]:a64 ONE %null
lsc_atomic_bfmax.ugm (M1, 16) OLD:d16u32 flat[A+0x2]:a64 V %null
",
    );
    let bf16 = |v: f32| (v.to_bits() >> 16) as u16;
    let mut svm = Svm::new();
    let cells = svm.alloc_from(&[0u16, bf16(-1.0)]);
    let launch = Launch::new(&p).simd(16).groups(8).threads_per_group(2);
    let n = launch.work_items();
    assert_eq!(n, 256);
    // Values exactly representable in bfloat16 (8 significant bits).
    let v: Vec<u32> = (0..n)
        .map(|i| u32::from(bf16((i as f32 - 100.0) * 0.5)))
        .collect();
    let r = launch
        .svm(&svm)
        .bind_vector("A", &vec![cells; n])
        .bind_vector("ONE", &vec![u32::from(bf16(1.0)); n])
        .bind_vector("V", &v)
        .capture("OLD")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let max = (n as f32 - 1.0 - 100.0) * 0.5;
    assert_eq!(
        svm.read_vec::<u16>(cells, 2).unwrap(),
        [bf16(256.0), bf16(max)]
    );
    // Every returned old value is a bfloat16, zero-extended.
    assert!(r.vector::<u32>("OLD").unwrap().iter().all(|o| *o <= 0xFFFF));
}

//! The LSC per-lane `lsc_load`/`lsc_store` of one d32 or d64 element through 64-bit flat
//! addresses of untyped global memory (with the address scale and immediate offset), which
//! `decode::lsc` runs as the SVM gather/scatter. The other forms are tested in `lsc_forms.rs`
//! and `lsc_atomics.rs`. Expected values are computed here in Rust; the tests run on both
//! engines (`VISA_ENGINE`).

mod common;

use common::program;
use visa_runtime::{Launch, Svm, TrapKind};

/// Lane i loads a[perm(i)], adds b[i] and stores to out[i]: addresses per lane from Rust.
#[test]
fn d32_gather_add_scatter_through_flat_addresses() {
    let p = program(
        "
.decl PA v_type=G type=uq num_elts=16 align=GRF
.decl PB v_type=G type=uq num_elts=16 align=GRF
.decl PO v_type=G type=uq num_elts=16 align=GRF
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
lsc_load.ugm (M1, 16) A:d32 flat[PA]:a64
lsc_load.ugm.ca.ca (M1, 16) B:d32 flat[PB]:a64
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
lsc_store.ugm (M1, 16) flat[PO]:a64 A:d32
",
    );
    let a: Vec<i32> = (0..16).map(|i| 1000 * i - 7).collect();
    let b: Vec<i32> = (0..16).map(|i| -3 * i).collect();
    let mut svm = Svm::new();
    let (a_base, b_base, out_base) = (
        svm.alloc_from(&a),
        svm.alloc_from(&b),
        svm.alloc_from(&[0i32; 16]),
    );
    let perm = |lane: u64| (lane * 5 + 3) % 16;
    let pa: Vec<u64> = (0..16).map(|l| a_base + 4 * perm(l)).collect();
    let pb: Vec<u64> = (0..16).map(|l| b_base + 4 * l).collect();
    let po: Vec<u64> = (0..16).map(|l| out_base + 4 * l).collect();
    Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("PA", &pa)
        .bind_vector("PB", &pb)
        .bind_vector("PO", &po)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let expected: Vec<i32> = (0..16u64)
        .map(|l| a[perm(l) as usize].wrapping_add(b[l as usize]))
        .collect();
    assert_eq!(svm.read_vec::<i32>(out_base, 16).unwrap(), expected);
}

/// d64 elements: lane i copies q[15 - i] to out[i]; a predicate leaves odd lanes' output alone.
#[test]
fn d64_elements_under_a_predicate() {
    let p = program(
        "
.decl PQ v_type=G type=uq num_elts=16 align=GRF
.decl PO v_type=G type=uq num_elts=16 align=GRF
.decl LANE v_type=G type=uw num_elts=16 align=GRF
.decl ODD v_type=G type=uw num_elts=16 align=GRF
.decl X v_type=G type=uq num_elts=16 align=GRF
.decl EVEN v_type=P num_elts=16
mov (M1, 8) LANE(0,0)<1> 0x76543210:v
add (M1, 8) LANE(0,8)<1> LANE(0,0)<1;1,0> 0x8:uw
and (M1, 16) ODD(0,0)<1> LANE(0,0)<1;1,0> 0x1:uw
cmp.eq (M1, 16) EVEN ODD(0,0)<1;1,0> 0x0:uw
lsc_load.ugm (M1, 16) X:d64 flat[PQ]:a64
(EVEN) lsc_store.ugm (M1, 16) flat[PO]:a64 X:d64
",
    );
    let q: Vec<u64> = (0..16).map(|i| 0x1234_5678_0000_0000 + i).collect();
    let mut svm = Svm::new();
    let q_base = svm.alloc_from(&q);
    let out_base = svm.alloc_from(&[u64::MAX; 16]);
    let pq: Vec<u64> = (0..16).map(|l| q_base + 8 * (15 - l)).collect();
    let po: Vec<u64> = (0..16).map(|l| out_base + 8 * l).collect();
    Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("PQ", &pq)
        .bind_vector("PO", &po)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let expected: Vec<u64> = (0..16)
        .map(|l| if l % 2 == 0 { q[15 - l] } else { u64::MAX })
        .collect();
    assert_eq!(svm.read_vec::<u64>(out_base, 16).unwrap(), expected);
}

/// An address outside every allocation traps at the lane, as an SVM gather does.
#[test]
fn an_unmapped_flat_address_traps_at_its_lane() {
    let p = program(
        "
.decl PA v_type=G type=uq num_elts=8 align=GRF
.decl A v_type=G type=ud num_elts=8 align=GRF
lsc_load.ugm (M1, 8) A:d32 flat[PA]:a64
",
    );
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[7u32; 8]);
    let mut pa: Vec<u64> = (0..8).map(|l| base + 4 * l).collect();
    pa[5] = 0x10;
    let result = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("PA", &pa)
        .run();
    match result {
        Err(visa_runtime::LaunchError::Trap(trap)) => {
            assert_eq!(trap.kind, TrapKind::SvmUnmapped { address: 0x10 });
            assert_eq!(trap.lane, Some(5));
            assert_eq!(trap.pc, 0);
        }
        other => panic!("expected a trap, got {:?}", other.map(|r| r.steps())),
    }
}

/// `flat[0x4*IDX+0x100]`: each lane's address is 4 x its index operand plus 0x100 (the compiler's
/// form for `base[i]` with a constant folded into the offset); a negative offset steps back.
#[test]
fn the_address_scale_and_offset_apply_per_lane() {
    let words: Vec<u32> = (0..128).map(|i| 0xC000 + i).collect();
    let mut svm = Svm::new();
    let base = svm.alloc_from(&words);
    assert!(base.is_multiple_of(4));
    // Lane l's index is word 1 + 3l of the allocation, as a dword index of the address space.
    let index: Vec<u64> = (0..16).map(|l| base / 4 + 1 + 3 * l).collect();
    let p = program(
        "
.decl IDX v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=16 align=GRF
lsc_load.ugm (M1, 16) X:d32 flat[0x4*IDX+0x100]:a64
lsc_load.ugm (M1, 16) Y:d32 flat[0x4*IDX-0x4]:a64
",
    );
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("IDX", &index)
        .capture("X")
        .capture("Y")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    // Word k of the allocation sits at base + 4k.
    let word_at = |address: u64| words[((address - base) / 4) as usize];
    let x: Vec<u32> = index.iter().map(|&i| word_at(4 * i + 0x100)).collect();
    let y: Vec<u32> = index.iter().map(|&i| word_at(4 * i - 4)).collect();
    assert_eq!(x[0], 0xC000 + 1 + 64, "word 1 + 0x100 / 4");
    assert_eq!(y[1], 0xC000 + 3, "word 4 - 1");
    assert_eq!(r.vector::<u32>("X").unwrap(), x);
    assert_eq!(r.vector::<u32>("Y").unwrap(), y);
}

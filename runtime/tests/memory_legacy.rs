//! Legacy element gathers/scatters (`gather`/`scatter`, 1/2/4-byte elements, offsets in
//! elements) and qword gathers/scatters (`qw_gather`/`qw_scatter`).

mod common;

use common::{defined, program, tracks_definedness, whole};
use visa_runtime::{Buffer, Launch, LaunchError, Svm, TrapKind};

fn trap_of(err: LaunchError) -> (Option<u32>, TrapKind) {
    match err {
        LaunchError::Trap(trap) => (trap.lane, trap.kind),
        other => panic!("expected a trap, got {other}"),
    }
}

#[test]
fn gather_counts_offsets_in_elements_for_each_element_size() {
    let p = program(
        "
.decl IDX v_type=G type=ud num_elts=16 align=GRF
.decl D1 v_type=G type=ud num_elts=16 align=GRF
.decl D2 v_type=G type=ud num_elts=16 align=GRF
.decl D4 v_type=G type=ud num_elts=16 align=GRF
.decl B1 v_type=G type=ub num_elts=64 alias=<D1, 0>
.decl W2 v_type=G type=uw num_elts=32 alias=<D2, 0>
.decl L1 v_type=G type=ub num_elts=16 align=GRF
.decl L2 v_type=G type=uw num_elts=16 align=GRF
gather.1 (M1, 16) T6 0x3:ud IDX.0 D1.0
gather.2 (M1, 16) T6 0x3:ud IDX.0 D2.0
gather.4 (M1, 16) T6 0x3:ud IDX.0 D4.0
mov (M1, 16) L1(0,0)<1> B1(0,0)<4;1,0>
mov (M1, 16) L2(0,0)<1> W2(0,0)<2;1,0>
",
    );
    let data: Vec<u8> = (0..64).map(|i| (i * 29 + 3) as u8).collect();
    let surface = Buffer::from_bytes(&data);
    // Element indices; the large ones fall outside for the wider element sizes.
    let idx: Vec<u32> = vec![0, 1, 2, 5, 7, 9, 12, 13, 20, 27, 28, 40, 60, 61, 100, 0];
    let r = Launch::new(&p)
        .simd(16)
        .bind_surface("T6", &surface)
        .bind_vector("IDX", &idx)
        .capture("L1")
        .capture("L2")
        .capture("D4")
        .capture("D1")
        .run()
        .unwrap();
    let byte = |a: u64| data.get(a as usize).copied().unwrap_or(0);
    let element = |lane: usize, size: u64| -> Vec<u8> {
        let a = (3 + u64::from(idx[lane])) * size;
        (0..size).map(|k| byte(a + k)).collect()
    };
    let l1: Vec<u8> = (0..16).map(|i| element(i, 1)[0]).collect();
    let l2: Vec<u16> = (0..16)
        .map(|i| {
            let e = element(i, 2);
            u16::from_le_bytes([e[0], e[1]])
        })
        .collect();
    let d4: Vec<u32> = (0..16)
        .map(|i| {
            let e = element(i, 4);
            u32::from_le_bytes([e[0], e[1], e[2], e[3]])
        })
        .collect();
    assert_eq!(r.vector::<u8>("L1").unwrap(), l1);
    assert_eq!(r.vector::<u16>("L2").unwrap(), l2);
    assert_eq!(r.vector::<u32>("D4").unwrap(), d4);
    let d1 = defined(&r, "D1");
    if tracks_definedness() {
        assert!((0..16).all(|i| d1[4 * i] && !d1[4 * i + 1] && !d1[4 * i + 2] && !d1[4 * i + 3]));
    }
}

#[test]
fn scatter_writes_low_bytes_and_drops_bytes_outside() {
    let p = program(
        "
.decl IDX v_type=G type=ud num_elts=8 align=GRF
.decl SRC v_type=G type=ud num_elts=8 align=GRF
scatter.2 (M1, 8) T6 0x1:ud IDX.0 SRC.0
",
    );
    let surface = Buffer::zeroed(15);
    let idx: [u32; 8] = [0, 2, 4, 6, 3, 1, 20, 5];
    let src: Vec<u32> = (0..8).map(|i| 0xFFFF_0000 | (0x0101 * (i + 1))).collect();
    Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("IDX", &idx)
        .bind_vector("SRC", &src)
        .run()
        .unwrap();
    let mut expected = vec![0u8; 15];
    for lane in 0..8 {
        let a = (1 + idx[lane] as usize) * 2;
        for k in 0..2 {
            // Lane 2's second byte (byte 15) and lane 6 fall outside and are dropped.
            if let Some(b) = expected.get_mut(a + k) {
                *b = src[lane].to_le_bytes()[k];
            }
        }
    }
    assert_eq!(surface.to_bytes(), expected);
}

#[test]
fn gather_mask_control_selects_lanes_and_disabled_lanes_keep_their_dwords() {
    // Lanes parked by the goto do not read; the NoMask scalar form runs whatever the mask.
    let p = program(
        "
.decl IDX v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=8 align=GRF
.decl S v_type=G type=ud num_elts=1
.decl P1 v_type=P num_elts=8
setp (M1_NM, 8) P1 0x5A:ub
(P1) goto (M1, 8) SKIP
gather.4 (M1, 8) %slm 0x0:ud IDX.0 D.0
gather.4 (M1_NM, 1) %slm 0x7:ud IDX.0 S.0
SKIP:
",
    );
    let idx: Vec<u32> = (0..8).map(|i| 7 - i).collect();
    let r = Launch::new(&p)
        .simd(8)
        .slm_size(64)
        .bind_vector("IDX", &idx)
        .bind_elements("D", &[0xEEu32; 8])
        .bind_scalar("S", 0x55u32)
        .capture("D")
        .capture("S")
        .run();
    // SLM is zero-filled per group, so enabled lanes read 0 and disabled ones keep 0xEE.
    let r = r.unwrap();
    let expected: Vec<u32> = (0..8)
        .map(|lane| if 0x5A >> lane & 1 == 0 { 0 } else { 0xEE })
        .collect();
    assert_eq!(whole::<u32>(&r, "D", 0), expected);
    assert_eq!(whole::<u32>(&r, "S", 0), vec![0]);
}

#[test]
fn gather_on_slm_traps_out_of_range() {
    let p = program(
        "
.decl IDX v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=8 align=GRF
gather.4 (M1, 8) %slm 0x0:ud IDX.0 D.0
",
    );
    let idx: [u32; 8] = [0, 1, 2, 3, 4, 5, 16, 7];
    let err = Launch::new(&p)
        .simd(8)
        .slm_size(64)
        .bind_vector("IDX", &idx)
        .run()
        .unwrap_err();
    assert_eq!(
        trap_of(err),
        (
            Some(6),
            TrapKind::SlmOutOfBounds {
                offset: 64,
                len: 4,
                size: 64
            }
        )
    );
}

#[test]
fn qw_gather_and_scatter_move_qwords_with_per_qword_bounds() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl Q v_type=G type=uq num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
setp (M1_NM, 8) P1 0xBF:ub
(P1) qw_gather.1 (M1, 8) T6 OFF.0 Q.0
qw_scatter.1 (M1, 8) T7 OFF.0 Q.0
",
    );
    let words: Vec<u64> = (0..8).map(|i| 0x0123_4567_89AB_0000 + i).collect();
    let source = Buffer::from_slice(&words);
    let target = Buffer::zeroed(60);
    let off: [u32; 8] = [56, 48, 0, 8, 16, 60, 24, 64];
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &source)
        .bind_surface("T7", &target)
        .bind_vector("OFF", &off)
        .bind_elements("Q", &[9u64; 8])
        .capture("Q")
        .run();
    let err_or = r.map(|r| whole::<u64>(&r, "Q", 0));
    // Lane 5's offset 60 is not a multiple of 8: that is a misaligned access.
    assert_eq!(
        trap_of(err_or.unwrap_err()),
        (
            Some(5),
            TrapKind::Misaligned {
                address: 60,
                align: 8
            }
        )
    );

    // Lane 5 outside T6 (reads 0), lane 6 predicated off (keeps 9), lanes 0, 5, 7 outside T7.
    let off: [u32; 8] = [56, 48, 0, 8, 16, 64, 24, 72];
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &source)
        .bind_surface("T7", &target)
        .bind_vector("OFF", &off)
        .bind_elements("Q", &[9u64; 8])
        .capture("Q")
        .run()
        .unwrap();
    let q: Vec<u64> = (0..8)
        .map(|lane| {
            if 0xBF >> lane & 1 == 0 {
                9
            } else {
                words.get(off[lane] as usize / 8).copied().unwrap_or(0)
            }
        })
        .collect();
    assert_eq!(whole::<u64>(&r, "Q", 0), q);
    // T7 holds 7.5 qwords: the qword at 56 is partly outside and dropped, 64 and 72 too.
    let mut expected = vec![0u8; 60];
    for lane in 0..8 {
        let a = off[lane] as usize;
        if a + 8 <= 60 {
            expected[a..a + 8].copy_from_slice(&q[lane].to_le_bytes());
        }
    }
    assert_eq!(target.to_bytes(), expected);
}

#[test]
fn qw_gather_stateless_traps_outside_svm() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=2 align=GRF
.decl Q v_type=G type=uq num_elts=2 align=GRF
qw_gather.1 (M1, 2) %scratch OFF.0 Q.0
",
    );
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[5u64, 6]);
    let low = u32::try_from(base).expect("the SVM space starts below 4 GiB");
    let off = [low + 8, low + 16];
    let err = Launch::new(&p)
        .simd(2)
        .svm(&svm)
        .bind_vector("OFF", &off)
        .run()
        .unwrap_err();
    let (lane, kind) = trap_of(err);
    assert_eq!(lane, Some(1));
    assert!(
        matches!(
            kind,
            TrapKind::SvmUnmapped { .. } | TrapKind::SvmOutOfBounds { .. }
        ),
        "{kind:?}"
    );
}

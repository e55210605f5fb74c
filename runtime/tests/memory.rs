//! Memory messages: scaled gather/scatter on surfaces, oword loads/stores, SLM, stateless and
//! SVM gathers/scatters/blocks, with their layouts and out-of-bounds rules.

mod common;

use common::{defined, program, tracks_definedness, whole};
use visa_runtime::{Buffer, Launch, LaunchError, Svm, TrapKind};

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + 1) as u8).collect()
}

#[test]
fn gather_scaled_reads_blocks_per_channel_and_zero_out_of_bounds() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl D1 v_type=G type=ud num_elts=8 align=GRF
.decl D2 v_type=G type=ud num_elts=8 align=GRF
.decl D4 v_type=G type=ud num_elts=8 align=GRF
.decl B1 v_type=G type=ub num_elts=32 alias=<D1, 0>
.decl W2 v_type=G type=uw num_elts=16 alias=<D2, 0>
.decl L1 v_type=G type=ub num_elts=8 align=GRF
.decl L2 v_type=G type=uw num_elts=8 align=GRF
gather_scaled.1 (M1, 8) T6 0x2:ud OFF.0 D1.0
gather_scaled.2 (M1, 8) T6 0x2:ud OFF.0 D2.0
gather_scaled.4 (M1, 8) T6 0x2:ud OFF.0 D4.0
mov (M1, 8) L1(0,0)<1> B1(0,0)<4;1,0>
mov (M1, 8) L2(0,0)<1> W2(0,0)<2;1,0>
",
    );
    let surface_bytes = bytes(64);
    let surface = Buffer::from_bytes(&surface_bytes);
    let off = [0u32, 5, 13, 60, 61, 62, 100, 0xffff_fff0];
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &off)
        .capture("D4")
        .capture("L1")
        .capture("L2")
        .capture("D1")
        .run()
        .unwrap();
    let at = |a: u64| -> u8 { surface_bytes.get(a as usize).copied().unwrap_or(0) };
    let addr = |i: usize| 2 + u64::from(off[i]);
    let l1: Vec<u8> = (0..8).map(|i| at(addr(i))).collect();
    let l2: Vec<u16> = (0..8)
        .map(|i| u16::from_le_bytes([at(addr(i)), at(addr(i) + 1)]))
        .collect();
    let d4: Vec<u32> = (0..8)
        .map(|i| u32::from_le_bytes([0, 1, 2, 3].map(|k| at(addr(i) + k))))
        .collect();
    assert_eq!(r.vector::<u8>("L1").unwrap(), l1);
    assert_eq!(r.vector::<u16>("L2").unwrap(), l2);
    assert_eq!(r.vector::<u32>("D4").unwrap(), d4);
    // The upper three bytes of each 1-byte channel are undefined.
    let d1 = defined(&r, "D1");
    if tracks_definedness() {
        assert!((0..8).all(|i| d1[4 * i] && !d1[4 * i + 1] && !d1[4 * i + 3]));
    }
}

#[test]
fn scatter_scaled_writes_low_bytes_of_enabled_channels_and_drops_out_of_bounds() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl SRC v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
setp (M1_NM, 8) P1 0xEF:ub
(P1) scatter_scaled.2 (M1, 8) T6 0x0:ud OFF.0 SRC.0
",
    );
    let surface = Buffer::zeroed(16);
    let off = [0u32, 2, 4, 6, 8, 15, 16, 12];
    let src: Vec<u32> = (0..8).map(|i| 0xAABB_0000 | (0x11 * (i + 1))).collect();
    Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &off)
        .bind_vector("SRC", &src)
        .run()
        .unwrap();
    let mut expected = vec![0u8; 16];
    for i in 0..8 {
        if 0xEFu32 >> i & 1 == 0 {
            continue; // channel 4 is predicated off
        }
        for k in 0..2 {
            if let Some(b) = expected.get_mut(off[i] as usize + k) {
                *b = src[i].to_le_bytes()[k];
            }
        }
    }
    assert_eq!(surface.to_bytes(), expected);
}

#[test]
fn oword_loads_and_stores_on_surfaces() {
    let p = program(
        "
.decl D v_type=G type=ud num_elts=16 align=GRF
.decl U v_type=G type=ud num_elts=8 align=GRF
.decl E v_type=G type=ud num_elts=8 align=GRF
oword_ld (4) T6 0x1:ud D.0
oword_ld_unaligned (2) T6 0x24:ud U.0
oword_ld (2) T6 0x5:ud E.0
oword_st (1) T7 0x1:ud U.0
",
    );
    let src = bytes(96);
    let t6 = Buffer::from_bytes(&src);
    let t7 = Buffer::zeroed(40);
    let r = Launch::new(&p)
        .simd(1)
        .bind_surface("T6", &t6)
        .bind_surface("T7", &t7)
        .capture("D")
        .capture("U")
        .capture("E")
        .run()
        .unwrap();
    let read = |start: usize, len: usize| -> Vec<u32> {
        let b: Vec<u8> = (start..start + len)
            .map(|a| src.get(a).copied().unwrap_or(0))
            .collect();
        Buffer::from_bytes(&b).to_vec()
    };
    // oword_ld offsets are in owords, oword_ld_unaligned offsets in bytes.
    assert_eq!(whole::<u32>(&r, "D", 0), read(16, 64));
    assert_eq!(whole::<u32>(&r, "U", 0), read(0x24, 32));
    // Past the end of the 96-byte surface: zeros.
    assert_eq!(whole::<u32>(&r, "E", 0), read(80, 32));
    let mut expected = vec![0u8; 40];
    expected[16..32].copy_from_slice(&src[0x24..0x34]);
    assert_eq!(t7.to_bytes(), expected);
}

#[test]
fn slm_is_shared_by_the_threads_of_a_group() {
    // Thread 0 of each group stores, thread 1 loads (threads of a group run in order).
    let p = program(
        "
.decl T v_type=G type=ud num_elts=8 align=GRF
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=1
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(!P1) goto (M1, 1) LOAD
mov (M1_NM, 8) V(0,0)<1> %group_id_x(0,0)<0;1,0>
oword_st (2) %slm 0x1:ud V.0
ret (M1, 1)
LOAD:
oword_ld (2) %slm 0x1:ud T.0
",
    );
    let r = Launch::new(&p)
        .simd(8)
        .groups(3)
        .threads_per_group(2)
        .slm_size(64)
        .bind_vector("T", &[0u32; 48])
        .run()
        .unwrap();
    let t = r.vector::<u32>("T").unwrap();
    let expected: Vec<u32> = (0..6)
        .flat_map(|thread| [if thread % 2 == 1 { thread / 2 } else { 0 }; 8])
        .collect();
    assert_eq!(t, expected);
}

#[test]
fn slm_out_of_bounds_traps() {
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
oword_ld (2) %slm 0x3:ud V.0
",
    );
    let err = Launch::new(&p).simd(8).slm_size(64).run().unwrap_err();
    let LaunchError::Trap(trap) = err else {
        panic!("{err}")
    };
    assert_eq!(
        trap.kind,
        TrapKind::SlmOutOfBounds {
            offset: 48,
            len: 32,
            size: 64
        }
    );
}

#[test]
fn svm_gather_layouts_for_each_block_size() {
    let p = program(
        "
.decl ADDR v_type=G type=uq num_elts=8 align=GRF
.decl G4 v_type=G type=ud num_elts=16 align=GRF
.decl G8 v_type=G type=uq num_elts=16 align=GRF
.decl G1 v_type=G type=ub num_elts=32 align=GRF
.decl G18 v_type=G type=ub num_elts=64 align=GRF
svm_gather.4.2 (M1, 8) ADDR.0 G4.0
svm_gather.8.2 (M1, 8) ADDR.0 G8.0
svm_gather.1.4 (M1, 8) ADDR.0 G1.0
svm_gather.1.8 (M1, 8) ADDR.0 G18.0
",
    );
    let mut svm = Svm::new();
    let data = bytes(512);
    let base = svm.alloc_from(&data);
    let addr: Vec<u64> = (0..8).map(|i| base + 32 * (7 - i) as u64 + 16).collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("ADDR", &addr)
        .capture("G4")
        .capture("G8")
        .capture("G1")
        .capture("G18")
        .run()
        .unwrap();
    let mem = |a: u64, len: usize| -> Vec<u8> { data[(a - base) as usize..][..len].to_vec() };
    let le32 = |b: Vec<u8>| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let le64 = |b: Vec<u8>| u64::from_le_bytes(b.try_into().unwrap());
    // Block-major: block j of channel i at element j*8 + i.
    let mut g4 = vec![0u32; 16];
    let mut g8 = vec![0u64; 16];
    for i in 0..8 {
        for j in 0..2 {
            g4[j * 8 + i] = le32(mem(addr[i] + 4 * j as u64, 4));
            g8[j * 8 + i] = le64(mem(addr[i] + 8 * j as u64, 8));
        }
    }
    assert_eq!(whole::<u32>(&r, "G4", 0), g4);
    assert_eq!(whole::<u64>(&r, "G8", 0), g8);
    // 1-byte blocks: lane-major, 4 bytes per channel for 1..4 blocks, 8 for 8 blocks.
    let g1: Vec<u8> = (0..8).flat_map(|i| mem(addr[i], 4)).collect();
    assert_eq!(whole::<u8>(&r, "G1", 0), g1);
    let g18: Vec<u8> = (0..8).flat_map(|i| mem(addr[i], 8)).collect();
    assert_eq!(whole::<u8>(&r, "G18", 0), g18);
}

#[test]
fn svm_scatter_and_blocks_round_trip() {
    let p = program(
        "
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=64 align=GRF
.decl BASE v_type=G type=uq num_elts=1
.decl BLK v_type=G type=ud num_elts=16 align=GRF
svm_scatter.4.4 (M1, 16) ADDR.0 V.0
svm_block_ld (4) BASE(0,0)<0;1,0> BLK.0
svm_block_st (2) BASE(0,0)<0;1,0> BLK.32
",
    );
    let mut svm = Svm::new();
    let out = svm.alloc(16 * 16);
    let addr: Vec<u64> = (0..16).map(|i| out + 16 * i as u64).collect();
    let v: Vec<u32> = (0..64).map(|k| 1000 + k).collect();
    let blocks = svm.alloc_from(&(0..16u32).map(|k| k * k).collect::<Vec<_>>());
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("ADDR", &addr)
        .bind_elements("V", &v)
        .bind_scalar("BASE", blocks)
        .capture("BLK")
        .run()
        .unwrap();
    // Channel i's block j comes from V[j*16 + i] and lands at out + 16i + 4j.
    let mut expected = vec![0u32; 64];
    for i in 0..16 {
        for j in 0..4 {
            expected[i * 4 + j] = v[j * 16 + i];
        }
    }
    assert_eq!(svm.read_vec::<u32>(out, 64).unwrap(), expected);
    let squares: Vec<u32> = (0..16u32).map(|k| k * k).collect();
    assert_eq!(whole::<u32>(&r, "BLK", 0), squares);
    // The store wrote BLK bytes 32..64 (elements 8..16) over the first 8 elements.
    let mut stored = squares.clone();
    stored.copy_within(8..16, 0);
    assert_eq!(svm.read_vec::<u32>(blocks, 16).unwrap(), stored);
}

#[test]
fn predicated_svm_gather_leaves_disabled_channels_untouched() {
    let p = program(
        "
.decl ADDR v_type=G type=uq num_elts=8 align=GRF
.decl D v_type=G type=d num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
setp (M1_NM, 8) P1 0x5A:ub
(P1) svm_gather.4.1 (M1, 8) ADDR.0 D.0
",
    );
    let mut svm = Svm::new();
    let values: Vec<i32> = (0..8).map(|i| 10 * i).collect();
    let base = svm.alloc_from(&values);
    // Disabled channels hold addresses that would trap if they were used.
    let addr: Vec<u64> = (0..8)
        .map(|i| {
            if 0x5A >> i & 1 == 1 {
                base + 4 * i as u64
            } else {
                3
            }
        })
        .collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("ADDR", &addr)
        .bind_vector("D", &[-1i32; 8])
        .run()
        .unwrap();
    let expected: Vec<i32> = (0..8)
        .map(|i| if 0x5A >> i & 1 == 1 { values[i] } else { -1 })
        .collect();
    assert_eq!(r.vector::<i32>("D").unwrap(), expected);
}

#[test]
fn stateless_surface_addresses_the_svm_space() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl BASE v_type=G type=ud num_elts=1
.decl D v_type=G type=ud num_elts=8 align=GRF
gather_scaled.4 (M1, 8) %scratch BASE(0,0)<0;1,0> OFF.0 D.0
",
    );
    let mut svm = Svm::new();
    let values: Vec<u32> = (0..8).map(|i| 0x100 + i).collect();
    let base = svm.alloc_from(&values);
    let off: Vec<u32> = (0..8).map(|i| 4 * (7 - i)).collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_scalar("BASE", u32::try_from(base).unwrap())
        .bind_vector("OFF", &off)
        .capture("D")
        .run()
        .unwrap();
    let expected: Vec<u32> = (0..8).map(|i| values[7 - i]).collect();
    assert_eq!(r.vector::<u32>("D").unwrap(), expected);
}

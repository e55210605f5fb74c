//! The LSC load and store forms beyond one d32/d64 element per lane (`exec::lsc`): 32-bit
//! addresses (`a32` wrapping, `a32u`, `a32s`, with a `flat(BASE)`), vectors laid out one
//! register block per element (blocks padded to whole GRFs), transposed block forms, 8- and
//! 16-bit data and the u32-widened shapes, SLM, binding-table surfaces with their out-of-bounds
//! rule, strided and quad forms. Expected values are computed here in Rust from the memory
//! contents; the tests run on both engines (`VISA_ENGINE`).

mod common;

use common::{program, program_with, trap_of, whole};
use visa_runtime::{Buffer, Launch, LoadOptions, Svm, TrapKind};

/// A permutation of the 16 lanes, so that lane order and memory order differ.
fn perm(lane: u64) -> u64 {
    (lane * 7 + 3) % 16
}

fn words(n: u32) -> Vec<u32> {
    (0..n).map(|i| 0xA000_0000 | (i * 0x10001)).collect()
}

#[test]
fn a32_flat_addresses_with_scale_and_offset_load_and_store() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
lsc_load.ugm (M1, 16) X:d32 flat[0x4*OFF+0x10]:a32
lsc_store.ugm (M1, 16) flat[0x4*OFF+0x400]:a32 X:d32
",
    );
    let mem = words(512);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    assert!(base < 1 << 32);
    let off: Vec<u32> = (0..16).map(|l| (base / 4 + perm(l)) as u32).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("OFF", &off)
        .capture("X")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    // Word k sits at base + 4k: lane l reads word perm(l) + 4 and writes word perm(l) + 256.
    let x: Vec<u32> = (0..16).map(|l| mem[perm(l) as usize + 4]).collect();
    assert_eq!(r.vector::<u32>("X").unwrap(), x);
    let mut expected = mem.clone();
    for l in 0..16 {
        expected[perm(l) as usize + 256] = x[l as usize];
    }
    assert_eq!(svm.read_vec::<u32>(base, 512).unwrap(), expected);
}

/// `a32s` sign-extends its offsets and `a32u` zero-extends them before the 64-bit base is
/// added; plain `a32` computes the address in 32 bits, so it wraps where `a32u` does not.
#[test]
fn a32s_and_a32u_extend_offsets_from_a_base_and_a32_wraps() {
    let mem = words(64);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let src = "
.decl BASE v_type=G type=uq num_elts=1
.decl IDX v_type=G type=d num_elts=16 align=GRF
.decl UIDX v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=ud num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=16 align=GRF
.decl Z v_type=G type=ud num_elts=16 align=GRF
lsc_load.ugm (M1, 16) X:d32 flat(BASE)[0x4*IDX]:a32s
lsc_load.ugm (M1, 16) Y:d32 flat(BASE)[0x4*UIDX+0x8]:a32u
lsc_load.ugm (M1, 16) Z:d32 flat[0x4*W]:a32
";
    let idx: Vec<i32> = (0..16).map(|l| perm(l) as i32 - 8).collect();
    let uidx: Vec<u32> = (0..16).map(|l| perm(l) as u32 * 2).collect();
    // 4 * W overflows 32 bits and lands on word l of the allocation.
    let w: Vec<u32> = (0..16)
        .map(|l| 0x4000_0000 + (base / 4) as u32 + l)
        .collect();
    let launch = |src: &str| {
        Launch::new(&program(src))
            .simd(16)
            .svm(&svm)
            .bind_scalar("BASE", base + 0x40)
            .bind_vector("IDX", &idx)
            .bind_vector("UIDX", &uidx)
            .bind_vector("W", &w)
            .capture("X")
            .capture("Y")
            .capture("Z")
            .run()
    };
    let r = launch(src).unwrap_or_else(|e| panic!("{e}"));
    // BASE is word 16.
    let x: Vec<u32> = idx.iter().map(|i| mem[(16 + i) as usize]).collect();
    let y: Vec<u32> = uidx.iter().map(|u| mem[(16 + u + 2) as usize]).collect();
    assert_eq!(r.vector::<u32>("X").unwrap(), x);
    assert_eq!(r.vector::<u32>("Y").unwrap(), y);
    assert_eq!(r.vector::<u32>("Z").unwrap(), mem[..16].to_vec());
    // The same operand zero-extended: 4 * W is above 4 GiB, where nothing is mapped.
    let unwrapped = src.replace("flat[0x4*W]:a32", "flat[0x4*W]:a32u");
    let trap = trap_of(launch(&unwrapped));
    assert_eq!(
        trap.kind,
        TrapKind::SvmUnmapped {
            address: 4 * u64::from(w[0])
        }
    );
    assert_eq!(trap.lane, Some(0));
}

/// Non-transposed vectors: element v of every lane fills register block v, each block a lane's
/// slot times the execution size rounded up to whole GRFs.
#[test]
fn vectors_fill_one_register_block_per_element() {
    let mem = words(256);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let out = svm.alloc_from(&[0u32; 64]);
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl O v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=64 align=GRF
.decl T v_type=G type=ud num_elts=48 align=GRF
.decl Q v_type=G type=uq num_elts=32 align=GRF
lsc_load.ugm (M1, 16) X:d32x4 flat[A]:a64
lsc_load.ugm (M1, 16) T:d32x3 flat[A+0x4]:a64
lsc_load.ugm (M1, 16) Q:d64x2 flat[A+0x80]:a64
lsc_store.ugm (M1, 16) flat[O]:a64 X:d32x4
",
    );
    // Lane l's struct of four dwords is struct perm(l).
    let a: Vec<u64> = (0..16).map(|l| base + 16 * perm(l)).collect();
    let o: Vec<u64> = (0..16).map(|l| out + 16 * l).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("A", &a)
        .bind_vector("O", &o)
        .capture("X")
        .capture("T")
        .capture("Q")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let word = |l: u64, v: u64| mem[(4 * perm(l) + v) as usize];
    let x: Vec<u32> = (0..64).map(|i| word(i % 16, i / 16)).collect();
    assert_eq!(whole::<u32>(&r, "X", 0), x);
    let t: Vec<u32> = (0..48).map(|i| word(i % 16, i / 16 + 1)).collect();
    assert_eq!(whole::<u32>(&r, "T", 0), t);
    let qword = |k: u64| u64::from(mem[2 * k as usize]) | u64::from(mem[2 * k as usize + 1]) << 32;
    let q: Vec<u64> = (0..32)
        .map(|i| qword(16 + 2 * perm(i % 16) + i / 16))
        .collect();
    assert_eq!(whole::<u64>(&r, "Q", 0), q);
    // The store writes each lane's four dwords back side by side.
    let stored: Vec<u32> = (0..64).map(|i| word(i / 4, i % 4)).collect();
    assert_eq!(svm.read_vec::<u32>(out, 64).unwrap(), stored);
}

/// With 64-byte GRFs a SIMD8 block of dwords fills half a register: the next element starts in
/// the next register and the padding keeps what it held.
#[test]
fn vector_blocks_are_padded_to_whole_registers() {
    let mem = words(64);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let p = program_with(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl X v_type=G type=ud num_elts=32 align=GRF
mov (M1_NM, 16) X(0,0)<1> 0x77:ud
mov (M1_NM, 16) X(1,0)<1> 0x77:ud
lsc_load.ugm (M1, 8) X:d32x2 flat[A]:a64
",
        &LoadOptions::default().grf_bytes(64),
    );
    let a: Vec<u64> = (0..8).map(|l| base + 8 * l).collect();
    let r = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_vector("A", &a)
        .capture("X")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut x = vec![0x77u32; 32];
    for l in 0..8 {
        x[l] = mem[2 * l];
        x[16 + l] = mem[2 * l + 1];
    }
    assert_eq!(whole::<u32>(&r, "X", 0), x);
}

/// Transposed forms: one address, its elements side by side (d32, d64, d8), loads and stores.
#[test]
fn transposed_forms_move_one_block_from_one_address() {
    let mem = words(64);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let out = svm.alloc_from(&[0u32; 16]);
    let p = program(
        "
.decl A v_type=G type=uq num_elts=1
.decl O v_type=G type=uq num_elts=1
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl Q v_type=G type=uq num_elts=4 align=GRF
.decl BY v_type=G type=ub num_elts=16 align=GRF
lsc_load.ugm (M1_NM, 1) V:d32x16t flat[A]:a64
lsc_load.ugm (M1_NM, 1) Q:d64x4t flat[A+0x48]:a64
lsc_load.ugm (M1_NM, 1) BY:d8x16t flat[A+0x3]:a64
lsc_store.ugm (M1_NM, 1) flat[O+0x4]:a64 V:d32x8t
",
    );
    let a = base + 8;
    let r = Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_scalar("A", a)
        .bind_scalar("O", out)
        .capture("V")
        .capture("Q")
        .capture("BY")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let bytes: Vec<u8> = mem.iter().flat_map(|w| w.to_le_bytes()).collect();
    let at = |offset: u64| (offset - base) as usize;
    assert_eq!(whole::<u32>(&r, "V", 0), mem[2..18].to_vec());
    let q: Vec<u64> = (0..4)
        .map(|k| {
            let i = at(a + 0x48) + 8 * k;
            u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap())
        })
        .collect();
    assert_eq!(whole::<u64>(&r, "Q", 0), q);
    assert_eq!(
        whole::<u8>(&r, "BY", 0),
        bytes[at(a + 3)..at(a + 3) + 16].to_vec()
    );
    let mut stored = vec![0u32; 16];
    stored[1..9].copy_from_slice(&mem[2..10]);
    assert_eq!(svm.read_vec::<u32>(out, 16).unwrap(), stored);
}

/// 8- and 16-bit elements: `d8`/`d16` pack one element per lane at their own size, `d8u32` and
/// `d16u32` widen to a zero-extended dword and store its low bits, `d16u32h` uses the upper half.
#[test]
fn narrow_and_u32_widened_elements() {
    let bytes: Vec<u8> = (0..64u32).map(|i| (i * 37 + 11) as u8).collect();
    let mut svm = Svm::new();
    let base = svm.alloc_from(&bytes);
    let out8 = svm.alloc_from(&[0xEEu8; 48]);
    let out16 = svm.alloc_from(&[0u32; 16]);
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl A2 v_type=G type=uq num_elts=16 align=GRF
.decl O8 v_type=G type=uq num_elts=16 align=GRF
.decl O16 v_type=G type=uq num_elts=16 align=GRF
.decl S v_type=G type=ud num_elts=16 align=GRF
.decl X8 v_type=G type=ub num_elts=16 align=GRF
.decl X16 v_type=G type=uw num_elts=16 align=GRF
.decl W8 v_type=G type=ud num_elts=16 align=GRF
.decl W16 v_type=G type=ud num_elts=16 align=GRF
.decl H16 v_type=G type=ud num_elts=16 align=GRF
lsc_load.ugm (M1, 16) X8:d8 flat[A]:a64
lsc_load.ugm (M1, 16) X16:d16 flat[A2]:a64
lsc_load.ugm (M1, 16) W8:d8u32 flat[A]:a64
lsc_load.ugm (M1, 16) W16:d16u32 flat[A2]:a64
lsc_load.ugm (M1, 16) H16:d16u32h flat[A2]:a64
lsc_store.ugm (M1, 16) flat[O8]:a64 S:d8u32
lsc_store.ugm (M1, 16) flat[O16]:a64 S:d16u32
lsc_store.ugm (M1, 16) flat[O16+0x2]:a64 S:d16u32h
",
    );
    let a: Vec<u64> = (0..16).map(|l| base + perm(l)).collect();
    let a2: Vec<u64> = (0..16).map(|l| base + 2 * perm(l)).collect();
    let o8: Vec<u64> = (0..16).map(|l| out8 + 3 * l).collect();
    let o16: Vec<u64> = (0..16).map(|l| out16 + 4 * l).collect();
    let s: Vec<u32> = (0..16).map(|l| 0x8765_4300 + l * 0x1111).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("A", &a)
        .bind_vector("A2", &a2)
        .bind_vector("O8", &o8)
        .bind_vector("O16", &o16)
        .bind_vector("S", &s)
        .capture("X8")
        .capture("X16")
        .capture("W8")
        .capture("W16")
        .capture("H16")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let byte = |l: u64| bytes[perm(l) as usize];
    let half = |l: u64| {
        let i = 2 * perm(l) as usize;
        u16::from_le_bytes([bytes[i], bytes[i + 1]])
    };
    assert!((0..16).any(|l| byte(l) >= 0x80) && (0..16).any(|l| half(l) >= 0x8000));
    assert_eq!(
        r.vector::<u8>("X8").unwrap(),
        (0..16).map(byte).collect::<Vec<_>>()
    );
    assert_eq!(
        r.vector::<u16>("X16").unwrap(),
        (0..16).map(half).collect::<Vec<_>>()
    );
    let w8: Vec<u32> = (0..16).map(|l| u32::from(byte(l))).collect();
    let w16: Vec<u32> = (0..16).map(|l| u32::from(half(l))).collect();
    let h16: Vec<u32> = (0..16).map(|l| u32::from(half(l)) << 16).collect();
    assert_eq!(r.vector::<u32>("W8").unwrap(), w8);
    assert_eq!(r.vector::<u32>("W16").unwrap(), w16);
    assert_eq!(r.vector::<u32>("H16").unwrap(), h16);
    // d8u32 stores each dword's low byte; the bytes between stay.
    let mut stored8 = vec![0xEEu8; 48];
    for l in 0..16 {
        stored8[3 * l] = s[l] as u8;
    }
    assert_eq!(svm.read_vec::<u8>(out8, 48).unwrap(), stored8);
    // The low half through d16u32 and the high half through d16u32h make the whole dword.
    assert_eq!(svm.read_vec::<u32>(out16, 16).unwrap(), s);
}

/// SLM through flat `slm` offsets: a vector store, a reversed vector load, a transposed load,
/// in each of several groups with their own SLM.
#[test]
fn slm_stores_and_loads_per_group() {
    let p = program(
        "
.decl L v_type=G type=ud num_elts=16 align=GRF
.decl R v_type=G type=ud num_elts=16 align=GRF
.decl K v_type=G type=ud num_elts=1
.decl X v_type=G type=ud num_elts=32 align=GRF
.decl Y v_type=G type=ud num_elts=32 align=GRF
.decl Z v_type=G type=ud num_elts=8 align=GRF
lsc_store.slm (M1, 16) flat[0x8*L+0x40]:a32 X:d32x2
lsc_load.slm (M1, 16) Y:d32x2 flat[0x8*R+0x40]:a32
lsc_load.slm (M1_NM, 1) Z:d32x8t flat[K]:a32
",
    );
    let groups = 3usize;
    let launch = Launch::new(&p).simd(16).groups(groups as u32).slm_size(256);
    let items = launch.work_items();
    let lanes: Vec<u32> = (0..items as u32).map(|i| i % 16).collect();
    let reversed: Vec<u32> = lanes.iter().map(|l| 15 - l).collect();
    // Two components per work-item: x at X[lane], y at X[16 + lane].
    let x: Vec<u32> = (0..2 * items as u32).map(|i| i * 3 + 1).collect();
    let r = launch
        .bind_vector("L", &lanes)
        .bind_vector("R", &reversed)
        .bind_scalar("K", 0x40u32)
        .bind_vector_components("X", 2, &x)
        .capture("Y")
        .capture("Z")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    for g in 0..groups {
        let comp = |item: usize, c: usize| x[2 * (16 * g + item) + c];
        let y: Vec<u32> = (0..32).map(|i| comp(15 - i % 16, i / 16)).collect();
        assert_eq!(whole::<u32>(&r, "Y", g), y, "group {g}");
        let z: Vec<u32> = (0..8).map(|i| comp(i / 2, i % 2)).collect();
        assert_eq!(whole::<u32>(&r, "Z", g), z, "group {g}");
    }
}

#[test]
fn an_slm_offset_outside_the_slm_traps_at_its_lane() {
    let p = program(
        "
.decl L v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=16 align=GRF
lsc_load.slm (M1, 16) Y:d32 flat[L]:a32
",
    );
    let mut offsets: Vec<u32> = (0..16).map(|l| 4 * l).collect();
    offsets[3] = 256;
    let result = Launch::new(&p)
        .simd(16)
        .slm_size(256)
        .bind_vector("L", &offsets)
        .run();
    let trap = trap_of(result);
    assert_eq!(
        trap.kind,
        TrapKind::SlmOutOfBounds {
            offset: 256,
            len: 4,
            size: 256
        }
    );
    assert_eq!(trap.lane, Some(3));
}

/// `bti(N)` addresses the surface bound at `TN`: an element not wholly inside reads 0, a store
/// outside is dropped.
#[test]
fn bti_surfaces_read_zero_and_drop_writes_out_of_bounds() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl L v_type=G type=ud num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=32 align=GRF
lsc_load.ugm (M1, 16) X:d32 bti(0x6)[OFF]:a32
lsc_load.ugm (M1, 16) Y:d32x2 bti(0x6)[0x8*L+0x4]:a32
lsc_store.ugm (M1, 16) bti(0x7)[0x4*L]:a32 X:d32
",
    );
    // 38 bytes: the last dword is only half inside.
    let mem = words(10);
    let bytes: Vec<u8> = mem.iter().flat_map(|w| w.to_le_bytes()).collect();
    let t6 = Buffer::from_bytes(&bytes[..38]);
    let t7 = Buffer::from_slice(&[0xFFFF_FFFFu32; 12]);
    let mut off: Vec<u32> = (0..16).map(|l| 4 * l).collect();
    off[10] = 36; // half inside
    off[11] = 1_000_000;
    let lanes: Vec<u32> = (0..16).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_surface("T6", &t6)
        .bind_surface("T7", &t7)
        .bind_vector("OFF", &off)
        .bind_vector("L", &lanes)
        .capture("X")
        .capture("Y")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let word_at = |offset: u32| {
        let k = (offset / 4) as usize;
        if k < 9 { mem[k] } else { 0 }
    };
    let x: Vec<u32> = off.iter().map(|&o| word_at(o)).collect();
    assert_eq!(r.vector::<u32>("X").unwrap(), x);
    let y: Vec<u32> = (0..32u32)
        .map(|i| word_at(8 * (i % 16) + 4 + 4 * (i / 16)))
        .collect();
    assert_eq!(whole::<u32>(&r, "Y", 0), y);
    // Lanes 0..12 fit in T7's 12 dwords; the others are dropped.
    assert_eq!(t7.to_vec::<u32>(), x[..12].to_vec());
}

/// Strided forms: one base, lane n at `n * pitch` from it (the pitch defaults to one lane's
/// data, a packed block).
#[test]
fn strided_loads_and_stores_step_by_the_pitch() {
    let mem = words(128);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let out = svm.alloc_from(&[0u32; 32]);
    let p = program(
        "
.decl B v_type=G type=uq num_elts=1
.decl O v_type=G type=uq num_elts=1
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=32 align=GRF
lsc_load_strided.ugm (M1, 16) X:d32 flat[B]:a64
lsc_load_strided.ugm (M1, 16) Y:d32x2 flat[B+0x8,0xC]:a64
lsc_store_strided.ugm (M1, 16) flat[O,0x8]:a64 X:d32
",
    );
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_scalar("B", base)
        .bind_scalar("O", out)
        .capture("X")
        .capture("Y")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.vector::<u32>("X").unwrap(), mem[..16].to_vec());
    let y: Vec<u32> = (0..32).map(|i| mem[2 + 3 * (i % 16) + i / 16]).collect();
    assert_eq!(whole::<u32>(&r, "Y", 0), y);
    let mut stored = vec![0u32; 32];
    for l in 0..16 {
        stored[2 * l] = mem[l];
    }
    assert_eq!(svm.read_vec::<u32>(out, 32).unwrap(), stored);
}

/// Quad forms: the channels of the mask, in x, y, z, w order, fill consecutive register blocks.
#[test]
fn quad_forms_move_the_channels_of_the_mask() {
    let mem = words(64);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&mem);
    let out = svm.alloc_from(&[7u32; 64]);
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl O v_type=G type=uq num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=48 align=GRF
lsc_load_quad.ugm (M1, 16) X:d32.xzw flat[A]:a64
lsc_store_quad.ugm (M1, 16) flat[O]:a64 X:d32.xy
",
    );
    let a: Vec<u64> = (0..16).map(|l| base + 16 * perm(l)).collect();
    let o: Vec<u64> = (0..16).map(|l| out + 16 * l).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("A", &a)
        .bind_vector("O", &o)
        .capture("X")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let channels = [0u64, 2, 3];
    let x: Vec<u32> = (0..48)
        .map(|i| mem[(4 * perm(i % 16) + channels[(i / 16) as usize]) as usize])
        .collect();
    assert_eq!(whole::<u32>(&r, "X", 0), x);
    let mut stored = vec![7u32; 64];
    for l in 0..16 {
        stored[4 * l] = x[l];
        stored[4 * l + 1] = x[16 + l];
    }
    assert_eq!(svm.read_vec::<u32>(out, 64).unwrap(), stored);
}

/// A load to `%null` is a prefetch: it reads nothing, so not even an unmapped address traps.
#[test]
fn a_load_to_null_is_a_prefetch() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=16 align=GRF
lsc_load.ugm (M1, 16) %null:d32x4 flat[A]:a64
",
    );
    let svm = Svm::new();
    Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_vector("A", &[0x10u64; 16])
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// Every element must be aligned to its size: a d64 vector at an address 4 bytes off traps at
/// its lane, before the lane moves anything.
#[test]
fn a_misaligned_element_traps_at_its_lane() {
    let p = program(
        "
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl X v_type=G type=uq num_elts=16 align=GRF
lsc_load.ugm (M1, 8) X:d64x2 flat[A]:a64
",
    );
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[0u64; 32]);
    let mut a: Vec<u64> = (0..8).map(|l| base + 16 * l).collect();
    a[6] += 4;
    let trap = trap_of(Launch::new(&p).simd(8).svm(&svm).bind_vector("A", &a).run());
    assert_eq!(
        trap.kind,
        TrapKind::Misaligned {
            address: a[6],
            align: 8
        }
    );
    assert_eq!(trap.lane, Some(6));
}

/// Threads of a group exchange data through SLM: each stores its lanes' values, fences SLM,
/// waits at the barrier, then loads the other thread's values.
#[test]
fn threads_exchange_data_through_slm_after_a_fence_and_a_barrier() {
    let p = program(
        "
.decl MINE v_type=G type=ud num_elts=16 align=GRF
.decl THEIRS v_type=G type=ud num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl Y v_type=G type=ud num_elts=16 align=GRF
lsc_store.slm (M1, 16) flat[MINE]:a32 X:d32
lsc_fence.slm.none.group
barrier
lsc_load.slm (M1, 16) Y:d32 flat[THEIRS]:a32
",
    );
    let launch = Launch::new(&p)
        .simd(16)
        .groups(4)
        .threads_per_group(2)
        .slm_size(128);
    let n = launch.work_items() as u32;
    // Work-item i is lane i % 16 of thread (i / 16) % 2 of its group.
    let mine: Vec<u32> = (0..n).map(|i| 4 * (i % 32)).collect();
    let theirs: Vec<u32> = (0..n).map(|i| 4 * ((i % 32 + 16) % 32)).collect();
    let x: Vec<u32> = (0..n).map(|i| 0x5000 + i * 3).collect();
    let r = launch
        .bind_vector("MINE", &mine)
        .bind_vector("THEIRS", &theirs)
        .bind_vector("X", &x)
        .capture("Y")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let y: Vec<u32> = (0..n).map(|i| x[(i ^ 16) as usize]).collect();
    assert_eq!(r.vector::<u32>("Y").unwrap(), y);
}

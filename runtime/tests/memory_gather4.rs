//! Four-channel gathers/scatters: `gather4_scaled`/`scatter4_scaled` on surfaces, SLM and
//! stateless memory, `svm_gather4scaled`/`svm_scatter4scaled` on SVM. Channel-major layout with
//! `max(exec_size, GRF_BYTES / 4)` dwords per requested channel, per-dword bounds on user
//! surfaces, traps on SLM/SVM, disabled lanes untouched.

mod common;

use common::{defined, program, program_with, tracks_definedness, whole};
use visa_runtime::{Buffer, Launch, LaunchError, LoadOptions, Svm, TrapKind};

/// The dword at byte `at` of a surface holding the first `len` bytes of `words`, or 0 when it
/// does not lie wholly inside.
fn dword_at(words: &[u32], len: u64, at: u64) -> u32 {
    if at.is_multiple_of(4) && at + 4 <= len {
        words[(at / 4) as usize]
    } else {
        0
    }
}

/// The requested channel numbers (R = 0 ... A = 3) of a mask, in slot order.
fn channels(mask: u32) -> Vec<u64> {
    (0..4).filter(|c| mask >> c & 1 != 0).collect()
}

#[test]
fn gather4_every_channel_mask_on_a_user_surface() {
    let surface_words: Vec<u32> = (0..64).map(|i| 0x1000_0000 + i * 3).collect();
    // 254 bytes: the last dword is only half inside and reads as zero.
    let surface_bytes: Vec<u8> = surface_words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let surface = Buffer::from_bytes(&surface_bytes[..254]);
    // Lane 4's pixel is partly outside (R, G inside, B half, A wholly outside); lane 6's pixel
    // is half-covered in R; lane 7's wholly outside.
    let off: [u32; 8] = [0, 16, 48, 32, 236, 4, 244, 4096];
    let suffixes = [
        "r", "g", "rg", "b", "rb", "gb", "rgb", "a", "ra", "ga", "rga", "ba", "rba", "gba", "rgba",
    ];
    for (index, suffix) in suffixes.iter().enumerate() {
        let mask = index as u32 + 1;
        let p = program(&format!(
            "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=32 align=GRF
gather4_scaled.{suffix} (M1, 8) T6 0x8:ud OFF.0 PIX.0
"
        ));
        let r = Launch::new(&p)
            .simd(8)
            .bind_surface("T6", &surface)
            .bind_vector("OFF", &off)
            .bind_elements("PIX", &[0xDEAD_BEEFu32; 32])
            .capture("PIX")
            .run()
            .unwrap();
        let mut expected = vec![0xDEAD_BEEFu32; 32];
        for (slot, channel) in channels(mask).into_iter().enumerate() {
            for lane in 0..8 {
                let at = 8 + u64::from(off[lane]) + 4 * channel;
                expected[slot * 8 + lane] = dword_at(&surface_words, 254, at);
            }
        }
        assert_eq!(whole::<u32>(&r, "PIX", 0), expected, "mask .{suffix}");
    }
}

#[test]
fn predicated_off_lanes_keep_their_dwords_and_scatter_nothing() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl PIX v_type=G type=ud num_elts=48 align=GRF
.decl P1 v_type=P num_elts=16
setp (M1_NM, 16) P1 0x7F3D:uw
(P1) gather4_scaled.rba (M1, 16) T6 0x0:ud OFF.0 PIX.0
(P1) scatter4_scaled.rba (M1, 16) T7 0x0:ud OFF.0 PIX.0
",
    );
    let words: Vec<u32> = (0..128).map(|i| i * 11 + 5).collect();
    let source = Buffer::from_slice(&words);
    let target = Buffer::zeroed(512);
    let off: Vec<u32> = (0..16).map(|i| 16 * ((i * 5) % 16)).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_surface("T6", &source)
        .bind_surface("T7", &target)
        .bind_vector("OFF", &off)
        .bind_elements("PIX", &[7u32; 48])
        .capture("PIX")
        .run()
        .unwrap();
    let mut pix = vec![7u32; 48];
    let mut out = vec![0u32; 128];
    for (slot, channel) in [0u64, 2, 3].into_iter().enumerate() {
        for lane in 0..16 {
            if 0x7F3Du32 >> lane & 1 == 0 {
                continue;
            }
            let at = u64::from(off[lane]) + 4 * channel;
            pix[slot * 16 + lane] = dword_at(&words, 512, at);
            out[(at / 4) as usize] = pix[slot * 16 + lane];
        }
    }
    assert_eq!(whole::<u32>(&r, "PIX", 0), pix);
    assert_eq!(target.to_vec::<u32>(), out);
    // The G channel and the disabled lanes' pixels were never written.
    assert!(
        out.iter()
            .enumerate()
            .filter(|(i, _)| i % 4 == 1)
            .all(|(_, v)| *v == 0)
    );
}

#[test]
fn scatter4_drops_dwords_not_wholly_inside_a_user_surface() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl SRC v_type=G type=ud num_elts=16 align=GRF
scatter4_scaled.ga (M1, 8) T6 0x0:ud OFF.0 SRC.0
",
    );
    let target = Buffer::zeroed(40);
    // Lane 3: G inside, A past the end; lane 4: both outside; lanes 5-7 overlap lane 0-2's.
    let off: [u32; 8] = [0, 8, 16, 28, 40, 100, 1000, 24];
    let src: Vec<u32> = (0..16).map(|i| 0xA000 + i).collect();
    Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &target)
        .bind_vector("OFF", &off)
        .bind_elements("SRC", &src)
        .run()
        .unwrap();
    let mut expected = [0u32; 10];
    for (slot, channel) in [1u64, 3].into_iter().enumerate() {
        for lane in 0..8 {
            let at = u64::from(off[lane]) + 4 * channel;
            if at + 4 <= 40 {
                expected[(at / 4) as usize] = src[slot * 8 + lane];
            }
        }
    }
    assert_eq!(target.to_vec::<u32>(), expected);
}

#[test]
fn gather4_group_tails_are_undefined_with_64_byte_registers() {
    let options = LoadOptions {
        grf_bytes: 64,
        ..LoadOptions::default()
    };
    let p = program_with(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=32 align=GRF
gather4_scaled.rg (M1, 8) T6 0x0:ud OFF.0 PIX.0
",
        &options,
    );
    let words: Vec<u32> = (0..32).map(|i| i * i).collect();
    let surface = Buffer::from_slice(&words);
    let off: Vec<u32> = (0..8).map(|i| 8 * i).collect();
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &off)
        .capture("PIX")
        .run()
        .unwrap();
    // W = 16 dwords: R of lanes 0..7 in dwords 0..7, G in dwords 16..23.
    let (bytes, def) = r.thread_bytes("PIX", 0).unwrap();
    let pix = Buffer::from_bytes(bytes).to_vec::<u32>();
    for lane in 0..8 {
        assert_eq!(pix[lane], words[2 * lane]);
        assert_eq!(pix[16 + lane], words[2 * lane + 1]);
    }
    let dword_defined = |d: usize| def[4 * d..4 * d + 4].iter().all(|b| *b);
    assert!((0..8).chain(16..24).all(dword_defined));
    if tracks_definedness() {
        assert!((8..16).chain(24..32).all(|d| !dword_defined(d)));
    }
}

#[test]
fn gather4_on_slm_and_stateless() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl SRC v_type=G type=ud num_elts=16 align=GRF
.decl PIX v_type=G type=ud num_elts=16 align=GRF
.decl ST v_type=G type=ud num_elts=8 align=GRF
.decl BASE v_type=G type=ud num_elts=1
scatter4_scaled.rb (M1, 8) %slm 0x20:ud OFF.0 SRC.0
gather4_scaled.rb (M1, 8) %slm 0x20:ud OFF.0 PIX.0
gather4_scaled.a (M1, 8) %scratch BASE(0,0)<0;1,0> OFF.0 ST.0
",
    );
    let mut svm = Svm::new();
    let words: Vec<u32> = (0..64).map(|i| 0x5000 + i).collect();
    let base = svm.alloc_from(&words);
    assert!(base < 1 << 32, "the stateless base must fit the UD offset");
    let off: Vec<u32> = (0..8).map(|i| 16 * (7 - i)).collect();
    let src: Vec<u32> = (0..16).map(|i| 900 + i).collect();
    let r = Launch::new(&p)
        .simd(8)
        .slm_size(256)
        .svm(&svm)
        .bind_vector("OFF", &off)
        .bind_elements("SRC", &src)
        .bind_scalar("BASE", base as u32)
        .capture("PIX")
        .capture("ST")
        .run()
        .unwrap();
    assert_eq!(whole::<u32>(&r, "PIX", 0), src);
    let st: Vec<u32> = (0..8).map(|i| words[(off[i] / 4 + 3) as usize]).collect();
    assert_eq!(whole::<u32>(&r, "ST", 0), st);
}

fn trap_of(err: LaunchError) -> (Option<u32>, TrapKind) {
    match err {
        LaunchError::Trap(trap) => (trap.lane, trap.kind),
        other => panic!("expected a trap, got {other}"),
    }
}

#[test]
fn gather4_out_of_range_slm_traps_naming_the_lane() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=8 align=GRF
gather4_scaled.a (M1, 8) %slm 0x0:ud OFF.0 PIX.0
",
    );
    let off: [u32; 8] = [0, 16, 32, 48, 64, 80, 96, 112];
    let err = Launch::new(&p)
        .simd(8)
        .slm_size(64)
        .bind_vector("OFF", &off)
        .run()
        .unwrap_err();
    assert_eq!(
        trap_of(err),
        (
            Some(4),
            TrapKind::SlmOutOfBounds {
                offset: 76,
                len: 4,
                size: 64
            }
        )
    );
}

#[test]
fn gather4_misaligned_offset_traps() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=8 align=GRF
gather4_scaled.r (M1, 8) T6 0x0:ud OFF.0 PIX.0
",
    );
    let surface = Buffer::zeroed(256);
    let off: [u32; 8] = [0, 4, 8, 13, 16, 20, 24, 28];
    let err = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &off)
        .run()
        .unwrap_err();
    assert_eq!(
        trap_of(err),
        (
            Some(3),
            TrapKind::Misaligned {
                address: 13,
                align: 4
            }
        )
    );
}

#[test]
fn svm_gather4_and_scatter4_round_trip_with_uq_offsets() {
    let p = program(
        "
.decl BASE v_type=G type=uq num_elts=1
.decl OFF v_type=G type=uq num_elts=16 align=GRF
.decl OUTB v_type=G type=uq num_elts=1
.decl PIX v_type=G type=ud num_elts=48 align=GRF
svm_gather4scaled.rgb (M1, 16) BASE(0,0)<0;1,0> OFF.0 PIX.0
svm_scatter4scaled.rgb (M1, 16) OUTB(0,0)<0;1,0> OFF.0 PIX.0
",
    );
    let mut svm = Svm::new();
    let words: Vec<u32> = (0..64).map(|i| 0x7700_0000 | (i * 13)).collect();
    let base = svm.alloc_from(&words);
    let out = svm.alloc(256);
    let off: Vec<u64> = (0..16).map(|i| 16 * ((i * 7) % 16)).collect();
    let r = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .bind_scalar("BASE", base)
        .bind_scalar("OUTB", out)
        .bind_vector("OFF", &off)
        .capture("PIX")
        .run()
        .unwrap();
    let mut pix = vec![0u32; 48];
    let mut copy = vec![0u32; 64];
    for channel in 0..3 {
        for lane in 0..16 {
            let word = (off[lane] / 4) as usize + channel;
            pix[channel * 16 + lane] = words[word];
            copy[word] = words[word];
        }
    }
    assert_eq!(whole::<u32>(&r, "PIX", 0), pix);
    assert_eq!(svm.read_vec::<u32>(out, 64).unwrap(), copy);
}

#[test]
fn svm_gather4_outside_any_allocation_traps() {
    let p = program(
        "
.decl BASE v_type=G type=uq num_elts=1
.decl OFF v_type=G type=uq num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=16 align=GRF
svm_gather4scaled.rg (M1, 8) BASE(0,0)<0;1,0> OFF.0 PIX.0
",
    );
    let mut svm = Svm::new();
    let base = svm.alloc(64);
    // Lane 2's pixel starts at the last dword: R is inside, G runs past the allocation.
    let off: [u64; 8] = [0, 16, 60, 32, 48, 0, 0, 0];
    let err = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_scalar("BASE", base)
        .bind_vector("OFF", &off)
        .run()
        .unwrap_err();
    let (lane, kind) = trap_of(err);
    assert_eq!(lane, Some(2));
    assert!(
        matches!(kind, TrapKind::SvmUnmapped { address } | TrapKind::SvmOutOfBounds { address, .. } if address == base + 64),
        "{kind:?}"
    );
}

#[test]
fn svm_gather4_addresses_wrapping_past_the_top_of_the_space_trap() {
    let p = program(
        "
.decl BASE v_type=G type=uq num_elts=1
.decl OFF v_type=G type=uq num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=32 align=GRF
svm_gather4scaled.a (M1, 8) BASE(0,0)<0;1,0> OFF.0 PIX.0
",
    );
    let svm = Svm::new();
    let err = Launch::new(&p)
        .simd(8)
        .svm(&svm)
        .bind_scalar("BASE", u64::MAX - 7)
        .bind_vector("OFF", &[0u64; 8])
        .run()
        .unwrap_err();
    let (lane, kind) = trap_of(err);
    assert_eq!(lane, Some(0));
    assert!(
        matches!(
            kind,
            TrapKind::SvmUnmapped { .. } | TrapKind::SvmOutOfBounds { .. }
        ),
        "{kind:?}"
    );
}

#[test]
fn gather4_rejects_bad_execution_sizes_and_small_destinations() {
    for (text, needle) in [
        (
            "gather4_scaled.r (M1, 4) T6 0x0:ud OFF.0 PIX.0",
            "execution size",
        ),
        (
            "gather4_scaled.rgba (M1, 8) T6 0x0:ud OFF.0 PIX.0",
            "bytes of 'PIX'",
        ),
    ] {
        let src = format!(
            "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=24 align=GRF
{text}
"
        );
        let err = visa_runtime::Program::from_text(&src, &LoadOptions::default()).unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    }
}

#[test]
fn gather4_definedness_follows_enabled_lanes() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl PIX v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
setp (M1_NM, 8) P1 0x0F:ub
(P1) gather4_scaled.b (M1, 8) T6 0x0:ud OFF.0 PIX.0
",
    );
    let surface = Buffer::zeroed(64);
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("T6", &surface)
        .bind_vector("OFF", &[0u32; 8])
        .capture("PIX")
        .run()
        .unwrap();
    let d = defined(&r, "PIX");
    assert!(d[..16].iter().all(|b| *b));
    if tracks_definedness() {
        assert!(d[16..].iter().all(|b| !*b));
    }
}

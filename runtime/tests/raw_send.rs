//! `raw_send` / `raw_sends` (RAW_SEND.md, RAW_SENDS.md) as the inline vISA of SYCL template
//! libraries (CaoZhongZ/tvisa: `AddressPayload`, `RawSendLoad`, `RawSendStore`, `BarrierPayload`,
//! `nbarrier_signal`) writes them: the address payload built with `mov`/`add` through a `uq`
//! alias, the descriptors of the library's lists. Expected registers and memory are computed
//! here from the surface bytes (row-major tiles, the VNNI interleave of pairs of 16-bit rows),
//! never from the runtime. Run on both engines (`VISA_ENGINE`).

mod common;

use common::{program_with, trap_kind, whole};
use visa_runtime::{Launch, LoadErrorKind, LoadOptions, Program, Svm, TrapKind};

fn pvc() -> LoadOptions {
    LoadOptions::default().grf_bytes(64)
}

/// A surface of `rows` rows of `cols` 16-bit elements (pitch = width), element (x, y) = f(x, y).
fn surface(cols: u32, rows: u32) -> Vec<u16> {
    (0..rows)
        .flat_map(|y| (0..cols).map(move |x| (y * 1000 + x * 7 + 3) as u16))
        .collect()
}

fn bytes16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|e| e.to_le_bytes()).collect()
}

/// tvisa's `AddressPayload<BlockHeight, BlockWidth>` constructor: base in dwords 0-1 (through a
/// `uq` alias), width, height and pitch minus 1, X, Y, and the block shape in dword 7.
fn payload(block_w: u32, block_h: u32, array: u32) -> String {
    let shape = (block_w - 1) | (block_h - 1) << 8 | ((array - 1) & 0xF) << 16;
    format!(
        "{{
.decl alias64 v_type=G type=uq num_elts=8 align=GRF alias=<P, 0>
mov (M1, 1) alias64(0, 0)<1> BASE(0, 0)<0;1,0>
add (M1, 1) P(0, 2)<1> SW(0, 0)<0;1,0> -1:d
add (M1, 1) P(0, 3)<1> SH(0, 0)<0;1,0> -1:d
add (M1, 1) P(0, 4)<1> SP(0, 0)<0;1,0> -1:d
mov (M1, 1) P(0, 5)<1> X(0, 0)<0;1,0>
mov (M1, 1) P(0, 6)<1> Y(0, 0)<0;1,0>
mov (M1, 1) P(0, 7)<1> 0x{shape:x}:ud
}}
"
    )
}

const DECLS: &str = "\
.decl P v_type=G type=ud num_elts=16 align=GRF
.decl BASE v_type=G type=uq num_elts=1
.decl OUT v_type=G type=uq num_elts=1
.decl SW v_type=G type=ud num_elts=1
.decl SH v_type=G type=ud num_elts=1
.decl SP v_type=G type=ud num_elts=1
.decl X v_type=G type=d num_elts=1
.decl Y v_type=G type=d num_elts=1
";

/// The tile variable: `elems` 16-bit elements.
fn tile(elems: u32) -> String {
    format!(".decl T v_type=G type=uw num_elts={elems} align=GRF\n")
}

fn launch<'a>(
    p: &'a Program,
    svm: &'a Svm,
    base: u64,
    cols: u32,
    rows: u32,
    x: i32,
    y: i32,
) -> Launch<'a> {
    Launch::new(p)
        .simd(1)
        .svm(svm)
        .bind_scalar("BASE", base)
        .bind_scalar("SW", cols * 2)
        .bind_scalar("SH", rows)
        .bind_scalar("SP", cols * 2)
        .bind_scalar("X", x)
        .bind_scalar("Y", y)
}

/// `RawSendLoad<2, 4, none, L1UC_L3UC>`: `raw_sends.15.1.0.4 ... 0x2420203` (iga64:
/// load_block2d.ugm.d16.a64.uc.uc, 4 registers back): a 16-wide, 8-high tile of 16-bit elements.
#[test]
fn a_2d_block_load_through_raw_sends_reads_the_payload_s_tile() {
    let (cols, rows) = (40, 20);
    let s = surface(cols, rows);
    let src = format!(
        "{DECLS}{}{}raw_sends.15.1.0.4 (M1, 1) 0x0:ud 0x2420203:ud P.0 V0.0 T.0\n",
        tile(128),
        payload(16, 8, 1)
    );
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let base = svm.alloc_from(&bytes16(&s));
    for (x, y) in [(3, 5), (30, 15), (-2, 0)] {
        let r = launch(&p, &svm, base, cols, rows, x, y)
            .capture("T")
            .run()
            .unwrap();
        let got = whole::<u16>(&r, "T", 0);
        let mut expected = vec![0u16; 128];
        for row in 0..8 {
            for col in 0..16 {
                let (sx, sy) = (x + col, y + row);
                let inside = (0..cols as i32).contains(&sx) && (0..rows as i32).contains(&sy);
                expected[(row * 16 + col) as usize] = if inside {
                    s[(sy as u32 * cols + sx as u32) as usize]
                } else {
                    0
                };
            }
        }
        assert_eq!(got, expected, "tile at ({x}, {y})");
    }
}

/// A VNNI load (`0x2800283`: load_block2d d16 with the VNNI transform, 8 registers for a
/// 16x16 tile, as dpas wants its B matrix) and a store of the tile back (`0x2000207`:
/// store_block2d d16, the tile in Src1, 4 registers for 16x8), on PVC.
#[test]
fn vnni_load_and_block_store_through_raw_sends() {
    let (cols, rows) = (32, 32);
    let s = surface(cols, rows);
    let src = format!(
        "{DECLS}{}{}raw_sends.15.1.0.8 (M1, 1) 0x0:ud 0x2800283:ud P.0 %null.0 T.0\n\
         mov (M1, 1) P(0, 7)<1> 0x70f:ud\n\
         mov (M1, 1) alias64(0, 0)<1> OUT(0, 0)<0;1,0>\n\
         raw_sends.15.1.4.0 (M1, 1) 0x0:ud 0x2000207:ud P.0 T.0 %null.0\n",
        tile(256),
        payload(16, 16, 1).trim_end().trim_end_matches('}')
    ) + "}\n";
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let base = svm.alloc_from(&bytes16(&s));
    let out = svm.alloc_from(&vec![0u8; s.len() * 2]);
    let (x, y) = (4, 6);
    let r = launch(&p, &svm, base, cols, rows, x, y)
        .bind_scalar("OUT", out)
        .capture("T")
        .run()
        .unwrap();
    let got = whole::<u16>(&r, "T", 0);
    // VNNI: the dword at (row pair k, column c) holds rows 2k and 2k+1 of column c.
    let elem = |c: i32, r: i32| s[((y + r) as u32 * cols + (x + c) as u32) as usize];
    for k in 0..8 {
        for c in 0..16 {
            let at = (k * 32 + c * 2) as usize;
            assert_eq!(
                (got[at], got[at + 1]),
                (elem(c, 2 * k), elem(c, 2 * k + 1)),
                "pair {k} column {c}"
            );
        }
    }
    // The store writes the first 4 registers back as a plain 16x8 tile at (x, y) of OUT.
    let written: Vec<u16> = svm
        .read_vec(out, s.len() * 2)
        .expect("mapped")
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    for row in 0..rows as i32 {
        for col in 0..cols as i32 {
            let inside = (x..x + 16).contains(&col) && (y..y + 8).contains(&row);
            let want = if inside {
                got[((row - y) * 16 + (col - x)) as usize]
            } else {
                0
            };
            assert_eq!(
                written[(row as u32 * cols + col as u32) as usize],
                want,
                "({col}, {row})"
            );
        }
    }
}

/// Cache-controlled LSC messages: a transposed d32x16 load with L1 and L3 uncached
/// (`0x21AF180`... built here from the fields iga64 prints: opcode load, a64, d32, x16, t,
/// uc.uc, 1 address register, 1 response register) and the same data stored back with
/// streaming caching (`lsc_store.ugm.st.uc`, as tvisa's LscStore writes it), then loaded with
/// `lsc_load.ugm.ca.ca` and compared.
#[test]
fn cache_controlled_lsc_loads_and_stores() {
    let desc_load: u32 = 1 << 25 | 1 << 20 | 1 << 17 | 1 << 15 | 5 << 12 | 2 << 9 | 3 << 7;
    let desc_store: u32 = 1 << 25 | 5 << 17 | 1 << 15 | 5 << 12 | 2 << 9 | 3 << 7 | 4;
    let src = format!(
        ".decl A v_type=G type=uq num_elts=8 align=GRF
.decl B v_type=G type=uq num_elts=8 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=ud num_elts=16 align=GRF
raw_sends.15.1.0.1 (M1, 1) 0x0:ud 0x{desc_load:x}:ud A.0 %null.0 V.0
raw_sends.15.1.1.0 (M1, 1) 0x0:ud 0x{desc_store:x}:ud B.0 V.0 %null.0
lsc_load.ugm.ca.ca (M1_NM, 1) W:d32x16t flat[B]:a64
"
    );
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let data: Vec<u32> = (0..16).map(|i| i * i + 11).collect();
    let a = svm.alloc_from(
        &data
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    );
    let b = svm.alloc_from(&[0u8; 64]);
    let r = Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_scalar("A", a)
        .bind_scalar("B", b)
        .capture("V")
        .capture("W")
        .run()
        .unwrap();
    assert_eq!(whole::<u32>(&r, "V", 0), data);
    assert_eq!(whole::<u32>(&r, "W", 0), data);
}

/// tvisa's `nbarrier_signal(BarrierPayload)`: `raw_sends.3.1.0.0 ... 0x02000004 %0.0 V0.0 V0.0`
/// (`V0`, the compiler's numbered name of `%null`) with the id,
/// type and counts in dword 2 of the payload (id | type << 14 | producers << 16 | consumers <<
/// 24). Thread 1 produces (type 1) a value into SLM, thread 0 consumes (type 2): it signals,
/// waits with `nbarrier.wait`, then reads the value. Threads run in order until they block, so
/// without the barrier thread 0 would read zeros.
#[test]
fn a_named_barrier_signalled_through_the_gateway_orders_a_producer_and_a_consumer() {
    let src = "
.decl P v_type=G type=ud num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=4 align=GRF
.decl GOT v_type=G type=ud num_elts=4 align=GRF
.decl F v_type=P num_elts=1
mov (M1_NM, 4) GOT(0,0)<1> 0x0:ud
cmp.eq (M1_NM, 1) F %thread_x(0,0)<0;1,0> 0x0:uw
(F) jmp (M1_NM, 1) consumer
mov (M1_NM, 4) V(0,0)<1> 0x2a:ud
oword_st (1) %slm 0x0:ud V.0
mov (M1, 1) P(0,2)<1> 0x01014003:ud
raw_sends.3.1.0.0 (M1, 1) 0x0:ud 0x02000004:ud P.0 V0.0 V0.0
ret (M1_NM, 1)
consumer:
mov (M1, 1) P(0,2)<1> 0x01018003:ud
raw_sends.3.1.0.0 (M1, 1) 0x0:ud 0x02000004:ud P.0 V0.0 V0.0
nbarrier.wait 0x3:ub
oword_ld (1) %slm 0x0:ud GOT.0
";
    let p = program_with(src, &pvc());
    let r = Launch::new(&p)
        .simd(1)
        .threads_per_group(2)
        .slm_size(64)
        .capture("GOT")
        .run()
        .unwrap();
    assert_eq!(whole::<u32>(&r, "GOT", 0), vec![0x2a; 4]);
}

/// What is not modelled is refused at load, naming the decoded message; a descriptor whose
/// lengths disagree with the instruction's is an error.
#[test]
fn unmodelled_messages_are_refused_naming_the_decoded_message() {
    let decls = ".decl P v_type=G type=ud num_elts=16 align=GRF\n.decl D v_type=G type=ud num_elts=64 align=GRF\n";
    for (line, named) in [
        // A strided load (no lsc_* form of ours writes it from a raw send).
        (
            "raw_sends.15.1.0.1 (M1, 1) 0x0:ud 0x2100581:ud P.0 %null.0 D.0",
            "load_strided.ugm",
        ),
        // A sampler message: no document describes shared function 2.
        (
            "raw_sends.2.1.0.1 (M1, 1) 0x0:ud 0x2100000:ud P.0 %null.0 D.0",
            "sfid 0x2",
        ),
        // Gateway: end of thread.
        (
            "raw_sends.3.1.0.0 (M1, 1) 0x0:ud 0x2000000:ud P.0 %null.0 %null.0",
            "eot.gtwy",
        ),
        // A 2D block load of d8u32 elements (size code 4): no 2D block form widens.
        (
            "raw_sends.15.1.0.4 (M1, 1) 0x0:ud 0x2420803:ud P.0 %null.0 D.0",
            "2D blocks of d8u32 elements",
        ),
        // A descriptor held in a register.
        (
            "raw_sends.15.1.0.4 (M1, 1) 0x0:ud P(0,0)<0;1,0> P.0 %null.0 D.0",
            "a descriptor held in a register",
        ),
    ] {
        let src = format!("{decls}{line}\n");
        let e = Program::from_text(&src, &pvc()).expect_err(line);
        assert_eq!(e.kind, LoadErrorKind::NotExecuted, "{line}: {e}");
        assert!(e.to_string().contains(named), "{line}: {e}");
    }
    let src = format!("{decls}raw_sends.15.1.0.2 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 D.0\n");
    let e = Program::from_text(&src, &pvc()).expect_err("lengths");
    assert_eq!(e.kind, LoadErrorKind::Rule, "{e}");
    assert!(
        e.to_string().contains("response length is 4 registers"),
        "{e}"
    );
}

/// A payload whose block shape needs more registers than the message returns traps when it
/// runs, naming the message.
#[test]
fn a_payload_shape_larger_than_the_response_traps() {
    let src = format!(
        "{DECLS}{}{}raw_sends.15.1.0.4 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 T.0\n",
        tile(512),
        payload(32, 8, 1)
    );
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[0u8; 4096]);
    let kind = trap_kind(launch(&p, &svm, base, 32, 32, 0, 0).run());
    assert!(matches!(kind, TrapKind::RawSend { .. }), "{kind:?}");
}

/// The expected 16-bit tile of `w` x `h` at (x, y) of `s` (`cols` x `rows`), row-major, 0 outside.
fn expected_tile(s: &[u16], cols: u32, rows: u32, (x, y): (i32, i32), w: i32, h: i32) -> Vec<u16> {
    let mut out = Vec::new();
    for row in 0..h {
        for col in 0..w {
            let (sx, sy) = (x + col, y + row);
            let inside = (0..cols as i32).contains(&sx) && (0..rows as i32).contains(&sy);
            out.push(if inside {
                s[(sy as u32 * cols + sx as u32) as usize]
            } else {
                0
            });
        }
    }
    out
}

/// `lsc_load_block2d` / `lsc_store_block2d` written with a payload address,
/// `flat[P + (x,y)]` (LSC_UNTYPED.md): the surface, X, Y and the block's dimensions come from the
/// payload register (built as tvisa's `AddressPayload` builds it), the immediate offset is added
/// to X and Y. The tile is loaded at (X + 2, Y - 1) and stored back at (X - 3, Y + 4) of OUT.
#[test]
fn the_payload_form_of_the_2d_block_instructions_reads_the_payload_register() {
    let (cols, rows) = (40, 20);
    let s = surface(cols, rows);
    let src = format!(
        "{DECLS}{}{}lsc_load_block2d.ugm (M1, 1) T:d16.16x8nn flat[P + (2,-1)]\n\
         {{\n.decl out64 v_type=G type=uq num_elts=8 align=GRF alias=<P, 0>\n\
         mov (M1, 1) out64(0, 0)<1> OUT(0, 0)<0;1,0>\n}}\n\
         lsc_store_block2d.ugm (M1, 1) flat[P + (-3,4)] T:d16.16x8nn\n",
        tile(128),
        payload(16, 8, 1)
    );
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let base = svm.alloc_from(&bytes16(&s));
    for (x, y) in [(3, 5), (30, 15), (-1, 0)] {
        let out = svm.alloc_from(&vec![0u8; s.len() * 2]);
        let r = launch(&p, &svm, base, cols, rows, x, y)
            .bind_scalar("OUT", out)
            .capture("T")
            .run()
            .unwrap();
        let want = expected_tile(&s, cols, rows, (x + 2, y - 1), 16, 8);
        assert_eq!(whole::<u16>(&r, "T", 0), want, "tile at ({x}, {y})");
        // OUT has the surface's dimensions: the tile lands at (x - 3, y + 4), clipped.
        let written: Vec<u16> = svm
            .read_vec(out, s.len() * 2)
            .expect("mapped")
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        for row in 0..rows as i32 {
            for col in 0..cols as i32 {
                let (tx, ty) = (col - (x - 3), row - (y + 4));
                let inside = (0..16).contains(&tx) && (0..8).contains(&ty);
                let expect = if inside {
                    want[(ty * 16 + tx) as usize]
                } else {
                    0
                };
                assert_eq!(
                    written[(row as u32 * cols + col as u32) as usize],
                    expect,
                    "OUT ({col}, {row}) for the tile at ({x}, {y})"
                );
            }
        }
    }
}

/// In the payload form the block's dimensions are the payload's (what the hardware reads); the
/// data operand's shape only sizes the registers. A payload block larger than them traps.
#[test]
fn the_payload_form_takes_the_payload_s_block_within_the_data_operand() {
    let (cols, rows) = (40, 20);
    let s = surface(cols, rows);
    // The payload asks for 8x4; the operand's 16x8 shape gives 4 registers, enough.
    let src = format!(
        "{DECLS}{}{}lsc_load_block2d.ugm (M1, 1) T:d16.16x8nn flat[P + (0,0)]\n",
        tile(128),
        payload(8, 4, 1)
    );
    let p = program_with(&src, &pvc());
    let mut svm = Svm::new();
    let base = svm.alloc_from(&bytes16(&s));
    let r = launch(&p, &svm, base, cols, rows, 5, 7)
        .capture("T")
        .run()
        .unwrap();
    // Rows of 8 elements: the first register. The other three are not written (the
    // interpreter reports them undefined).
    let (bytes, defined) = r.thread_bytes("T", 0).expect("captured");
    assert!(defined[..64].iter().all(|d| *d));
    let got: Vec<u16> = bytes[..64]
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(got, expected_tile(&s, cols, rows, (5, 7), 8, 4));
    // 32x8 needs 8 registers; the operand's 16x8 shape gives 4.
    let src = format!(
        "{DECLS}{}{}lsc_load_block2d.ugm (M1, 1) T:d16.16x8nn flat[P + (0,0)]\n",
        tile(512),
        payload(32, 8, 1)
    );
    let p = program_with(&src, &pvc());
    let kind = trap_kind(launch(&p, &svm, base, cols, rows, 0, 0).run());
    assert!(matches!(kind, TrapKind::RawSend { .. }), "{kind:?}");
}

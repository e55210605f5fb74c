//! `lsc_load_block2d` / `lsc_store_block2d` (LSC_UNTYPED.md) on flat surfaces in SVM. The
//! expected registers and memory are computed here: a surface element is read straight from
//! the Rust buffer (0 outside the surface), and the register image is built by the loops of the
//! upstream document's pseudo-code (row spans, column spans, zero fill), with the start row
//! added as the row index `Y + y`. The surface operands are minus-1 values: width and pitch in
//! bytes, height in rows; X counts elements, Y rows. The tests run on both engines
//! (`VISA_ENGINE`).

mod common;

use common::{program_with, trap_kind, whole};
use visa_runtime::{Launch, LoadErrorKind, LoadOptions, Program, Svm, TrapKind};

/// A surface of `rows` rows of `row_bytes` bytes, `pitch` bytes apart, filled with a pattern.
struct Surface {
    bytes: Vec<u8>,
    row_bytes: u32,
    rows: u32,
    pitch: u32,
}

impl Surface {
    fn new(row_bytes: u32, rows: u32, pitch: u32, seed: u32) -> Surface {
        let len = (pitch * (rows - 1) + row_bytes) as usize;
        let bytes = (0..len as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 13) as u8)
            .collect();
        Surface {
            bytes,
            row_bytes,
            rows,
            pitch,
        }
    }

    /// The bytes of the element at column `col` (elements of `size` bytes) of row `row`, or
    /// zeros when the element is not wholly inside the surface.
    fn element(&self, col: i64, row: i64, size: usize) -> Vec<u8> {
        let inside = row >= 0
            && row < i64::from(self.rows)
            && col >= 0
            && (col + 1) * size as i64 <= i64::from(self.row_bytes);
        if !inside {
            return vec![0; size];
        }
        let at = row as usize * self.pitch as usize + col as usize * size;
        self.bytes[at..at + size].to_vec()
    }
}

/// One 2D block load.
#[derive(Clone, Copy, Debug)]
struct Load {
    size: usize,
    blocks: u32,
    width: u32,
    height: u32,
    transpose: bool,
    vnni: bool,
    grf: u32,
}

impl Load {
    fn data_size(&self) -> &'static str {
        match self.size {
            1 => "d8",
            2 => "d16",
            4 => "d32",
            _ => "d64",
        }
    }

    /// The register image the document's pseudo-code builds, as bytes.
    fn expected(&self, s: &Surface, x0: i64, y0: i64) -> Vec<u8> {
        let (b_count, h, w) = (
            self.blocks as usize,
            self.height as usize,
            self.width as usize,
        );
        let size = self.size;
        let elems_per_dword = 4 / size;
        let elems_per_reg = self.grf as usize / size;
        let grf_row_size = if self.transpose { h } else { w };
        let grf_row_pitch = grf_row_size.next_power_of_two();
        let grf_block_size = grf_row_pitch * if self.transpose { w } else { h };
        let grf_block_pitch = grf_block_size.div_ceil(elems_per_reg) * elems_per_reg;
        let mut grf = vec![vec![0u8; size]; b_count * grf_block_pitch];
        // Element x of row y of block b: surface column X + b*W + x, row Y + y.
        let load = |grf: &mut Vec<Vec<u8>>, off: usize, b: usize, y: usize, x: usize| {
            grf[off] = s.element(x0 + (b * w + x) as i64, y0 + y as i64, size);
        };
        for b in 0..b_count {
            let block = b * grf_block_pitch;
            match (self.transpose, self.vnni) {
                (false, false) => {
                    for y in 0..h {
                        for i in 0..w {
                            load(&mut grf, block + y * grf_row_pitch + i, b, y, i);
                        }
                    }
                }
                (false, true) => {
                    for y in (0..h).step_by(elems_per_dword) {
                        for x in 0..w {
                            for i in 0..elems_per_dword {
                                let off = block + y * grf_row_pitch + x * elems_per_dword + i;
                                load(&mut grf, off, b, y + i, x);
                            }
                        }
                    }
                }
                (true, false) => {
                    for x in 0..w {
                        for i in 0..h {
                            load(&mut grf, block + x * grf_row_pitch + i, b, i, x);
                        }
                    }
                }
                (true, true) => {
                    for x in (0..w).step_by(elems_per_dword) {
                        for y in 0..h {
                            for i in 0..elems_per_dword {
                                let off = block + x * grf_row_pitch + y * elems_per_dword + i;
                                load(&mut grf, off, b, y, x + i);
                            }
                        }
                    }
                }
            }
        }
        grf.concat()
    }
}

const SURFACE_DECLS: &str = "\
.decl BASE v_type=G type=uq num_elts=1
.decl SW v_type=G type=ud num_elts=1
.decl SH v_type=G type=ud num_elts=1
.decl SP v_type=G type=ud num_elts=1
.decl X v_type=G type=d num_elts=1
.decl Y v_type=G type=d num_elts=1
";

/// A launch of one SIMD-1 thread with the surface operands bound: W, H and P as the message
/// wants them, minus 1.
fn launch<'a>(p: &'a Program, svm: &'a Svm, base: u64, s: &Surface, x: i64, y: i64) -> Launch<'a> {
    Launch::new(p)
        .simd(1)
        .svm(svm)
        .bind_scalar("BASE", base)
        .bind_scalar("SW", s.row_bytes - 1)
        .bind_scalar("SH", s.rows - 1)
        .bind_scalar("SP", s.pitch - 1)
        .bind_scalar("X", x as i32)
        .bind_scalar("Y", y as i32)
}

fn run_load(load: Load, s: &Surface, x: i64, y: i64) -> Vec<u8> {
    let bytes = load.expected(s, 0, 0).len();
    let order = |t| if t { "t" } else { "n" };
    let src = format!(
        "{SURFACE_DECLS}.decl D v_type=G type=ub num_elts={bytes} align=GRF\n\
         lsc_load_block2d.ugm (M1, 1) D:{}.{}x{}x{}{}{} flat[BASE,SW,SH,SP,X,Y]\n",
        load.data_size(),
        load.blocks,
        load.width,
        load.height,
        order(load.transpose),
        order(load.vnni),
    );
    let p = program_with(&src, &LoadOptions::default().grf_bytes(load.grf));
    let mut svm = Svm::new();
    let base = svm.alloc_from(&s.bytes);
    let r = launch(&p, &svm, base, s, x, y)
        .capture("D")
        .run()
        .unwrap_or_else(|e| panic!("{load:?} at ({x}, {y}): {e}\n{src}"));
    whole::<u8>(&r, "D", 0)
}

/// Every data size, block count, transpose and VNNI form the checker permits, with 32- and
/// 64-byte GRFs, at start positions inside the surface and partly outside it on each side.
#[test]
fn loads_fill_the_registers_as_the_document_lays_them_out() {
    // A surface of 13 rows of 52 bytes, 64 bytes apart.
    let s = Surface::new(52, 13, 64, 7);
    let mut cases = 0;
    for (size, blocks) in [
        (1, &[1, 2, 4][..]),
        (2, &[1, 2, 4]),
        (4, &[1, 2]),
        (8, &[1]),
    ] {
        for &b in blocks {
            for (transpose, vnni) in [(false, false), (false, true), (true, false), (true, true)] {
                if (vnni && size == 8) || (transpose && !vnni && b != 1) {
                    continue;
                }
                let per_dword = (4 / size).max(1) as u32;
                // Widths and heights that are not powers of two pad the register rows.
                let (width, height) = match (transpose, vnni) {
                    (false, true) => (3, 2 * per_dword),
                    (true, true) => (2 * per_dword, 5),
                    _ => (3, 5),
                };
                for grf in [32, 64] {
                    let load = Load {
                        size,
                        blocks: b,
                        width,
                        height,
                        transpose,
                        vnni,
                        grf,
                    };
                    let columns = (52 / size) as i64;
                    for (x, y) in [(1, 2), (-2, -1), (columns - 4, 11), (columns + 1, 0)] {
                        let got = run_load(load, &s, x, y);
                        assert_eq!(got, load.expected(&s, x, y), "{load:?} at ({x}, {y})");
                        cases += 1;
                    }
                }
            }
        }
    }
    assert_eq!(cases, 29 * 2 * 4);
}

/// The width, height and pitch operands are minus-1 values: with `SW = 7`, `SH = 2`, `SP = 15`
/// the surface has 8 bytes per row, 3 rows, 16 bytes apart. X counts elements, Y rows.
#[test]
fn surface_operands_are_minus_one_values_and_x_counts_elements() {
    let memory: Vec<u8> = (0..64).collect();
    let mut svm = Svm::new();
    let base = svm.alloc_from(&memory);
    let src = format!(
        "{SURFACE_DECLS}.decl D v_type=G type=uw num_elts=16 align=GRF\n\
         lsc_load_block2d.ugm (M1, 1) D:d16.4x4nn flat[BASE,0x7,0x2,0xF,X,Y]\n"
    );
    let p = program_with(&src, &LoadOptions::default());
    let s = Surface {
        bytes: Vec::new(),
        row_bytes: 8,
        rows: 3,
        pitch: 16,
    };
    let r = launch(&p, &svm, base, &s, 1, 1)
        .capture("D")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    // Rows 1 and 2 start at bytes 16 and 32; element 1 is at byte 2 of a row; the row has 4
    // words (8 bytes), so columns 1..3 are inside and column 4 reads 0; row 3 does not exist.
    let word = |at: u16| u16::from_le_bytes([at as u8, at as u8 + 1]);
    let expected = [
        word(18),
        word(20),
        word(22),
        0,
        word(34),
        word(36),
        word(38),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ];
    assert_eq!(whole::<u16>(&r, "D", 0), expected);
}

/// Immediate surface operands work as registers do; the block starts at column 2 (dwords) of
/// row 1 and Blocks = 2 puts the second block (columns 4, 5) in the next register.
#[test]
fn immediate_operands_and_two_blocks() {
    let dwords: Vec<u32> = (0..24).map(|i| 100 + i).collect();
    let mut svm = Svm::new();
    let base = svm.alloc_from(&dwords);
    let src = concat!(
        ".decl BASE v_type=G type=uq num_elts=1\n.decl D v_type=G type=ud num_elts=16 align=GRF\n",
        "lsc_load_block2d.ugm (M1, 1) D:d32.2x2x2nn flat[BASE,0x17,0x3,0x17,0x2,0x1]\n"
    );
    let p = program_with(src, &LoadOptions::default());
    let r = Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_scalar("BASE", base)
        .capture("D")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    // 4 rows of 6 dwords (24 bytes); a 32-byte GRF holds 8 dwords, so block 1 starts at 8.
    let at = |row: u32, col: u32| 100 + row * 6 + col;
    let expected = [
        at(1, 2),
        at(1, 3),
        at(2, 2),
        at(2, 3),
        0,
        0,
        0,
        0,
        at(1, 4),
        at(1, 5),
        at(2, 4),
        at(2, 5),
        0,
        0,
        0,
        0,
    ];
    assert_eq!(whole::<u32>(&r, "D", 0), expected);
}

/// A store writes the elements inside the surface and leaves the rest of memory alone: the
/// memory around the surface (a wider pitch, rows below it) keeps its sentinel.
#[test]
fn stores_write_only_inside_the_surface() {
    for (x, y) in [(4, 2), (-1, -2), (0, 0), (7, 5)] {
        for size in [1usize, 2, 4, 8] {
            // 4 rows of 6 elements, rows 8 elements apart, 7 rows of memory.
            let (cols, rows, pitch_elems, memory_rows) = (6i64, 4i64, 8i64, 7i64);
            let sentinel = 0xA5u8;
            let memory = vec![sentinel; (pitch_elems * memory_rows) as usize * size];
            let mut svm = Svm::new();
            let base = svm.alloc_from(&memory);
            let (w, h) = (4usize, 3usize);
            // Register rows of 4 elements (a power of two already), 3 rows.
            let data: Vec<u8> = (0..w * h * size).map(|i| (i * 7 + 1) as u8).collect();
            let data_size = ["d8", "d16", "", "d32", "", "", "", "d64"][size - 1];
            let src = format!(
                "{SURFACE_DECLS}.decl D v_type=G type=ub num_elts={} align=GRF\n\
                 lsc_store_block2d.ugm (M1, 1) flat[BASE,SW,SH,SP,X,Y] D:{data_size}.{w}x{h}nn\n",
                data.len()
            );
            let p = program_with(&src, &LoadOptions::default());
            let s = Surface {
                bytes: Vec::new(),
                row_bytes: (cols as usize * size) as u32,
                rows: rows as u32,
                pitch: (pitch_elems as usize * size) as u32,
            };
            launch(&p, &svm, base, &s, x, y)
                .bind_elements("D", &data)
                .run()
                .unwrap_or_else(|e| panic!("({x}, {y}) {data_size}: {e}"));
            let mut expected = memory.clone();
            for r in 0..h {
                for c in 0..w {
                    let (col, row) = (x + c as i64, y + r as i64);
                    if (0..cols).contains(&col) && (0..rows).contains(&row) {
                        let at = (row * pitch_elems + col) as usize * size;
                        let from = (r * w + c) * size;
                        expected[at..at + size].copy_from_slice(&data[from..from + size]);
                    }
                }
            }
            let got = svm.read_vec::<u8>(base, memory.len()).unwrap();
            assert_eq!(got, expected, "({x}, {y}) {data_size}");
        }
    }
}

/// A store's register rows are padded to a power of two: a block 3 wide takes 4 elements a row.
#[test]
fn store_rows_in_registers_are_padded_to_a_power_of_two() {
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[0u32; 6]);
    let src = ".decl BASE v_type=G type=uq num_elts=1\n.decl D v_type=G type=ud num_elts=8 align=GRF\n\
               lsc_store_block2d.ugm (M1, 1) flat[BASE,0xB,0x1,0xB,0x0,0x0] D:d32.3x2nn\n";
    let p = program_with(src, &LoadOptions::default());
    let data: Vec<u32> = (1..=8).collect();
    Launch::new(&p)
        .simd(1)
        .svm(&svm)
        .bind_scalar("BASE", base)
        .bind_elements("D", &data)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(svm.read_vec::<u32>(base, 6).unwrap(), [1, 2, 3, 5, 6, 7]);
}

/// A surface row inside the surface rectangle but outside every SVM buffer traps as an SVM
/// access does; a row outside the surface is never accessed.
#[test]
fn a_surface_row_outside_svm_traps() {
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[1u32; 8]);
    let src = format!(
        "{SURFACE_DECLS}.decl D v_type=G type=ud num_elts=16 align=GRF\n\
         lsc_load_block2d.ugm (M1, 1) D:d32.4x4nn flat[BASE,SW,SH,SP,X,Y]\n"
    );
    let p = program_with(&src, &LoadOptions::default());
    // Rows of 16 bytes: the buffer holds rows 0 and 1. A surface of 2 rows loads (rows 2 and 3
    // of the block read 0); a surface of 4 rows reaches past the buffer at row 2.
    let fits = Surface {
        bytes: Vec::new(),
        row_bytes: 16,
        rows: 2,
        pitch: 16,
    };
    launch(&p, &svm, base, &fits, 0, 0)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let too_tall = Surface { rows: 4, ..fits };
    let kind = trap_kind(launch(&p, &svm, base, &too_tall, 0, 0).run());
    assert!(
        matches!(
            kind,
            TrapKind::SvmOutOfBounds { address, len: 16 } | TrapKind::SvmUnmapped { address }
                if address == base + 32
        ),
        "{kind:?}"
    );
}

/// A predicate that is off, or a `%null` destination (a prefetch), does nothing: not even the
/// trap an access outside SVM would raise.
#[test]
fn disabled_and_prefetch_messages_access_nothing() {
    let src = format!(
        "{SURFACE_DECLS}.decl D v_type=G type=ud num_elts=8 align=GRF\n.decl P v_type=P num_elts=1\n\
         setp (M1, 1) P 0x0:uw\n\
         (P) lsc_load_block2d.ugm (M1, 1) D:d32.2x2nn flat[BASE,SW,SH,SP,X,Y]\n\
         lsc_load_block2d.ugm (M1, 1) %null:d32.2x2nn flat[BASE,SW,SH,SP,X,Y]\n\
         mov (M1, 8) D(0,0)<1> 0x7:ud\n\
         (P) lsc_store_block2d.ugm (M1, 1) flat[BASE,SW,SH,SP,X,Y] D:d32.2x2nn\n"
    );
    let p = program_with(&src, &LoadOptions::default());
    let svm = Svm::new();
    let s = Surface {
        bytes: Vec::new(),
        row_bytes: 64,
        rows: 4,
        pitch: 64,
    };
    launch(&p, &svm, 0x1000, &s, 0, 0)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A data operand smaller than the registers the message moves is refused at load: a load writes
/// whole registers (4 x 16 dwords padded to 32-byte GRFs: 256 bytes), a store reads its rows.
#[test]
fn a_data_operand_smaller_than_the_block_is_refused() {
    for (line, needs) in [
        (
            "lsc_load_block2d.ugm (M1, 1) D:d32.4x16nn flat[BASE,SW,SH,SP,X,Y]",
            256,
        ),
        (
            "lsc_store_block2d.ugm (M1, 1) flat[BASE,SW,SH,SP,X,Y] D:d16.5x4nn",
            64,
        ),
    ] {
        let src = format!("{SURFACE_DECLS}.decl D v_type=G type=ud num_elts=8 align=GRF\n{line}\n");
        let err = Program::from_text(&src, &LoadOptions::default()).expect_err(line);
        assert_eq!(err.kind, LoadErrorKind::NotExecuted, "{line}: {err}");
        assert!(
            err.message.contains(&format!(
                "the message needs {needs} bytes of 'D' (32 bytes) from byte 0, past its end"
            )),
            "{line}: {err}"
        );
    }
}

/// The 2D block forms this runtime does not execute are refused at load, naming what they use.
#[test]
fn forms_not_executed_are_refused_with_the_reason() {
    let cases = [
        (
            "lsc_store_block2d.ugm (M1, 1) flat[BASE,SW,SH,SP,X,Y] D:d32.4x4tn",
            "lsc_store_block2d that is transposed",
        ),
        (
            "lsc_load_block2d.ugm (M1, 1) D:d64.2x4nt flat[BASE,SW,SH,SP,X,Y]",
            "lsc_load_block2d with VNNI of d64 elements",
        ),
        (
            "lsc_load_block2d.ugm (M1, 1) D:d8.4x6nt flat[BASE,SW,SH,SP,X,Y]",
            "lsc_load_block2d with VNNI and a block height of 6",
        ),
        (
            "lsc_load_block2d.ugm (M1, 8) D:d32.4x4nn flat[BASE,SW,SH,SP,X,Y]",
            "lsc_load_block2d with execution size 8",
        ),
        (
            "lsc_load_block2d.ugm (M1, 1) D:d8u32.4x4nn flat[BASE,SW,SH,SP,X,Y]",
            "lsc_load_block2d of d8u32 elements",
        ),
    ];
    for (line, what) in cases {
        let src =
            format!("{SURFACE_DECLS}.decl D v_type=G type=ud num_elts=64 align=GRF\n{line}\n");
        let err = Program::from_text(&src, &LoadOptions::default()).expect_err(line);
        assert_eq!(err.kind, LoadErrorKind::NotExecuted, "{line}: {err}");
        assert!(
            err.message
                .contains(&format!("not executed by this runtime: {what}")),
            "{line}: {err}"
        );
    }
}

//! Every operation of the table `ops::int_ops`, enumerated, on each of its implementations: the
//! interpreter's general path, its fast path and the compiled tier (quick and optimised code).
//! All must agree on every pair of edge values, on every shape that selects a different
//! representation (raw dwords, exact values, `i32x4` vectors, single lanes), and agree with
//! values worked out by hand for a few cases. An operation added to the table is covered by
//! the enumeration, and the last test asks for a hand-worked case of it.

use super::fast_tests::general_form;
use crate::ops::Op;
use crate::ops::int_ops::{IntOp, Operands};
use crate::{Engine, JitTier, Launch, LoadOptions, Program};
use visa_isa::desc::SyntaxDesc;

/// Edge values: zero, one, minus one, the extremes, shift counts around 32 and 64, and others.
const EDGES: [i32; 16] = [
    0,
    1,
    -1,
    i32::MIN,
    i32::MAX,
    31,
    32,
    33,
    63,
    64,
    -32,
    2,
    0x1234_5678,
    -0x8000,
    0x7fff_fffe,
    -5,
];

/// The predicate of every instruction that takes one (SEL's selector): channels 0, 2, 5, 7, 8,
/// 10, 13 and 15.
const MASK: u32 = 0xa5a5;

/// Source types (src0, src1, src2); the destination is D. Words (widened, IGC's address
/// arithmetic on the local ids) only where the region is contiguous in every shape.
const TYPES: [[&str; 3]; 4] = [
    ["d", "d", "d"],
    ["ud", "ud", "ud"],
    ["d", "ud", "d"],
    ["w", "d", "uw"],
];

/// How the sources are read; each picks other representations in the engines.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// SIMD16, every source contiguous: vectors, or single lanes for per-lane shift counts.
    Contiguous,
    /// SIMD16, src1 one scalar element (a uniform shift count: vector shifts).
    ScalarSrc1,
    /// Eight SIMD2 instructions: single lanes everywhere.
    Narrow,
    /// SIMD16 with `(-)` on src0 and `(abs)` on src1: exact values (when the operation
    /// allows the modifiers).
    Modified,
}

const SHAPES: [Shape; 4] = [
    Shape::Contiguous,
    Shape::ScalarSrc1,
    Shape::Narrow,
    Shape::Modified,
];

/// The syntax of `op`: of its opcode's syntax templates, the one that loads as `op`.
fn syntax(op: IntOp) -> &'static SyntaxDesc {
    let decodes_as_op = |syntax: &SyntaxDesc| {
        let (text, _) = kernel(op, syntax, Shape::Contiguous, TYPES[0]);
        Program::from_text(&text, &LoadOptions::default()).is_ok_and(|p| {
            p.code
                .iter()
                .any(|o| matches!(o, Op::FastAlu(f) if f.op == op))
        })
    };
    op.opcode()
        .desc()
        .syntax
        .iter()
        .find(|s| decodes_as_op(s))
        .unwrap_or_else(|| panic!("no syntax of {:?} loads as {op:?}", op.opcode()))
}

/// `op` (predicated by `P1` where its syntax allows) in `shape`, and how many instructions.
fn kernel(op: IntOp, syntax: &SyntaxDesc, shape: Shape, tys: [&str; 3]) -> (String, usize) {
    let mut text = String::new();
    for (k, ty) in tys.iter().enumerate() {
        text += &format!(".decl S{k} v_type=G type={ty} num_elts=16 align=GRF\n");
    }
    text += ".decl R v_type=G type=d num_elts=16 align=GRF\n";
    text += ".decl M v_type=G type=ud num_elts=1\n.decl P1 v_type=P num_elts=16\n";
    text += "setp (M1_NM, 16) P1 M(0,0)<0;1,0>\n";
    let source = |k: usize, first: u32| {
        let modifier = match (shape, k) {
            (Shape::Modified, 0) => "(-)",
            (Shape::Modified, 1) => "(abs)",
            _ => "",
        };
        let region = match (shape, k) {
            (Shape::ScalarSrc1, 1) => "<0;1,0>",
            _ => "<1;1,0>",
        };
        format!("{modifier}S{k}(0,{first}){region}")
    };
    let (size, count) = if shape == Shape::Narrow {
        (2, 8)
    } else {
        (16, 1)
    };
    for i in 0..count {
        let first = size * i;
        let srcs: Vec<String> = (0..op.arity()).map(|k| source(k, first)).collect();
        let pred = if syntax.predicate.is_some() {
            "(P1) "
        } else {
            ""
        };
        let mnemonic = match op {
            IntOp::Bfn(table) => format!("{}.x{table:02x}", syntax.mnemonic),
            _ => syntax.mnemonic.to_string(),
        };
        text += &format!(
            "{pred}{mnemonic} (M1, {size}) R(0,{first})<1> {}\n",
            srcs.join(" ")
        );
    }
    (text, count as usize)
}

/// How a program runs.
#[derive(Debug, Clone, Copy)]
enum Path {
    General,
    Fast,
    Compiled(JitTier),
}

const PATHS: [Path; 4] = [
    Path::General,
    Path::Fast,
    Path::Compiled(JitTier::Quick),
    Path::Compiled(JitTier::Optimized),
];

/// The program of `text` for `path`, checked to run `op` the way `path` names; `None` when
/// the loader rejects the text.
fn load(text: &str, path: Path, op: IntOp, count: usize) -> Option<Program> {
    let options = match path {
        Path::Compiled(tier) => LoadOptions::default().engine(Engine::Jit).jit_tier(tier),
        _ => LoadOptions::default().engine(Engine::Interpreter),
    };
    let program = Program::from_text(text, &options).ok()?;
    let fast = program
        .code
        .iter()
        .filter(|o| matches!(o, Op::FastAlu(f) if f.op == op))
        .count();
    assert_eq!(fast, count, "{op:?} has no fast form:\n{text}");
    match path {
        Path::General => Some(general_form(&program)),
        Path::Fast => Some(program),
        Path::Compiled(_) => {
            let report = program.jit_report();
            assert!(report.declined.is_none(), "{report}");
            // The setp, then the operation's instructions: all native.
            let native = report.instructions.iter().skip(1).all(|(_, n)| *n);
            assert!(native, "{op:?} not native:\n{report}");
            Some(program)
        }
    }
}

/// The destination's bytes and their definedness after one launch (a word source gets the
/// low 16 bits of its inputs).
fn run(program: &Program, inputs: &[[i32; 16]; 3], tys: [&str; 3]) -> (Vec<u8>, Vec<bool>) {
    // The destination starts defined: the compiled tier does not track undefined bytes.
    let mut launch = Launch::new(program)
        .simd(16)
        .bind_scalar("M", MASK)
        .bind_vector("R", &[0x5a5a_5a5au32; 16]);
    for (k, values) in inputs.iter().enumerate() {
        let name = format!("S{k}");
        launch = match tys[k] {
            "w" => launch.bind_vector(&name, &values.map(|v| v as i16)),
            "uw" => launch.bind_vector(&name, &values.map(|v| v as u16)),
            _ => launch.bind_vector(&name, values),
        };
    }
    let result = launch.capture("R").run().expect("runs");
    let (bytes, defined) = result.thread_bytes("R", 0).expect("captured");
    (bytes.to_vec(), defined.to_vec())
}

/// The destination after each of `inputs` on every path, which must agree; `None` when the
/// loader rejects the shape (a modifier the operation does not take).
fn agreed(
    op: IntOp,
    shape: Shape,
    tys: [&str; 3],
    inputs: &[[[i32; 16]; 3]],
) -> Option<Vec<[i32; 16]>> {
    let (text, count) = kernel(op, syntax(op), shape, tys);
    let programs = PATHS
        .iter()
        .map(|path| Some((*path, load(&text, *path, op, count)?)))
        .collect::<Option<Vec<_>>>()?;
    let mut results = Vec::new();
    for input in inputs {
        let general = run(&programs[0].1, input, tys);
        for (path, program) in &programs[1..] {
            assert_eq!(
                general,
                run(program, input, tys),
                "{op:?} {shape:?} {tys:?}: {path:?} differs from the general path on \
                 {input:?}\n{text}"
            );
        }
        let mut out = [0i32; 16];
        for (o, b) in out.iter_mut().zip(general.0.chunks_exact(4)) {
            *o = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        results.push(out);
    }
    Some(results)
}

#[test]
fn every_operation_agrees_on_every_path() {
    let bfns = BFN_TABLES.map(IntOp::Bfn);
    for &op in IntOp::ALL.iter().chain(&bfns) {
        for shape in SHAPES {
            for tys in TYPES {
                // Lane i pairs EDGES[i] with EDGES[i + r]: every pair over the rotations r (the
                // scalar src1 takes EDGES[r]).
                let rotated = |by: usize| std::array::from_fn(|i| EDGES[(i + by) % 16]);
                let inputs: Vec<_> = (0..EDGES.len())
                    .map(|r| [EDGES, rotated(r), rotated(2 * r + 1)])
                    .collect();
                // Shifts of words keep their general form (`specialise`).
                let words = tys.contains(&"w") || tys.contains(&"uw");
                if words && op.operands() == Operands::ShiftCount {
                    continue;
                }
                let loaded = agreed(op, shape, tys, &inputs).is_some();
                // Only modifiers may be refused.
                assert!(
                    loaded || shape == Shape::Modified,
                    "{op:?} {shape:?} {tys:?}"
                );
            }
        }
    }
}

/// A hand-worked result: operation, source types, sources, channel, destination D value.
type Worked = (IntOp, [&'static str; 3], [i32; 3], usize, i32);

/// Channel 0 is enabled by the predicate, channel 1 is not (SEL takes src1 there).
const WORKED: &[Worked] = &[
    (IntOp::Mov, ["d", "d", "d"], [-1, 0, 0], 0, -1),
    (IntOp::Sel, ["d", "d", "d"], [7, 9, 0], 0, 7),
    (IntOp::Sel, ["d", "d", "d"], [7, 9, 0], 1, 9),
    (IntOp::Add, ["d", "d", "d"], [i32::MAX, 1, 0], 0, i32::MIN),
    (IntOp::Mul, ["d", "d", "d"], [i32::MIN, -1, 0], 0, i32::MIN),
    (
        IntOp::Mul,
        ["ud", "ud", "ud"],
        [0x1_0000, 0x1_0001, 0],
        0,
        0x1_0000,
    ),
    (IntOp::Mad, ["d", "d", "d"], [0x1_0000, 0x1_0000, 5], 0, 5),
    // Wraps at 32 bits: MAX + 1 + 1.
    (
        IntOp::Add3,
        ["d", "d", "d"],
        [i32::MAX, 1, 1],
        0,
        i32::MIN + 1,
    ),
    (IntOp::Add3, ["d", "d", "d"], [-5, 3, 100], 0, 98),
    // W -2 sign-extends, UW 0xffff zero-extends: -2 + 7 + 65535.
    (IntOp::Add3, ["w", "d", "uw"], [-2, 7, 0xffff], 0, 65540),
    (IntOp::And, ["d", "d", "d"], [0xf0f0, 0xff00, 0], 0, 0xf000),
    (IntOp::Or, ["d", "d", "d"], [0xf0f0, 0xff00, 0], 0, 0xfff0),
    (IntOp::Xor, ["d", "d", "d"], [0xf0f0, 0xff00, 0], 0, 0x0ff0),
    // Counts keep their low five bits: 33 shifts by 1, 32 by 0, -1 by 31.
    (IntOp::Shl, ["d", "d", "d"], [1, 33, 0], 0, 2),
    (IntOp::Shl, ["d", "d", "d"], [1, 32, 0], 0, 1),
    (IntOp::Shl, ["d", "d", "d"], [1, -1, 0], 0, i32::MIN),
    (IntOp::Shr, ["d", "d", "d"], [-1, 36, 0], 0, 0x0fff_ffff),
    (IntOp::Shr, ["d", "d", "d"], [-1, 33, 0], 0, 0x7fff_ffff),
    (IntOp::Shr, ["ud", "ud", "ud"], [i32::MIN, 63, 0], 0, 1),
    (IntOp::Asr, ["d", "d", "d"], [i32::MIN, 31, 0], 0, -1),
    (IntOp::Asr, ["d", "d", "d"], [-64, 66, 0], 0, -16),
    // Exact values: D -1 is below UD 5; UD 0xffffffff is above UD 5.
    (IntOp::Min, ["d", "ud", "d"], [-1, 5, 0], 0, -1),
    (IntOp::Min, ["ud", "ud", "ud"], [-1, 5, 0], 0, 5),
    (IntOp::Max, ["d", "ud", "d"], [-1, 5, 0], 0, 5),
    (IntOp::Max, ["d", "d", "d"], [i32::MIN, -7, 0], 0, -7),
    // Bit i of 0xaa, 0xcc and 0xf0 is bit 0, 1 and 2 of i: bits 0 to 7 of the result spell
    // the table, the bits above (all sources 0) its bit 0.
    (
        IntOp::Bfn(0x96),
        ["ud", "ud", "ud"],
        [0xaa, 0xcc, 0xf0],
        0,
        0x96,
    ),
    (
        IntOp::Bfn(0x80),
        ["ud", "ud", "ud"],
        [0xaa, 0xcc, 0xf0],
        0,
        0x80,
    ),
    (
        IntOp::Bfn(0xfe),
        ["ud", "ud", "ud"],
        [0xaa, 0xcc, 0xf0],
        0,
        0xfe,
    ),
    (
        IntOp::Bfn(0xca),
        ["ud", "ud", "ud"],
        [0xaa, 0xcc, 0xf0],
        0,
        0xca,
    ),
    (
        IntOp::Bfn(0xd8),
        ["ud", "ud", "ud"],
        [0xaa, 0xcc, 0xf0],
        0,
        0xd8,
    ),
    // 0xd8 selects bit by bit: src1 where src0 is set, src2 elsewhere.
    (
        IntOp::Bfn(0xd8),
        ["d", "d", "d"],
        [-1, 0x1234, 0x5678],
        0,
        0x1234,
    ),
    (
        IntOp::Bfn(0xd8),
        ["d", "d", "d"],
        [0, 0x1234, 0x5678],
        0,
        0x5678,
    ),
    (
        IntOp::Bfn(0x01),
        ["d", "d", "d"],
        [0xaa, 0xcc, 0xf0],
        0,
        -0xff,
    ),
    (IntOp::Bfn(0xff), ["d", "d", "d"], [0xaa, 0xcc, 0xf0], 0, -1),
    // W -1 sign-extends: all 32 bits of src0 set, so 0x96 (a XOR b XOR c) gives NOT 0.
    (IntOp::Bfn(0x96), ["w", "d", "d"], [-1, 0, 0], 0, -1),
];

/// The BFN tables tried on every path besides `IntOp::ALL`'s: the forms written directly
/// (XOR, AND, OR of all three, the select) and others through their minterms.
const BFN_TABLES: [u8; 7] = [0x96, 0x80, 0xfe, 0xd8, 0xca, 0x01, 0x00];

#[test]
fn every_operation_gives_the_hand_worked_results() {
    for &(op, tys, sources, channel, expected) in WORKED {
        for shape in [Shape::Contiguous, Shape::ScalarSrc1, Shape::Narrow] {
            let inputs = [sources.map(|v| [v; 16])];
            let out = agreed(op, shape, tys, &inputs).expect("loads");
            assert_eq!(
                out[0][channel], expected,
                "{op:?} {shape:?} {tys:?} {sources:?}"
            );
        }
    }
    for op in IntOp::ALL {
        assert!(
            WORKED.iter().any(|w| w.0 == *op),
            "{op:?} needs a hand-worked case"
        );
    }
}

//! The fast paths of `exec::fast` against the general path: random instructions, types,
//! modifiers, regions, predicates, execution sizes and partly undefined sources, each run once
//! as loaded (fast forms) and once with every fast form turned back into its general form. The
//! outcomes (destination bytes, their definedness, or the trap) must be identical.

use proptest::prelude::*;

use crate::ops::{CmpDst, Op};
use crate::{Launch, LoadOptions, Program};

/// `program` with every fast form replaced by the general form it was made from.
pub(super) fn general_form(program: &Program) -> Program {
    let mut general = program.clone();
    general.general_only = true;
    for decoded in &mut general.code {
        let op = match decoded {
            Op::FastAlu(f) => Op::Alu(Box::new(f.general.clone())),
            Op::FastFloat(f) => Op::Alu(Box::new(f.general.clone())),
            Op::FastCmp(c) => Op::Cmp {
                rel: c.rel,
                exec: c.exec,
                dst: c.general_dst.clone(),
                srcs: c.general_srcs.clone(),
            },
            _ => continue,
        };
        *decoded = op;
    }
    general
}

fn fast_forms(program: &Program) -> usize {
    program
        .code
        .iter()
        .filter(|op| matches!(op, Op::FastAlu(_) | Op::FastCmp(_)))
        .count()
}

const OPS: &[(&str, usize)] = &[
    ("mov", 1),
    ("sel", 2),
    ("add", 2),
    ("mul", 2),
    ("mad", 3),
    ("and", 2),
    ("or", 2),
    ("xor", 2),
    ("shl", 2),
    ("shr", 2),
    ("asr", 2),
    ("min", 2),
    ("max", 2),
    ("cmp.eq", 2),
    ("cmp.ne", 2),
    ("cmp.lt", 2),
    ("cmp.le", 2),
    ("cmp.gt", 2),
    ("cmp.ge", 2),
];
/// Words and bytes too: contiguous W, UW, B or UB sources have fast forms (widened), and so
/// have word and byte destinations of the operations whose low bits are exact.
const TYPES: &[&str] = &["d", "ud", "w", "uw", "b", "ub"];
const MODIFIERS: &[&str] = &["", "(-)", "(abs)", "(-abs)", "(~)"];

#[derive(Debug, Clone)]
struct Operand {
    ty: usize,
    modifier: usize,
    /// 0: contiguous full variable, 1: contiguous partly defined copy, 2: scalar element,
    /// 3: immediate, 4: the destination itself (in place), 5: one half (words) or one byte
    /// (bytes) of each dword of the D input or its partly defined copy (`<16;8,2>` on a word
    /// alias, as IGC reads `x >> 16`; `<4;1,0>` on a byte alias, as IGC reads gathered bytes).
    region: usize,
    element: u32,
    imm: i32,
}

fn operand() -> impl Strategy<Value = Operand> {
    (
        0..TYPES.len(),
        0..MODIFIERS.len(),
        0usize..6,
        0u32..16,
        any::<i32>(),
    )
        .prop_map(|(ty, modifier, region, element, imm)| Operand {
            ty,
            modifier,
            region,
            element,
            imm,
        })
}

#[derive(Debug, Clone)]
struct Case {
    op: usize,
    dst_ty: usize,
    srcs: [Operand; 3],
    size: u32,
    predicated: bool,
    inverse: bool,
    mask: u32,
    defined_mask: u32,
    inputs: [[i32; 16]; 3],
    dst_initialised: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (
            0..OPS.len(),
            0..TYPES.len(),
            [operand(), operand(), operand()],
        ),
        (
            prop::sample::select(vec![1u32, 4, 8, 16]),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            any::<u32>(),
            prop::sample::select(vec![u32::MAX, u32::MAX, 0x0fff_7fff, 0]),
        ),
        [prop::array::uniform16(any::<i32>()); 3],
        any::<bool>(),
    )
        .prop_map(
            |(
                (op, dst_ty, srcs),
                (size, predicated, inverse),
                (mask, defined_mask),
                inputs,
                dst_initialised,
            )| Case {
                op,
                dst_ty,
                srcs,
                size,
                predicated,
                inverse,
                mask,
                defined_mask,
                inputs,
                dst_initialised,
            },
        )
}

fn source_text(o: &Operand, k: usize, dst_ty: &str) -> String {
    let ty = TYPES[o.ty];
    let modifier = MODIFIERS[o.modifier];
    match o.region {
        0 => format!("{modifier}IN{k}_{ty}(0,0)<1;1,0>"),
        1 => format!("{modifier}PART{k}_{ty}(0,0)<1;1,0>"),
        2 => format!("{modifier}IN{k}_{ty}(0,{})<0;1,0>", o.element),
        3 => format!("{modifier}{:#x}:{ty}", o.imm),
        5 if ty.ends_with('w') => {
            let (var, half) = (["IN", "PART"][o.element as usize / 2 % 2], o.element % 2);
            format!("{modifier}{var}{k}_halves_{ty}(0,{half})<16;8,2>")
        }
        5 if ty.ends_with('b') => {
            let (var, quarter) = (["IN", "PART"][o.element as usize / 4 % 2], o.element % 4);
            format!("{modifier}{var}{k}_quarters_{ty}(0,{quarter})<4;1,0>")
        }
        5 => format!("{modifier}IN{k}_{ty}(0,0)<1;1,0>"),
        _ => format!("{modifier}R_{dst_ty}(0,0)<1;1,0>"),
    }
}

fn kernel(c: &Case) -> String {
    let (name, arity) = OPS[c.op];
    let dst_ty = TYPES[c.dst_ty];
    let mut text = String::new();
    for k in 0..3 {
        for ty in TYPES {
            text += &format!(".decl IN{k}_{ty} v_type=G type={ty} num_elts=16 align=GRF\n");
            text += &format!(".decl PART{k}_{ty} v_type=G type={ty} num_elts=16 align=GRF\n");
        }
        for var in ["IN", "PART"] {
            for ty in ["w", "uw"] {
                text += &format!(
                    ".decl {var}{k}_halves_{ty} v_type=G type={ty} num_elts=32 \
                     alias=<{var}{k}_d, 0>\n"
                );
            }
            for ty in ["b", "ub"] {
                text += &format!(
                    ".decl {var}{k}_quarters_{ty} v_type=G type={ty} num_elts=64 \
                     alias=<{var}{k}_d, 0>\n"
                );
            }
        }
    }
    for ty in TYPES {
        text += &format!(".decl R_{ty} v_type=G type={ty} num_elts=16 align=GRF\n");
    }
    text += ".decl MASK v_type=G type=ud num_elts=1\n.decl DEF v_type=G type=ud num_elts=1\n";
    text += ".decl P1 v_type=P num_elts=16\n.decl P2 v_type=P num_elts=16\n";
    text += ".decl P3 v_type=P num_elts=16\n";
    text += "setp (M1_NM, 16) P1 MASK(0,0)<0;1,0>\nsetp (M1_NM, 16) P2 DEF(0,0)<0;1,0>\n";
    for k in 0..3 {
        for ty in TYPES {
            text += &format!("(P2) mov (M1, 16) PART{k}_{ty}(0,0)<1> IN{k}_{ty}(0,0)<1;1,0>\n");
        }
    }
    if c.dst_initialised {
        text += &format!("mov (M1, 16) R_{dst_ty}(0,0)<1> 0x7:{dst_ty}\n");
    }
    let srcs: Vec<String> = c.srcs[..arity]
        .iter()
        .enumerate()
        .map(|(k, o)| source_text(o, k, dst_ty))
        .collect();
    let pred = match (c.predicated, c.inverse) {
        (false, _) => "",
        (true, false) => "(P1) ",
        (true, true) => "(!P1) ",
    };
    let size = c.size;
    if let Some(rel) = name.strip_prefix("cmp.")
        && c.predicated
    {
        // (A comparison is never predicated: the flag picks a register destination instead,
        // all ones or zero per lane.)
        text += &format!(
            "cmp.{rel} (M1, {size}) R_{dst_ty}(0,0)<1> {}\n",
            srcs.join(" ")
        );
    } else if let Some(rel) = name.strip_prefix("cmp.") {
        text += &format!("cmp.{rel} (M1, {size}) P3 {}\n", srcs.join(" "));
        text += &format!("mov (M1, 16) R_{dst_ty}(0,0)<1> 0x0:{dst_ty}\n");
        text += &format!("(P3) mov (M1, {size}) R_{dst_ty}(0,0)<1> 0x1:{dst_ty}\n");
    } else {
        text += &format!(
            "{pred}{name} (M1, {size}) R_{dst_ty}(0,0)<1> {}\n",
            srcs.join(" ")
        );
    }
    text
}

/// Destination bytes and definedness, or the trap's text.
fn outcome(program: &Program, c: &Case) -> Result<(Vec<u8>, Vec<bool>), String> {
    let mut launch = Launch::new(program)
        .simd(16)
        .bind_scalar("MASK", c.mask)
        .bind_scalar("DEF", c.defined_mask);
    for (k, values) in c.inputs.iter().enumerate() {
        for ty in TYPES {
            let name = format!("IN{k}_{ty}");
            launch = match *ty {
                "w" => launch.bind_vector(&name, &values.map(|v| v as i16)),
                "uw" => launch.bind_vector(&name, &values.map(|v| v as u16)),
                "b" => launch.bind_vector(&name, &values.map(|v| v as i8)),
                "ub" => launch.bind_vector(&name, &values.map(|v| v as u8)),
                _ => launch.bind_vector(&name, values),
            };
        }
    }
    let dst = format!("R_{}", TYPES[c.dst_ty]);
    let result = launch.capture(&dst).run().map_err(|e| e.to_string())?;
    let (bytes, defined) = result
        .thread_bytes(&dst, 0)
        .ok_or_else(|| "destination not captured".to_string())?;
    Ok((bytes.to_vec(), defined.to_vec()))
}

proptest! {
    // Only about 37% of the random cases load (the others are rejected below), so 600 cases
    // take about 1,000 rejects: proptest's default limit (1024) made the test fail at random.
    #![proptest_config(ProptestConfig {
        cases: 600,
        max_global_rejects: 4096,
        ..ProptestConfig::default()
    })]
    #[test]
    fn fast_paths_match_the_general_path(c in case()) {
        let text = kernel(&c);
        // Some combinations are rejected at load time (e.g. modifiers a logic operation does
        // not allow); both paths share the loader, so there is nothing to compare.
        let loaded = Program::from_text(&text, &LoadOptions::default());
        prop_assume!(loaded.is_ok());
        let Ok(fast) = loaded else {
            return Ok(());
        };
        let general = general_form(&fast);
        prop_assert_eq!(fast_forms(&general), 0);
        let expected = outcome(&general, &c);
        prop_assert_eq!(outcome(&fast, &c), expected.clone(), "{}", text);
        // Optimised compiled code computes the same bytes wherever the general path defined
        // them (it neither tracks nor traps on undefined bytes).
        if let Ok((bytes, defined)) = &expected {
            let options = LoadOptions::default()
                .engine(crate::Engine::Jit)
                .jit_tier(crate::JitTier::Optimized);
            let jit = Program::from_text(&text, &options).expect("loads as it did");
            let (jit_bytes, _) = outcome(&jit, &c).expect("compiled code runs");
            for (i, d) in defined.iter().enumerate() {
                prop_assert!(!d || bytes[i] == jit_bytes[i], "byte {}: {}", i, text);
            }
        }
    }
}

/// The shapes the fast path is meant for do get fast forms (so the property above compares
/// something), and others keep the general form.
#[test]
fn common_shapes_get_fast_forms() {
    let text = "
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=w num_elts=16 align=GRF
.decl H v_type=G type=uw num_elts=32 alias=<A, 0>
.decl Q v_type=G type=b num_elts=64 alias=<B, 0>
.decl Y v_type=G type=ub num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<0;1,0>
mad (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x3:d B(0,0)<1;1,0>
cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x10:d
cmp.eq (M1, 16) B(0,0)<1> A(0,0)<1;1,0> 0x0:d
add (M1, 16) W(0,0)<1> W(0,0)<1;1,0> 0x1:w
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> H(0,1)<16;8,2>
add (M1_NM, 1) A(0,0)<1> A(0,0)<0;1,0> 0x1:w
add.sat (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d
add (M1, 8) A(0,0)<2> A(0,0)<1;1,0> 0x1:d
mov (M1, 16) Y(0,0)<1> Q(0,0)<4;1,0>
mov (M1, 16) W(0,0)<1> Y(0,0)<1;1,0>
shl (M1, 16) W(0,0)<1> W(0,0)<1;1,0> 0x1:w
shl (M1, 16) W(0,0)<1> W(0,0)<1;1,0> 0x10:w
shr (M1, 16) W(0,0)<1> W(0,0)<1;1,0> 0x1:w
shl (M1, 16) A(0,0)<1> W(0,0)<1;1,0> 0x1:w
";
    let program = Program::from_text(text, &LoadOptions::default()).unwrap();
    let kinds: Vec<bool> = program
        .code
        .iter()
        .map(|op| matches!(op, Op::FastAlu(_) | Op::FastCmp(_)))
        .collect();
    // (A word destination of an add, byte moves, a left shift of words by less than their
    // width: fast; a shift by their width, a right shift of words, a shift of words into
    // dwords: general.)
    assert_eq!(
        kinds,
        [
            true, true, true, true, true, true, true, false, false, true, true, true, false, false,
            false
        ]
    );
    assert!(matches!(
        general_form(&program).code.get(2),
        Some(Op::Cmp {
            dst: CmpDst::Pred(_),
            ..
        })
    ));
}

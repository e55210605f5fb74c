//! The text module driven by a hand-written table (tests/common): exact ASTs, canonical
//! printing, and exact error messages.

mod common;

use common::{ADD, BLOCK_LD, CMP, GATHER, JMP, MIN_MAX, SETP, asm};
use visa_isa::ast::*;

fn exec(size: u32, mask_offset: u8, no_mask: bool) -> FieldValue {
    FieldValue::Exec(ExecSize {
        size,
        mask_offset,
        no_mask,
        mask_written: true,
    })
}

fn general(var: &str, row: u32, col: u32, region: Region) -> FieldValue {
    FieldValue::Operand(Operand::General {
        modifier: SrcMod::None,
        var: var.into(),
        row,
        col,
        region: Some(region),
        ty: None,
    })
}

const DST1: Region = Region {
    vs: None,
    width: None,
    hs: 1,
};
const CONTIG: Region = Region {
    vs: Some(1),
    width: Some(1),
    hs: 0,
};

/// The formatter always prints the mask (`(16)` comes back as `(M1, 16)`); printing moves the
/// operands (positions are not compared).
fn with_mask_written(mut i: Instruction) -> Instruction {
    i.field_spans.clear();
    i.element_spans.clear();
    for f in &mut i.fields {
        if let FieldValue::Exec(e) = f {
            e.mask_written = true;
        }
    }
    i
}

fn roundtrip(line: &str) -> String {
    let a = asm();
    let i = a
        .parse_instruction(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let printed = a.format_instruction(&i);
    let again = a
        .parse_instruction(&printed)
        .unwrap_or_else(|e| panic!("{printed}: {e}"));
    assert_eq!(
        with_mask_written(i),
        with_mask_written(again.clone()),
        "{line} -> {printed}"
    );
    assert_eq!(a.format_instruction(&again), printed);
    printed
}

#[test]
fn add_parses_to_exact_fields() {
    let i = asm()
        .parse_instruction("(!P1.any) ADD.SAT (M5_NM, 16) V1(0,2)<1> V52(0, 0)<1; 1, 0> -5:w")
        .unwrap();
    assert_eq!(i.desc, ADD);
    assert!(i.saturate);
    assert_eq!(i.span, Span::new(1, 1));
    assert_eq!(
        i.fields,
        vec![
            exec(16, 4, true),
            FieldValue::Pred(Some(Predicate {
                name: "P1".into(),
                inverse: true,
                control: PredControl::Any
            })),
            general("V1", 0, 2, DST1),
            general("V52", 0, 0, CONTIG),
            FieldValue::Operand(Operand::Immediate(Immediate {
                bits: (-5i64) as u64,
                ty: ElemType::W
            })),
        ]
    );
    assert_eq!(
        asm().format_instruction(&i),
        "(!P1.any) add.sat (M5_NM, 16) V1(0,2)<1> V52(0,0)<1;1,0> 0xfffffffb:w"
    );
}

#[test]
fn exec_size_without_mask_means_m1() {
    let i = asm()
        .parse_instruction("add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w")
        .unwrap();
    assert_eq!(
        i.fields[0],
        FieldValue::Exec(ExecSize {
            size: 16,
            mask_offset: 0,
            no_mask: false,
            mask_written: false
        })
    );
    assert_eq!(
        asm().format_instruction(&i),
        "add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"
    );
}

#[test]
fn suffix_fields_flags_and_mnemonic_choices() {
    let i = asm()
        .parse_instruction("cmp.LT (M1, 16) P1 V1(0,0)<1;1,0> 0x0:f")
        .unwrap();
    assert_eq!(i.desc, CMP);
    assert_eq!(i.fields[1], FieldValue::Int(4));
    assert_eq!(
        i.fields[2],
        FieldValue::Operand(Operand::Predicate { var: "P1".into() })
    );
    assert_eq!(
        roundtrip("cmp.LT (M1, 16) P1 V1(0,0)<1;1,0> 0x0:f"),
        "cmp.lt (M1, 16) P1 V1(0,0)<1;1,0> 0x0:f"
    );

    let max = asm()
        .parse_instruction("MAX (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0> V3(0,0)<1;1,0>")
        .unwrap();
    assert_eq!((max.desc, &max.fields[1]), (MIN_MAX, &FieldValue::Int(1)));
    let min = asm()
        .parse_instruction("min.sat (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0> V3(0,0)<1;1,0>")
        .unwrap();
    assert_eq!(
        (min.desc, &min.fields[1], min.saturate),
        (MIN_MAX, &FieldValue::Int(0), true)
    );
    assert!(asm().format_instruction(&max).starts_with("max (M1, 8)"));
    assert!(
        asm()
            .format_instruction(&min)
            .starts_with("min.sat (M1, 8)")
    );

    let ld = asm()
        .parse_instruction("svm_block_ld.unaligned (4) V10(0,0)<0;1,0> V11.0")
        .unwrap();
    assert_eq!(ld.desc, BLOCK_LD);
    assert_eq!(ld.fields[0], FieldValue::Int(0b1010));
    assert_eq!(
        roundtrip("svm_block_ld (8) V10(0,0)<0;1,0> V11.0"),
        "svm_block_ld (8) V10(0,0)<0;1,0> V11.0"
    );
    assert_eq!(
        roundtrip("svm_block_ld.unaligned (4) V10(0,0)<0;1,0> V11.0"),
        "svm_block_ld.unaligned (4) V10(0,0)<0;1,0> V11.0"
    );

    let g = asm()
        .parse_instruction("svm_gather.4.1 (M1, 16) %0.0 tmp.0")
        .unwrap();
    assert_eq!(g.desc, GATHER);
    assert_eq!(g.fields[2], FieldValue::Int(1));
    assert_eq!(g.fields[3], FieldValue::Int(0));
    assert_eq!(
        g.fields[4],
        FieldValue::Operand(Operand::Raw {
            var: "%0".into(),
            offset: 0
        })
    );
}

#[test]
fn operand_forms() {
    for (text, printed) in [
        (
            "add (16) r[A0(0), 8]<8;8,1>:f (-abs)V1(0,0)<1;1,0> (~)%r0(0,1)<0;1,0>",
            "add (M1, 16) r[A0(0),8]<8;8,1>:f (-abs)V1(0,0)<1;1,0> (~)%r0(0,1)<0;1,0>",
        ),
        (
            "add (16) V1(0,0)<1> r[A0(0), 0]<4,1>:d (abs)%[name](0,0)<0;1,0>",
            "add (M1, 16) V1(0,0)<1> r[A0(0),0]<4,1>:d (abs)%[name](0,0)<0;1,0>",
        ),
        (
            "add (1) V1(0,0)<1>:ud 1.5:f 1.5e+3:f",
            "add (M1, 1) V1(0,0)<1>:ud 0x3fc00000:f 0x44bb8000:f",
        ),
        (
            "add (1) V1(0,0)<1> 0x3c00:hf 0x76543210:v",
            "add (M1, 1) V1(0,0)<1> 0x3c00:hf 0x76543210:v",
        ),
        (
            "add (1) V1(0,0)<1> 1:f -1.0:df",
            "add (M1, 1) V1(0,0)<1> 0x1:f 0xbff0000000000000:df",
        ),
        (
            "addr_add (M1_NM, 1) A1(0)<1> &V3[4] 0x10:uw",
            "addr_add (M1_NM, 1) A1(0)<1> &V3[4] 0x10:uw",
        ),
        (
            "addr_add (1) A1(0)<1> &V3 V2(0,0)<0;1,0>",
            "addr_add (M1, 1) A1(0)<1> &V3 V2(0,0)<0;1,0>",
        ),
        (
            "(P2) jmp (M1, 1) ??$d_transpose@M$07$0IA@@@YAXVSurfaceIndex@@0HH@Z",
            "(P2) jmp (M1, 1) ??$d_transpose@M$07$0IA@@@YAXVSurfaceIndex@@0HH@Z",
        ),
        ("setp (M1_NM, 8) P1 $3", "setp (M1_NM, 8) P1 $3"),
    ] {
        assert_eq!(roundtrip(text), printed);
    }
    let j = asm().parse_instruction("jmp (1) LOOP").unwrap();
    assert_eq!(
        (j.desc, &j.fields[2]),
        (JMP, &FieldValue::Operand(Operand::Name("LOOP".into())))
    );
    let s = asm().parse_instruction("setp (M1_NM, 8) P1 $3").unwrap();
    assert_eq!(s.desc, SETP);
    assert_eq!(s.fields[2], FieldValue::Operand(Operand::Name("$3".into())));
}

fn err(line: &str) -> String {
    asm()
        .parse_instruction(line)
        .map(|i| format!("{i:?}"))
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn error_messages_are_exact() {
    assert_eq!(
        err("bogus (16) V1(0,0)<1>"),
        "1:1: error: found `bogus`, expected an instruction mnemonic"
    );
    assert_eq!(
        err("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1> 0x1:w"),
        "1:36: error: found `>`, expected `,`"
    );
    assert_eq!(
        err("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1"),
        "1:43: error: found end of line, expected a type suffix (`:ud`, `:f`, ...)"
    );
    assert_eq!(
        err("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x10000:hf"),
        "1:40: error: found immediate of type hf, expected a value that fits type hf"
    );
    assert_eq!(
        err("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 1.5:d"),
        "1:40: error: found immediate of type d, expected an integer or hex bit pattern for type d"
    );
    assert_eq!(
        err("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0>"),
        "1:39: error: found end of line, expected operand <src1>"
    );
    assert_eq!(
        err("add (M1, 12) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        "1:10: error: found `12`, expected an execution size (1, 2, 4, 8, 16, 32)"
    );
    assert_eq!(
        err("add (M9, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        "1:6: error: found `M9`, expected an execution mask (M1, M2, M3, M4, M5, M6, M7, M8, M1_NM, M2_NM, M3_NM, M4_NM, M5_NM, M6_NM, M7_NM, M8_NM)"
    );
    assert_eq!(
        err("(P1.some) add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        "1:5: error: found `some`, expected `any` or `all`"
    );
    assert_eq!(
        err("(P1) setp (16) P1 0x1:uw"),
        "1:2: error: found a predicate, expected no predicate (`setp` cannot be predicated)"
    );
    assert_eq!(
        err("cmp.xx (16) P1 V1(0,0)<1;1,0> 0x1:w"),
        "1:4: error: found `.xx`, expected a suffix (eq, ne, gt, ge, lt, le)"
    );
    assert_eq!(
        err("add.sat.sat (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        "1:8: error: found `.sat`, expected no further suffix"
    );
    assert_eq!(
        err("add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w V3"),
        "1:42: error: found `V3`, expected end of line"
    );
    assert_eq!(
        err("add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:zz"),
        "1:40: error: found `zz`, expected an element type (ub, b, uw, w, ud, d, uq, q, hf, f, df, bf, v, uv, vf)"
    );
}

#[test]
fn module_errors_recover_per_line() {
    let src = "add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w\nbogus\n.decl X v_type=Q\nadd (16) V1(0,0)<1> V2(0,0)<1;1,0>\n";
    let errors = asm().parse(src).unwrap_err();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "2:1: error: found `bogus`, expected an instruction mnemonic",
            "3:16: error: found `Q`, expected a variable kind (G, A, P, S, T)",
            "4:35: error: found end of line, expected operand <src1>",
        ]
    );
    let unterminated = asm()
        .parse("add (16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w\n  /* never closed\n")
        .unwrap_err();
    assert_eq!(
        unterminated[0].to_string(),
        "2:3: error: found an unterminated comment, expected `*/`"
    );
}

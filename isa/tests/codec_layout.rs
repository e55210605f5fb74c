//! The binary layout checked against bytes worked out by hand from 5_operands.md and the ADD
//! document, and decode errors with their offsets.

use visa_isa::Opcode;
use visa_isa::ast::{
    ElemType, ExecSize, FieldValue, Immediate, Instruction, Operand, PredControl, Predicate,
    Region, Span, SrcMod,
};
use visa_isa::codec::{self, DecodeErrorKind, SymbolKind, SymbolTable};

fn general(var: &str, region: Region) -> Operand {
    Operand::General {
        modifier: SrcMod::None,
        var: var.into(),
        row: 0,
        col: 0,
        region: Some(region),
        ty: None,
    }
}

/// `(P1) add (M1, 16) V32(0,0)<1> V33(0,0)<1;1,0> 0x5:ud`. The tables must have ADD with the
/// documented layout (ours and the upstream documents do): without it this test would check
/// nothing, so it fails.
fn sample_add() -> Instruction {
    let op = Opcode::from_name("ADD")
        .expect("the tables have no ADD: the layout checked here is absent");
    let names: Vec<&str> = op.desc().fields.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        ["Exec_size", "Pred", "Dst", "Src0", "Src1"],
        "ADD does not have the documented layout checked here"
    );
    Instruction {
        desc: op.index(),
        saturate: false,
        fields: vec![
            FieldValue::Exec(ExecSize {
                size: 16,
                mask_offset: 0,
                no_mask: false,
                mask_written: true,
            }),
            FieldValue::Pred(Some(Predicate {
                name: "P1".into(),
                inverse: false,
                control: PredControl::None,
            })),
            FieldValue::Operand(general(
                "V32",
                Region {
                    vs: None,
                    width: None,
                    hs: 1,
                },
            )),
            FieldValue::Operand(general(
                "V33",
                Region {
                    vs: Some(1),
                    width: Some(1),
                    hs: 0,
                },
            )),
            FieldValue::Operand(Operand::Immediate(Immediate {
                bits: 5,
                ty: ElemType::Ud,
            })),
        ],
        span: Span::default(),
        field_spans: Vec::new(),
        element_spans: Vec::new(),
    }
}

const SAMPLE_ADD_BYTES: [u8; 28] = [
    0x01, // opcode
    0x04, // exec size: 16 elements (0b100), mask M1 (0b0000)
    0x01, 0x00, // predicate word: P1 (index 1), no combine, no inverse
    0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, // dst: general, V32 = index 32, <1>
    0x00, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00, 0x22, 0x01, // src0: V33, <1;1,0>
    0x05, 0x00, 0x05, 0x00, 0x00, 0x00, // src1: immediate, type UD, value 5
];

#[test]
fn add_encodes_to_the_documented_bytes() {
    let inst = sample_add();
    let mut syms = SymbolTable::new();
    let mut out = Vec::new();
    codec::encode(&inst, &mut syms, &mut out).unwrap();
    assert_eq!(out, SAMPLE_ADD_BYTES);
    assert_eq!(syms.id(SymbolKind::General, "V32"), Some(32));
    assert_eq!(syms.id(SymbolKind::Predicate, "P1"), Some(1));
    let (decoded, used) = codec::decode(&out, &syms).unwrap();
    assert_eq!(used, 28);
    assert_eq!(decoded, inst);
}

#[test]
fn decode_errors_carry_offsets() {
    let inst = sample_add();
    let mut syms = SymbolTable::new();
    let mut out = Vec::new();
    codec::encode(&inst, &mut syms, &mut out).unwrap();

    // Truncated inside the last operand's value.
    let err = codec::decode(out.get(..25).unwrap(), &syms).unwrap_err();
    assert_eq!(err.offset, 24);
    assert!(matches!(
        err.kind,
        DecodeErrorKind::UnexpectedEnd { needed: 4 }
    ));

    // An undefined region nibble in the destination (byte 11..13).
    let mut bad = out.clone();
    *bad.get_mut(12).unwrap() = 0x0f;
    let err = codec::decode(&bad, &syms).unwrap_err();
    assert_eq!(err.offset, 11);
    assert!(matches!(err.kind, DecodeErrorKind::InvalidRegion(_)));

    // A variable index that the symbol table does not know.
    let mut bad = out.clone();
    *bad.get_mut(5).unwrap() = 0x7f;
    let err = codec::decode(&bad, &syms).unwrap_err();
    assert_eq!(err.offset, 5);
    assert_eq!(
        err.kind,
        DecodeErrorKind::UnknownSymbol {
            kind: SymbolKind::General,
            id: 0x7f
        }
    );

    // An undocumented exec-size code (0b111).
    let mut bad = out.clone();
    *bad.get_mut(1).unwrap() = 0x07;
    let err = codec::decode(&bad, &syms).unwrap_err();
    assert_eq!(err.offset, 1);
    assert!(matches!(
        err.kind,
        DecodeErrorKind::Code {
            field: "Exec_size",
            ..
        }
    ));

    // The reserved predicate bit 12.
    let mut bad = out.clone();
    *bad.get_mut(3).unwrap() = 0x10;
    let err = codec::decode(&bad, &syms).unwrap_err();
    assert_eq!(err.offset, 2);
    assert!(matches!(
        err.kind,
        DecodeErrorKind::InvalidPredicate(0x1001)
    ));
}

#[test]
fn unknown_opcodes_are_reported_at_their_byte() {
    let unused = (0u8..=255)
        .find(|b| !Opcode::ALL.iter().any(|op| op.value() == *b))
        .unwrap();
    let err = codec::decode(&[unused, 0, 0], &SymbolTable::new()).unwrap_err();
    assert_eq!(err.offset, 0);
    assert_eq!(
        err.kind,
        DecodeErrorKind::UnknownOpcode {
            opcode: unused,
            subop: None
        }
    );
    let err = codec::decode(&[], &SymbolTable::new()).unwrap_err();
    assert_eq!(err.offset, 0);
}

#[test]
fn encode_rejects_values_the_field_cannot_hold() {
    let mut inst = sample_add();
    // Exec size 3 has no code.
    if let Some(FieldValue::Exec(exec)) = inst.fields.get_mut(0) {
        exec.size = 3;
    }
    let mut out = Vec::new();
    assert!(codec::encode(&inst, &mut SymbolTable::new(), &mut out).is_err());
    assert!(
        out.is_empty(),
        "a failed encode leaves the output untouched"
    );

    // An immediate whose bits are not a canonical D value.
    let mut inst = sample_add();
    *inst.fields.get_mut(4).unwrap() = FieldValue::Operand(Operand::Immediate(Immediate {
        bits: 0x1_0000_0000,
        ty: ElemType::D,
    }));
    assert!(codec::encode(&inst, &mut SymbolTable::new(), &mut out).is_err());

    // A raw operand where a vector operand belongs.
    let mut inst = sample_add();
    *inst.fields.get_mut(3).unwrap() = FieldValue::Operand(Operand::Raw {
        var: "V40".into(),
        offset: 0,
    });
    assert!(codec::encode(&inst, &mut SymbolTable::new(), &mut out).is_err());

    // Wrong number of fields.
    let mut inst = sample_add();
    inst.fields.pop();
    assert!(codec::encode(&inst, &mut SymbolTable::new(), &mut out).is_err());
}

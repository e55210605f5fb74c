//! A small hand-written instruction table, independent of `spec/`, so the text module can be
//! tested on its own and shown to work with any table (the extensibility property).
#![allow(dead_code)]

use visa_isa::desc::{
    Binding, BitFieldDesc, CodeDesc, FieldDesc, FieldKind, FieldRole, InstrDesc, OperandClass,
    SuffixDesc, SyntaxDesc, TypeDesc,
};

const fn code(code: u64, label: &'static str, text: &'static str) -> CodeDesc {
    CodeDesc {
        code,
        label,
        text,
        also: &[],
        platforms: &[],
    }
}

const fn ty(name: &'static str) -> TypeDesc {
    TypeDesc {
        name,
        platforms: &[],
    }
}

const SIZES: &[CodeDesc] = &[
    code(0, "1 element (scalar)", "1"),
    code(1, "2 elements", "2"),
    code(2, "4 elements", "4"),
    code(3, "8 elements", "8"),
    code(4, "16 elements", "16"),
    code(5, "32 elements", "32"),
];

const MASKS: &[CodeDesc] = &[
    code(0, "M1", "m1"),
    code(1, "M2", "m2"),
    code(2, "M3", "m3"),
    code(3, "M4", "m4"),
    code(4, "M5", "m5"),
    code(5, "M6", "m6"),
    code(6, "M7", "m7"),
    code(7, "M8", "m8"),
    code(8, "M1_NM", "m1_nm"),
    code(9, "M2_NM", "m2_nm"),
    code(10, "M3_NM", "m3_nm"),
    code(11, "M4_NM", "m4_nm"),
    code(12, "M5_NM", "m5_nm"),
    code(13, "M6_NM", "m6_nm"),
    code(14, "M7_NM", "m7_nm"),
    code(15, "M8_NM", "m8_nm"),
];

const fn field(name: &'static str, kind: FieldKind) -> FieldDesc {
    let role = match kind {
        FieldKind::Scalar | FieldKind::VecOperand | FieldKind::RawOperand => FieldRole::Operand,
        _ => FieldRole::Value,
    };
    FieldDesc {
        name,
        kind,
        role,
        optional: false,
        description: "",
        allowed_types: &[],
        operand_classes: &[],
        bitfields: &[],
        values: &[],
        range: None,
        repeat: None,
        unwritten: 0,
    }
}

const EXEC: FieldDesc = FieldDesc {
    bitfields: &[
        BitFieldDesc {
            hi: 2,
            lo: 0,
            description: "size",
            platforms: &[],
            codes: SIZES,
        },
        BitFieldDesc {
            hi: 7,
            lo: 4,
            description: "mask",
            platforms: &[],
            codes: MASKS,
        },
    ],
    role: FieldRole::ExecSize,
    ..field("Exec_size", FieldKind::Ub)
};
const PRED: FieldDesc = FieldDesc {
    role: FieldRole::Predicate,
    ..field("Pred", FieldKind::Uw)
};
const GENERAL: &[OperandClass] = &[OperandClass::General, OperandClass::Indirect];
const SOURCE: &[OperandClass] = &[
    OperandClass::General,
    OperandClass::Indirect,
    OperandClass::Immediate,
];
const DST: FieldDesc = FieldDesc {
    operand_classes: GENERAL,
    ..field("Dst", FieldKind::VecOperand)
};
const SRC0: FieldDesc = FieldDesc {
    operand_classes: SOURCE,
    ..field("Src0", FieldKind::VecOperand)
};
const SRC1: FieldDesc = FieldDesc {
    operand_classes: SOURCE,
    ..field("Src1", FieldKind::VecOperand)
};

const fn b(field: usize) -> Binding {
    Binding {
        field,
        bitfield: None,
    }
}
const fn sub(field: usize, bitfield: usize) -> Binding {
    Binding {
        field,
        bitfield: Some(bitfield),
    }
}

const SAT: SuffixDesc = SuffixDesc::Optional(&SuffixDesc::Literal("sat"));

const fn syntax(
    text: &'static str,
    mnemonic: &'static str,
    predicate: Option<usize>,
    suffixes: &'static [SuffixDesc],
    exec_size: Option<Binding>,
    operands: &'static [(usize, bool)],
) -> SyntaxDesc {
    SyntaxDesc {
        text,
        mnemonic,
        predicate,
        suffixes,
        exec_size,
        operands,
        mnemonic_sets: None,
        layout: &[],
    }
}

const fn instr(
    name: &'static str,
    opcode: u8,
    fields: &'static [FieldDesc],
    syntax: &'static [SyntaxDesc],
) -> InstrDesc {
    InstrDesc {
        name,
        opcode,
        subop: None,
        fields,
        syntax,
        properties: &[],
        supported_types: &[],
        type_maps: &[],
        enforces: &[],
        rules: &[],
        layouts: &[],
        description: "",
        semantics: "",
        source: "test",
    }
}

pub const ADD: usize = 0;
pub const CMP: usize = 1;
pub const MIN_MAX: usize = 2;
pub const BLOCK_LD: usize = 3;
pub const GATHER: usize = 4;
pub const JMP: usize = 5;
pub const ADDR_ADD: usize = 6;
pub const SETP: usize = 7;

pub static TABLE: &[InstrDesc] = &[
    InstrDesc {
        supported_types: &[
            ty("D"),
            ty("UD"),
            ty("W"),
            ty("UW"),
            ty("F"),
            ty("HF"),
            ty("B"),
            ty("UB"),
        ],
        ..instr(
            "ADD",
            0x01,
            &[EXEC, PRED, DST, SRC0, SRC1],
            &[syntax(
                "[(<P>)] ADD[.sat] (<exec_size>) <dst> <src0> <src1>",
                "add",
                Some(1),
                &[SAT],
                Some(b(0)),
                &[(2, false), (3, false), (4, false)],
            )],
        )
    },
    instr(
        "CMP",
        0x2c,
        &[
            EXEC,
            FieldDesc {
                bitfields: &[BitFieldDesc {
                    hi: 2,
                    lo: 0,
                    description: "relation",
                    platforms: &[],
                    codes: &[
                        code(0, "EQ - equal", "eq"),
                        code(1, "NE - not equal", "ne"),
                        code(2, "GT", "gt"),
                        code(3, "GE", "ge"),
                        code(4, "LT", "lt"),
                        code(5, "LE", "le"),
                    ],
                }],
                ..field("Rel_op", FieldKind::Ub)
            },
            FieldDesc {
                operand_classes: &[OperandClass::Predicate, OperandClass::General],
                ..field("Dst", FieldKind::VecOperand)
            },
            SRC0,
            SRC1,
        ],
        &[syntax(
            "CMP.rel_op (<exec_size>) <dst> <src0> <src1>",
            "cmp",
            None,
            &[SuffixDesc::Field(sub(1, 0))],
            Some(b(0)),
            &[(2, false), (3, false), (4, false)],
        )],
    ),
    instr(
        "MIN_MAX",
        0x45,
        &[
            EXEC,
            FieldDesc {
                values: &[code(0, "min", "min"), code(1, "max", "max")],
                ..field("Op", FieldKind::Ub)
            },
            DST,
            SRC0,
            SRC1,
        ],
        &[
            SyntaxDesc {
                mnemonic_sets: Some((b(1), 0)),
                ..syntax(
                    "MIN[.sat] (<exec_size>) <dst> <src0> <src1> |",
                    "min",
                    None,
                    &[SAT],
                    Some(b(0)),
                    &[(2, false), (3, false), (4, false)],
                )
            },
            SyntaxDesc {
                mnemonic_sets: Some((b(1), 1)),
                ..syntax(
                    "MAX[.sat] (<exec_size>) <dst> <src0> <src1>",
                    "max",
                    None,
                    &[SAT],
                    Some(b(0)),
                    &[(2, false), (3, false), (4, false)],
                )
            },
        ],
    ),
    instr(
        "SVM_BLOCK_LD",
        0x4e,
        &[
            FieldDesc {
                bitfields: &[
                    BitFieldDesc {
                        hi: 2,
                        lo: 0,
                        description: "size: number of owords",
                        platforms: &[],
                        codes: &[
                            code(0, "1 oword", "1"),
                            code(1, "2 owords", "2"),
                            code(2, "4 owords", "4"),
                            code(3, "8 owords", "8"),
                        ],
                    },
                    BitFieldDesc {
                        hi: 3,
                        lo: 3,
                        description: "unaligned",
                        platforms: &[],
                        codes: &[
                            code(0, "aligned", "aligned"),
                            code(1, "unaligned", "unaligned"),
                        ],
                    },
                ],
                ..field("Properties", FieldKind::Ub)
            },
            FieldDesc {
                allowed_types: &[ty("UQ")],
                operand_classes: &[OperandClass::General],
                ..field("Address", FieldKind::Scalar)
            },
            field("Dst", FieldKind::RawOperand),
        ],
        &[syntax(
            "SVM_BLOCK_LD[.unaligned] (<size>) <address> <dst>",
            "svm_block_ld",
            None,
            &[SuffixDesc::Flag {
                text: "unaligned",
                binding: sub(0, 1),
            }],
            Some(sub(0, 0)),
            &[(1, false), (2, false)],
        )],
    ),
    instr(
        "SVM_GATHER",
        0x4e,
        &[
            EXEC,
            PRED,
            FieldDesc {
                bitfields: &[BitFieldDesc {
                    hi: 1,
                    lo: 0,
                    description: "block size",
                    platforms: &[],
                    codes: &[
                        code(0, "1 byte", "1"),
                        code(1, "4 byte", "4"),
                        code(2, "8 byte", "8"),
                    ],
                }],
                ..field("Block_size", FieldKind::Ub)
            },
            FieldDesc {
                bitfields: &[BitFieldDesc {
                    hi: 1,
                    lo: 0,
                    description: "blocks",
                    platforms: &[],
                    codes: &[
                        code(0, "1 block", "1"),
                        code(1, "2 blocks", "2"),
                        code(2, "4 blocks", "4"),
                        code(3, "8 blocks", "8"),
                    ],
                }],
                ..field("Num_blocks", FieldKind::Ub)
            },
            field("Addresses", FieldKind::RawOperand),
            field("Dst", FieldKind::RawOperand),
        ],
        &[syntax(
            "[(<P>)] SVM_GATHER.<block_size>.<num_blocks> (<exec_size>) <addresses> <dst>",
            "svm_gather",
            Some(1),
            &[SuffixDesc::Field(sub(2, 0)), SuffixDesc::Field(sub(3, 0))],
            Some(b(0)),
            &[(4, false), (5, false)],
        )],
    ),
    instr(
        "JMP",
        0x32,
        &[
            EXEC,
            PRED,
            FieldDesc {
                role: FieldRole::Reference,
                ..field("Label", FieldKind::Uw)
            },
        ],
        &[syntax(
            "[(<P>)] JMP (<exec_size>) <label>",
            "jmp",
            Some(1),
            &[],
            Some(b(0)),
            &[(2, false)],
        )],
    ),
    instr(
        "ADDR_ADD",
        0x28,
        &[
            EXEC,
            FieldDesc {
                operand_classes: &[OperandClass::Address],
                ..field("Dst", FieldKind::VecOperand)
            },
            FieldDesc {
                operand_classes: &[
                    OperandClass::Address,
                    OperandClass::General,
                    OperandClass::State,
                ],
                ..field("Src0", FieldKind::VecOperand)
            },
            FieldDesc {
                allowed_types: &[ty("UW")],
                operand_classes: &[OperandClass::General, OperandClass::Immediate],
                ..field("Src1", FieldKind::VecOperand)
            },
        ],
        &[syntax(
            "ADDR_ADD (<exec_size>) <dst> <src0> <src1>",
            "addr_add",
            None,
            &[],
            Some(b(0)),
            &[(1, false), (2, false), (3, false)],
        )],
    ),
    instr(
        "SETP",
        0x2b,
        &[
            EXEC,
            FieldDesc {
                operand_classes: &[OperandClass::Predicate],
                ..field("Dst", FieldKind::VecOperand)
            },
            FieldDesc {
                allowed_types: &[ty("UB"), ty("UW"), ty("UD")],
                operand_classes: &[
                    OperandClass::General,
                    OperandClass::Indirect,
                    OperandClass::Immediate,
                ],
                ..field("Src0", FieldKind::VecOperand)
            },
        ],
        &[syntax(
            "SETP (<exec_size>) <dst> <src0>",
            "setp",
            None,
            &[],
            Some(b(0)),
            &[(1, false), (2, false)],
        )],
    ),
];

pub fn asm() -> visa_isa::text::Assembler {
    visa_isa::text::Assembler::new(TABLE)
}

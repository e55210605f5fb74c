//! Traps and load errors: each names the kernel, pc, instruction and lane where it applies.

mod common;

use common::program;
use visa_isa::ast::{FieldValue, Instruction, Module, Span, Stmt, StmtKind};
use visa_isa::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc};
use visa_runtime::{Launch, LaunchError, LoadOptions, Program, Svm, Trap, TrapKind};

fn trap(result: Result<visa_runtime::LaunchResult, LaunchError>) -> Box<Trap> {
    match result {
        Err(LaunchError::Trap(trap)) => trap,
        Err(other) => panic!("expected a trap, got {other}"),
        Ok(_) => panic!("expected a trap, the launch succeeded"),
    }
}

#[test]
fn an_infinite_loop_runs_out_of_fuel() {
    let p = program(
        "
.kernel \"spin\"
LOOP:
jmp (M1, 1) LOOP
",
    );
    let t = trap(Launch::new(&p).simd(8).fuel(10_000).run());
    assert_eq!(t.kind, TrapKind::OutOfFuel(10_000));
    // Exactly the budget runs: a 3-instruction kernel fits in a budget of 3, not of 2.
    let straight = program(
        ".decl X v_type=G type=d num_elts=8 align=GRF\nmov (M1, 8) X(0,0)<1> 0x1:d\nmov (M1, 8) X(0,0)<1> 0x2:d\nmov (M1, 8) X(0,0)<1> 0x3:d\n",
    );
    assert_eq!(
        Launch::new(&straight)
            .simd(8)
            .fuel(3)
            .run()
            .unwrap()
            .steps(),
        3
    );
    let short = trap(Launch::new(&straight).simd(8).fuel(2).run());
    assert_eq!((short.pc, short.kind.clone()), (2, TrapKind::OutOfFuel(2)));
    assert_eq!(
        (t.pc, t.instruction.as_str(), t.lane),
        (0, "jmp (M1, 1) LOOP", None)
    );
    let message = t.to_string();
    assert!(
        message.contains("kernel 'spin'") && message.contains("pc 0"),
        "{message}"
    );
}

const GATHER: &str = "
.decl ADDR v_type=G type=uq num_elts=8 align=GRF
.decl D v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) D(0,0)<1> 0x0:d
svm_gather.4.1 (M1, 8) ADDR.0 D.0
";

fn gather_with(addresses: impl Fn(u64) -> Vec<u64>) -> Box<Trap> {
    let p = program(GATHER);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[0i32; 8]);
    trap(
        Launch::new(&p)
            .simd(8)
            .svm(&svm)
            .bind_vector("ADDR", &addresses(base))
            .run(),
    )
}

#[test]
fn a_misaligned_svm_address_traps_at_its_lane() {
    let t = gather_with(|base| {
        (0..8)
            .map(|i| base + 4 * i + u64::from(i == 5) * 2)
            .collect()
    });
    assert_eq!(t.lane, Some(5));
    assert!(
        matches!(t.kind, TrapKind::Misaligned { align: 4, .. }),
        "{t}"
    );
    assert_eq!(t.pc, 1);
    assert_eq!(t.instruction, "svm_gather.4.1 (M1, 8) ADDR.0 D.0");
    assert!(t.to_string().contains("lane 5"), "{t}");
}

#[test]
fn an_unmapped_svm_address_traps() {
    let t = gather_with(|base| {
        (0..8)
            .map(|i| if i == 2 { 0x40 } else { base + 4 * i })
            .collect()
    });
    assert_eq!(
        (t.lane, t.kind.clone()),
        (Some(2), TrapKind::SvmUnmapped { address: 0x40 })
    );
}

#[test]
fn an_access_past_the_end_of_an_allocation_traps() {
    let t = gather_with(|base| (0..8).map(|i| base + 4 * (i + 1)).collect());
    // Lane 7 reads bytes 32..36 of a 32-byte allocation: inside the guard gap, unmapped.
    assert_eq!(t.lane, Some(7));
    assert!(
        matches!(
            t.kind,
            TrapKind::SvmUnmapped { .. } | TrapKind::SvmOutOfBounds { .. }
        ),
        "{t}"
    );
}

#[test]
fn an_unbound_surface_traps_and_an_undeclared_one_does_not_load() {
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
oword_ld (2) T7 0x0:ud V.0
",
    );
    let t = trap(Launch::new(&p).simd(8).run());
    assert_eq!(t.kind, TrapKind::UnboundSurface("T7".into()));
    assert_eq!(t.instruction, "oword_ld (2) T7 0x0:ud V.0");
    let err = Program::from_text(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
oword_ld (2) MYSURF 0x0:ud V.0
",
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "oword_ld: `MYSURF` in <surface> is not declared at 3:14"
    );
}

#[test]
fn an_instruction_outside_the_implemented_set_is_rejected_by_name() {
    static TABLE: [InstrDesc; 1] = [InstrDesc {
        name: "3D_SAMPLE",
        opcode: 0x6d,
        subop: None,
        fields: &[],
        syntax: &[],
        properties: &[],
        supported_types: &[],
        type_maps: &[],
        enforces: &[],
        rules: &[],
        layouts: &[],
        description: "",
        semantics: "",
        source: "",
    }];
    let module = Module {
        stmts: vec![Stmt {
            kind: StmtKind::Instr(Instruction {
                desc: 0,
                saturate: false,
                fields: vec![],
                span: Span::new(12, 1),
                field_spans: Vec::new(),
                element_spans: Vec::new(),
            }),
            span: Span::new(12, 1),
        }],
    };
    let err = Program::load_with_table(&module, &TABLE, &LoadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not executed by this runtime: unsupported instruction '3d_sample': texture sampling has no defined CPU semantics \
         (fixed-function units, formats, filtering) at 12:1"
    );
}

#[test]
fn an_unknown_entry_with_a_message_descriptor_field_is_rejected_as_a_raw_send() {
    static FIELDS: [FieldDesc; 1] = [FieldDesc {
        name: "Msg_desc",
        kind: FieldKind::Ud,
        role: FieldRole::Value,
        optional: false,
        description: "",
        allowed_types: &[],
        operand_classes: &[],
        bitfields: &[],
        values: &[],
        range: None,
        repeat: None,
        unwritten: 0,
    }];
    static TABLE: [InstrDesc; 1] = [InstrDesc {
        name: "VENDOR_MESSAGE",
        opcode: 0x7f,
        subop: None,
        fields: &FIELDS,
        syntax: &[],
        properties: &[],
        supported_types: &[],
        type_maps: &[],
        enforces: &[],
        rules: &[],
        layouts: &[],
        description: "",
        semantics: "",
        source: "",
    }];
    let module = Module {
        stmts: vec![Stmt {
            kind: StmtKind::Instr(Instruction {
                desc: 0,
                saturate: false,
                fields: vec![FieldValue::Int(0x0210_0000)],
                span: Span::new(3, 5),
                field_spans: Vec::new(),
                element_spans: Vec::new(),
            }),
            span: Span::new(3, 5),
        }],
    };
    let err = Program::load_with_table(&module, &TABLE, &LoadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not executed by this runtime: unsupported instruction 'vendor_message': the message descriptor's meaning is defined \
         per shared function by hardware, not by vISA at 3:5"
    );
}

#[test]
fn bindings_are_checked_before_running() {
    let p = program(".decl X v_type=G type=d num_elts=8 align=GRF\nmov (M1, 8) X(0,0)<1> 0x1:d\n");
    let err = Launch::new(&p)
        .simd(8)
        .bind_vector("X", &[1i32; 7])
        .run()
        .unwrap_err();
    assert!(matches!(err, LaunchError::Binding { .. }), "{err}");
    let err = Launch::new(&p)
        .simd(8)
        .bind_vector("NOPE", &[1i32; 8])
        .run()
        .unwrap_err();
    assert_eq!(err.to_string(), "binding 'NOPE': no such kernel variable");
    // Leading elements given as bytes: whole values of the variable's size, no more than it holds.
    let elements = |bytes: usize| {
        Launch::new(&p)
            .simd(8)
            .bind_elements_bytes("X", visa_isa::ast::ElemType::D, vec![7; bytes])
            .run()
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(elements(32), Ok(()));
    assert_eq!(
        elements(6),
        Err("binding 'X': 6 bytes are not whole d values".to_string())
    );
    assert_eq!(
        elements(36),
        Err("binding 'X': 9 d values do not fit the variable (8 x d)".to_string())
    );
}

//! `isa!` accepts the shared example kernels pasted verbatim (bindings in the header).

use visa::isa::ast::{Operand, StmtKind};
use visa::{Kernel, ParamKind};

fn instructions(k: &Kernel) -> Vec<String> {
    let module = k.module().expect("immediates fit");
    module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(visa::isa::text::format_instruction(i)),
            _ => None,
        })
        .collect()
}

#[test]
fn letter_example_pasted_verbatim() {
    let k = visa::isa! {
        kernel letter_example<16>(a: svm) {
            {
            .decl V52 v_type=G type=d num_elts=16 align=GRF
            svm_gather.4.1 (M1, 16) %0.0 V52.0
            add(M1, 16) V52(0, 0)<1> V52(0, 0)<1; 1, 0> 0x1:w
            svm_scatter.4.1 (M1, 16) %0.0 V52.0
            }
        }
    };
    assert_eq!(k.name(), "letter_example");
    assert_eq!(k.simd(), 16);
    assert_eq!(k.params()[0].kind, ParamKind::Svm);
    assert_eq!(
        instructions(&k),
        [
            "svm_gather.4.1 (M1, 16) a.0 V52.0",
            "add (M1, 16) V52(0,0)<1> V52(0,0)<1;1,0> 0x1:w",
            "svm_scatter.4.1 (M1, 16) a.0 V52.0",
        ]
    );
}

#[test]
fn statements_may_be_separated_by_semicolons() {
    let k = visa::isa! {
        kernel semis<8>(a: vector<d>) {
            mov (M1, 8) a(0,0)<1> 0x2:d; add (M1, 8) a(0,0)<1> a(0,0)<1;1,0> 0x3:d
        }
    };
    assert_eq!(
        instructions(&k),
        [
            "mov (M1, 8) a(0,0)<1> 0x2:d",
            "add (M1, 8) a(0,0)<1> a(0,0)<1;1,0> 0x3:d",
        ]
    );
}

#[test]
fn rust_immediates_literal_and_runtime() {
    let step: u32 = 7;
    let k = visa::isa! {
        kernel imm<8>(a: vector<ud>) {
            mov (M1, 8) a(0,0)<1> {5}:ud
            add (M1, 8) a(0,0)<1> a(0,0)<1;1,0> {step * 2}:ud
        }
    };
    let module = k.module().expect("fits");
    let imms: Vec<u64> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(i.fields.iter().filter_map(|f| match f {
                visa::isa::ast::FieldValue::Operand(Operand::Immediate(v)) => Some(v.bits),
                _ => None,
            })),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(imms, [5, 14]);
}

#[test]
fn runtime_immediate_out_of_range_is_an_error_at_launch() {
    let big: u64 = 1 << 40;
    let k = visa::isa! {
        kernel imm<8>(a: vector<ud>) {
            mov (M1, 8) a(0,0)<1> {big}:ud
        }
    };
    let err = k.module().expect_err("does not fit in ud");
    assert!(err.to_string().contains("does not fit type ud"), "{err}");
}

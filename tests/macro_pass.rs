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

#[test]
fn stored_text_keeps_the_lines_of_the_macro_input() {
    let big: u64 = 1 << 40;
    let k = visa::isa! {
        kernel imm_line<8>(a: vector<ud>) {
            .decl T v_type=G type=ud num_elts=8 align=GRF
            mov (M1, 8) T(0,0)<1> 0x1:ud
            mov (M1, 8) a(0,0)<1> {big}:ud
        }
    };
    // The kernel is stored as text, not rebuilt by a Rust expression.
    assert!(format!("{k:?}").contains("KernelText"), "{k:?}");
    // In the stored (canonical) text the parameter's declaration is line 1 and the second `mov`
    // line 4; errors must name the line written in the macro, line 3.
    let err = k.module().expect_err("does not fit in ud");
    assert!(
        err.to_string().starts_with("kernel `imm_line`, line 3:"),
        "{err}"
    );
    let small = visa::isa! {
        kernel imm_line<8>(a: vector<ud>) {
            .decl T v_type=G type=ud num_elts=8 align=GRF
            mov (8) T(0,0)<1> 0x1:ud
            mov (M1, 8) a(0,0)<1> {7u32}:ud
        }
    };
    let module = small.module().expect("fits");
    let lines: Vec<(u32, u32)> = module
        .stmts
        .iter()
        .map(|s| (s.span.line, s.span.col))
        .collect();
    assert_eq!(lines, [(0, 0), (1, 1), (2, 1), (3, 1)]);
    // The stored text prints every mask; the module keeps that the first `mov` left it out.
    let masks_written: Vec<bool> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            visa::isa::ast::StmtKind::Instr(i) => i.fields.iter().find_map(|f| match f {
                visa::isa::ast::FieldValue::Exec(e) => Some(e.mask_written),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    assert_eq!(masks_written, [false, true]);
    // The same call site run twice gives equal kernels.
    let twice: Vec<visa::Kernel> = (0..2)
        .map(|_| {
            visa::isa! {
                kernel k<8>() {
                    .decl A v_type=G type=d num_elts=8 align=GRF
                    mov (M1, 8) A(0,0)<1> 0x1:d
                }
            }
        })
        .collect();
    assert_eq!(twice[0], twice[1]);
}

#[test]
fn unreadable_stored_text_is_an_error_not_a_panic() {
    static GARBLED: visa::KernelText = visa::KernelText::new("mov (M1, 8) ???\n", &[1, 1, 1, 1]);
    let k = visa::Kernel::from_text("garbled", 8, Vec::new(), &GARBLED);
    let err = k.load().expect_err("the text does not parse");
    let message = err.to_string();
    assert!(
        message.starts_with("kernel `garbled`: the text stored by `isa!` does not parse"),
        "{message}"
    );
    assert!(message.contains("1:"), "names the position: {message}");

    static SHORT_MAP: visa::KernelText = visa::KernelText::new(
        ".decl A v_type=G type=d num_elts=8 align=GRF\n.decl B v_type=G type=d num_elts=8 align=GRF\n",
        &[1, 1],
    );
    let k = visa::Kernel::from_text("short", 8, Vec::new(), &SHORT_MAP);
    let err = k.module().expect_err("two statements, one position");
    assert!(
        err.to_string()
            .contains("source map stored by `isa!` does not match"),
        "{err}"
    );
}

#[test]
fn a_switch_table_written_inline_runs() {
    let k = visa::isa! {
        kernel pick<8>(sel: uniform<ud>, v: vector<d>) {
            switchjmp (M1, 1) sel(0,0)<0;1,0> (ZERO, ONE, TWO)
            ZERO:
            mov (M1, 8) v(0,0)<1> 0x0:d
            jmp (M1, 1) END
            ONE:
            mov (M1, 8) v(0,0)<1> 0xa:d
            jmp (M1, 1) END
            TWO:
            mov (M1, 8) v(0,0)<1> 0x14:d
            END:
        }
    };
    assert_eq!(
        instructions(&k)[0],
        "switchjmp (M1, 1) sel(0,0)<0;1,0> (ZERO, ONE, TWO)"
    );
    let loaded = k.load().expect("loads");
    for (sel, expected) in [(0u32, 0i32), (1, 10), (2, 20)] {
        let result = loaded
            .launch()
            .bind_scalar("sel", sel)
            .bind_vector("v", &[7i32; 8])
            .run()
            .expect("runs");
        assert_eq!(result.vector::<i32>("v").expect("defined"), [expected; 8]);
    }
}

#[test]
fn lsc_messages_are_checked_and_stored_in_canonical_form() {
    let k = visa::isa! {
        kernel lsc<16>(a: svm) {
            .decl A v_type=G type=uq num_elts=16 align=GRF
            .decl V v_type=G type=d num_elts=64 align=GRF
            lsc_load.ugm.ca.ca (M1, 16) V:d32x4 flat[0x10*A+0x100]:a64
            lsc_store.ugm (M1,16) flat[A-0x4]:a64 V:d32
            lsc_atomic_iinc.ugm.uc.uc (M1, 16) %null:d32 flat[A]:a64 %null %null
            lsc_fence.ugm.clean.gpu
        }
    };
    assert_eq!(
        instructions(&k),
        [
            "lsc_load.ugm.ca.ca (M1, 16) V:d32x4 flat[0x10*A+0x100]:a64",
            "lsc_store.ugm (M1, 16) flat[A-0x4]:a64 V:d32",
            "lsc_atomic_iinc.ugm.uc.uc (M1, 16) %null:d32 flat[A]:a64 %null %null",
            "lsc_fence.ugm.clean.gpu",
        ]
    );
}

#[test]
fn typed_lsc_messages_are_checked_stored_in_canonical_form_and_refused_at_load() {
    let k = visa::isa! {
        kernel typed<16>() {
            .decl U v_type=G type=ud num_elts=16 align=GRF
            .decl V v_type=G type=ud num_elts=16 align=GRF
            .decl D v_type=G type=ud num_elts=48 align=GRF
            lsc_load_quad.tgm.ca.ca (M1,16) D:d32.xyz bti(0x7B)[U,V]:a32
            lsc_store_quad.tgm (M1, 16) bti(0x7B)[U+1,V-2]:a32 D:d32.xy
            lsc_atomic_iadd.tgm.uc.uc (M1, 16) %null:d32 bti(0x7B)[U]:a32 V %null
        }
    };
    assert_eq!(
        instructions(&k),
        [
            "lsc_load_quad.tgm.ca.ca (M1, 16) D:d32.xyz bti(0x7B)[U,V]:a32",
            "lsc_store_quad.tgm (M1, 16) bti(0x7B)[U+1,V-2]:a32 D:d32.xy",
            "lsc_atomic_iadd.tgm.uc.uc (M1, 16) %null:d32 bti(0x7B)[U]:a32 V %null",
        ]
    );
    let err = k.load().expect_err("typed surfaces are not modelled");
    assert!(
        err.to_string().contains(
            "not executed by this runtime: unsupported instruction 'lsc_load_quad': typed surfaces"
        ),
        "{err}"
    );
}

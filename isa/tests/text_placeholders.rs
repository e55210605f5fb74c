//! `$N` placeholders: the parser reads them as names (whole operand when nothing follows, a
//! variable's operand when a region or offset follows) and `bind_dollar_placeholders` binds them
//! to parameters by that rule.

use visa_isa::ast::{FieldValue, Operand, StmtKind};
use visa_isa::text::{self, PlaceholderParam};

fn param(name: &str) -> PlaceholderParam<'_> {
    PlaceholderParam {
        name,
        general: true,
    }
}

/// The instructions of `src` after binding `$N` to `params`, in canonical form.
fn bound(src: &str, params: &[PlaceholderParam<'_>]) -> (Vec<String>, Vec<String>) {
    let mut module = text::parse(src).unwrap_or_else(|e| panic!("{e:?}"));
    let errors = text::bind_dollar_placeholders(visa_isa::INSTRUCTIONS, &mut module, params);
    let instrs = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(text::format_instruction(i)),
            _ => None,
        })
        .collect();
    (instrs, errors.iter().map(ToString::to_string).collect())
}

#[test]
fn text_reads_a_lone_placeholder_as_the_whole_operand_and_a_followed_one_as_a_name() {
    let module = text::parse("mov (M1, 8) $0 $1(0,2)<1;1,0>\nsvm_gather.4.1 (M1, 8) $2.8 V.0\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    let operands: Vec<&Operand> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(i.fields.iter().filter_map(|f| match f {
                FieldValue::Operand(op) => Some(op),
                _ => None,
            })),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(operands[0], &Operand::Name("$0".into()));
    assert!(
        matches!(operands[1], Operand::General { var, row: 0, col: 2, .. } if var == "$1"),
        "{:?}",
        operands[1]
    );
    assert!(
        matches!(operands[2], Operand::Raw { var, offset: 8 } if var == "$2"),
        "{:?}",
        operands[2]
    );
}

#[test]
fn whole_operands_take_the_form_of_their_field() {
    let src = "\
.decl P1 v_type=P num_elts=8
.decl V v_type=G type=ud num_elts=8 align=GRF
mov (M1, 8) $0 0x1:ud
setp (M1_NM, 8) P1 $3
(P1) add (M1_NM, 8) $0 $1 $2
mov (M1, 1) $1 $2
mov (M1, 8) $0(0,0)<1> $1(0,4)<0;1,0>
svm_gather.4.1 (M1, 8) $4 V.0
svm_scatter.4.1 (M1, 8) $4.0 $0.4
";
    let params = [
        param("out"),
        param("a"),
        param("b"),
        param("mask"),
        param("ptr"),
    ];
    let (instrs, errors) = bound(src, &params);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        instrs,
        [
            "mov (M1, 8) out(0,0)<1> 0x1:ud",
            "setp (M1_NM, 8) P1 mask(0,0)<1;1,0>",
            "(P1) add (M1_NM, 8) out(0,0)<1> a(0,0)<1;1,0> b(0,0)<1;1,0>",
            "mov (M1, 1) a(0,0)<1> b(0,0)<0;1,0>",
            "mov (M1, 8) out(0,0)<1> a(0,4)<0;1,0>",
            "svm_gather.4.1 (M1, 8) ptr.0 V.0",
            "svm_scatter.4.1 (M1, 8) ptr.0 out.4",
        ]
    );
}

#[test]
fn a_placeholder_of_no_parameter_is_reported_and_other_variables_stay_names() {
    let (instrs, errors) = bound(
        "mov (M1, 8) $0 $7\nmov (M1, 8) $1 0x0:ud\n",
        &[
            param("out"),
            PlaceholderParam {
                name: "T6",
                general: false,
            },
        ],
    );
    assert_eq!(
        errors,
        ["1:1: error: found `$7`, expected a parameter placeholder `$0`..`$1`"]
    );
    assert_eq!(
        instrs,
        ["mov (M1, 8) out(0,0)<1> $7", "mov (M1, 8) T6 0x0:ud"]
    );
}

//! Syntax-template binding (brief/syntax-conventions.md) and bitfield-type naming, on small
//! documents written for the test.

use crate::emit::ir::{Binding, Role, Suffix, Typing};
use crate::emit::lower;
use crate::model::Document;

const EXEC: &str = "- **Exec_size(ub):** Execution size.

  - Bit[2..0]: size

    - 0b000: 1 element
    - 0b011: 8 elements
    - 0b100: 16 elements
  - Bit[7..4]: mask

    - 0b0000: M1
    - 0b1000: M1_NM
";

fn doc(name: &str, opcode: &str, format_fields: &[&str], bullets: &str, text: &str) -> Document {
    let header: Vec<&str> = std::iter::repeat_n("", format_fields.len() + 1).collect();
    let rule: Vec<&str> = std::iter::repeat_n("---", format_fields.len() + 1).collect();
    let source = format!(
        "## Opcode\n\n  {name} = {opcode}\n\n## Format\n\n|{}|\n|{}|\n| {opcode}({name}) | {} |\n\n\
         ## Semantics\n\n    nothing\n\n## Description\n\n    A test instruction.\n\n{bullets}\n\n## Text\n```\n{text}\n```\n",
        header.join("|"),
        rule.join("|"),
        format_fields.join(" | "),
    );
    let parsed = crate::parse_document(&format!("{name}.md"), &source);
    assert!(!parsed.has_errors(), "{:?}\n{source}", parsed.diagnostics);
    parsed.document.expect("a document")
}

fn operands() -> &'static str {
    "- **Dst(vec_operand):** Result.\n\n- **Src0(vec_operand):** Input.\n"
}

#[test]
fn mnemonic_alternatives_set_the_code_they_name() {
    let bullets = format!(
        "{EXEC}\n- **Op(ub):** Which one.\n\n  - Bit[0]: operation\n\n    - 0b0: min - smaller\n    - 0b1: max - larger\n\n{}",
        operands()
    );
    let d = doc(
        "PICK",
        "0x45",
        &["Exec_size", "Op", "Dst", "Src0"],
        &bullets,
        "MIN[.sat] (<exec_size>) <dst> <src0> |\nMAX[.sat] (<exec_size>) <dst> <src0>",
    );
    let docs = [d];
    let lowered = lower::lower(&docs);
    let instr = &lowered.instrs[0];
    assert!(instr.saturates);
    let sets: Vec<_> = instr
        .syntax
        .iter()
        .map(|s| (s.mnemonic.as_str(), s.mnemonic_sets))
        .collect();
    let op = Binding {
        field: 1,
        bitfield: Some(0),
    };
    assert_eq!(sets, [("min", Some((op, 0))), ("max", Some((op, 1)))]);
    assert_eq!(instr.fields[0].role, Role::ExecSize);
    assert_eq!(
        instr.syntax[0].exec_size,
        Some(Binding {
            field: 0,
            bitfield: None
        })
    );
    assert_eq!(instr.syntax[0].operands, [(2, false), (3, false)]);
}

#[test]
fn flags_and_named_sub_fields_bind_to_bits() {
    let bullets = "- **Properties(ub):** Packed.

  - Bit[2..0]: size: owords to move

    - 0b000: 1 oword
    - 0b001: 2 owords
  - Bit[3]: alignment

    - 0b0: aligned - oword alignment
    - 0b1: unaligned - dword alignment

- **Address(scalar):** Where.

- **Dst(raw_operand):** Data.
";
    let d = doc(
        "BLK",
        "0x4e",
        &["Properties", "Address", "Dst"],
        bullets,
        "BLK[.unaligned] (<size>) <address> <dst>",
    );
    let docs = [d];
    let lowered = lower::lower(&docs);
    let s = &lowered.instrs[0].syntax[0];
    assert_eq!(
        s.suffixes,
        [Suffix::Flag {
            text: "unaligned".into(),
            binding: Binding {
                field: 0,
                bitfield: Some(1)
            }
        }]
    );
    assert_eq!(
        s.exec_size,
        Some(Binding {
            field: 0,
            bitfield: Some(0)
        })
    );
    // Two sub-fields: a per-field struct over two code enums.
    let Typing::Composite(c) = lowered.instrs[0].fields[0].typing else {
        panic!("not a struct")
    };
    assert_eq!(lowered.composites[c].members.len(), 2);
}

#[test]
fn integer_fields_bound_to_operands_are_references() {
    let bullets = format!("{EXEC}\n- **Pred(uw):** Predicate.\n\n- **Label(uw):** Target label.\n");
    let d = doc(
        "HOP",
        "0x32",
        &["Exec_size", "Pred", "Label"],
        &bullets,
        "[(<P>)] HOP (<exec_size>) <label>",
    );
    let docs = [d];
    let lowered = lower::lower(&docs);
    let roles: Vec<Role> = lowered.instrs[0].fields.iter().map(|f| f.role).collect();
    assert_eq!(roles, [Role::ExecSize, Role::Predicate, Role::Reference]);
    assert_eq!(lowered.instrs[0].syntax[0].predicate, Some(1));
}

#[test]
fn unresolved_templates_are_warnings_with_their_line_and_the_statement_is_not_generated() {
    let bullets = format!("{EXEC}\n{}", operands());
    let d = doc(
        "ODD",
        "0x10",
        &["Exec_size", "Dst", "Src0"],
        &bullets,
        "[(<P>)] ODD (<exec_size>) <dst> <src9>",
    );
    let line = d.syntax[0].loc.line;
    let docs = [d];
    let lowered = lower::lower(&docs);
    assert_eq!(lowered.instrs.len(), 1);
    assert!(lowered.instrs[0].syntax.is_empty());
    assert_eq!(lowered.warnings.len(), 1);
    let warning = &lowered.warnings[0];
    assert_eq!(warning.file, "ODD.md");
    assert_eq!(warning.loc.line, line);
    assert!(
        warning
            .message
            .starts_with("syntax statement not generated: "),
        "{}",
        warning.message
    );
    assert!(warning.message.contains("Pred"), "{}", warning.message);
}

#[test]
fn identical_bitfields_share_a_type_and_different_ones_get_distinct_names() {
    let bullets = format!("{EXEC}\n{}", operands());
    let wide_exec = EXEC.replace(
        "    - 0b100: 16 elements\n",
        "    - 0b100: 16 elements\n    - 0b101: 32 elements\n",
    );
    let wide = format!("{wide_exec}\n{}", operands());
    let docs = [
        doc(
            "ONE",
            "0x01",
            &["Exec_size", "Dst", "Src0"],
            &bullets,
            "ONE (<exec_size>) <dst> <src0>",
        ),
        doc(
            "TWO",
            "0x02",
            &["Exec_size", "Dst", "Src0"],
            &bullets,
            "TWO (<exec_size>) <dst> <src0>",
        ),
        doc(
            "WIDE",
            "0x03",
            &["Exec_size", "Dst", "Src0"],
            &wide,
            "WIDE (<exec_size>) <dst> <src0>",
        ),
    ];
    let lowered = lower::lower(&docs);
    let names: Vec<&str> = lowered
        .code_types
        .iter()
        .map(|t| t.ident.as_str())
        .collect();
    assert_eq!(names, ["ExecSizeSize", "ExecSizeMask", "WideExecSizeSize"]);
    let structs: Vec<&str> = lowered
        .composites
        .iter()
        .map(|c| c.ident.as_str())
        .collect();
    assert_eq!(structs, ["ExecSize", "WideExecSize"]);
    assert_eq!(lowered.code_types[0].users, ["ONE", "TWO"]);
    assert_eq!(lowered.composites[0].members[0].ident, "size");
}

#[test]
fn a_duplicate_opcode_leaves_the_later_document_out() {
    let bullets = format!("{EXEC}\n{}", operands());
    let docs = [
        doc(
            "ONE",
            "0x01",
            &["Exec_size", "Dst", "Src0"],
            &bullets,
            "ONE (<exec_size>) <dst> <src0>",
        ),
        doc(
            "TWO",
            "0x01",
            &["Exec_size", "Dst", "Src0"],
            &bullets,
            "TWO (<exec_size>) <dst> <src0>",
        ),
    ];
    let lowered = lower::lower(&docs);
    let names: Vec<&str> = lowered.instrs.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["ONE"],
        "the second user of an opcode value is left out"
    );
    assert_eq!(lowered.warnings.len(), 1);
    let warning = &lowered.warnings[0];
    assert_eq!(warning.file, "TWO.md");
    assert_eq!(
        warning.message,
        "the opcode value of TWO is already used by ONE (ONE.md): TWO is left out of the generated code"
    );
}

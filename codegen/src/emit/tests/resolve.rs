//! Syntax-template binding (brief/syntax-conventions.md) and bitfield-type naming, on small
//! documents written for the test.

use crate::emit::ir::{Binding, Options, Role, Suffix, SyntaxPolicy, Typing};
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
    let lowered = lower::lower(&docs, Options::default()).unwrap();
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
    let lowered = lower::lower(&docs, Options::default()).unwrap();
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
    let lowered = lower::lower(&docs, Options::default()).unwrap();
    let roles: Vec<Role> = lowered.instrs[0].fields.iter().map(|f| f.role).collect();
    assert_eq!(roles, [Role::ExecSize, Role::Predicate, Role::Reference]);
    assert_eq!(lowered.instrs[0].syntax[0].predicate, Some(1));
}

#[test]
fn unresolved_templates_are_errors_or_warnings_with_their_line() {
    let bullets = format!("{EXEC}\n{}", operands());
    let d = doc(
        "ODD",
        "0x10",
        &["Exec_size", "Dst", "Src0"],
        &bullets,
        "[(<P>)] ODD (<exec_size>) <dst> <src9>",
    );
    let docs = [d];
    let errors = lower::lower(&docs, Options::default())
        .err()
        .expect("an error");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].file, "ODD.md");
    assert!(errors[0].message.contains("Pred"), "{}", errors[0].message);
    let line = errors[0].loc.line;
    let lenient = Options {
        unresolved_syntax: SyntaxPolicy::Warn,
    };
    let lowered = lower::lower(&docs, lenient).unwrap();
    assert!(lowered.instrs[0].syntax.is_empty());
    assert_eq!(lowered.warnings.len(), 1);
    assert_eq!(lowered.warnings[0].loc.line, line);
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
    let lowered = lower::lower(&docs, Options::default()).unwrap();
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
fn duplicate_opcodes_are_errors() {
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
    let errors = lower::lower(&docs, Options::default())
        .err()
        .expect("an error");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].file, "TWO.md");
    assert!(errors[0].message.contains("opcode value"));
}

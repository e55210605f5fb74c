//! Scope braces `{` / `}` wherever a statement may begin or end: alone on a line, before or after
//! an instruction or directive on the same line, several on one line.

use visa_isa::ast::{Module, Span, StmtKind};
use visa_isa::text;

/// The shape of a module: one word per statement.
fn shape(module: &Module) -> Vec<String> {
    module
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::ScopeOpen => "{".to_string(),
            StmtKind::ScopeClose => "}".to_string(),
            StmtKind::Decl(d) => format!("decl {}", d.name),
            StmtKind::Label { name } => format!("label {name}"),
            StmtKind::Kernel { name } => format!("kernel {name}"),
            StmtKind::Instr(i) => format!("instr {}", text::format_instruction(i)),
            other => format!("{other:?}"),
        })
        .collect()
}

fn parse(src: &str) -> Module {
    text::parse(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"))
}

#[test]
fn a_brace_closing_a_scope_on_an_instruction_line() {
    let src = "{\n.decl P1 v_type=P num_elts=16\n(P1) sel (M1_NM, 16) %0(0,0)<1> 0x7:d 0x8:d}\n";
    let module = parse(src);
    assert_eq!(
        shape(&module),
        [
            "{",
            "decl P1",
            "instr (P1) sel (M1_NM, 16) %0(0,0)<1> 0x7:d 0x8:d",
            "}"
        ]
    );
    // The `}` is at its own column: `(P1) sel (M1_NM, 16) %0(0,0)<1> 0x7:d 0x8:d` is 43
    // characters, so the brace is column 44 of line 3.
    assert_eq!(module.stmts[3].span, Span::new(3, 44));
    assert_eq!(module.stmts[2].span, Span::new(3, 1));
    assert!(text::check(&module).iter().all(|d| !d.is_error()));
}

#[test]
fn braces_before_after_and_between_statements() {
    let src = "\
.decl V v_type=G type=d num_elts=16 align=GRF
{ mov (M1, 16) V(0,0)<1> 0x1:d
} {
{{ add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x2:d }}
L1: { } mov (M1, 16) V(0,0)<1> 0x3:d
{ .decl T v_type=G type=d num_elts=16 align=GRF }
}
";
    let module = parse(src);
    assert_eq!(
        shape(&module),
        [
            "decl V",
            "{",
            "instr mov (M1, 16) V(0,0)<1> 0x1:d",
            "}",
            "{",
            "{",
            "{",
            "instr add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x2:d",
            "}",
            "}",
            "label L1",
            "{",
            "}",
            "instr mov (M1, 16) V(0,0)<1> 0x3:d",
            "{",
            "decl T",
            "}",
            "}",
        ]
    );
    let diagnostics = text::check(&module);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
}

#[test]
fn the_formatter_prints_one_brace_per_line_and_reads_back_the_same_module() {
    let src = "\
.decl V v_type=G type=d num_elts=16 align=GRF
{ mov (M1, 16) V(0,0)<1> 0x1:d }
";
    let module = parse(src);
    let printed = text::format_module(&module);
    assert!(
        printed.lines().any(|l| l.trim() == "{") && printed.lines().any(|l| l.trim() == "}"),
        "{printed}"
    );
    assert!(
        printed
            .lines()
            .all(|l| l.trim() == "{" || l.trim() == "}" || !l.contains(['{', '}'])),
        "{printed}"
    );
    assert_eq!(shape(&parse(&printed)), shape(&module));
}

#[test]
fn a_declaration_in_a_scope_on_one_line_ends_with_the_scope() {
    let src = "\
{ .decl T v_type=G type=d num_elts=16 align=GRF }
mov (M1, 16) T(0,0)<1> 0x1:d
";
    let diagnostics = text::check(&parse(src));
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0].message.contains("`T`") && diagnostics[0].message.contains("declared"),
        "{}",
        diagnostics[0]
    );
}

#[test]
fn braces_in_quoted_strings_are_text() {
    let module = parse(".kernel \"k{1}\"\n");
    assert_eq!(shape(&module), ["kernel k{1}"]);
}

#[test]
fn errors_inside_a_braced_stretch_point_at_the_token() {
    // `{NoMask}` after an instruction is pseudo-assembly: `NoMask` is no instruction.
    let err = text::parse("mov (M1, 1) V(0,0)<1> 0x1:d {NoMask}\n").unwrap_err();
    assert_eq!(
        err[0].to_string(),
        "1:30: error: found `NoMask`, expected an instruction mnemonic"
    );
    // An instruction cut short by a brace: its missing operand is reported at the brace.
    let err = text::parse("{ mov (M1, 16) V(0,0)<1> }\n").unwrap_err();
    assert_eq!(
        err[0].to_string(),
        "1:26: error: found `}`, expected operand <src0>"
    );
}

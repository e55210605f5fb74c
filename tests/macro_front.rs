//! Inline vISA as users paste it into `isa!`: scope braces on instruction lines, `$N`
//! placeholders (the same rule as in assembly text), per-lane vectors of several components.

use visa::isa::ast::StmtKind;
use visa::runtime::{LoadOptions, Program};

/// The statements of a kernel, `{`/`}` for scopes and the canonical text of instructions.
fn statements(k: &visa::Kernel) -> Vec<String> {
    let module = k.module().expect("immediates fit");
    module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::ScopeOpen => Some("{".to_string()),
            StmtKind::ScopeClose => Some("}".to_string()),
            StmtKind::Instr(i) => Some(visa::isa::text::format_instruction(i)),
            _ => None,
        })
        .collect()
}

#[test]
fn scope_braces_on_instruction_lines_run() {
    // The `}` closing a scope on the instruction's line, a scope opened before an instruction on
    // the same line, `} {` and a one-line scope; `T` is declared in two sibling scopes.
    let k = visa::isa! {
        kernel braces<16>(out: vector<d>, a: vector<d>) {
            .decl P1 v_type=P num_elts=16
            { .decl T v_type=G type=d num_elts=16 align=GRF
            add (M1, 16) T(0,0)<1> a(0,0)<1;1,0> 0x64:d
            cmp.lt (M1, 16) P1 a(0,0)<1;1,0> 0x8:d
            (P1) sel (M1_NM, 16) %0(0,0)<1> T(0,0)<1;1,0> 0x8:d} {
            .decl T v_type=G type=d num_elts=16 align=GRF
            { mul (M1, 16) T(0,0)<1> out(0,0)<1;1,0> 0x2:d }
            mov (M1, 16) out(0,0)<1> T(0,0)<1;1,0> }
        }
    };
    assert_eq!(
        statements(&k),
        [
            "{",
            "add (M1, 16) T(0,0)<1> a(0,0)<1;1,0> 0x64:d",
            "cmp.lt (M1, 16) P1 a(0,0)<1;1,0> 0x8:d",
            "(P1) sel (M1_NM, 16) out(0,0)<1> T(0,0)<1;1,0> 0x8:d",
            "}",
            "{",
            "{",
            "mul (M1, 16) T(0,0)<1> out(0,0)<1;1,0> 0x2:d",
            "}",
            "mov (M1, 16) out(0,0)<1> T(0,0)<1;1,0>",
            "}",
        ]
    );
    let a: Vec<i32> = (0..16).map(|i| i * 3 - 10).collect();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .bind_vector("a", &a)
        .bind_vector("out", &[0i32; 16])
        .capture("out")
        .run()
        .expect("runs");
    // out = 2 * (a < 8 ? a + 100 : 8), computed independently of the kernel.
    let expected: Vec<i32> = a
        .iter()
        .map(|&x| 2 * if x < 8 { x + 100 } else { 8 })
        .collect();
    assert_eq!(result.vector::<i32>("out").expect("captured"), expected);
}

#[test]
fn a_scope_brace_in_text_and_in_isa_gives_the_same_module() {
    let k = visa::isa! {
        kernel same<8>(v: vector<ud>) {
            { mov (M1, 8) v(0,0)<1> 0x5:ud }
        }
    };
    let text = "\
.decl v v_type=G type=ud num_elts=8 align=GRF
{ mov (M1, 8) v(0,0)<1> 0x5:ud }
";
    let from_text = visa::isa::text::parse(text).expect("parses");
    let from_macro = k.module().expect("fits");
    let strip = |m: &visa::isa::ast::Module| visa::isa::text::format_module(m);
    assert_eq!(strip(&from_macro), strip(&from_text));
    let program = Program::load(&from_text, &LoadOptions::default()).expect("loads");
    let result = visa::runtime::Launch::new(&program)
        .simd(8)
        .bind_vector("v", &[0u32; 8])
        .capture("v")
        .run()
        .expect("runs");
    assert_eq!(result.vector::<u32>("v").expect("captured"), [5; 8]);
}

//! The real kernels and the documentation examples of `../shared/asm-corpus` (read at run time;
//! skipped when absent): which are accepted, and what they parse to.

use std::path::PathBuf;
use visa_isa::ast::{DeclKind, Operand, StmtKind};
use visa_isa::text;

fn corpus_dir() -> Option<PathBuf> {
    visa_testutil::shared("asm-corpus")
}

fn in_table(mnemonic: &str) -> bool {
    visa_isa::INSTRUCTIONS.iter().any(|d| {
        d.syntax
            .iter()
            .any(|s| s.mnemonic.eq_ignore_ascii_case(mnemonic))
    })
}

/// Each kernel parses, checks clean, prints, and its printed form parses to the same statements.
#[test]
fn kernels_parse_check_and_round_trip() {
    let Some(dir) = corpus_dir() else { return };
    let expected = [
        ("cs_single_basic_block.visaasm", 2),
        ("cs_template_var_decl.visaasm", 4),
        ("igc_inline_asm_2.visaasm", 3),
        ("llvm_asm_decl_in_scope.visaasm", 4),
        ("llvm_letter_example.visaasm", 3),
    ];
    for (file, instructions) in expected {
        let src = std::fs::read_to_string(dir.join("kernels").join(file)).unwrap();
        let module = text::parse(&src).unwrap_or_else(|e| panic!("{file}: {}", e[0]));
        let count = module
            .stmts
            .iter()
            .filter(|s| matches!(s.kind, StmtKind::Instr(_)))
            .count();
        assert_eq!(count, instructions, "{file}");
        let diagnostics = text::check(&module);
        assert!(diagnostics.is_empty(), "{file}: {}", diagnostics[0]);
        let printed = text::format_module(&module);
        let again = text::parse(&printed).unwrap_or_else(|e| panic!("{file}: {}", e[0]));
        // Compare statements without positions (the printed text has other line numbers).
        let kinds = |m: &visa_isa::ast::Module| {
            let mut m = m.clone();
            m.clear_positions();
            m.stmts.into_iter().map(|s| s.kind).collect::<Vec<_>>()
        };
        assert_eq!(kinds(&again), kinds(&module), "{file}");
    }
}

#[test]
fn kernel_scopes_and_placeholders() {
    let Some(dir) = corpus_dir() else { return };
    let src = std::fs::read_to_string(dir.join("kernels/llvm_asm_decl_in_scope.visaasm")).unwrap();
    let module = text::parse(&src).unwrap();
    let shape: Vec<&str> = module
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::ScopeOpen => "{",
            StmtKind::ScopeClose => "}",
            StmtKind::Decl(_) => "decl",
            StmtKind::Instr(_) => "instr",
            _ => "other",
        })
        .collect();
    assert_eq!(
        shape,
        ["{", "decl", "instr", "instr", "}", "decl", "instr", "instr"]
    );
    // `temp` declared twice in the same scope is an error; in nested scopes it is not.
    let flat = src.replace(['{', '}'], "");
    let diagnostics = text::check(&text::parse(&flat).unwrap());
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0]
            .message
            .contains("`temp` is already declared in this scope"),
        "{}",
        diagnostics[0]
    );

    let src = std::fs::read_to_string(dir.join("kernels/igc_inline_asm_2.visaasm")).unwrap();
    let module = text::parse(&src).unwrap();
    let StmtKind::Instr(mov) = &module.stmts[2].kind else {
        panic!("not an instruction")
    };
    assert!(
        mov.fields
            .contains(&visa_isa::ast::FieldValue::Operand(Operand::Name(
                "$0".into()
            )))
    );
}

/// Lines of doc-examples.txt that are pseudo-assembly (3_execution_model.md): the Intel
/// assembler rejects them, and so do we.
fn is_pseudo(line: &str) -> bool {
    line.contains("...")
        || line.contains("{NoMask}")
        || line.contains(" [A1(0)")
        || line == "(!P2) goto ENDIF2"
        || line.ends_with(" 0")
}

#[test]
fn doc_examples_accepted_exactly_when_real_and_known() {
    let Some(dir) = corpus_dir() else { return };
    let src = std::fs::read_to_string(dir.join("doc-examples.txt")).unwrap();
    let (mut accepted, mut rejected) = (0, 0);
    for line in src
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
    {
        let result = text::parse(line);
        let mnemonic: String = line
            .trim_start_matches(|c| c != ')' && line.starts_with('('))
            .trim_start_matches(')')
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let is_label = line.ends_with(':') && !line.contains(' ');
        // The upstream page's typed LSC examples are sketches (spec/LSC_TYPED.md reads what the
        // compiler prints): they leave out the execution size, or are typed 2D block forms, which
        // the document does not describe yet.
        let typed_lsc = in_table(&mnemonic) && line.contains(".tgm");
        let should_accept = is_label || (!is_pseudo(line) && !typed_lsc && in_table(&mnemonic));
        assert_eq!(result.is_ok(), should_accept, "{line}: {result:?}");
        if should_accept {
            accepted += 1;
        } else {
            rejected += 1;
            if !is_pseudo(line) && !is_label {
                let e = &result.unwrap_err()[0];
                if typed_lsc && line.contains("block2d") {
                    assert_eq!(e.found, "`.tgm`", "{line}");
                } else if typed_lsc {
                    // Found at the first operand, where the execution size belongs.
                    let first = line.split_whitespace().nth(1).unwrap_or_default();
                    assert!(
                        e.found.len() > 2 && first.starts_with(e.found.trim_matches('`')),
                        "{line}: {e}"
                    );
                } else {
                    assert_eq!(e.expected, "an instruction mnemonic", "{line}");
                }
            }
        }
    }
    println!("doc examples: {accepted} accepted, {rejected} rejected");
    // The real lines of the execution-model example (cmp/goto with typed immediates, labels),
    // and the untyped LSC and LSC fence examples (isa/tests/text_lsc.rs).
    assert_eq!(accepted, 31);
}

#[test]
fn appendix_examples() {
    let Some(dir) = corpus_dir() else { return };
    let src = std::fs::read_to_string(dir.join("appendix-examples.txt")).unwrap();
    let lines: Vec<&str> = src
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    let mut statements = 0;
    let mut operands = Vec::new();
    // Declarations the compiler's grammar does not read (an address variable takes no `type=`,
    // every kind needs `num_elts=`): GenX_IR reports a syntax error for each.
    let pseudo = [
        ".decl A14 v_type=A type=UW num_elts=1",
        ".decl S0 v_type=S",
        ".decl T5 v_type=T",
    ];
    for line in &lines {
        if pseudo.contains(line) {
            assert!(text::parse(line).is_err(), "{line}");
        } else if line.starts_with('.') || line.ends_with(':') {
            let m = text::parse(line).unwrap_or_else(|e| panic!("{line}: {}", e[0]));
            statements += m.stmts.len();
        } else {
            operands.push(*line);
        }
    }
    assert_eq!(statements, 9);
    // Operand fragments: all parse except the exec size and the bare predicate fragments.
    let bad: Vec<&str> = operands
        .iter()
        .copied()
        .filter(|o| text::parse_operand(o).is_err())
        .collect();
    assert_eq!(bad, ["(M1, 4)", "!P64.all"]);
    assert_eq!(
        text::parse_operand("&V21+0").unwrap(),
        Operand::AddressOf {
            var: "V21".into(),
            offset: 0
        }
    );
    assert_eq!(
        text::format_operand(&text::parse_operand("r[A3(0),448]<8;8,1>:ud").unwrap()),
        "r[A3(0),448]<8;8,1>:ud"
    );
    let decl = text::parse(".decl V8 v_type=G type=UD num_elts=1 align=dword").unwrap();
    let StmtKind::Decl(d) = &decl.stmts[0].kind else {
        panic!("not a decl")
    };
    assert!(
        matches!(&d.kind, DeclKind::General { num_elts: 1, align: Some(a), .. } if a.bytes == 4)
    );
    assert_eq!(
        text::format_module(&decl),
        ".decl V8 v_type=G type=ud num_elts=1 align=dword\n"
    );
}

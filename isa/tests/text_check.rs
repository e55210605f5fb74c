//! The checker on the generated table: each rule, with the exact diagnostic it gives.

use visa_isa::text::{self, Severity};

#[path = "check_support/mod.rs"]
mod check_support;

/// Diagnostics of `body` placed after a few declarations (lines 1-6).
fn diagnostics(body: &str) -> Vec<String> {
    let src = format!(
        ".decl V1 v_type=G type=d num_elts=16 align=GRF\n\
         .decl V2 v_type=G type=d num_elts=16\n\
         .decl F1 v_type=G type=f num_elts=8\n\
         .decl P1 v_type=P num_elts=16\n\
         .decl A0 v_type=A num_elts=2\n\
         LOOP:\n{body}\n"
    );
    let module = text::parse(&src).unwrap_or_else(|e| panic!("{}", e[0]));
    text::check(&module)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn valid_code_has_no_diagnostics() {
    let body = "(P1) add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w\n\
                mov (M1, 8) F1(0,0)<1> r[A0(0), 8]<8;8,1>:f\n\
                cmp.lt (M1, 16) P1 V1(0,0)<1;1,0> 0x0:d\n\
                addr_add (M1, 1) A0(0)<1> &V1[4] 0x4:uw\n\
                (!P1.any) jmp (M1, 1) LOOP\n\
                mov (M1, 16) V1(0,0)<1> %r0(0,0)<0;1,0>";
    assert_eq!(diagnostics(body), Vec::<String>::new());
}

#[test]
fn undeclared_names_and_missing_labels() {
    assert_eq!(
        diagnostics("add (M1, 16) V9(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        ["7:14: error: add: `V9` in <dst> is not declared"]
    );
    assert_eq!(
        diagnostics("jmp (M1, 1) NOWHERE"),
        ["7:13: error: jmp: `NOWHERE` in <label> is not declared"]
    );
    assert_eq!(
        diagnostics("(P7) add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        ["7:2: error: add: predicate `P7` is not declared"]
    );
}

#[test]
fn operand_classes_and_kinds() {
    assert_eq!(
        diagnostics("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> P1"),
        [
            "7:40: error: add: <src1> cannot be a predicate operand (allowed: general, indirect, immediate)"
        ]
    );
    assert_eq!(
        diagnostics("add (M1, 16) 0x1:d V2(0,0)<1;1,0> 0x1:w"),
        ["7:14: error: add: <dst> cannot be an immediate operand (allowed: general, indirect)"]
    );
    assert_eq!(
        diagnostics("mov (M1, 16) V1(0,0)<1> r[V2(0), 0]<1;1,0>:d"),
        ["7:25: error: mov: <src0> needs an address variable"]
    );
}

#[test]
fn references_are_names() {
    assert_eq!(
        diagnostics("jmp (M1, 1) 0x1:ud"),
        ["7:13: error: jmp: <label> is written as a name (or a number)"]
    );
}

#[test]
fn operand_types() {
    assert_eq!(
        diagnostics("addr_add (M1, 1) A0(0)<1> &V1 0x4:ud"),
        [
            "7:31: warning: addr_add: <src1> has type ud, must be one of UW (ADDR_ADD.md; the compiler does not enforce it)"
        ]
    );
    assert_eq!(
        diagnostics("add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0>:bool 0x1:w"),
        [
            "7:25: warning: add: <src0> has type bool, supported types are B, D, DF, F, HF, Q, UB, UD, UQ, UW, W, BF (ADD.md; the compiler does not enforce it)",
            "7:14: warning: add: no type map allows dst type d with source types bool, w (ADD.md; the compiler does not enforce it)",
            "7:25: error: add: <src0> has type bool with a d destination: the compiler requires one float type throughout (F may take HF or VF sources, HF may take F ones)"
        ]
    );
}

#[test]
fn type_maps() {
    // Integer sources into an integer destination, and float into float, fit a type map.
    assert_eq!(
        diagnostics("add (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0>:w 0x1:ub"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("add (M1, 8) F1(0,0)<1> F1(0,0)<1;1,0> 0x3f800000:f"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("add (M1, 8) V1(0,0)<1> F1(0,0)<1;1,0> 0x1:w"),
        [
            "7:13: warning: add: no type map allows dst type d with source types f, w (ADD.md; the compiler does not enforce it)",
            "7:24: error: add: <src0> has type f with a d destination: the compiler requires one float type throughout (F may take HF or VF sources, HF may take F ones)"
        ]
    );
    // Packed immediates are vectors of another type and are not compared.
    assert_eq!(
        diagnostics("mov (M1, 8) V1(0,0)<1> 0x76543210:v"),
        Vec::<String>::new()
    );
}

#[test]
fn source_modifiers_follow_the_property() {
    // The verifier rejects `(~)` outside logic operations and `(-)`/`(abs)` on logic ones
    // (not on shifts, whose property is `arithmetic`).
    assert_eq!(
        diagnostics("add (M1, 8) V1(0,0)<1> (-abs)V2(0,0)<1;1,0> 0x1:w"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("add (M1, 8) V1(0,0)<1> (~)V2(0,0)<1;1,0> 0x1:w"),
        ["7:24: error: add: <src0>: modifier (~) not allowed (source modifiers: arithmetic)"]
    );
    assert_eq!(
        diagnostics("and (M1, 8) V1(0,0)<1> (~)V2(0,0)<1;1,0> 0x1:d"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("and (M1, 8) V1(0,0)<1> (-)V2(0,0)<1;1,0> 0x1:d"),
        ["7:24: error: and: <src0>: modifier (-) not allowed (source modifiers: logic)"]
    );
    assert_eq!(
        diagnostics("add (M1, 8) (-)V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w"),
        ["7:13: error: add: <dst>: a destination takes no source modifier"]
    );
}

#[test]
fn region_rules() {
    let add = |dst: &str, src: &str| diagnostics(&format!("add (M1, 8) {dst} {src} 0x1:w"));
    assert_eq!(add("V1(0,0)<1>", "V2(0,0)<8;8,1>"), Vec::<String>::new());
    assert_eq!(
        add("V1(0,0)<1>", "V2(0,0)<8;3,1>"),
        ["7:24: error: add: <src0>: width 3 must be 1, 2, 4, 8 or 16"]
    );
    assert_eq!(
        add("V1(0,0)<1>", "V2(0,0)<16;16,1>"),
        ["7:24: error: add: <src0>: width 16 exceeds the execution size 8"]
    );
    assert_eq!(
        add("V1(0,0)<1>", "V2(0,0)<3;1,0>"),
        ["7:24: error: add: <src0>: vertical stride 3 must be 0, 1, 2, 4, 8, 16 or 32"]
    );
    assert_eq!(
        add("V1(0,0)<1>", "V2(0,0)<8;8,3>"),
        ["7:24: error: add: <src0>: horizontal stride 3 must be 0, 1, 2 or 4"]
    );
    assert_eq!(
        add("V1(0,0)<0>", "V2(0,0)<8;8,1>"),
        ["7:13: error: add: <dst>: destination stride 0 must be 1, 2 or 4"]
    );
    assert_eq!(
        add("V1(0,0)<1;1,0>", "V2(0,0)<8;8,1>"),
        ["7:13: error: add: <dst> is a destination: its region is `<hs>`"]
    );
    assert_eq!(
        add("V1(0,0)<1>", "V2(0,0)<1>"),
        ["7:24: error: add: <src0> is a source: its region is `<vs;w,hs>`, not `<hs>`"]
    );
}

#[test]
fn predicate_width_is_a_warning() {
    let src = ".decl P2 v_type=P num_elts=8\n.decl V1 v_type=G type=d num_elts=16\n(P2) add (M1, 16) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:w\n";
    let d = text::check(&text::parse(src).unwrap());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].severity, Severity::Warning);
    assert_eq!(
        d[0].to_string(),
        "3:2: warning: predicate `P2` has 8 elements but the execution size is 16"
    );
}

fn decl_diagnostics(src: &str) -> Vec<String> {
    text::check(&text::parse(src).unwrap())
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn declaration_rules() {
    // The verifier's limit is 256 GRFs of elements: 16384 with the 64-byte GRFs of some
    // platforms, 8192 where a platform with 32-byte GRFs is named.
    assert_eq!(
        decl_diagnostics(".decl G1 v_type=G type=d num_elts=16384"),
        Vec::<String>::new()
    );
    assert_eq!(
        decl_diagnostics(".decl G1 v_type=G type=d num_elts=16385"),
        ["1:26: error: `G1`: num_elts=16385 is out of range (1..=16384: 256 GRFs of elements)"]
    );
    let tgl = text::CheckOptions {
        platform: visa_isa::rules::Platform::parse("tgl"),
        ..Default::default()
    };
    let module = text::parse(".decl G1 v_type=G type=d num_elts=8193").unwrap();
    assert_eq!(
        text::check_with_options(visa_isa::INSTRUCTIONS, &module, &tgl)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["1:26: error: `G1`: num_elts=8193 is out of range (1..=8192: 256 GRFs of elements)"]
    );
    assert_eq!(
        decl_diagnostics(".decl G1 v_type=G type=d num_elts=0"),
        ["1:26: error: `G1`: num_elts=0 is out of range (1..=16384: 256 GRFs of elements)"]
    );
    assert_eq!(
        decl_diagnostics(".decl A1 v_type=A num_elts=17"),
        ["1:19: error: `A1`: num_elts=17 is out of range for an address variable (1..=16)"]
    );
    assert_eq!(
        decl_diagnostics(".decl P1 v_type=P num_elts=3"),
        ["1:19: error: `P1`: num_elts=3 for a predicate must be 1, 2, 4, 8, 16 or 32"]
    );
    assert_eq!(
        decl_diagnostics(
            ".decl B v_type=G type=d num_elts=4\n.decl C v_type=G type=d num_elts=2 alias=<B, 2>"
        ),
        ["2:36: error: `C`: alias offset 2 is not aligned to type d (4 bytes)"]
    );
    assert_eq!(
        decl_diagnostics(
            ".decl B v_type=G type=d num_elts=4\n.decl C v_type=G type=d num_elts=2 alias=<B, 12>"
        ),
        ["2:36: warning: `C`: alias range 12..20 extends past `B` (16 bytes)"]
    );
    assert_eq!(
        decl_diagnostics(
            ".decl B v_type=G type=d num_elts=4\n.decl C v_type=G type=d num_elts=2 alias=<B, 16>"
        ),
        ["2:36: error: `C`: alias offset 16 is outside `B` (16 bytes)"]
    );
    assert_eq!(
        decl_diagnostics(".decl C v_type=G type=d num_elts=2 alias=<NOPE, 0>"),
        ["1:36: error: `C`: aliased variable `NOPE` is not declared"]
    );
    assert_eq!(
        decl_diagnostics(".decl %null v_type=G type=d num_elts=2"),
        ["1:7: error: predefined variable `%null` cannot be declared"]
    );
}

#[test]
fn scopes() {
    let ok = "{\n.decl T v_type=G type=d num_elts=2\n}\n.decl T v_type=G type=d num_elts=2\n{\n.decl T v_type=G type=w num_elts=2\n}";
    assert_eq!(decl_diagnostics(ok), Vec::<String>::new());
    assert_eq!(
        decl_diagnostics(".decl T v_type=G type=d num_elts=2\n.decl T v_type=G type=d num_elts=2"),
        ["2:7: error: `T` is already declared in this scope (see 1:7)"]
    );
    assert_eq!(
        decl_diagnostics("{\n.decl T v_type=G type=d num_elts=2\n}\nmov (M1, 1) T(0,0)<1> 0x1:d"),
        ["4:13: error: mov: `T` in <dst> is not declared"]
    );
    assert_eq!(
        decl_diagnostics("{\n{\n}"),
        ["1:1: error: `{` is never closed"]
    );
    assert_eq!(
        decl_diagnostics("}"),
        ["1:1: error: `}` without a matching `{`"]
    );
    assert_eq!(
        decl_diagnostics("L:\nL:"),
        ["2:1: error: label `L` is defined more than once"]
    );
}

#[test]
fn switch_tables_check_their_labels_and_length() {
    assert_eq!(
        diagnostics("switchjmp (M1, 1) 0x1:ud (LOOP, LOOP)"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("switchjmp (M1, 1) 0x1:ud (LOOP, GONE)"),
        ["7:33: error: switchjmp: `GONE` in <label> is not declared"]
    );
    assert_eq!(
        diagnostics("switchjmp (M1, 1) 0x0:ud ()"),
        ["7:26: error: switchjmp: the list <label> has 0 elements, it must have 1 to 32"]
    );
    let many = vec!["LOOP"; 33].join(", ");
    assert_eq!(
        diagnostics(&format!("switchjmp (M1, 1) 0x0:ud ({many})")),
        ["7:26: error: switchjmp: the list <label> has 33 elements, it must have 1 to 32"]
    );
    assert_eq!(
        diagnostics("switchjmp (M1, 1) F1(0,0)<0;1,0> (LOOP)"),
        [
            "7:19: warning: switchjmp: <index> has type f, must be one of UB, UW, UD (SWITCHJMP.md; the compiler does not enforce it)"
        ]
    );
}

#[test]
fn a_list_whose_count_disagrees_is_an_error() {
    let src = ".decl K v_type=G type=ud num_elts=1\nA:\nswitchjmp (M1, 1) K(0,0)<0;1,0> (A, A)\n";
    let mut module = text::parse(src).unwrap();
    let visa_isa::ast::StmtKind::Instr(instr) = &mut module.stmts[2].kind else {
        panic!("not an instruction");
    };
    instr.fields[1] = visa_isa::ast::FieldValue::Int(3);
    let instr = instr.clone();
    let found: Vec<String> = text::check(&module)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        found,
        ["3:33: error: switchjmp: <num_labels> is 3 but the list <label> has 2 elements"]
    );
    let mut syms = visa_isa::codec::SymbolTable::new();
    let encoded = visa_isa::codec::encode(&instr, &mut syms, &mut Vec::new());
    assert_eq!(
        encoded.unwrap_err().to_string(),
        "SWITCHJMP.Label: the list has 2 elements but its count field holds 3"
    );
}

#[test]
fn a_missing_switch_table_says_what_is_expected() {
    let errors = text::parse("switchjmp (M1, 1) 0x0:ud\n").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "1:25: error: found end of line, expected the list <label> in parentheses, `(label0, ...)`"
    );
}

#[test]
fn binding_table_surfaces_need_no_declaration() {
    // `T6`..`T255` name binding-table entries as the runtime binds them; `T06` and `T256` are
    // no such names.
    assert_eq!(
        diagnostics("oword_ld (1) T6 0x0:ud V1.0\noword_ld (1) T255 0x0:ud V1.0"),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnostics("oword_ld (1) T06 0x0:ud V1.0\noword_ld (1) T256 0x0:ud V1.0"),
        [
            "7:14: error: oword_ld: `T06` in <surface> is not declared",
            "8:14: error: oword_ld: `T256` in <surface> is not declared",
        ]
    );
}

#[test]
fn read_only_predefined_variables_cannot_be_written() {
    assert_eq!(
        diagnostics("mov (M1, 1) %r0(0,0)<1> 0x0:ud"),
        ["7:13: error: mov: <dst>: `%r0` is read-only here (the compiler rejects the write)"]
    );
    assert_eq!(
        diagnostics("mov (M1, 1) %sr0(0,0)<1> 0x0:ud"),
        ["7:13: error: mov: <dst>: `%sr0` is read-only here (the compiler rejects the write)"]
    );
    // Elements 1 and 2 of %sr0, element 4 of %tsc (also spelled %tm), %cr0 and %null may be
    // written.
    for dst in [
        "%sr0(0,1)",
        "%sr0(0,2)",
        "%tsc(0,4)",
        "%tm(0,4)",
        "%cr0(0,0)",
        "%null(0,0)",
    ] {
        assert_eq!(
            diagnostics(&format!("mov (M1, 1) {dst}<1> 0x0:ud")),
            Vec::<String>::new(),
            "{dst}"
        );
    }
    // Reading any of them is fine, in any case of the name.
    assert_eq!(
        diagnostics("mov (M1, 1) V1(0,0)<1> %TM(0,0)<0;1,0>"),
        Vec::<String>::new()
    );
}

#[test]
fn platform_rules_apply_only_when_a_platform_is_named() {
    let src = ".decl Q v_type=G type=q num_elts=8 align=GRF\n\
               shl (M1, 8) Q(0,0)<1> Q(0,0)<1;1,0> 0x1:q\n";
    let module = text::parse(src).unwrap();
    let on = |platform: Option<&str>| check_support::check_errors(&module, platform);
    // The verifier rejects a Q/UQ shl destination on DG2, MTL and ARL only.
    assert_eq!(
        on(Some("dg2")),
        ["2:13: error: shl: a q destination is not allowed on dg2"]
    );
    assert_eq!(on(Some("pvc")), Vec::<String>::new());
    assert_eq!(on(Some("tgl")), Vec::<String>::new());
    assert_eq!(on(None), Vec::<String>::new());
}

//! Rules the checker and the parser take from Intel's vISA assembler (GenX_IR of IGC 1.0.12504
//! and today's verifier, `cli/tests/igc_agreement.rs`): each with a kernel it rejects and one it
//! accepts.

use visa_isa::text;

#[path = "check_support/mod.rs"]
mod check_support;

/// The errors of `src` (a parse error as one), checked for `platform` (`None`: no platform).
fn errors_on(src: &str, platform: Option<&str>) -> Vec<String> {
    match text::parse(src) {
        Ok(module) => check_support::check_errors(&module, platform),
        Err(e) => vec![e[0].to_string()],
    }
}

fn errors(src: &str) -> Vec<String> {
    errors_on(src, Some("pvc"))
}

const NONE: [&str; 0] = [];

#[test]
fn arithmetic_keeps_one_float_type() {
    let decls = ".decl F v_type=G type=f num_elts=8 align=GRF\n\
                 .decl H v_type=G type=hf num_elts=8 align=GRF\n\
                 .decl D v_type=G type=d num_elts=8 align=GRF\n\
                 .decl DF v_type=G type=df num_elts=8 align=GRF\n\
                 .decl B v_type=G type=bf num_elts=8 align=GRF\n";
    let run = |line: &str| errors(&format!("{decls}{line}\n"));
    assert_eq!(
        run("add (M1, 8) D(0,0)<1> F(0,0)<1;1,0> 0x1:d"),
        [
            "6:23: error: add: <src0> has type f with a d destination: the compiler requires one float \
          type throughout (F may take HF or VF sources, HF may take F ones)"
        ]
    );
    assert_eq!(
        run("mad (M1, 8) F(0,0)<1> F(0,0)<1;1,0> F(0,0)<1;1,0> DF(0,0)<1;1,0>"),
        [
            "6:51: error: mad: <src2> has type df with a f destination: the compiler requires one \
          float type throughout (F may take HF or VF sources, HF may take F ones)"
        ]
    );
    // F takes HF sources, HF takes F ones; integers mix freely; BF is left to the BF rules.
    assert_eq!(
        run("add (M1, 8) F(0,0)<1> H(0,0)<1;1,0> F(0,0)<1;1,0>"),
        NONE
    );
    assert_eq!(
        run("mul (M1, 8) H(0,0)<1> F(0,0)<1;1,0> H(0,0)<1;1,0>"),
        NONE
    );
    assert_eq!(run("add (M1, 8) D(0,0)<1> D(0,0)<1;1,0> 0x1:uw"), NONE);
    assert_eq!(
        run("add (M1, 8) F(0,0)<1> B(0,0)<1;1,0> F(0,0)<1;1,0>"),
        NONE
    );
    // mov is no arithmetic instruction: it converts.
    assert_eq!(run("mov (M1, 8) D(0,0)<1> F(0,0)<1;1,0>"), NONE);
}

#[test]
fn inputs_match_their_variables_and_do_not_overlap() {
    let decls = ".decl A v_type=G type=d num_elts=8 align=GRF\n\
                 .decl S v_type=G type=d num_elts=2 align=dword\n";
    assert_eq!(
        errors(&format!("{decls}.input A offset=64 size=16\n")),
        ["3:1: error: input `A`: size=16 is not the size of its variable (32 bytes)"]
    );
    assert_eq!(
        errors(&format!(
            "{decls}.input A offset=64 size=32\n.input S offset=90 size=8\n"
        )),
        ["4:1: error: input `S` (bytes 90..98) overlaps input `A` (bytes 64..96)"]
    );
    // One message per input, naming the first it overlaps: n copies give n - 1, not n^2 / 2.
    let copies = ".input A offset=64 size=32\n".repeat(4);
    let overlaps = errors(&format!("{decls}{copies}"));
    assert_eq!(overlaps.len(), 3, "{overlaps:?}");
    assert!(
        overlaps
            .iter()
            .all(|e| e.ends_with("overlaps input `A` (bytes 64..96)"))
    );
    // Smaller than a GRF, an input stays in one GRF (the GRF size is known with a platform).
    let straddling = format!("{decls}.input S offset=60 size=8\n");
    assert_eq!(
        errors(&straddling),
        ["3:1: error: input `S` (8 bytes at offset 60) straddles a GRF boundary (64-byte GRFs)"]
    );
    assert_eq!(errors_on(&straddling, None), NONE);
    assert_eq!(
        errors(&format!("{decls}.input A offset=16320 size=32\n")),
        ["3:1: error: input `A` ends at byte 16352, past the input area (below 16320 bytes)"]
    );
    assert_eq!(
        errors(&format!("{decls}.input %tsc offset=64 size=8\n")),
        ["3:1: error: input `%tsc` is a predefined variable: an input names a declared variable"]
    );
    assert_eq!(
        errors(&format!(
            "{decls}.input A offset=64 size=32\n.input S offset=96 size=8\n"
        )),
        NONE
    );
}

#[test]
fn directives_are_those_of_the_compilers_grammar() {
    assert_eq!(
        errors(".V0038 offset=288 size=12\n"),
        ["1:1: error: `.V0038` is not a directive of vISA assembly"]
    );
    assert_eq!(
        errors(".implicit_LOCAL_ID L offset=0 size=2\n.funcdecl \"f\"\n"),
        NONE
    );
}

#[test]
fn kernel_attribute_values() {
    assert_eq!(
        errors(".kernel_attr SimdSize=32 32\n"),
        ["1:23: error: found `32`, expected an integer expression"]
    );
    assert_eq!(
        errors(".kernel_attr SimdSize=SimdSize=32\n"),
        ["1:31: error: found `=`, expected end of line"]
    );
    assert_eq!(
        errors(".kernel_attr Target=\"3d\"3d\"\n"),
        ["1:25: error: found `3d`, expected end of line"]
    );
    assert_eq!(
        errors(".kernel_attr Target=\"gpu\"\n"),
        ["1:1: error: `.kernel_attr Target` must be \"cm\" or \"3d\""]
    );
    assert_eq!(
        errors(".kernel_attr Target\n"),
        ["1:1: error: `.kernel_attr Target` must be \"cm\" or \"3d\""]
    );
    assert_eq!(
        errors(
            ".kernel_attr Target=\"cm\"\n.kernel_attr SimdSize=\n.kernel_attr NumGRF=64+64\n\
             .kernel_attr Target=1\n"
        ),
        NONE
    );
}

#[test]
fn declarations_follow_the_compilers_order() {
    assert_eq!(
        errors(".decl X v_type=G num_elts=8 type=d\n"),
        [
            "1:18: error: found `num_elts=`, expected `type=` (the compiler reads a `.decl` in the \
          order v_type= type= num_elts= align= alias= attrs=)"
        ]
    );
    assert_eq!(
        errors(".decl X v_type=G type=d align=GRF\n"),
        [
            "1:25: error: found `align=`, expected `num_elts=` (the compiler reads a `.decl` in the \
          order v_type= type= num_elts= align= alias= attrs=)"
        ]
    );
    assert_eq!(
        errors(".decl X v_type=G type=d\n"),
        ["1:24: error: found end of line, expected `num_elts=`"]
    );
    assert_eq!(
        errors(
            ".decl X v_type=G type=d num_elts=8 align=GRF\n.decl T6 v_type=T num_elts=1 v_name=T006\n"
        ),
        NONE
    );
}

#[test]
fn only_the_seventh_user_surface_on_has_its_size_checked() {
    let surfaces = |n: usize, elts: u32| {
        (0..n)
            .map(|i| format!(".decl T{} v_type=T num_elts={elts}\n", 6 + i))
            .collect::<String>()
    };
    assert_eq!(errors(&surfaces(6, 255)), NONE);
    assert_eq!(
        errors(&surfaces(7, 255)),
        ["7:20: error: `T12`: num_elts=255 is out of range for a surface or sampler (0..=128)"]
    );
    assert_eq!(errors(".decl S0 v_type=S num_elts=0\n"), NONE);
    assert_eq!(
        errors(".decl S0 v_type=S num_elts=200\n"),
        ["1:19: error: `S0`: num_elts=200 is out of range for a surface or sampler (0..=128)"]
    );
}

#[test]
fn an_alias_root_is_aligned_for_the_alias_type() {
    let src = ".decl X v_type=G type=uw num_elts=4\n\
               .decl XU v_type=G type=ud num_elts=2 alias=<X, 0>\n";
    assert_eq!(
        errors(src),
        ["2:38: error: `XU`: the root of `X` is word-aligned, less than type ud x 2 asks (dword)"]
    );
    assert_eq!(errors_on(src, None), NONE);
    // The GRF size decides: 64 bytes are one GRF on PVC (wordx32-aligned), two on DG2.
    let grf = ".decl X v_type=G type=ud num_elts=8 align=hword\n\
               .decl Y v_type=G type=d num_elts=16 alias=<X, 0>\n";
    assert_eq!(errors_on(grf, Some("dg2")), NONE);
    assert_eq!(
        errors(grf),
        [
            "2:37: error: `Y`: the root of `X` is hword-aligned, less than type d x 16 asks (wordx32)"
        ]
    );
    assert_eq!(
        errors(
            ".decl X v_type=G type=ud num_elts=16 align=wordx32\n\
             .decl XU v_type=G type=d num_elts=16 alias=<X, 0>\n"
        ),
        NONE
    );
}

#[test]
fn integer_immediates_keep_their_low_bits() {
    let src = ".decl B v_type=G type=ub num_elts=16 align=GRF\n\
               add (M1, 16) B(0,0)<1> B(0,0)<1;1,0> 0x4c0:ub\n";
    assert_eq!(errors(src), NONE);
    let printed = text::format_module(&text::parse(src).unwrap());
    assert!(printed.contains("0xc0:ub"), "{printed}");
}

#[test]
fn the_null_raw_operand_has_offset_zero() {
    let src = |offset: u32| {
        format!(
            ".decl OFFS v_type=G type=ud num_elts=16 align=GRF\n\
             .decl OLD v_type=G type=ud num_elts=16 align=GRF\n\
             dword_atomic.inc (M1, 16) %slm OFFS.0 %null.{offset} %null.0 OLD.0\n"
        )
    };
    assert_eq!(
        errors(&src(16)),
        ["3:45: error: found `16`, expected offset 0 (`%null.0`: the null variable has no bytes)"]
    );
    assert_eq!(errors(&src(0)), NONE);
}

#[test]
fn punctuation_ends_an_operand() {
    let src = |store: &str| {
        format!(
            ".decl SS v_type=G type=ud num_elts=1\n\
             .decl IDX v_type=G type=ud num_elts=16 align=GRF\n\
             .decl VAL v_type=G type=ud num_elts=16 align=GRF\n\
             {store}\n"
        )
    };
    // GenX_IR's lexer reads `)bss` as two tokens.
    assert_eq!(
        errors(&src(
            "lsc_store_quad.tgm (M1, 16)bss(SS)[IDX]:a32 VAL:d32.x"
        )),
        NONE
    );
    assert_eq!(
        errors(&src(
            "lsc_store_quad.tgm (M1, 16) bss(SS)[IDX]:a32VAL:d32.x"
        )),
        ["4:45: error: found `VAL`, expected a space before the next operand"]
    );
}

#[test]
fn bit_operations_take_the_compilers_integer_types() {
    let decls = ".decl Q v_type=G type=uq num_elts=8 align=GRF\n\
                 .decl U v_type=G type=ud num_elts=8 align=GRF\n\
                 .decl B v_type=G type=ub num_elts=8 align=GRF\n";
    let run = |line: &str, platform: &str| errors_on(&format!("{decls}{line}\n"), Some(platform));
    // fbl/fbh/cbit: no Q/UQ operand on any platform.
    assert_eq!(
        run("cbit (M1, 8) U(0,0)<1> Q(0,0)<1;1,0>", "pvc"),
        ["4:24: error: cbit: Src0 is of type uq; it must be of type UB, B, UW, W, UD, D"]
    );
    assert_eq!(run("cbit (M1, 8) U(0,0)<1> U(0,0)<1;1,0>", "pvc"), NONE);
    // rol/ror: no 8-bit operand; 64-bit ones from PVC on.
    assert_eq!(
        run("rol (M1, 8) B(0,0)<1> B(0,0)<1;1,0> U(0,0)<1;1,0>", "pvc"),
        [
            "4:13: error: rol: Dst is of type ub; it must be of type UW, W, UD, D, UQ, Q",
            "4:23: error: rol: Src0 is of type ub; it must be of type UW, W, UD, D, UQ, Q"
        ]
    );
    let rotate_q = "rol (M1, 8) Q(0,0)<1> Q(0,0)<1;1,0> U(0,0)<1;1,0>";
    assert_eq!(run(rotate_q, "pvc"), NONE);
    assert!(!run(rotate_q, "dg2").is_empty());
}

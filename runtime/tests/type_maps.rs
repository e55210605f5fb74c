//! Type maps enforced at load: an instruction whose destination and source types fit none of
//! its document's `Type map`s is rejected with the instruction, the types and the location.
//! The combinations below are read off the maps in spec/ (SHR: UD/UW/UB only; DIV: DF, F/HF
//! or 32-bit-and-narrower integers; SQRT: F/HF; MUL: UQ/Q from UD/D among others).

use visa_runtime::{LoadOptions, Program};

fn load(line: &str, options: &LoadOptions) -> Result<Program, String> {
    let src = format!(
        ".decl I v_type=G type=d num_elts=8 align=GRF
.decl U v_type=G type=ud num_elts=8 align=GRF
.decl Q v_type=G type=q num_elts=8 align=GRF
.decl F v_type=G type=f num_elts=8 align=GRF
.decl X v_type=G type=df num_elts=8 align=GRF
{line}
"
    );
    Program::from_text(&src, options).map_err(|e| e.to_string())
}

#[test]
fn combinations_outside_every_map_are_rejected_with_the_reason() {
    let cases = [
        (
            "shr (M1, 8) I(0,0)<1> I(0,0)<1;1,0> U(0,0)<1;1,0>",
            "shr: no type map allows dst type d with source types d, ud at 6:1",
        ),
        (
            "div (M1, 8) Q(0,0)<1> I(0,0)<1;1,0> I(0,0)<1;1,0>",
            "div: no type map allows dst type q with source types d, d at 6:1",
        ),
        (
            "sqrt (M1, 8) X(0,0)<1> X(0,0)<1;1,0>",
            "sqrt: no type map allows dst type df with source types df at 6:1",
        ),
        (
            "cmp.lt (M1, 8) U(0,0)<1> F(0,0)<1;1,0> F(0,0)<1;1,0>",
            "cmp: no type map allows dst type ud with source types f, f at 6:1",
        ),
    ];
    for (line, message) in cases {
        assert_eq!(load(line, &LoadOptions::default()).unwrap_err(), message);
        // The runtime itself has semantics for them: loading without the maps succeeds.
        load(line, &LoadOptions::default()).unwrap();
    }
}

#[test]
fn combinations_a_map_lists_load() {
    for line in [
        "shr (M1, 8) U(0,0)<1> U(0,0)<1;1,0> U(0,0)<1;1,0>",
        "div (M1, 8) I(0,0)<1> I(0,0)<1;1,0> U(0,0)<1;1,0>",
        "div (M1, 8) X(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>",
        "sqrt (M1, 8) F(0,0)<1> F(0,0)<1;1,0>",
        "mul (M1, 8) Q(0,0)<1> I(0,0)<1;1,0> I(0,0)<1;1,0>",
        "cmp.lt (M1, 8) F(0,0)<1> F(0,0)<1;1,0> F(0,0)<1;1,0>",
        // Packed immediates stand for vectors and are not compared.
        "add (M1, 8) I(0,0)<1> I(0,0)<1;1,0> 0x12345678:v",
    ] {
        load(line, &LoadOptions::default()).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

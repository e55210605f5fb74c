//! The documents' type maps at load: the Intel compiler's verifier does not enforce them, so an
//! instruction whose types fit none of its document's `Type map`s loads (and runs with the
//! runtime's semantics); under `LoadOptions::strict_docs` it is rejected with the instruction,
//! the types, the document and the location.
//! The combinations below are read off the maps in spec/ (SHR: UD/UW/UB only; DIV: DF, F/HF
//! or 32-bit-and-narrower integers; SQRT: F/HF; MUL: UQ/Q from UD/D among others).

use visa_runtime::{LoadOptions, Program};

fn load(line: &str, options: &LoadOptions) -> Result<Program, String> {
    Program::from_text(&source(line), options).map_err(|e| e.to_string())
}

fn source(line: &str) -> String {
    format!(
        ".decl I v_type=G type=d num_elts=8 align=GRF
.decl U v_type=G type=ud num_elts=8 align=GRF
.decl Q v_type=G type=q num_elts=8 align=GRF
.decl F v_type=G type=f num_elts=8 align=GRF
.decl X v_type=G type=df num_elts=8 align=GRF
{line}
"
    )
}

#[test]
fn combinations_outside_every_map_load_and_strict_docs_rejects_them() {
    // Each at the destination: the type maps are about its type against the sources'.
    let cases = [
        (
            "shr (M1, 8) I(0,0)<1> I(0,0)<1;1,0> U(0,0)<1;1,0>",
            "shr: no type map allows dst type d with source types d, ud at 6:13",
        ),
        (
            "div (M1, 8) Q(0,0)<1> I(0,0)<1;1,0> I(0,0)<1;1,0>",
            "div: no type map allows dst type q with source types d, d at 6:13",
        ),
        (
            "sqrt (M1, 8) X(0,0)<1> X(0,0)<1;1,0>",
            "sqrt: no type map allows dst type df with source types df at 6:14",
        ),
        (
            "cmp.lt (M1, 8) U(0,0)<1> F(0,0)<1;1,0> F(0,0)<1;1,0>",
            "cmp: no type map allows dst type ud with source types f, f at 6:16",
        ),
    ];
    for (line, message) in cases {
        let strict = LoadOptions::default().strict_docs(true);
        let (head, at) = message.rsplit_once(" at ").expect("a location");
        let doc = format!(
            "{}.md",
            line.split([' ', '.']).next().unwrap().to_uppercase()
        );
        let err = load(line, &strict).unwrap_err();
        assert!(
            err.contains(&format!("({doc}; the compiler does not enforce it)"))
                && err.ends_with(&format!(" at {at}")),
            "{err}"
        );
        // The checker reports the type map as a warning naming the document.
        let module = visa_isa::text::parse(&source(line)).unwrap();
        let warning = format!("{head} ({doc}; the compiler does not enforce it)");
        assert!(
            visa_isa::text::check(&module)
                .iter()
                .any(|d| !d.is_error() && d.message == warning),
            "{line}: no warning `{warning}`"
        );
        // The compiler accepts them, and the runtime has semantics for them.
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

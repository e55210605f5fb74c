//! `Program::analyse`: what `visa check` asks the loader after running the checker itself. (Its
//! own test binary: the checker-run counter is per process, and other tests run the checker.)

use visa_runtime::{LoadOptions, Program};

/// `Program::analyse` lists every refusal of a checked module, in order, without running the
/// checker again; `Program::load` stops at the first.
#[test]
fn analyse_lists_every_refusal_without_checking_again() {
    let text = "
.decl U v_type=G type=ud num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl RGB v_type=G type=ud num_elts=48 align=GRF
mov (M1, 16) U(0,0)<1> 0x1:ud
lsc_load_quad.tgm (M1, 16) RGB:d32.xyz bti(0x7)[U,V]:a32
add (M1, 16) V(0,0)<1> U(0,0)<1;1,0> 0x1:ud
lsc_load_quad.tgm (M1, 16) RGB:d32.xy bti(0x7)[U,V]:a32
";
    let module = visa_isa::text::parse(text).expect("parses");
    let options = LoadOptions::default();
    let runs = visa_isa::text::checker_runs();
    let refusals = Program::analyse(&module, &options);
    assert_eq!(
        visa_isa::text::checker_runs(),
        runs,
        "analyse ran the checker"
    );
    let lines: Vec<u32> = refusals.iter().map(|r| r.span.line).collect();
    assert_eq!(lines, [6, 8], "{refusals:?}");
    assert!(
        refusals.iter().all(|r| r.message.contains("typed")),
        "{refusals:?}"
    );
    let first = Program::load(&module, &options).expect_err("typed messages are refused");
    assert_eq!(first.span.line, 6);
    // An executable module has nothing to refuse.
    let fine = visa_isa::text::parse(
        ".decl U v_type=G type=ud num_elts=16 align=GRF\nmov (M1, 16) U(0,0)<1> 0x1:ud\n",
    )
    .expect("parses");
    assert!(Program::analyse(&fine, &options).is_empty());
}

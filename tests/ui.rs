//! Compile-time diagnostics of `isa!`: each file under `tests/ui/fail` must fail to compile with
//! the reviewed `.stderr` next to it (spans included); each under `tests/ui/pass` must compile.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}

//! Compile-time diagnostics of `isa!`: each file under `tests/ui/fail` must fail to compile with
//! the reviewed `.stderr` next to it (spans included). Kernels that must compile are ordinary
//! tests (`macro_pass.rs`, `macro_seed_kernels.rs`, which also run them): a trybuild `pass` case
//! would make trybuild build every dependency (Cranelift included) and each case one at a time,
//! where `compile_fail` cases alone are only checked, all in one cargo invocation.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
}

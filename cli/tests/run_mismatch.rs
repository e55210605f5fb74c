//! `visa run` says so when bindings do not match the kernel: a type override that differs from
//! the declaration (a warning), a short `--svm` buffer, a name bound twice, an exhausted fuel
//! budget (errors naming the option).

mod common;
use common::{stderr, visa};

use std::process::Output;

/// The example kernel's bindings for 16 work-items, with `OUT_PTR` as given.
fn example(out: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "16",
        "--arg",
        "SCALE=2",
        "--arg",
        "LO=-1000",
        "--arg",
        "HI=1000",
        "--svm",
        "A_PTR:d=[0..16]",
        "--svm",
        "B_PTR:d=[1;16]",
        "--svm",
        out,
    ];
    args.extend_from_slice(extra);
    visa(&args)
}

#[test]
fn a_short_svm_buffer_is_an_error_before_running() {
    let ok = example("OUT_PTR:d=[0;16]", &[]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let expected: Vec<String> = (0..16).map(|i| (i * 2 + 1).to_string()).collect();
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(
        text.contains(&format!("OUT_PTR = [{}]", expected.join(", "))),
        "{text}"
    );
    let short = example("OUT_PTR:d=[0;15]", &[]);
    assert_eq!(short.status.code(), Some(1));
    assert_eq!(
        stderr(&short),
        "error: --svm OUT_PTR: 15 values for 16 work-items (work-item i's pointer addresses \
         element i)\n"
    );
    // With --work-items 10, ten values are enough.
    let fewer = visa(&[
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "16",
        "--work-items",
        "10",
        "--arg",
        "SCALE=2",
        "--arg",
        "LO=-1000",
        "--arg",
        "HI=1000",
        "--svm",
        "A_PTR:d=[0..10]",
        "--svm",
        "B_PTR:d=[1;10]",
        "--svm",
        "OUT_PTR:d=[0;10]",
    ]);
    assert!(fewer.status.success(), "{}", stderr(&fewer));
}

#[test]
fn a_name_bound_twice_is_an_error() {
    let out = example("OUT_PTR:d=[0;16]", &["--arg", "SCALE=3"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: --arg SCALE: bound twice (also by --arg SCALE)\n"
    );
    let out = example("OUT_PTR:d=[0;16]", &["--arg", "A_PTR=[0;16]"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: --svm A_PTR: bound twice (also by --arg A_PTR)\n"
    );
}

#[test]
fn a_type_override_that_differs_from_the_declaration_warns() {
    // SCALE is declared d; as f, 2.0 has the bits 0x40000000, a huge integer scale.
    let out = example("OUT_PTR:d=[0;16]", &["--print", "SUM:ud"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: --print SUM: type ud differs from the variable's declared type d; its bytes \
         are read as ud\n"
    );
    let args = [
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "16",
        "--arg",
        "SCALE:f=2",
        "--arg",
        "LO=-1000",
        "--arg",
        "HI=1000",
        "--svm",
        "A_PTR:d=[0..16]",
        "--svm",
        "B_PTR:d=[1;16]",
        "--svm",
        "OUT_PTR:d=[0;16]",
    ];
    let out = visa(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: --arg SCALE: type f differs from the variable's declared type d; its bytes \
         are read as f\n"
    );
    // The same type as declared says nothing.
    let mut same = args;
    same[5] = "SCALE:d=2";
    let out = visa(&same);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn running_out_of_fuel_names_the_option() {
    let out = example("OUT_PTR:d=[0;16]", &["--fuel", "3"]);
    // A trap (running out of fuel is one) exits 3.
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(err.contains(": error: trap: fuel exhausted"), "{err}");
    assert!(
        err.contains("fuel exhausted: the launch executed more than 3 instructions"),
        "{err}"
    );
    assert!(err.contains("raise the budget with --fuel N"), "{err}");
}

#[test]
fn an_undeclared_name_without_a_type_names_the_option() {
    let out = example("OUT_PTR:d=[0;16]", &["--arg", "%9=[1]"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "error: --arg %9: not declared by the kernel: give its type, e.g. %9:d=...\n"
    );
    let out = example("OUT_PTR:d=[0;16]", &["--print", "NOPE"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: --print NOPE: not declared"));
}

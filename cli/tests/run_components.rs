//! `visa run --arg 'NAME:TYPE*N=[...]'`: N components per work-item (a per-lane `ushort2` or
//! `uchar4`), bound component-major in each thread and printed back in work-item order.
//! Expected values are computed here in plain Rust.

mod common;
use common::{ints, json, visa};

fn list(values: &[i64]) -> String {
    let items: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// A kernel file in a temporary directory.
fn kernel(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("k.visaasm");
    std::fs::write(&path, text).expect("write kernel");
    let path = path.to_str().expect("UTF-8 path").to_string();
    (dir, path)
}

/// `%0` is a per-lane (x, y): x + y goes to the second component.
const PAIRS: &str = "\
.decl T v_type=G type=uw num_elts=8 align=GRF
add (M1, 8) T(0,0)<1> %0(0,0)<1;1,0> %0(0,8)<1;1,0>
mov (M1, 8) %0(0,8)<1> T(0,0)<1;1,0>
";

#[test]
fn two_components_of_an_undeclared_placeholder() {
    let (_dir, file) = kernel(PAIRS);
    // Two threads of 8: 16 work-items, (x, y) each.
    let values: Vec<i64> = (0..16).flat_map(|i| [i * 3, 1000 - i]).collect();
    let arg = format!("%0:uw*2={}", list(&values));
    let out = json(&["run", &file, "--simd", "8", "--groups", "2", "--arg", &arg]);
    let expected: Vec<i64> = values.chunks(2).flat_map(|p| [p[0], p[0] + p[1]]).collect();
    assert_eq!(ints(&out["%0"]), expected);
}

#[test]
fn four_byte_components_of_a_declared_variable() {
    // A per-lane uchar4 in a declared variable of SIMD 16 x 4 bytes: r and b are swapped.
    let (_dir, file) = kernel(
        "\
.decl PX v_type=G type=ub num_elts=64 align=GRF
.decl R v_type=G type=ub num_elts=16 align=GRF
mov (M1, 16) R(0,0)<1> PX(0,0)<1;1,0>
mov (M1, 16) PX(0,0)<1> PX(1,0)<1;1,0>
mov (M1, 16) PX(1,0)<1> R(0,0)<1;1,0>
",
    );
    let values: Vec<i64> = (0..16)
        .flat_map(|i| [i * 7 % 256, 200 + i, 255 - i, i])
        .collect();
    let arg = format!("PX*4={}", list(&values));
    let out = json(&["run", &file, "--simd", "16", "--arg", &arg]);
    let expected: Vec<i64> = values
        .chunks(4)
        .flat_map(|p| [p[2], p[1], p[0], p[3]])
        .collect();
    assert_eq!(ints(&out["PX"]), expected);
    // `--print` reads the same layout back.
    let out = json(&[
        "run", &file, "--simd", "16", "--arg", &arg, "--print", "PX*4",
    ]);
    assert_eq!(ints(&out["PX"]), expected);
}

#[test]
fn wrong_component_counts_are_errors() {
    let (_dir, file) = kernel(PAIRS);
    let out = visa(&["run", &file, "--simd", "8", "--arg", "%0:uw*2=[0..15]"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "binding '%0': 15 values bound, the launch has 8 work-items x 2 components = 16 values"
        ),
        "{err}"
    );
    let out = visa(&["run", &file, "--simd", "8", "--arg", "%0:uw*0=[0..16]"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'%0:uw*0=[0..16]': the component count after '*' must be a whole number from 1 up, not '0'"),
        "{err}"
    );
    // A variable declared with fewer than SIMD x N elements.
    let out = visa(&[
        "run",
        &file,
        "--simd",
        "8",
        "--arg",
        "%0:uw*2=[0..16]",
        "--arg",
        "T*2=[0..16]",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "binding 'T': the variable has 8 elements, fewer than SIMD 8 x 2 components = 16"
        ),
        "{err}"
    );
}

#[test]
fn the_help_documents_the_component_form() {
    let out = visa(&["run", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("NAME[:TYPE][*N]=VALUES"), "{help}");
    assert!(
        help.contains("component-major (element c*SIMD + lane)"),
        "{help}"
    );
}

//! `visa run` values: floats shortest-round-trip in their own type, infinities and NaN in text
//! and JSON (strings there) and back through `--arg` and `@FILE`, out-of-range floats refused.

mod common;
use common::{VISA, visa_with_input};

use std::process::{Command, Output};

use serde_json::{Value, json};

/// Y = X * 2 (f), D = X widened to df.
const KERNEL: &str = "\
.decl X v_type=G type=f num_elts=8 align=GRF
.decl Y v_type=G type=f num_elts=8 align=GRF
.decl D v_type=G type=df num_elts=8 align=GRF
mul (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x40000000:f
mov (M1, 8) D(0,0)<1> X(0,0)<1;1,0>
";

fn visa(args: &[&str]) -> Output {
    let all = [&["run", "-", "--simd", "8", "--print-inputs"], args].concat();
    visa_with_input(&all, Some(KERNEL))
}

fn stdout_of(args: &[&str]) -> String {
    let out = visa(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

const X: &str = "X=[0.1, inf, -inf, nan, 1e30, -0, 3, -2.5]";

#[test]
fn text_prints_shortest_f32_and_non_finite_values() {
    let text = stdout_of(&["--arg", X, "--print", "Y", "--print", "D"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "X = [0.1, inf, -inf, NaN, 1e+30, -0.0, 3.0, -2.5]",
        "{text}"
    );
    // 0.1f32 doubled is 0.2f32 exactly as printed; -2.5 * 2 = -5.
    assert_eq!(
        lines[1],
        "Y = [0.2, inf, -inf, NaN, 2e+30, -0.0, 6.0, -5.0]"
    );
    // Widened to df, 0.1f32 shows all of its f64 digits: the value is not 0.1.
    let d0 = f64::from(0.1f32);
    let d4 = f64::from(1e30f32);
    assert_eq!(
        lines[2],
        format!("D = [{d0:?}, inf, -inf, NaN, {d4:e}, -0.0, 3.0, -2.5]").replace("e30", "e+30")
    );
}

#[test]
fn json_keeps_finite_numbers_and_writes_strings_otherwise() {
    let out: Value = serde_json::from_str(&stdout_of(&["--arg", X, "--print", "Y", "--json"]))
        .expect("JSON output");
    assert_eq!(
        out["X"],
        json!([0.1, "inf", "-inf", "nan", 1e30, -0.0, 3.0, -2.5])
    );
    assert_eq!(
        out["Y"],
        json!([0.2, "inf", "-inf", "nan", 2e30, -0.0, 6.0, -5.0])
    );
}

#[test]
fn json_output_reads_back_through_a_file() {
    let out: Value = serde_json::from_str(&stdout_of(&["--arg", X, "--print", "Y", "--json"]))
        .expect("JSON output");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("y.json");
    std::fs::write(&file, out["Y"].to_string()).expect("write");
    // Y fed back as X: doubled again.
    let arg = format!("X=@{}", file.display());
    let again: Value = serde_json::from_str(&stdout_of(&["--arg", &arg, "--print", "Y", "--json"]))
        .expect("JSON output");
    assert_eq!(again["X"], out["Y"]);
    assert_eq!(
        again["Y"],
        json!([0.4, "inf", "-inf", "nan", 4e30, -0.0, 12.0, -10.0])
    );
    // A file of something else is refused with the item.
    std::fs::write(&file, r#"[1, "two"]"#).expect("write");
    let out = visa(&["--arg", &arg]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("item 1 is \"two\""), "{err}");
}

#[test]
fn out_of_range_floats_are_errors() {
    for (arg, words) in [
        (
            "X=1e40",
            "'1e40' is outside the range of type f (largest 3.4028235e38)",
        ),
        ("X=[1, -1e39]", "'-1e39' is outside the range of type f"),
        ("X:f=1e40", "outside the range of type f"),
    ] {
        let out = visa(&["--arg", arg]);
        assert_eq!(out.status.code(), Some(1), "{arg}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: --arg X: "), "{err}");
        assert!(err.contains(words), "{arg}: {err}");
    }
    // Spelled infinities are fine, in any case.
    let text = stdout_of(&["--arg", "X=[Inf, -INF, +inf, infinity, NaN, 0, 0, 0]"]);
    assert!(
        text.starts_with("X = [inf, -inf, inf, inf, NaN, 0.0, 0.0, 0.0]"),
        "{text}"
    );
}

#[test]
fn the_help_documents_the_value_forms() {
    let out = Command::new(VISA)
        .args(["run", "--help"])
        .output()
        .expect("run visa");
    let help = String::from_utf8_lossy(&out.stdout);
    for words in [
        "\"inf\", \"-inf\" and \"nan\"",
        "0.1 for f",
        "1e40:f",
        "JSON array",
    ] {
        assert!(
            help.contains(words),
            "--help should mention {words}: {help}"
        );
    }
}

//! Helpers shared by the CLI tests: running the built `visa` from the repository root.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The `visa` binary under test.
pub const VISA: &str = env!("CARGO_BIN_EXE_visa");

/// The repository root (where `examples/` is).
pub fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Runs `visa` in the repository root with an empty standard input.
pub fn visa(args: &[&str]) -> Output {
    visa_with_input(args, None)
}

/// Runs `visa` in the repository root with `stdin` on its standard input.
pub fn visa_with_input(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(VISA)
        .args(args)
        .current_dir(repo_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run visa");
    let mut input = child.stdin.take().expect("stdin");
    // (visa may exit before reading, e.g. on a usage error: a broken pipe is not a failure.)
    let _ = input.write_all(stdin.unwrap_or_default().as_bytes());
    drop(input);
    child.wait_with_output().expect("visa output")
}

/// `visa ARGS --json`, which must succeed, as JSON.
pub fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = visa(&all);
    assert!(
        out.status.success(),
        "visa {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// A JSON array of integers.
pub fn ints(value: &Value) -> Vec<i64> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_i64().expect("an integer"))
        .collect()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The README's main job (`examples/gather_add_scatter.visaasm` with its bindings) on `file`,
/// with `extra` options.
pub fn main_job<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "run",
        file,
        "--simd",
        "16",
        "--groups",
        "4",
        "--arg",
        "SCALE=5",
        "--arg",
        "LO=-50",
        "--arg",
        "HI=250",
        "--svm",
        "A_PTR:d=[-32..32]",
        "--svm",
        "B_PTR:d=[100..164]",
        "--svm",
        "OUT_PTR:d=[0;64]",
    ];
    args.extend_from_slice(extra);
    args
}

/// The README's GEMM command: `examples/gemm_tile.visaasm` for A (20 x 40 bytes, the values
/// -100..100 four times), B (40 x 24 bytes, -120..120 four times) and C (20 x 24 ints).
pub fn gemm_job<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "run",
        "examples/gemm_tile.visaasm",
        "--grf",
        "64",
        "--simd",
        "16",
        "--groups",
        "6",
        "--arg",
        "M=20",
        "--arg",
        "N=24",
        "--arg",
        "K=40",
        "--svm",
        "A_PTR:b=[-100..100, -100..100, -100..100, -100..100]",
        "--svm",
        "B_PTR:b=[-120..120, -120..120, -120..120, -120..120]",
        "--svm",
        "C_PTR:d=[0;480]",
    ];
    args.extend_from_slice(extra);
    args
}

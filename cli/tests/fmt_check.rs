//! `visa fmt` and `visa check` end to end (the built binary).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn visa(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_visa"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run visa");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

const MESSY: &str = "\
.decl V1 v_type=G type=d num_elts=16 align=GRF // a comment
.decl P1 v_type=P num_elts=16
{
/* block */ (P1.ANY) ADD(16) V1(0, 0)<1> V1(0, 0)<1; 1, 0> 1:w
}
LOOP:
cmp.LT (M1_NM, 16) P1 V1(0,0)<1;1,0> -1:d
";

const CANONICAL: &str = "\
.decl V1 v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
{
        (P1.any) add (M1, 16) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:w
}
LOOP:
    cmp.lt (M1_NM, 16) P1 V1(0,0)<1;1,0> 0xffffffff:d
";

#[test]
fn fmt_prints_the_canonical_form() {
    let f = file(MESSY);
    let out = visa(&["fmt", f.path().to_str().unwrap()], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), CANONICAL);
    // Formatting is idempotent, and `-` reads standard input.
    let again = visa(&["fmt", "-"], Some(CANONICAL));
    assert!(again.status.success());
    assert_eq!(String::from_utf8(again.stdout).unwrap(), CANONICAL);
    let no_arg = visa(&["fmt"], Some(MESSY));
    assert_eq!(String::from_utf8(no_arg.stdout).unwrap(), CANONICAL);
}

#[test]
fn fmt_reports_every_bad_line() {
    let f = file(
        "add (M1, 16) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:w\nfrobnicate (16)\nadd (M1, 3) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:w\n",
    );
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["fmt", &path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "{path}:2:1: error: found `frobnicate`, expected an instruction mnemonic\n\
             {path}:3:10: error: found `3`, expected an execution size (1, 2, 4, 8, 16, 32)\n"
        )
    );
    let stdin = visa(&["fmt", "-"], Some("/* open"));
    assert_eq!(stdin.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(stdin.stderr).unwrap(),
        "<stdin>:1:1: error: found an unterminated comment, expected `*/`\n"
    );
}

#[test]
fn check_accepts_valid_code() {
    let f = file(MESSY);
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["check", &path], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{path}: ok (2 instructions)\n")
    );
}

#[test]
fn check_reports_diagnostics() {
    let f = file(
        ".decl V1 v_type=G type=d num_elts=16\nadd (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0> V1(0,0)<8;3,1>\n",
    );
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["check", &path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "{path}:2:1: error: add: `V2` in <src0> is not declared\n\
             {path}:2:1: error: add: <src1>: width 3 must be 1, 2, 4, 8 or 16\n"
        )
    );
    let missing = visa(&["check", "/nonexistent/x.visaasm"], None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8(missing.stderr)
            .unwrap()
            .starts_with("/nonexistent/x.visaasm: error: cannot read:")
    );
}

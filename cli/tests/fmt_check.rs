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
.decl W1 v_type=G type=d num_elts=16 align=GRF // a comment
.decl P1 v_type=P num_elts=16
{
/* block */ (P1.ANY) ADD(16) W1(0, 0)<1> W1(0, 0)<1; 1, 0> 1:w
}
LOOP:
cmp.LT (M1_NM, 16) P1 W1(0,0)<1;1,0> -1:d
";

const CANONICAL: &str = "\
.decl W1 v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
{
        (P1.any) add (M1, 16) W1(0,0)<1> W1(0,0)<1;1,0> 0x1:w
}
LOOP:
    cmp.lt (M1_NM, 16) P1 W1(0,0)<1;1,0> 0xffffffff:d
";

/// `MESSY` formatted: canonical statements, its comments kept.
const FORMATTED: &str = "\
.decl W1 v_type=G type=d num_elts=16 align=GRF // a comment
.decl P1 v_type=P num_elts=16
{
        /* block */
        (P1.any) add (M1, 16) W1(0,0)<1> W1(0,0)<1;1,0> 0x1:w
}
LOOP:
    cmp.lt (M1_NM, 16) P1 W1(0,0)<1;1,0> 0xffffffff:d
";

/// The lines of a command's stderr that start with `prefix` (the diagnostics' first lines,
/// without the source snippets under them).
fn headers(stderr: &[u8], prefix: &str) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn fmt_prints_the_canonical_form() {
    let f = file(MESSY);
    let out = visa(&["fmt", f.path().to_str().unwrap()], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), FORMATTED);
    // Formatting is idempotent, and `-` reads standard input.
    let again = visa(&["fmt", "-"], Some(CANONICAL));
    assert!(again.status.success());
    assert_eq!(String::from_utf8(again.stdout).unwrap(), CANONICAL);
    let no_arg = visa(&["fmt"], Some(MESSY));
    assert_eq!(String::from_utf8(no_arg.stdout).unwrap(), FORMATTED);
}

#[test]
fn fmt_keeps_comments_and_blank_line_groups() {
    let src = "// Run me with: visa run k.visaasm\n//\n\n\n.decl V v_type=G type=d num_elts=16\n\
               \n// body\nmov (M1, 16) V(0,0)<1> 0x1:d // one\n\n\n\n/* end */\n";
    let expected = "// Run me with: visa run k.visaasm\n//\n\n.decl V v_type=G type=d num_elts=16\n\
                    \n    // body\n    mov (M1, 16) V(0,0)<1> 0x1:d // one\n\n/* end */\n";
    let out = visa(&["fmt", "-"], Some(src));
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn fmt_write_rewrites_files_in_place() {
    let messy = file(MESSY);
    let done = file(FORMATTED);
    let out = visa(
        &[
            "fmt",
            "--write",
            messy.path().to_str().unwrap(),
            done.path().to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(messy.path()).unwrap(), FORMATTED);
    assert_eq!(std::fs::read_to_string(done.path()).unwrap(), FORMATTED);
    // Standard input cannot be rewritten: a usage error.
    let stdin = visa(&["fmt", "--write"], None);
    assert_eq!(stdin.status.code(), Some(2));
    // A file that does not parse is left as it is.
    let bad = file("frob (M1, 16)\n");
    let out = visa(&["fmt", "--write", bad.path().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(bad.path()).unwrap(),
        "frob (M1, 16)\n"
    );
}

#[test]
fn fmt_check_prints_a_diff_and_fails_on_unformatted_files() {
    let done = file(FORMATTED);
    let done_path = done.path().to_str().unwrap().to_string();
    let ok = visa(&["fmt", "--check", &done_path], None);
    assert_eq!(ok.status.code(), Some(0));
    assert!(ok.stdout.is_empty() && ok.stderr.is_empty());

    let messy = file(MESSY);
    let path = messy.path().to_str().unwrap().to_string();
    let out = visa(&["fmt", "--check", &done_path, &path], None);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!(
        "--- {path}\n+++ {path} (formatted)\n\
         @@ -1,7 +1,8 @@\n\
         \x20.decl W1 v_type=G type=d num_elts=16 align=GRF // a comment\n\
         \x20.decl P1 v_type=P num_elts=16\n\
         \x20{{\n\
         -/* block */ (P1.ANY) ADD(16) W1(0, 0)<1> W1(0, 0)<1; 1, 0> 1:w\n\
         +        /* block */\n\
         +        (P1.any) add (M1, 16) W1(0,0)<1> W1(0,0)<1;1,0> 0x1:w\n\
         \x20}}\n\
         \x20LOOP:\n\
         -cmp.LT (M1_NM, 16) P1 W1(0,0)<1;1,0> -1:d\n\
         +    cmp.lt (M1_NM, 16) P1 W1(0,0)<1;1,0> 0xffffffff:d\n"
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    // Nothing was written.
    assert_eq!(std::fs::read_to_string(messy.path()).unwrap(), MESSY);
    // `--check` and `--write` together are a usage error.
    let both = visa(&["fmt", "--check", "--write", &path], None);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn fmt_reports_every_bad_line() {
    let f = file(
        "add (M1, 16) W1(0,0)<1> W1(0,0)<1;1,0> 0x1:w\nfrobnicate (16)\nadd (M1, 3) W1(0,0)<1> W1(0,0)<1;1,0> 0x1:w\n",
    );
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["fmt", &path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        headers(&out.stderr, &path),
        format!(
            "{path}:2:1: error: found `frobnicate`, expected an instruction mnemonic\n\
             {path}:3:10: error: found `3`, expected an execution size (1, 2, 4, 8, 16, 32)\n"
        )
    );
    let stdin = visa(&["fmt", "-"], Some("/* open"));
    assert_eq!(stdin.status.code(), Some(1));
    assert_eq!(
        headers(&stdin.stderr, "<stdin>"),
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
        ".decl W1 v_type=G type=d num_elts=16\nadd (M1, 8) W1(0,0)<1> W2(0,0)<1;1,0> W1(0,0)<8;3,1>\n",
    );
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["check", &path], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        headers(&out.stderr, &path),
        format!(
            "{path}:2:24: error: add: `W2` in <src0> is not declared\n\
             {path}:2:39: error: add: <src1>: width 3 must be 1, 2, 4, 8 or 16\n"
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

/// Kernels the Intel compiler's verifier accepts, with forms only the documents forbid: a
/// signed `shr` destination, 64-bit shifts, a UQ pointer bump, a UD immediate SVM address, an
/// 8192-element variable. `visa check` passes them with warnings naming the documents;
/// `--deny-warnings` fails on them.
const COMPILER_ACCEPTS: &str = "\
.decl D v_type=G type=d num_elts=16 align=GRF
.decl S v_type=G type=ud num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
.decl Q v_type=G type=q num_elts=16 align=GRF
.decl P v_type=G type=uq num_elts=16 align=GRF
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.decl V v_type=G type=d num_elts=48 align=GRF
.decl BIG v_type=G type=d num_elts=8192 align=GRF
shr (M1, 16) D(0,0)<1> S(0,0)<1;1,0> C(0,0)<1;1,0>
shl (M1, 8) Q(0,0)<1> Q(0,0)<1;1,0> Q(0,0)<1;1,0>
add (M1, 8) P(0,0)<1> P(0,0)<1;1,0> 0x4:uq
svm_gather4scaled.RGB (M1, 16) 0x0:ud ADDR.0 V.0
mov (M1, 16) BIG(0,0)<1> 0x0:d
";

#[test]
fn check_accepts_what_the_compiler_accepts_and_names_the_documents() {
    let f = file(COMPILER_ACCEPTS);
    let path = f.path().to_str().unwrap().to_string();
    let out = visa(&["check", &path], None);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{path}:9:14: warning: shr: no type map allows dst type d with source types ud, d \
             (SHR.md; the compiler does not enforce it)"
        )),
        "{stderr}"
    );
    let headers = headers(stderr.as_bytes(), &path);
    assert!(
        !headers.is_empty() && headers.lines().all(|l| l.contains(": warning: ")),
        "only warnings: {stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{path}: ok (5 instructions, ")),
        "{stdout}"
    );

    let strict = visa(&["check", "--deny-warnings", &path], None);
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn check_applies_a_named_platform_and_reports_what_run_would_stop_at() {
    let f = file(
        ".decl BIG v_type=G type=d num_elts=16384 align=GRF\nmov (M1, 16) BIG(0,0)<1> 0x0:d\n",
    );
    let path = f.path().to_str().unwrap().to_string();
    // 16384 elements are 256 GRFs of 64 bytes: PVC accepts, DG2 (32-byte GRFs) does not.
    let pvc = visa(&["check", "--platform", "pvc", &path], None);
    assert!(
        pvc.status.success(),
        "{}",
        String::from_utf8_lossy(&pvc.stderr)
    );
    let dg2 = visa(&["check", "--platform", "dg2", &path], None);
    assert_eq!(dg2.status.code(), Some(1));
    assert!(
        String::from_utf8(dg2.stderr)
            .unwrap()
            .contains("num_elts=16384 is out of range (1..=8192: 256 GRFs of elements)")
    );
    // With no platform named, check accepts it and warns that `visa run` (32-byte GRFs by
    // default) stops at it.
    let any = visa(&["check", &path], None);
    assert!(any.status.success());
    let stderr = String::from_utf8(any.stderr).unwrap();
    assert!(
        stderr.contains("warning: `visa run` (with 32-byte GRFs) stops here:"),
        "{stderr}"
    );
    let unknown = visa(&["check", "--platform", "gen99", &path], None);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        String::from_utf8(unknown.stderr)
            .unwrap()
            .contains("unknown platform `gen99`")
    );
}

/// `visa check` runs the checker once, then asks the loader what the runtime cannot execute:
/// every such instruction is listed, not only the first.
#[test]
fn check_runs_the_checker_once_and_lists_every_runtime_limitation() {
    let mut f = tempfile::Builder::new()
        .suffix(".visaasm")
        .tempfile()
        .unwrap();
    writeln!(
        f,
        ".kernel \"typed\"
.decl U v_type=G type=ud num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl RGB v_type=G type=ud num_elts=48 align=GRF
mov (M1, 16) U(0,0)<1> 0x1:ud
lsc_load_quad.tgm (M1, 16) RGB:d32.xyz bti(0x7)[U,V]:a32
add (M1, 16) V(0,0)<1> U(0,0)<1;1,0> 0x1:ud
lsc_load_quad.tgm (M1, 16) RGB:d32.xy bti(0x7)[U,V]:a32"
    )
    .unwrap();
    let path = f.path().to_str().unwrap().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_visa"))
        .args(["check", "--platform", "dg2", "--color", "never", &path])
        .env("VISA_REPORT_CHECKER_RUNS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let refusals: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("warning: `visa run` stops here:"))
        .collect();
    assert_eq!(refusals.len(), 2, "{stderr}");
    assert!(refusals[0].contains(":6:"), "{stderr}");
    assert!(refusals[1].contains(":8:"), "{stderr}");
    assert!(stderr.contains("checker runs: 1"), "{stderr}");
}

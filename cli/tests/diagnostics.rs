//! Diagnostics about assembly text (`visa check`, `visa fmt`, `visa run`): the first line
//! `FILE:line:col: error: message`, the source line with a caret under it, `--color`, the cap at
//! 50, a byte-order mark, and the exit codes (1 bad input, 2 usage, 3 trap).

mod common;
use common::{stderr, visa};

use std::io::Write;

fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".visaasm")
        .tempfile()
        .unwrap();
    f.write_all(bytes).unwrap();
    f
}

const UNDECLARED: &str = ".decl V v_type=G type=d num_elts=16\n\
                          mov (M1, 16) V(0,0)<1> W(0,0)<1;1,0>\n";

#[test]
fn check_prints_the_line_with_a_caret() {
    let f = file(UNDECLARED.as_bytes());
    let path = f.path().to_str().unwrap();
    let out = visa(&["check", "--color", "never", path]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "{path}:2:24: error: mov: `W` in <src0> is not declared\n  \
             |\n\
             2 | mov (M1, 16) V(0,0)<1> W(0,0)<1;1,0>\n  \
             |                        ^^^^^^^^^^^^^\n"
        )
    );
}

#[test]
fn parse_errors_point_at_their_column() {
    let f = file(b"mov (M1, 3) V(0,0)<1> 0x1:d\n");
    let path = f.path().to_str().unwrap();
    for command in ["fmt", "check"] {
        let out = visa(&[command, "--color", "never", path]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert_eq!(
            stderr(&out),
            format!(
                "{path}:1:10: error: found `3`, expected an execution size (1, 2, 4, 8, 16, 32)\n  \
                 |\n\
                 1 | mov (M1, 3) V(0,0)<1> 0x1:d\n  \
                 |          ^^\n"
            ),
            "{command}"
        );
    }
}

#[test]
fn color_always_styles_and_auto_does_not_on_a_pipe() {
    let f = file(UNDECLARED.as_bytes());
    let path = f.path().to_str().unwrap();
    let plain = stderr(&visa(&["check", "--color", "never", path]));
    let auto = stderr(&visa(&["check", path]));
    assert_eq!(auto, plain, "standard error is a pipe here");
    let always = stderr(&visa(&["check", "--color", "always", path]));
    assert!(always.contains("\x1b["), "{always:?}");
    // Without its escape sequences, the coloured text is the plain text.
    let mut stripped = String::new();
    let mut rest = always.as_str();
    while let Some(at) = rest.find("\x1b[") {
        stripped.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after.find('m').unwrap();
        rest = &after[end + 1..];
    }
    stripped.push_str(rest);
    assert_eq!(stripped, plain);
    // A value other than auto, always or never is a usage error.
    assert_eq!(
        visa(&["check", "--color", "sometimes", path]).status.code(),
        Some(2)
    );
}

#[test]
fn at_most_fifty_errors_are_shown() {
    let mut text = String::new();
    for _ in 0..63 {
        text.push_str("frob (M1, 16)\n");
    }
    let f = file(text.as_bytes());
    let path = f.path().to_str().unwrap();
    let out = visa(&["fmt", "--color", "never", path]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let headers: Vec<&str> = err.lines().filter(|l| l.starts_with(path)).collect();
    assert_eq!(headers.len(), 50);
    assert!(headers[49].starts_with(&format!("{path}:50:1: error: ")));
    assert_eq!(err.lines().last(), Some("13 more errors"));
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let mut bytes = vec![0xef, 0xbb, 0xbf];
    bytes.extend_from_slice(b".decl V v_type=G type=d num_elts=16\nmov (M1, 16) V(0,0)<1> 0x1:d\n");
    let f = file(&bytes);
    let path = f.path().to_str().unwrap();
    let out = visa(&["check", path]);
    assert!(out.status.success(), "{}", stderr(&out));
    let fmt = visa(&["fmt", path]);
    assert_eq!(
        String::from_utf8(fmt.stdout).unwrap(),
        ".decl V v_type=G type=d num_elts=16\n    mov (M1, 16) V(0,0)<1> 0x1:d\n"
    );
    // Columns on the first line count from after the mark.
    let mut bad = vec![0xef, 0xbb, 0xbf];
    bad.extend_from_slice(b"frob (M1, 16)\n");
    let f = file(&bad);
    let path = f.path().to_str().unwrap();
    let out = visa(&["check", "--color", "never", path]);
    assert!(
        stderr(&out).starts_with(&format!("{path}:1:1: error: found `frob`")),
        "{}",
        stderr(&out)
    );
}

const TRAPS: &str = "// reads through a null SVM pointer
.decl V v_type=G type=d num_elts=16 align=GRF

svm_gather.4.1 (M1, 16) %0.0 V.0
";

#[test]
fn run_exit_codes_tell_traps_from_bad_input() {
    let f = file(TRAPS.as_bytes());
    let path = f.path().to_str().unwrap();
    let trap = visa(&["run", "--color", "never", path, "--arg", "%0:uq=0"]);
    assert_eq!(trap.status.code(), Some(3));
    assert_eq!(
        stderr(&trap),
        format!(
            "{path}:4:1: error: trap: unmapped SVM address 0x0 (kernel 'kernel', group 0, \
             thread 0, lane 0; pc 0: `svm_gather.4.1 (M1, 16) %0.0 V.0`)\n  \
             |\n\
             4 | svm_gather.4.1 (M1, 16) %0.0 V.0\n  \
             | ^^^^^^^^^^^^^^\n"
        )
    );
    // Bad input: exit 1, rendered like `visa check`.
    let g = file(UNDECLARED.as_bytes());
    let bad = g.path().to_str().unwrap();
    let out = visa(&["run", "--color", "never", bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with(&format!(
            "{bad}:2:24: error: mov: `W` in <src0> is not declared\n  |\n2 | mov"
        )),
        "{}",
        stderr(&out)
    );
    // Usage: exit 2.
    assert_eq!(
        visa(&["run", path, "--no-such-option"]).status.code(),
        Some(2)
    );
    assert_eq!(visa(&["fmt", "--write"]).status.code(), Some(2));
}

/// Misspelt mnemonics and names get the suggestion `isa!` gives (`visa_isa::text::suggest`).
#[test]
fn check_suggests_what_was_probably_meant() {
    let f = file(b".decl counter v_type=G type=d num_elts=16\nad (M1, 16) counter(0,0)<1> 0x1:d\n");
    let out = visa(&["check", "--color", "never", f.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).ends_with("  | ^^\n  = help: did you mean `add`?\n"),
        "{}",
        stderr(&out)
    );
    let g = file(
        b".decl counter v_type=G type=d num_elts=16\n\
          add (M1, 16) counter(0,0)<1> countr(0,0)<1;1,0> 0x1:d\n\
          jmp (M1, 1) LOOP_EDN\n\
          LOOP_END:\n",
    );
    let out = visa(&["check", "--color", "never", g.path().to_str().unwrap()]);
    let text = stderr(&out);
    assert!(
        text.contains("  = help: did you mean `counter`?\n"),
        "{text}"
    );
    assert!(
        text.contains("  = help: did you mean `LOOP_END`?\n"),
        "{text}"
    );
    // `visa run` stops at the first error, with the same suggestion.
    let out = visa(&["run", "--color", "never", g.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("  = help: did you mean `counter`?\n"),
        "{}",
        stderr(&out)
    );
}

/// `--message-format json`: one object per diagnostic on stdout, with the operand it is about.
#[test]
fn check_prints_json_for_editors() {
    let f = file(
        b".decl counter v_type=G type=d num_elts=16\n\
          .decl counter v_type=G type=d num_elts=16\n\
          add (M1, 16) counter(0,0)<1> countr(0,0)<1;1,0> 0x1:d\n\
          shr (M1, 16) counter(0,0)<1> counter(0,0)<1;1,0> 0x1:d\n",
    );
    let path = f.path().to_str().unwrap();
    let out = visa(&["check", "--message-format", "json", path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let expected = [
        serde_json::json!({
            "file": path, "line": 2, "column": 7, "severity": "error", "kind": "rule",
            "document": null, "message": "`counter` is already declared in this scope",
            "suggestion": null, "operand": null, "related": {"line": 1, "column": 7}
        }),
        serde_json::json!({
            "file": path, "line": 3, "column": 30, "severity": "error", "kind": "rule",
            "document": null, "message": "add: `countr` in <src0> is not declared",
            "suggestion": "counter", "operand": {"field": "src0", "element": null},
            "related": null
        }),
        serde_json::json!({
            "file": path, "line": 4, "column": 14, "severity": "warning", "kind": "document",
            "document": "SHR.md",
            "message": "shr: <dst> has type d, supported types are UB, UD, UQ, UW (SHR.md; the compiler does not enforce it)",
            "suggestion": null, "operand": {"field": "dst", "element": null}, "related": null
        }),
    ];
    assert_eq!(
        &lines[..expected.len().min(lines.len())],
        &expected[..],
        "{lines:#?}"
    );
}

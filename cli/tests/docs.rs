//! `visa docs`: builds the HTML or markdown site from spec directories and reports bad input.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const DOCUMENT: &str = "\
## Opcode

  TWIDDLE = 0x7d

## Format

| | | |
| --- | --- | --- |
| 0x7d(TWIDDLE) | Exec_size | Dst |

## Description

Twiddles the destination.

- **Exec_size(ub):** Number of channels.

  - Bit[1..0]: count

    - 0b00: one
    - 0b01: two

- **Dst(vec_operand):** The result.

## Text
```
    TWIDDLE (<exec_size>) <dst>
```
";

fn visa(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_visa"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run visa")
}

fn spec_dir(root: &Path) -> std::path::PathBuf {
    let spec = root.join("spec");
    fs::create_dir_all(&spec).unwrap();
    fs::write(spec.join("TWIDDLE.md"), DOCUMENT).unwrap();
    spec
}

#[test]
fn html_site_from_the_default_spec_dir() {
    let root = tempfile::tempdir().unwrap();
    spec_dir(root.path());
    let output = visa(&["docs", "--out", "site"], root.path());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 instruction pages"), "{stdout}");
    let site = root.path().join("site");
    let mut files: Vec<String> = fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // The hidden manifest lets a later run delete pages of renamed instructions.
    assert_eq!(
        files,
        [
            ".visa-docs-pages",
            "TWIDDLE.html",
            "index.html",
            "style.css"
        ]
    );
    let page = fs::read_to_string(site.join("TWIDDLE.html")).unwrap();
    assert!(page.contains("<td><code>0b01</code></td><td><code>0x1</code></td><td>two</td>"));
    let index = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<a href=\"TWIDDLE.html\">TWIDDLE</a>"));
}

#[test]
fn markdown_site_from_an_explicit_dir() {
    let root = tempfile::tempdir().unwrap();
    let spec = spec_dir(root.path());
    let out = root.path().join("md");
    let output = visa(
        &[
            "docs",
            "--format",
            "md",
            "--out",
            out.to_str().unwrap(),
            spec.to_str().unwrap(),
        ],
        root.path(),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = fs::read_to_string(out.join("TWIDDLE.md")).unwrap();
    assert!(page.contains("| `0b00` | `0x0` | one |"));
    assert!(page.contains("```text\nTWIDDLE (<exec_size>) <dst>\n```"));
    assert!(
        fs::read_to_string(out.join("index.md"))
            .unwrap()
            .contains("](TWIDDLE.md)")
    );
    assert!(!out.join("style.css").exists());
}

#[test]
fn a_broken_document_is_reported_with_its_location_and_nothing_is_written() {
    let root = tempfile::tempdir().unwrap();
    let spec = spec_dir(root.path());
    fs::write(spec.join("BAD.md"), "## Opcode\n\n  BAD = zzz\n").unwrap();
    let output = visa(&["docs", "--out", "site"], root.path());
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("BAD.md:3:"), "{stderr}");
    assert!(stderr.contains("error"), "{stderr}");
    assert!(!root.path().join("site").exists());
}

#[test]
fn an_empty_spec_dir_is_an_error() {
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("empty")).unwrap();
    let output = visa(&["docs", "--out", "site", "empty"], root.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no opcode documents found in empty"));
}

#[test]
fn an_unknown_format_is_rejected_by_the_parser() {
    let root = tempfile::tempdir().unwrap();
    let output = visa(&["docs", "--out", "site", "--format", "pdf"], root.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("pdf"));
}

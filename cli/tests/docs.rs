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
            "cli.html",
            "guide.html",
            "index.html",
            "runtime.html",
            "style.css"
        ]
    );
    let page = fs::read_to_string(site.join("TWIDDLE.html")).unwrap();
    assert!(page.contains("<td><code>0b01</code></td><td><code>0x1</code></td><td>two</td>"));
    let index = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<a href=\"TWIDDLE.html\">TWIDDLE</a>"));
    // The repository's pages are published and linked from the index.
    assert!(
        index.contains("<a href=\"cli.html\">The visa command</a>"),
        "{index}"
    );
    let cli = fs::read_to_string(site.join("cli.html")).unwrap();
    assert!(
        cli.contains("Running kernels from the command line"),
        "{cli}"
    );
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
fn a_broken_document_is_left_out_and_listed_and_the_others_get_pages() {
    let root = tempfile::tempdir().unwrap();
    let spec = spec_dir(root.path());
    fs::write(spec.join("BAD.md"), "## Opcode\n\n  BAD = zzz\n").unwrap();
    let output = visa(&["docs", "--out", "site"], root.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("spec/BAD.md:3:9: warning: no opcode declared: bad opcode value `zzz`"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(1 instruction pages)"), "{stdout}");
    assert!(
        stdout.contains("left out (no page): spec/BAD.md"),
        "{stdout}"
    );
    assert!(root.path().join("site/TWIDDLE.html").is_file());
    assert!(!root.path().join("site/BAD.html").exists());
}

#[test]
fn the_shared_documents_and_a_broken_one_give_106_pages() {
    let Some(shared) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let spec = root.path().join("docs-in");
    assert_eq!(visa_testutil::copy_documents(&shared, &spec), 106);
    fs::write(spec.join("BROKEN.md"), visa_testutil::BROKEN_DOCUMENT).unwrap();
    let output = visa(&["docs", "--out", "site", "docs-in"], root.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("docs-in/BROKEN.md:7:1: warning: no Format table"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(106 instruction pages)"), "{stdout}");
    assert!(
        stdout.contains("left out (no page): docs-in/BROKEN.md"),
        "{stdout}"
    );
    let pages = fs::read_dir(root.path().join("site"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.ends_with(".html")
                && !["index.html", "guide.html", "cli.html", "runtime.html"].contains(&&*name)
        })
        .count();
    assert_eq!(pages, 106);
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

/// The built-in guide (docs/guide.md) is a page of the site, linked from the index and the
/// instruction pages; `--guide FILE` publishes another file and `--no-guide` none.
#[test]
fn the_guide_is_a_page_of_the_site_and_can_be_replaced_or_left_out() {
    let root = tempfile::tempdir().unwrap();
    spec_dir(root.path());
    let output = visa(&["docs", "--out", "site"], root.path());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let site = root.path().join("site");
    let guide = fs::read_to_string(site.join("guide.html")).unwrap();
    let source =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/guide.md")).unwrap();
    let title = source.lines().next().unwrap().trim_start_matches("# ");
    assert!(guide.contains("<h1 id="), "{guide}");
    assert!(guide.contains(&format!(">{title}</h1>")), "{guide}");
    assert!(
        guide.contains("<h2 id=\"declarations\">Declarations</h2>"),
        "{guide}"
    );
    assert!(
        guide.contains("<a href=\"#declarations\">Declarations</a>"),
        "a table of contents"
    );
    assert!(guide.contains("<pre class=\"example\">"), "{guide}");
    let index = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<a href=\"guide.html\">Guide</a>"),
        "{index}"
    );
    let page = fs::read_to_string(site.join("TWIDDLE.html")).unwrap();
    assert!(page.contains("<a href=\"guide.html\">Guide</a>"), "{page}");

    fs::write(
        root.path().join("mine.md"),
        "# My notes\n\n## First\n\nTWIDDLE it:\n\n```visaasm\ntwiddle (M1, 2) V(0,0)<1>\n```\n",
    )
    .unwrap();
    let output = visa(
        &[
            "docs", "--out", "md", "--format", "md", "--guide", "mine.md",
        ],
        root.path(),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let md = fs::read_to_string(root.path().join("md/guide.md")).unwrap();
    assert!(
        md.starts_with("[vISA reference](index.md) › My notes\n\n# My notes\n"),
        "{md}"
    );
    let index = fs::read_to_string(root.path().join("md/index.md")).unwrap();
    assert!(index.contains("[My notes](guide.md)"), "{index}");
    let output = visa(
        &["docs", "--out", "html2", "--guide", "mine.md"],
        root.path(),
    );
    assert!(output.status.success());
    let html = fs::read_to_string(root.path().join("html2/guide.html")).unwrap();
    // The mnemonic in the code block links to the instruction's page.
    assert!(
        html.contains(
            "<a class=\"mnemonic\" href=\"TWIDDLE.html\" title=\"TWIDDLE\">twiddle</a> (M1, 2)"
        ),
        "{html}"
    );

    let output = visa(&["docs", "--out", "none", "--no-guide"], root.path());
    assert!(output.status.success());
    assert!(!root.path().join("none/guide.html").exists());
    let index = fs::read_to_string(root.path().join("none/index.html")).unwrap();
    assert!(!index.contains("guide.html"));

    let output = visa(
        &["docs", "--out", "x", "--guide", "missing.md"],
        root.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: --guide: cannot read missing.md: "),
        "{stderr}"
    );
}

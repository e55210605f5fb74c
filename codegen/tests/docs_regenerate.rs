//! Regeneration: editing a document and generating again changes exactly what was edited.

mod docs_support;

use std::fs;
use std::path::Path;

use visa_codegen::docs::{self, Format};

const DOCUMENT: &str = "\
## Opcode

  FROB = 0x7e

## Format

| | | | |
| --- | --- | --- | --- |
| 0x7e(FROB) | Exec_size | Mode | Dst |

## Semantics

```
    dst = frob(mode)
```

## Description

Frobs every enabled channel of the destination.

- **Exec_size(ub):** How many channels run.

  - Bit[2..0]: channel count

    - 0b000: one channel
    - 0b001: two channels

- **Mode(ub):** Selects the frobbing style.

  - Bit[1..0]: style

    - 0b00: gentle
    - 0b01: firm

- **Dst(vec_operand):** Where the result goes. Must have type UD

## Text
```
    FROB.<mode> (<exec_size>) <dst>
```

## Notes
";

fn generate(spec: &Path, out: &Path, format: Format) -> (String, String) {
    let parsed = visa_codegen::parse_dirs(&[spec.to_path_buf()]);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    let documents = parsed.documents;
    docs::write_site(&documents, format, out).expect("site written");
    let ext = format.extension();
    let page = fs::read_to_string(out.join(format!("FROB.{ext}"))).expect("page");
    let index = fs::read_to_string(out.join(format!("index.{ext}"))).expect("index");
    (page, index)
}

fn edit(spec: &Path) {
    let edited = DOCUMENT
        .replace("Selects the frobbing style.", "Chooses how hard to frob.")
        .replace(
            "    - 0b01: firm\n",
            "    - 0b01: firm\n    - 0b10: violent {XEHP+}\n",
        );
    assert_ne!(edited, DOCUMENT);
    fs::write(spec.join("FROB.md"), edited).unwrap();
}

#[test]
fn edited_field_description_and_codes_change_the_html_page() {
    let spec = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    fs::write(spec.path().join("FROB.md"), DOCUMENT).unwrap();

    let (before, index_before) = generate(spec.path(), out.path(), Format::Html);
    let mode = docs_support::between(&before, "id=\"field-Mode\"", "</section>").unwrap();
    assert!(mode.contains("<p>Selects the frobbing style.</p>"));
    assert!(!mode.contains("0b10"));

    edit(spec.path());
    let (after, index_after) = generate(spec.path(), out.path(), Format::Html);
    let mode = docs_support::between(&after, "id=\"field-Mode\"", "</section>").unwrap();
    assert!(mode.contains("<p>Chooses how hard to frob.</p>"));
    assert!(!after.contains("Selects the frobbing style."));
    // The new code, with its platform tag (and the platform column it brings).
    assert!(mode.contains("<td><code>0b10</code></td><td><code>0x2</code></td><td>violent</td>"));
    assert!(mode.contains("<th>Platforms</th>"));
    assert!(mode.contains(">XEHP+</span>"));
    assert!(after.contains("Parts of this instruction are restricted by platform"));
    // Only the edited page changed; the rest of the page and the index are stable.
    assert_eq!(index_before, index_after);
    let head = |page: &str| {
        page.split("<section id=\"platforms\">")
            .next()
            .map(str::to_string)
    };
    assert_eq!(head(&before), head(&after));
    let up_to_mode = |page: &str| {
        docs_support::between(page, "<section id=\"encoding\">", "id=\"field-Mode\"")
            .map(str::to_string)
    };
    assert_eq!(up_to_mode(&before), up_to_mode(&after));
}

#[test]
fn edited_field_description_changes_the_markdown_page() {
    let spec = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    fs::write(spec.path().join("FROB.md"), DOCUMENT).unwrap();
    let (before, _) = generate(spec.path(), out.path(), Format::Markdown);
    assert!(before.contains("Selects the frobbing style."));
    edit(spec.path());
    let (after, _) = generate(spec.path(), out.path(), Format::Markdown);
    assert!(after.contains("Chooses how hard to frob."));
    assert!(!after.contains("Selects the frobbing style."));
    assert!(after.contains("| `0b10` | `0x2` | violent | `XEHP+` |"));
}

#[test]
fn generation_is_deterministic() {
    let spec = tempfile::tempdir().unwrap();
    fs::write(spec.path().join("FROB.md"), DOCUMENT).unwrap();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    assert_eq!(
        generate(spec.path(), a.path(), Format::Html),
        generate(spec.path(), b.path(), Format::Html)
    );
}

#[test]
fn pages_of_a_renamed_instruction_are_removed_and_other_files_are_kept() {
    let spec = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    fs::write(spec.path().join("FROB.md"), DOCUMENT).unwrap();
    let documents = visa_codegen::parse_dirs(&[spec.path().to_path_buf()]).documents;
    let first = docs::write_site(&documents, Format::Html, out.path()).unwrap();
    assert!(first.removed.is_empty());
    assert!(out.path().join("FROB.html").is_file());

    // Files the generator did not write stay, even when an edited manifest names them.
    fs::write(out.path().join("notes.txt"), "mine").unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("keep.html"), "outside").unwrap();
    let manifest = out.path().join(docs::MANIFEST);
    let mut listing = fs::read_to_string(&manifest).unwrap();
    listing.push_str("notes-not-listed-before.txt\n../keep.html\n/etc/hostname\n");
    fs::write(&manifest, listing).unwrap();

    fs::remove_file(spec.path().join("FROB.md")).unwrap();
    fs::write(
        spec.path().join("FRAB.md"),
        DOCUMENT.replace("FROB", "FRAB"),
    )
    .unwrap();
    let documents = visa_codegen::parse_dirs(&[spec.path().to_path_buf()]).documents;
    let second = docs::write_site(&documents, Format::Html, out.path()).unwrap();

    assert_eq!(second.removed, vec![out.path().join("FROB.html")]);
    assert!(!out.path().join("FROB.html").exists());
    assert!(out.path().join("FRAB.html").is_file());
    assert_eq!(
        fs::read_to_string(out.path().join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(outside.path().join("keep.html").is_file());
    let index = fs::read_to_string(out.path().join("index.html")).unwrap();
    assert!(index.contains("FRAB.html") && !index.contains("FROB.html"));
}

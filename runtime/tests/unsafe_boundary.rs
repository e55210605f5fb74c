//! `unsafe` lives in one module of the runtime, `jit::enter` (entering compiled code and the
//! helper ABI), and every use there carries a `SAFETY:` comment; every other module is under
//! the crate's `#![deny(unsafe_code)]`, which nothing else relaxes.

use std::path::{Path, PathBuf};

const ENTER: &str = "jit/enter.rs";

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("runtime/src is readable")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line without its `//` comment (string literals here hold no `//`).
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

#[test]
fn unsafe_code_is_confined_to_the_entry_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs must deny unsafe code"
    );
    let mut files = Vec::new();
    sources(&root, &mut files);
    assert!(files.len() > 20, "found only {} source files", files.len());
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        let allows = text.contains("allow(unsafe_code)");
        let uses = text.lines().any(|l| {
            let c = code(l);
            c.contains("unsafe ") || c.contains("unsafe{")
        });
        if relative == ENTER {
            assert!(
                allows && uses,
                "{relative} is the module that enters compiled code"
            );
        } else {
            assert!(!allows, "{relative} allows unsafe code; only {ENTER} may");
            assert!(!uses, "{relative} uses unsafe; only {ENTER} may");
        }
    }
}

#[test]
fn every_unsafe_use_has_a_safety_comment() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(ENTER);
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut uses = 0;
    for (i, line) in lines.iter().enumerate() {
        let c = code(line);
        if !(c.contains("unsafe {") || c.contains("unsafe impl") || c.contains("unsafe fn")) {
            continue;
        }
        // The use may be the value of a `let` or a call's argument: look above the statement.
        uses += 1;
        let above = &lines[i.saturating_sub(8)..i];
        assert!(
            above
                .iter()
                .any(|l| l.trim_start().starts_with("// SAFETY:")),
            "{ENTER}:{}: `{}` has no `// SAFETY:` comment above it",
            i + 1,
            line.trim()
        );
    }
    assert!(
        uses >= 3,
        "expected the entry, the helpers and the drop to use unsafe"
    );
}

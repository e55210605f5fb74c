//! The repository's prose pages stay readable in an editor and a terminal: no line over 120
//! characters outside tables and code blocks, and a README short enough to read at once.
//! (The opcode documents of `spec/` keep one bullet per field on one line, as the upstream
//! format does: the generator reads a field's properties from its bullet.)

use std::path::{Path, PathBuf};

const MAX_LINE: usize = 120;
const MAX_README_LINES: usize = 90;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every markdown file outside `spec/`, test fixtures, `corpus/` data and build output.
fn prose_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    let mut dirs = vec![root().to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable directory") {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                let skip = name.starts_with('.')
                    || ["target", "spec", "tests", "fixtures", "corpus"].contains(&name);
                if !skip {
                    dirs.push(path);
                }
            } else if name.ends_with(".md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

#[test]
fn prose_lines_are_at_most_120_characters() {
    let pages = prose_pages();
    assert!(pages.iter().any(|p| p.ends_with("README.md")));
    assert!(pages.iter().any(|p| p.ends_with("docs/cli.md")));
    let mut long = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("readable page");
        let mut in_code = false;
        for (index, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            let table_row = line.trim_start().starts_with('|');
            if !in_code && !table_row && line.chars().count() > MAX_LINE {
                let at = page.strip_prefix(root()).unwrap_or(page);
                long.push(format!(
                    "{}:{}: {} characters",
                    at.display(),
                    index + 1,
                    line.chars().count()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "lines over {MAX_LINE} characters:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= MAX_README_LINES,
        "README.md has {lines} lines (at most {MAX_README_LINES})"
    );
}

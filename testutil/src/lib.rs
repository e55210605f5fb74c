//! Test helpers shared by the crates of the workspace.
//!
//! Tests that read the reference material in `../shared` (beside the repository) find it with
//! [`shared`]. On a fresh clone the folder is absent: the test says so (`skipped: ../shared not
//! found`) and returns. CI always has the folder and sets [`REQUIRE_ENV`]` = 1`: there, a missing
//! folder or file fails the test instead, so that no test passes without testing.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// The environment variable that makes a missing `../shared` a failure (`1`; empty or `0` is
/// off).
pub const REQUIRE_ENV: &str = "VISA_REQUIRE_SHARED";

/// The repository root (the directory of the workspace's `Cargo.toml`).
pub fn repo_root() -> &'static Path {
    // This crate lives in `<root>/testutil`.
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Whether [`REQUIRE_ENV`] is set.
pub fn shared_required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The environment variable naming the reference folder when it is not `../shared` (a git
/// worktree elsewhere).
pub const DIR_ENV: &str = "VISA_SHARED_DIR";

/// The path `../shared/<relative>` (or `$VISA_SHARED_DIR/<relative>`) if it exists. When it does not, prints
/// `skipped: ../shared not found (<relative>)` and returns `None`, or panics when
/// [`REQUIRE_ENV`] is set.
pub fn shared(relative: &str) -> Option<PathBuf> {
    find(relative, shared_required(), "skipped: ../shared not found")
}

/// [`shared`] for a test that still runs on material of its own when `../shared` is absent:
/// prints `../shared not found (<relative>): <fallback>` instead of `skipped`, and panics under
/// [`REQUIRE_ENV`] like [`shared`].
pub fn shared_or(relative: &str, fallback: &str) -> Option<PathBuf> {
    let note = format!("../shared not found: {fallback}");
    find(relative, shared_required(), &note)
}

/// An opcode document the parser cannot use (its Format table has no rows): the one broken
/// document put beside good ones to show that builds and tools keep going. The parser leaves it
/// out with one warning at 7:1.
pub const BROKEN_DOCUMENT: &str = "## Opcode\n\n  BROKEN = 0xfe\n\n## Format\n\n| | |\n| --- | --- |\n\n## Description\n\n- **Dst(vec_operand):** out\n";

/// Copies the `*.md` documents of `from` into `to` (created if missing); returns how many.
pub fn copy_documents(from: &Path, to: &Path) -> usize {
    std::fs::create_dir_all(to).expect("the target directory is created");
    let mut count = 0;
    for entry in std::fs::read_dir(from).expect("the documents are readable") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path.file_name().expect("a file name");
            std::fs::copy(&path, to.join(name)).expect("the document is copied");
            count += 1;
        }
    }
    count
}

fn find(relative: &str, required: bool, note: &str) -> Option<PathBuf> {
    let base = std::env::var_os(DIR_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| repo_root().join("../shared"), PathBuf::from);
    let path = base.join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        !required,
        "{REQUIRE_ENV} is set but ../shared/{relative} is missing ({})",
        path.display()
    );
    println!("{note} ({relative})");
    None
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn a_missing_path_is_skipped_when_not_required() {
        assert_eq!(find("no/such/file", false, "skipped"), None);
    }

    #[test]
    #[should_panic(expected = "VISA_REQUIRE_SHARED is set but ../shared/no/such/file is missing")]
    fn a_missing_path_fails_when_required() {
        find("no/such/file", true, "skipped");
    }

    #[test]
    fn the_repository_root_holds_the_workspace() {
        assert!(super::repo_root().join("Cargo.toml").is_file());
        assert!(super::repo_root().join("spec").is_dir());
    }
}

//! Helpers shared by the `docs_*` integration tests: locating the document corpora and reading
//! generated pages loosely (tags stripped, entities and markdown escapes undone).
#![allow(dead_code)] // each test binary uses a different subset

use std::path::PathBuf;

use visa_codegen::model::Document;

/// The repository's own opcode documents.
pub fn spec_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec"))
}

/// The upstream documents in `../shared` (`None` with `skipped: ...` when absent; a failure
/// under `VISA_REQUIRE_SHARED=1`).
pub fn shared_instructions() -> Option<PathBuf> {
    visa_testutil::shared("visa-docs/instructions")
}

/// Parses a directory of documents, every one of which must give a model.
pub fn load(dir: &PathBuf) -> Vec<Document> {
    let parsed = visa_codegen::parse_dirs(std::slice::from_ref(dir));
    assert!(
        !parsed.has_errors() && parsed.left_out.is_empty() && !parsed.documents.is_empty(),
        "{} does not parse: {:#?}",
        dir.display(),
        parsed.diagnostics
    );
    parsed.documents
}

/// The visible text of an HTML fragment: tags removed, the five escapes decoded, whitespace
/// runs collapsed to one space.
pub fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, _) => text.push(c),
            (true, _) => {}
        }
    }
    collapse(
        &text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

/// Markdown text with backslash escapes of ASCII punctuation undone and whitespace collapsed.
pub fn markdown_text(md: &str) -> String {
    let mut text = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
            if let Some(n) = chars.next() {
                text.push(n);
            }
        } else {
            text.push(c);
        }
    }
    collapse(&text)
}

pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The part of `page` from `start` up to the first `end` after it.
pub fn between<'a>(page: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = page.find(start)?;
    let rest = &page[from..];
    let to = rest[start.len()..]
        .find(end)
        .map_or(rest.len(), |i| i + start.len());
    Some(&rest[..to])
}

/// `0b` + the code in binary, zero-padded to `width` bits (computed here, independently of the
/// generator).
pub fn binary(code: u64, width: u32) -> String {
    let mut digits = String::new();
    for bit in (0..width).rev() {
        digits.push(if (code >> bit) & 1 == 1 { '1' } else { '0' });
    }
    let significant = format!("{code:b}");
    if significant.len() > digits.len() {
        digits = significant;
    }
    format!("0b{digits}")
}

/// The byte size of a fixed-size field type token, `None` for operands.
pub fn size_of(token: &str) -> Option<u32> {
    match token {
        "ub" => Some(1),
        "uw" => Some(2),
        "ud" | "d" => Some(4),
        "uq" => Some(8),
        _ => None,
    }
}

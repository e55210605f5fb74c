//! Snapshot tests of the model (JSON) for the five seed documents and for every document in
//! `spec/`, plus the seed 004 == seed 001 check (a damaged web copy must read like the original).
//!
//! New `spec/` documents get new snapshots: review them, then accept with
//! `INSTA_UPDATE=always cargo test -p visa-codegen --test snapshots` (or `cargo insta accept`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use visa_codegen::model::Document;
use visa_codegen::parse_document;

fn seeds_dir() -> Option<PathBuf> {
    visa_testutil::shared("seeds")
}

fn sorted_files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Parses a file with its file name (not its path) as `file`, so snapshots are stable.
fn parse_file(path: &Path) -> Document {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let parsed = parse_document(&name, &text);
    let shown: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    assert!(shown.is_empty(), "{shown:#?}");
    parsed.document.expect("a document")
}

#[test]
fn seed_models() {
    let Some(dir) = seeds_dir() else { return };
    let files = sorted_files(&dir, "txt");
    assert_eq!(files.len(), 5);
    for path in files {
        let doc = parse_file(&path);
        let prefix = path.file_name().unwrap().to_string_lossy()[..3].to_string();
        insta::assert_json_snapshot!(format!("seed_{prefix}"), redact_prose(&doc));
    }
}

/// The seeds' prose is not ours to copy into the repository (licence rule): snapshots keep the
/// facts and replace each prose text by its size.
fn redact_prose(doc: &Document) -> Value {
    fn size(text: &str) -> Value {
        Value::String(format!(
            "[prose: {} chars, {} lines]",
            text.chars().count(),
            text.lines().count()
        ))
    }
    fn walk(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    match (key.as_str(), &*item) {
                        ("description" | "text", Value::String(text)) => *item = size(text),
                        _ => walk(item),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(doc).unwrap();
    // Syntax statements are facts: keep them.
    let syntax = value["syntax"].clone();
    walk(&mut value);
    value["syntax"] = syntax;
    value
}

#[test]
fn spec_models() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec"));
    for path in sorted_files(dir, "md") {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if stem.eq_ignore_ascii_case("readme") || stem.eq_ignore_ascii_case("index") {
            continue;
        }
        // The object-format document is no opcode document (`object` has its own tests).
        let text = std::fs::read_to_string(&path).unwrap();
        if visa_codegen::object::is_format_document(&text) {
            continue;
        }
        let doc = parse_file(&path);
        insta::assert_json_snapshot!(format!("spec_{stem}"), doc);
    }
}

/// The model as JSON without what legitimately differs between two copies of a document:
/// file name, locations, and prose (semantics, description, notes, field descriptions).
fn facts(doc: &Document) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("loc");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(doc).unwrap();
    let map = value.as_object_mut().unwrap();
    for key in ["file", "line", "semantics", "description", "notes"] {
        map.remove(key);
    }
    for field in map["fields"].as_array_mut().unwrap() {
        field.as_object_mut().unwrap().remove("description");
    }
    strip(&mut value);
    value
}

#[test]
fn damaged_web_copy_reads_like_the_original() {
    let Some(dir) = seeds_dir() else { return };
    let files = sorted_files(&dir, "txt");
    let original = parse_file(&files[1]);
    let damaged = parse_file(&files[4]);
    assert_eq!(original.full_name(), "SCATTER_SCALED");
    assert_eq!(facts(&original), facts(&damaged));
    // The comparison covers the facts that matter (guard against comparing two empty models).
    assert_eq!(damaged.fields.len(), 9);
    assert_eq!(damaged.fields[0].bitfields[1].values.len(), 16);
    assert_eq!(damaged.syntax.len(), 1);
    assert_eq!(damaged.properties.len(), 1);
    // The prose is there too, only laid out differently.
    assert!(
        damaged
            .semantics
            .unwrap()
            .text
            .contains("surface[offset+element_offset[i]]")
    );
    assert!(
        damaged
            .notes
            .unwrap()
            .text
            .starts_with("The behavior is undefined")
    );
}

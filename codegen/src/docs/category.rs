//! The category an instruction is listed under in the index, derived from its document.
//!
//! A `Category` property wins. Otherwise the category follows from what the document declares,
//! never from the instruction's name, checked in this order:
//! 1. documented out-of-bound behaviour, or a surface / address / message-descriptor field:
//!    memory access;
//! 2. a field whose name starts with "label" or "func": control flow;
//! 3. the source-modifier property: arithmetic or logic (saturation alone also means arithmetic);
//! 4. a destination operand: other computation;
//! 5. words of the description or semantics: jumps, calls and returns are control flow; barriers, fences and
//!    flushes are synchronisation; memory is a memory access;
//! 6. anything else: "Other".

use crate::model::{Document, FieldType};

pub const CONTROL_FLOW: &str = "Control flow";
pub const MEMORY: &str = "Memory access";
pub const ARITHMETIC: &str = "Arithmetic";
pub const LOGIC: &str = "Logic";
pub const COMPUTATION: &str = "Other computation";
pub const SYNCHRONISATION: &str = "Synchronisation";
pub const OTHER: &str = "Other";

const CONTROL_FLOW_FIELD_PREFIXES: &[&str] = &["label", "func"];
const MEMORY_FIELDS: &[&str] = &["surface", "address", "sfid", "msgdesc"];
const CONTROL_FLOW_WORDS: &[&str] = &[
    "jump", "jumps", "branch", "return", "returns", "call", "calls",
];
const MEMORY_WORDS: &[&str] = &["memory"];
const SYNCHRONISATION_WORDS: &[&str] = &["barrier", "fence", "flush", "flushed", "flushes"];

/// The index category of an instruction (one of the constants above), from its opcode and name.
pub fn category(doc: &Document) -> String {
    if let Some(explicit) = property(doc, "category").filter(|v| !v.is_empty()) {
        return explicit.to_string();
    }
    let has_field = |words: &[&str]| {
        doc.fields.iter().any(|f| {
            let name = f.name.to_ascii_lowercase();
            words.iter().any(|w| name.contains(w))
        })
    };
    let has_field_prefix = |prefixes: &[&str]| {
        doc.fields.iter().any(|f| {
            let name = f.name.to_ascii_lowercase();
            prefixes.iter().any(|p| name.starts_with(p))
        })
    };
    let found = if property(doc, "out-of-bound access").is_some() || has_field(MEMORY_FIELDS) {
        MEMORY
    } else if has_field_prefix(CONTROL_FLOW_FIELD_PREFIXES) {
        CONTROL_FLOW
    } else if let Some(by_modifier) = by_source_modifier(doc) {
        by_modifier
    } else if has_destination(doc) {
        COMPUTATION
    } else if prose_has(doc, CONTROL_FLOW_WORDS) {
        CONTROL_FLOW
    } else if prose_has(doc, SYNCHRONISATION_WORDS) {
        SYNCHRONISATION
    } else if prose_has(doc, MEMORY_WORDS) {
        MEMORY
    } else {
        OTHER
    };
    found.to_string()
}

fn by_source_modifier(doc: &Document) -> Option<&'static str> {
    let modifier = property(doc, "source modifier").map(str::to_ascii_lowercase);
    match modifier.as_deref() {
        Some(m) if m.contains("arithmetic") => Some(ARITHMETIC),
        Some(m) if m.contains("logic") => Some(LOGIC),
        _ if property(doc, "saturation").is_some() => Some(ARITHMETIC),
        _ => None,
    }
}

fn has_destination(doc: &Document) -> bool {
    doc.fields.iter().any(|f| {
        f.name.eq_ignore_ascii_case("dst")
            && matches!(f.ty, FieldType::VecOperand | FieldType::RawOperand)
    })
}

/// Whether the description or the semantics contains one of `words` (whole words, any case).
fn prose_has(doc: &Document, words: &[&str]) -> bool {
    [&doc.description, &doc.semantics]
        .into_iter()
        .flatten()
        .flat_map(|block| block.text.split(|c: char| !c.is_ascii_alphabetic()))
        .any(|w| words.iter().any(|k| w.eq_ignore_ascii_case(k)))
}

/// The trimmed value of the property named `key` (case-insensitive).
fn property<'a>(doc: &'a Document, key: &str) -> Option<&'a str> {
    doc.properties
        .iter()
        .find(|p| p.key.trim().eq_ignore_ascii_case(key))
        .map(|p| p.value.trim())
}

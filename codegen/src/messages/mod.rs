//! The hardware message-descriptor documents of `spec/messages/` (their format is in
//! `spec/messages/README.md`): [`parse`] reads one into a [`MessageDoc`], [`emit`] turns them into
//! the module `visa_isa::messages` (typed accessors and setters, open enums, field tables). The
//! generator knows no field by name: everything comes from the documents.

mod emit;
mod parse;

use std::path::Path;

use crate::model::Diagnostic;

pub use emit::emit;
pub use parse::parse_message_doc;

/// Which word of a message a field sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// The message descriptor (32 bits).
    Desc,
    /// The extended message descriptor (32 bits).
    ExDesc,
    /// The first payload register, counted in bits from its first byte.
    Payload,
}

/// One code of a coded field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageCode {
    /// Its value.
    pub value: u64,
    /// The first word of its label.
    pub token: String,
    /// The whole label.
    pub label: String,
}

/// One field of a message document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageField {
    /// Its name, as the Format table writes it.
    pub name: String,
    /// The word it is in.
    pub word: Word,
    /// Highest bit.
    pub hi: u32,
    /// Lowest bit.
    pub lo: u32,
    /// The bullet's description.
    pub description: String,
    /// Its codes (none for a number).
    pub codes: Vec<MessageCode>,
    /// `Used by:` tokens of the operation field (empty: every operation).
    pub used_by: Vec<String>,
    /// `When: Field in a, b`: the field applies only when another field holds one of these
    /// codes.
    pub when: Option<(String, Vec<String>)>,
    /// `vISA: lsc_<LscSubOp>`: the template of the vISA instruction's tokens that corresponds.
    pub visa: Option<String>,
    /// `On: ugm, ugml`: the shared functions that have the field (empty: all of the document's).
    pub on: Vec<String>,
}

/// One document of `spec/messages/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageDoc {
    /// The file it was read from.
    pub file: String,
    /// The module name (the file stem, lower case).
    pub module: String,
    /// The first heading.
    pub title: String,
    /// `## Shared functions`: (name, SFID code).
    pub shared_functions: Vec<(String, u8)>,
    /// The fields, in Format-table order.
    pub fields: Vec<MessageField>,
}

/// Reads every message document of `dir` (sorted by file name; a missing directory has none).
pub fn parse_message_dir(
    dir: &Path,
) -> (Vec<MessageDoc>, Vec<Diagnostic>, Vec<std::path::PathBuf>) {
    let mut docs = Vec::new();
    let mut diags = Vec::new();
    let files = match crate::parse::document_files(dir) {
        Ok(files) => files,
        Err(_) => return (docs, diags, Vec::new()),
    };
    for path in &files {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let (doc, mut d) = parse_message_doc(&path.display().to_string(), &text);
                docs.extend(doc);
                diags.append(&mut d);
            }
            Err(e) => diags.push(parse::diagnostic(
                &path.display().to_string(),
                crate::model::Loc::new(1, 1),
                format!("cannot read file: {e}"),
            )),
        }
    }
    (docs, diags, files)
}

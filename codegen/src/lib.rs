//! `visa-codegen`: reads the vISA opcode markdown documents into a typed [`model`] and generates
//! Rust (instruction tables, bitfield codecs, binary codec support) and the reference docs.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod build;
pub mod docs;
pub mod emit;
pub mod model;
pub mod parse;

pub use parse::dump::DumpDocument;
pub use parse::{ParseLimits, Parsed, parse_dirs, parse_document, parse_document_with};

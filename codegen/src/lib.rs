//! `visa-codegen`: reads the vISA opcode markdown documents into a typed [`model`] and generates
//! Rust (instruction tables, bitfield codecs, binary codec support) and the reference docs.
//!
//! - [`parse`]: markdown -> [`model::Document`], tolerant: what it cannot place is kept as text
//!   and reported as a warning with `file:line:col`;
//! - [`emit`]: model -> the generated sources of `visa-isa`;
//! - [`build`]: the entry point of `visa-isa`'s build script;
//! - [`docs`]: model -> the HTML or markdown reference;
//! - [`messages`]: the hardware message-descriptor documents of `spec/messages/` -> typed
//!   decoders and encoders;
//! - [`lint`]: consistency checks for the documents' maintainers (`visa spec lint`);
//! - [`object`]: the object-format document (`spec/OBJECT_FORMAT.md`) -> the `.isa` reader/writer.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod build;
pub mod docs;
pub mod emit;
pub mod lint;
pub mod messages;
pub mod model;
pub mod object;
pub mod parse;

pub use parse::dump::DumpDocument;
pub use parse::{ParseLimits, Parsed, ParsedDirs, parse_dirs, parse_document, parse_document_with};

//! `visa-codegen`: reads the vISA opcode markdown documents into a typed [`model`] and generates
//! Rust (instruction tables, bitfield codecs, binary codec support) and the reference docs.
#![forbid(unsafe_code)]

pub mod model;

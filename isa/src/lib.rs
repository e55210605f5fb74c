//! `visa-isa`: the vISA instruction set as typed Rust, generated from the opcode documents in
//! `spec/` by `visa-codegen`.
#![forbid(unsafe_code)]

pub mod ast;
pub mod desc;

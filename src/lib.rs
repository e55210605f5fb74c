//! `visa`: a typed toolkit for Intel's vISA (the virtual ISA of the Intel Graphics Compiler).
//!
//! This root crate re-exports the user-facing API of the workspace crates:
//! - [`codegen`]: the markdown spec parser and the code/doc generators;
//! - [`isa`]: the generated instruction tables, codecs and the assembly text parser/formatter;
//! - [`runtime`]: the CPU execution model.
#![forbid(unsafe_code)]

pub use visa_codegen as codegen;
pub use visa_isa as isa;
pub use visa_runtime as runtime;

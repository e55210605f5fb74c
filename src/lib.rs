//! `visa`: a typed toolkit for Intel's vISA (the virtual ISA of the Intel Graphics Compiler).
//!
//! This root crate re-exports the user-facing API of the workspace crates:
//! - [`codegen`]: the markdown spec parser and the code/doc generators;
//! - [`isa`]: the generated instruction tables, codecs and the assembly text parser/formatter;
//! - [`runtime`]: the CPU execution model;
//! - [`isa!`]: vISA kernels inline in Rust, checked at compile time, producing a [`Kernel`].
#![forbid(unsafe_code)]

mod kernel;

pub use kernel::{
    ImmediateError, ImmediateValue, IntoImmediate, Kernel, KernelError, LoadedKernel, Param, ParamKind,
};
pub use visa_codegen as codegen;
pub use visa_isa as isa;
pub use visa_macros::isa;
pub use visa_runtime as runtime;

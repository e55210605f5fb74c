//! `visa-isa`: the vISA instruction set as typed Rust, generated from the opcode documents in
//! `spec/` by `visa-codegen`.
//!
//! * [`INSTRUCTIONS`] and [`Opcode`]: the instruction table (static data) and its index.
//! * [`fields`]: one type per documented bitfield, with checked decode/encode.
//! * [`instrs`]: one struct per instruction and [`instrs::Instr`], convertible from and to the
//!   generic [`ast::Instruction`].
//! * [`codec`]: the binary encoding of instructions ([`codec::encode`], [`codec::decode`]).
//! * [`object`]: vISA object files (`.isa`), the container generated from `spec/OBJECT_FORMAT.md`.
//! * [`text`]: the assembly parser and formatter; [`ast`]: the generic instruction form.
//! * [`bits`] and [`typed`]: support for the generated code.
//!
//! The build script reads `spec/` (or `$VISA_SPEC_DIR`, relative to the workspace root); a
//! document that does not generate fails the build with its `file:line:col` diagnostics.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod bits;
pub mod codec;
pub mod desc;
pub mod messages;
pub mod object;
pub mod rules;
pub mod send;
pub mod text;
pub mod typed;

include!(concat!(env!("OUT_DIR"), "/opcode.rs"));
include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Types of the documented bitfields (generated): one enum per distinct sub-field definition,
/// one struct per field with several sub-fields.
#[allow(clippy::enum_variant_names)]
pub mod fields {
    include!(concat!(env!("OUT_DIR"), "/fields.rs"));
}

/// Typed instructions (generated): one struct per instruction, one member per Format field.
#[allow(clippy::large_enum_variant)]
pub mod instrs {
    include!(concat!(env!("OUT_DIR"), "/instrs.rs"));
}

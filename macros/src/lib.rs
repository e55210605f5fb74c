//! `visa-macros`: the `isa!` procedural macro.
#![forbid(unsafe_code)]

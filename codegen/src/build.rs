//! The build-script entry point: `visa-isa`'s `build.rs` calls [`generate_into`] to turn the
//! documents of a spec directory into the generated sources of the crate.
//!
//! A build keeps going: a document the parser leaves out, or one the generator cannot generate,
//! is reported as a warning and the others are generated. With [`Options::strict`] (the
//! environment variable [`STRICT_ENV`], set in CI for our own `spec/`) any warning fails the
//! build instead.

use std::path::{Path, PathBuf};

use crate::emit;
use crate::model::{Diagnostic, Loc, Severity};

/// What a successful generation read and reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    /// Every document file of the directory (for `cargo:rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
    /// Parser and generator warnings, document by document.
    pub warnings: Vec<Diagnostic>,
    /// How many instructions were generated.
    pub instructions: usize,
    /// The files the parser left out (no opcode, no Format table, not a document).
    pub left_out: Vec<PathBuf>,
}

/// The environment variable that makes every warning fatal (`1`; empty or `0` is off).
pub const STRICT_ENV: &str = "VISA_SPEC_STRICT";

/// Generation options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Any warning (of the parser or the generator) fails the generation.
    pub strict: bool,
}

/// Options from the environment: [`STRICT_ENV`] set to anything but `0` or empty is strict.
pub fn options_from_env() -> Options {
    Options {
        strict: std::env::var(STRICT_ENV).is_ok_and(|v| !v.is_empty() && v != "0"),
    }
}

/// Parses every document of `spec_dir` and writes the generated sources (`opcode.rs`,
/// `tables.rs`, `fields.rs`, `instrs.rs`) into `out_dir`, with the options of the environment.
/// Fails (with every diagnostic, `file:line:col: ...` when displayed) when the directory or a
/// document cannot be read, or on any warning when strict.
pub fn generate_into(spec_dir: &Path, out_dir: &Path) -> Result<Generation, Vec<Diagnostic>> {
    generate_with(spec_dir, out_dir, options_from_env())
}

/// [`generate_into`] with explicit options.
pub fn generate_with(
    spec_dir: &Path,
    out_dir: &Path,
    options: Options,
) -> Result<Generation, Vec<Diagnostic>> {
    let inputs = crate::parse::document_files(spec_dir).map_err(|e| {
        vec![io_diagnostic(
            spec_dir,
            &format!("cannot read the spec directory: {e}"),
        )]
    })?;
    let parsed = crate::parse::parse_dirs(&[spec_dir.to_path_buf()]);
    if parsed.has_errors() || (options.strict && !parsed.diagnostics.is_empty()) {
        return Err(parsed.diagnostics);
    }
    let generated = emit::generate(&parsed.documents)?;
    let mut warnings = parsed.diagnostics;
    warnings.extend(generated.warnings.iter().cloned());
    if options.strict && !warnings.is_empty() {
        return Err(warnings);
    }
    generated.write_to(out_dir).map_err(|e| {
        vec![io_diagnostic(
            out_dir,
            &format!("cannot write generated code: {e}"),
        )]
    })?;
    Ok(Generation {
        inputs,
        warnings,
        instructions: generated.instructions,
        left_out: parsed.left_out,
    })
}

fn io_diagnostic(path: &Path, message: &str) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        loc: Loc::new(1, 1),
        severity: Severity::Error,
        message: message.to_string(),
        kind: crate::model::DiagnosticKind::Unreadable,
    }
}

/// Reads the message-descriptor documents of `dir` (our `spec/messages/`, their own format,
/// [`crate::messages`]) and writes `out_dir/messages.rs`. They come from our own documents
/// whatever directory the opcode documents are read from: `visa-isa`'s hand-written code uses
/// the modules they generate. Returns the files read and the warnings (errors when `strict`).
pub fn generate_messages(
    dir: &Path,
    out_dir: &Path,
    strict: bool,
) -> Result<(Vec<PathBuf>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (messages, warnings, inputs) = crate::messages::parse_message_dir(dir);
    if strict && !warnings.is_empty() {
        return Err(warnings);
    }
    std::fs::write(
        out_dir.join("messages.rs"),
        crate::messages::emit(&messages),
    )
    .map_err(|e| {
        vec![io_diagnostic(
            out_dir,
            &format!("cannot write generated code: {e}"),
        )]
    })?;
    Ok((inputs, warnings))
}

/// The file [`generate_object_format`] writes.
pub const OBJECT_FORMAT_FILE: &str = "object_format.rs";

/// Reads the object-format document `doc` ([`crate::object`]) and writes the `.isa` records'
/// types, readers and writers into `out_dir/object_format.rs` (left untouched when unchanged).
/// Any problem of the document is an error: the container has no tolerant fallback.
pub fn generate_object_format(doc: &Path, out_dir: &Path) -> Result<(), Vec<Diagnostic>> {
    let text = std::fs::read_to_string(doc).map_err(|e| {
        vec![io_diagnostic(
            doc,
            &format!("cannot read the object-format document: {e}"),
        )]
    })?;
    let format = crate::object::parse(&doc.display().to_string(), &text)?;
    let code = crate::object::emit::emit(&format);
    let path = out_dir.join(OBJECT_FORMAT_FILE);
    if std::fs::read_to_string(&path).is_ok_and(|old| old == code) {
        return Ok(());
    }
    std::fs::write(&path, code).map_err(|e| {
        vec![io_diagnostic(
            out_dir,
            &format!("cannot write generated code: {e}"),
        )]
    })
}

//! The build-script entry point: `visa-isa`'s `build.rs` calls [`generate_into`] to turn the
//! documents of a spec directory into the generated sources of the crate.

use std::path::{Path, PathBuf};

use crate::emit::{self, Options, SyntaxPolicy};
use crate::model::{Diagnostic, Loc, Severity};

/// What a successful generation read and reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generation {
    /// Every document read (for `cargo:rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
    /// Parser and generator warnings.
    pub warnings: Vec<Diagnostic>,
}

/// The environment variable that makes unresolvable syntax templates warnings instead of errors
/// (for the upstream corpus, whose templates do not all follow the conventions).
pub const LENIENT_ENV: &str = "VISA_SPEC_LENIENT";

/// Options from the environment: [`LENIENT_ENV`] set to anything but `0` or empty selects
/// [`SyntaxPolicy::Warn`].
pub fn options_from_env() -> Options {
    let lenient = std::env::var(LENIENT_ENV).is_ok_and(|v| !v.is_empty() && v != "0");
    Options {
        unresolved_syntax: if lenient {
            SyntaxPolicy::Warn
        } else {
            SyntaxPolicy::Error
        },
    }
}

/// Parses every document of `spec_dir` and writes the generated sources (`opcode.rs`,
/// `tables.rs`, `fields.rs`, `instrs.rs`) into `out_dir`. On failure, returns every
/// diagnostic (`file:line:col: error: ...` when displayed).
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
    let (documents, mut warnings) = crate::parse::parse_dirs(&[spec_dir.to_path_buf()])?;
    let generated = emit::generate(&documents, options)?;
    warnings.extend(generated.warnings.iter().cloned());
    generated.write_to(out_dir).map_err(|e| {
        vec![io_diagnostic(
            out_dir,
            &format!("cannot write generated code: {e}"),
        )]
    })?;
    Ok(Generation { inputs, warnings })
}

fn io_diagnostic(path: &Path, message: &str) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        loc: Loc::new(1, 1),
        severity: Severity::Error,
        message: message.to_string(),
    }
}

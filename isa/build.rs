//! Generates the instruction tables and types from the opcode documents in `spec/` (or the
//! directory named by `$VISA_SPEC_DIR`, relative to the workspace root) with `visa-codegen`.
//!
//! The build keeps going on documents it has never seen: every parser or generator warning
//! (a construct kept as text, a document left out) becomes a `cargo:warning=file:line:col: ...`
//! line and the other documents are generated. `$VISA_SPEC_STRICT=1` makes any warning fatal
//! (CI builds our own `spec/` that way). The build fails on its own only when the directory or
//! a document cannot be read.

use std::path::PathBuf;

use visa_codegen::build::STRICT_ENV;

/// Made unresolvable syntax templates warnings in earlier versions; warnings never stop the
/// build now, so it has no effect (said when it is set).
const OLD_LENIENT_ENV: &str = "VISA_SPEC_LENIENT";

fn main() {
    println!("cargo:rerun-if-env-changed=VISA_SPEC_DIR");
    println!("cargo:rerun-if-env-changed={STRICT_ENV}");
    println!("cargo:rerun-if-env-changed={OLD_LENIENT_ENV}");
    if std::env::var_os(OLD_LENIENT_ENV).is_some() {
        println!(
            "cargo:warning={OLD_LENIENT_ENV} has no effect any more: warnings never stop the build (set {STRICT_ENV}=1 to make them fatal)"
        );
    }
    // The workspace root; a relative `$VISA_SPEC_DIR` is taken from there (build scripts run in
    // the package directory, not where cargo was invoked).
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default()).join("..");
    let spec_dir = match std::env::var_os("VISA_SPEC_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("spec"),
    };
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed={}", spec_dir.display());
    // The container's records come from our own object-format document, whatever $VISA_SPEC_DIR.
    let own_spec = root.join("spec");
    let Some((object_doc, _)) = visa_codegen::object::format_document_in(&own_spec) else {
        eprintln!(
            "error: {} has no object-format document (one with `struct` blocks)",
            own_spec.display()
        );
        std::process::exit(1);
    };
    println!("cargo:rerun-if-changed={}", object_doc.display());
    if let Err(diagnostics) = visa_codegen::build::generate_object_format(&object_doc, &out_dir) {
        for diagnostic in &diagnostics {
            eprintln!("{diagnostic}");
        }
        eprintln!("error: {} does not generate", object_doc.display());
        std::process::exit(1);
    }
    // So do the message descriptors (`spec/messages/`): hand-written code uses their modules.
    let messages_dir = root.join("spec").join("messages");
    println!("cargo:rerun-if-changed={}", messages_dir.display());
    let strict = visa_codegen::build::options_from_env().strict;
    match visa_codegen::build::generate_messages(&messages_dir, &out_dir, strict) {
        Ok((inputs, warnings)) => {
            for input in &inputs {
                println!("cargo:rerun-if-changed={}", input.display());
            }
            for warning in &warnings {
                println!("cargo:warning={warning}");
            }
        }
        Err(diagnostics) => {
            for diagnostic in &diagnostics {
                eprintln!("{diagnostic}");
            }
            eprintln!("error: {} does not generate", messages_dir.display());
            std::process::exit(1);
        }
    }
    match visa_codegen::build::generate_into(&spec_dir, &out_dir) {
        Ok(generation) => {
            for input in &generation.inputs {
                println!("cargo:rerun-if-changed={}", input.display());
            }
            for warning in &generation.warnings {
                println!("cargo:warning={warning}");
            }
            if !generation.warnings.is_empty() {
                println!(
                    "cargo:warning={} instructions generated from {} ({} document(s) left out); {STRICT_ENV}=1 makes these warnings errors",
                    generation.instructions,
                    spec_dir.display(),
                    generation.left_out.len()
                );
            }
        }
        Err(diagnostics) => {
            // A build script reports by failing: list every diagnostic, then stop.
            for diagnostic in &diagnostics {
                println!("cargo:warning={diagnostic}");
                eprintln!("{diagnostic}");
            }
            let why = if visa_codegen::build::options_from_env().strict {
                format!(" ({STRICT_ENV} is set: warnings are errors)")
            } else {
                String::new()
            };
            eprintln!(
                "error: the opcode documents in {} do not generate: {} diagnostic(s){why}",
                spec_dir.display(),
                diagnostics.len()
            );
            std::process::exit(1);
        }
    }
}

//! Generates the instruction tables and types from the opcode documents in `spec/` (or the
//! directory named by `$VISA_SPEC_DIR`, relative to the workspace root) with `visa-codegen`.
//! `$VISA_SPEC_LENIENT=1` turns unresolvable syntax templates into warnings.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=VISA_SPEC_DIR");
    println!(
        "cargo:rerun-if-env-changed={}",
        visa_codegen::build::LENIENT_ENV
    );
    // The workspace root; a relative `$VISA_SPEC_DIR` is taken from there (build scripts run in
    // the package directory, not where cargo was invoked).
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default()).join("..");
    let spec_dir = match std::env::var_os("VISA_SPEC_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("spec"),
    };
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed={}", spec_dir.display());
    match visa_codegen::build::generate_into(&spec_dir, &out_dir) {
        Ok(generation) => {
            for input in &generation.inputs {
                println!("cargo:rerun-if-changed={}", input.display());
            }
            for warning in &generation.warnings {
                println!("cargo:warning={warning}");
            }
        }
        Err(diagnostics) => {
            // A build script reports by failing: list every document error, then stop.
            for diagnostic in &diagnostics {
                println!("cargo:warning={diagnostic}");
                eprintln!("{diagnostic}");
            }
            eprintln!(
                "error: the opcode documents in {} do not generate ({} error(s))",
                spec_dir.display(),
                diagnostics.len()
            );
            std::process::exit(1);
        }
    }
}

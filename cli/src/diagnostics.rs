//! Diagnostics of the spec commands (`visa spec dump`, `visa spec lint`, `visa docs`): on
//! stderr as `file:line:col: warning: message`, and as JSON objects.

use visa_codegen::ParsedDirs;
use visa_codegen::model::{Diagnostic, DiagnosticKind};

/// One diagnostic in the JSON output.
#[derive(Debug, serde::Serialize)]
pub struct JsonDiagnostic<'a> {
    file: &'a str,
    line: u32,
    col: u32,
    severity: &'static str,
    kind: DiagnosticKind,
    message: &'a str,
}

/// The JSON form of `d`.
pub fn json(d: &Diagnostic) -> JsonDiagnostic<'_> {
    JsonDiagnostic {
        file: &d.file,
        line: d.loc.line,
        col: d.loc.col,
        severity: if d.is_error() { "error" } else { "warning" },
        kind: d.kind,
        message: &d.message,
    }
}

/// Prints the diagnostics on stderr and a one-line summary of what was left out; returns whether
/// the command fails (an unreadable document, or any diagnostic when `strict`).
pub fn report(command: &str, parsed: &ParsedDirs, strict: bool) -> bool {
    for diagnostic in &parsed.diagnostics {
        eprintln!("{diagnostic}");
    }
    let errors = parsed.errors().count();
    let warnings = parsed.diagnostics.len() - errors;
    if !parsed.diagnostics.is_empty() {
        let left_out: Vec<String> = parsed
            .left_out
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let left_out = if left_out.is_empty() {
            String::new()
        } else {
            format!("; left out: {}", left_out.join(", "))
        };
        eprintln!(
            "{command}: {} document(s), {warnings} warning(s), {errors} error(s){left_out}",
            parsed.documents.len()
        );
    }
    errors > 0 || (strict && !parsed.diagnostics.is_empty())
}

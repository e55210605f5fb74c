//! `visa spec lint`: consistency checks of the opcode documents, for their maintainers.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use visa_codegen::model::Diagnostic;

pub const LINT_LONG_ABOUT: &str = "\
Check the opcode documents (*.md, *.txt of each DIR, or single files) for inconsistencies, for the
documents' maintainers. Reported, with their `file:line:col` and a kind in brackets:

  inside a document: everything the parser reports (fields of the Format table without a bullet
  and bullets no table has [field-without-bullet, bullet-without-field], code lists with duplicate
  codes [duplicate-code] or codes wider than their bits [code-too-wide], constructs kept as text,
  documents left out), syntax placeholders that name no field [syntax], `Compiler checks` items
  that are no rule or name no field or code of the document [compiler-checks], `Bit[..]` ranges
  of one field that overlap [overlapping-bits], codes inside a code range [overlapping-codes];

  across documents: an opcode value (with its sub-operation) declared twice or under two names
  [opcode-reused], and sibling documents (the sub-operations of one opcode, or names that differ
  in one `_`-separated word) that disagree on a field of the same name: its type, or the code
  behind an assembly token [sibling-mismatch].

The exit code is 1 when there is any finding, 0 otherwise.

With --json, stdout is one JSON array of findings:
  [{\"file\": string, \"line\": integer, \"col\": integer, \"severity\": \"warning\" | \"error\",
    \"kind\": string, \"message\": string}]";

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Print the findings as a JSON array (schema in --help).
    #[arg(long)]
    json: bool,
    /// Directories holding the opcode documents, or single documents.
    #[arg(value_name = "DIR", default_value = "spec")]
    dirs: Vec<PathBuf>,
}

pub fn run(args: &LintArgs) -> ExitCode {
    let parsed = visa_codegen::parse_dirs(&args.dirs);
    let findings = visa_codegen::lint::lint(&parsed);
    let output = if args.json {
        let list: Vec<_> = findings.iter().map(crate::diagnostics::json).collect();
        match serde_json::to_string_pretty(&list) {
            Ok(json) => json + "\n",
            Err(error) => {
                eprintln!("visa spec lint: cannot serialise the findings: {error}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        let mut text: String = findings.iter().map(line).collect();
        text.push_str(&format!(
            "visa spec lint: {} document(s), {} finding(s)\n",
            parsed.documents.len(),
            findings.len()
        ));
        text
    };
    let _ = std::io::stdout().lock().write_all(output.as_bytes());
    if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `file:line:col: warning: message [kind]`.
fn line(finding: &Diagnostic) -> String {
    let kind = serde_json::to_value(finding.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!("{finding} [{kind}]\n")
}

//! `visa spec ...`: inspect the opcode documents.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use visa_codegen::model::{Diagnostic, Document};
use visa_codegen::{DumpDocument, ParsedDirs};

#[derive(Debug, Subcommand)]
pub enum SpecCommand {
    /// Parse the opcode documents and print their model.
    #[command(long_about = DUMP_LONG_ABOUT)]
    Dump(DumpArgs),
}

const DUMP_LONG_ABOUT: &str = "\
Parse every opcode document (*.md, *.txt; README.md and index.md skipped) of each DIR, in file-name
order (a PATH that names a file is that one document), and print the model of each.

The parser is tolerant: what it cannot place is kept as description text and reported as a warning
on stderr, `file:line:col: warning: message`; a document without an opcode or a Format table is left
out with one warning. The exit code is 0 with warnings, and 1 only when a directory or a document
cannot be read at all (`error:` lines) or, with --strict, when there is any warning.

With --json, stdout is one JSON array with one object per document (left-out documents have no
object: their warning is on stderr):
  {
    \"file\": string,                 path of the document
    \"line\": integer,                line of the `## Opcode` heading
    \"name\": string,                 opcode names joined by `_` (e.g. \"SVM_GATHER\")
    \"opcodes\": [{\"name\": string, \"value\": integer}],   parent opcode first, then sub-operations
    \"fields\": [{                    in encoding order (union of all Format tables)
        \"name\": string, \"type\": string (ub, uw, ud, d, uq, scalar, vec_operand, raw_operand, or as written),
        \"optional\": bool, \"allowed_types\": [string], \"operand_classes\": [string],
        \"values\": [{\"code\": integer, \"label\": string, \"platforms\": [string]}],
        \"range\": [integer, integer] | null,
        \"repeat\": string | null }],  a list field: the field holding its length
    \"bitfields\": [{\"field\": string, \"hi\": integer, \"lo\": integer, \"description\": string,
        \"platforms\": [string], \"values\": [{\"code\": integer, \"label\": string, \"platforms\": [string]}]}],
    \"syntax\": [string],             the Text section's statements as written
    \"properties\": {string: string}, the Properties bullets (key -> value)
    \"conditions\": [string],         the `### CONDITION` texts of conditional Format tables
    \"diagnostics\": [{\"file\": string, \"line\": integer, \"col\": integer,
        \"severity\": \"warning\" | \"error\", \"message\": string}]   the document's warnings
  }
Platform tags are written as in the documents: {XEHP+} (since), {-XEHP} (before), {XEHP} (only).";

#[derive(Debug, Args)]
pub struct DumpArgs {
    /// Print a JSON array (schema in --help) instead of the readable summary.
    #[arg(long)]
    json: bool,
    /// Exit with 1 when there is any warning.
    #[arg(long)]
    strict: bool,
    /// Directories holding the opcode documents, or single documents.
    #[arg(value_name = "PATH", default_value = "spec")]
    dirs: Vec<PathBuf>,
}

pub fn run(command: SpecCommand) -> ExitCode {
    match command {
        SpecCommand::Dump(args) => dump(&args),
    }
}

/// One diagnostic in the JSON output.
#[derive(Debug, serde::Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    line: u32,
    col: u32,
    severity: &'static str,
    message: &'a str,
}

fn json_diagnostic(d: &Diagnostic) -> JsonDiagnostic<'_> {
    JsonDiagnostic {
        file: &d.file,
        line: d.loc.line,
        col: d.loc.col,
        severity: if d.is_error() { "error" } else { "warning" },
        message: &d.message,
    }
}

/// A document's JSON object: the dump plus its diagnostics.
#[derive(Debug, serde::Serialize)]
struct JsonDocument<'a> {
    #[serde(flatten)]
    dump: DumpDocument,
    diagnostics: Vec<JsonDiagnostic<'a>>,
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

fn dump(args: &DumpArgs) -> ExitCode {
    let parsed = visa_codegen::parse_dirs(&args.dirs);
    let failed = report("visa spec dump", &parsed, args.strict);
    let documents = &parsed.documents;
    let output = if args.json {
        let dumps: Vec<JsonDocument<'_>> = documents
            .iter()
            .map(|doc| JsonDocument {
                dump: DumpDocument::new(doc),
                diagnostics: parsed
                    .diagnostics
                    .iter()
                    .filter(|d| d.file == doc.file)
                    .map(json_diagnostic)
                    .collect(),
            })
            .collect();
        match serde_json::to_string_pretty(&dumps) {
            Ok(json) => json + "\n",
            Err(error) => {
                eprintln!("visa spec dump: cannot serialise the model: {error}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        documents.iter().map(summary).collect()
    };
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`visa spec dump | head`) is not an error worth reporting.
    let _ = stdout.write_all(output.as_bytes());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A readable summary of one document.
fn summary(doc: &Document) -> String {
    let mut out = String::new();
    let opcodes: Vec<String> = doc
        .opcodes
        .iter()
        .map(|o| format!("{} = 0x{:02x}", o.name, o.value))
        .collect();
    out.push_str(&format!(
        "{} ({})  {}:{}\n",
        doc.full_name(),
        opcodes.join(", "),
        doc.file,
        doc.line
    ));
    for table in &doc.formats {
        if let Some(condition) = &table.condition {
            out.push_str(&format!("  when {condition}\n"));
        }
        let cells: Vec<String> = table
            .fields
            .iter()
            .map(|f| format!("{}{}", f.name, if f.optional { "*" } else { "" }))
            .collect();
        out.push_str(&format!("  format: {}\n", cells.join(" ")));
    }
    for field in &doc.fields {
        let mut line = format!("  {}: {}", field.name, field.ty.token());
        if !field.allowed_types.is_empty() {
            let types: Vec<&str> = field
                .allowed_types
                .iter()
                .map(|t| t.name.as_str())
                .collect();
            line.push_str(&format!("  types {}", types.join(",")));
        }
        if !field.operand_classes.is_empty() {
            line.push_str(&format!("  classes {}", field.operand_classes.join(",")));
        }
        if let Some((lo, hi)) = field.range {
            line.push_str(&format!("  range [{lo}, {hi}]"));
        }
        out.push_str(&line);
        out.push('\n');
        for bit in &field.bitfields {
            out.push_str(&format!(
                "    Bit[{}..{}] {}: {} code(s)\n",
                bit.hi,
                bit.lo,
                bit.description,
                bit.values.len()
            ));
        }
        if !field.values.is_empty() {
            out.push_str(&format!("    {} value(s)\n", field.values.len()));
        }
    }
    for property in &doc.properties {
        out.push_str(&format!("  {}: {}\n", property.key, property.value));
    }
    for line in &doc.syntax {
        out.push_str(&format!("  syntax: {}\n", line.text.replace('\n', " ")));
    }
    out.push('\n');
    out
}

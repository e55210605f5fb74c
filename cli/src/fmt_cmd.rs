//! `visa fmt [--write | --check] [FILE...]`: print vISA assembly in canonical form, keeping its
//! comments and blank lines (`visa_isa::text::format_source`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::render::Renderer;

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// The assembly files; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Rewrite each file in place (files that are already formatted are left untouched).
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Print nothing for formatted files; for others a diff to their canonical form, and exit 1.
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    color: crate::render::ColorArg,
}

/// Reads the input named on the command line: (name for messages, text); a vISA object file
/// (`.isa`) reads as its disassembly.
pub fn read_input(file: Option<&PathBuf>) -> Result<(String, String), String> {
    match file {
        Some(path) if path.as_os_str() != "-" => {
            crate::object_cmd::text_of(path).map(|text| (path.display().to_string(), text))
        }
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("<stdin>: error: cannot read: {e}"))?;
            Ok(("<stdin>".to_string(), text))
        }
    }
}

/// A unified diff from `old` to `new`, with `name` in its headers.
fn diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}

pub fn run(args: &FmtArgs) -> ExitCode {
    let stdin = PathBuf::from("-");
    let files: Vec<&PathBuf> = if args.files.is_empty() {
        vec![&stdin]
    } else {
        args.files.iter().collect()
    };
    if args.write && files.iter().any(|f| f.as_os_str() == "-") {
        eprintln!("error: `--write` needs files to rewrite, not standard input");
        return ExitCode::from(2);
    }
    let renderer = Renderer::new(args.color.color);
    let mut failed = false;
    for file in files {
        let (name, text) = match read_input(Some(file)) {
            Ok(input) => input,
            Err(message) => {
                eprintln!("{message}");
                failed = true;
                continue;
            }
        };
        let formatted = match visa_isa::text::format_source(&text) {
            Ok(formatted) => formatted,
            Err(errors) => {
                renderer.text_errors(&name, &text, &errors);
                failed = true;
                continue;
            }
        };
        if args.check {
            if formatted != text {
                print!("{}", diff(&name, &text, &formatted));
                failed = true;
            }
        } else if args.write {
            if formatted != text
                && let Err(e) = std::fs::write(file, &formatted)
            {
                eprintln!("{name}: error: cannot write: {e}");
                failed = true;
            }
        } else {
            print!("{formatted}");
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

//! `visa fmt [FILE|-]`: print vISA assembly in canonical form.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// The assembly file; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Reads the input named on the command line: (name for messages, text).
pub fn read_input(file: Option<&PathBuf>) -> Result<(String, String), String> {
    match file {
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map(|text| (path.display().to_string(), text))
            .map_err(|e| format!("{}: error: cannot read: {e}", path.display())),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("<stdin>: error: cannot read: {e}"))?;
            Ok(("<stdin>".to_string(), text))
        }
    }
}

pub fn run(args: &FmtArgs) -> ExitCode {
    let (name, text) = match read_input(args.file.as_ref()) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    match visa_isa::text::parse(&text) {
        Ok(module) => {
            print!("{}", visa_isa::text::format_module(&module));
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("{name}:{error}");
            }
            ExitCode::FAILURE
        }
    }
}

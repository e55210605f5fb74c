//! `visa check FILE`: parse and validate vISA assembly (declarations, labels, operands, regions).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use visa_isa::ast::StmtKind;

use crate::fmt_cmd::read_input;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The assembly file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub fn run(args: &CheckArgs) -> ExitCode {
    let (name, text) = match read_input(Some(&args.file)) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let module = match visa_isa::text::parse(&text) {
        Ok(module) => module,
        Err(errors) => {
            for error in &errors {
                eprintln!("{name}:{error}");
            }
            return ExitCode::FAILURE;
        }
    };
    let diagnostics = visa_isa::text::check(&module);
    for diagnostic in &diagnostics {
        eprintln!("{name}:{diagnostic}");
    }
    if diagnostics.iter().any(|d| d.is_error()) {
        return ExitCode::FAILURE;
    }
    let instructions = module
        .stmts
        .iter()
        .filter(|s| matches!(s.kind, StmtKind::Instr(_)))
        .count();
    println!("{name}: ok ({instructions} instructions)");
    ExitCode::SUCCESS
}

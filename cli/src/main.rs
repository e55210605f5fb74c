//! The `visa` command-line tool: one subcommand enum, each subcommand in its own module.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod check_cmd;
mod desc_cmd;
mod diagnostics;
mod docs_cmd;
mod fmt_cmd;
mod launch_cmd;
mod lint_cmd;
mod object_cmd;
mod progress;
mod render;
mod run_cmd;
mod spec_cmd;

#[derive(Debug, Parser)]
#[command(name = "visa", version, about = "A typed toolkit for Intel's vISA")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Work with the opcode documents (the spec).
    #[command(subcommand)]
    Spec(spec_cmd::SpecCommand),
    /// Generate the reference documentation (HTML or markdown) from the opcode documents.
    Docs(docs_cmd::DocsArgs),
    /// Print vISA assembly in canonical form, keeping comments and blank lines (FILEs, or
    /// `-`/nothing for standard input); `--write` rewrites files, `--check` shows a diff.
    Fmt(fmt_cmd::FmtArgs),
    /// Check vISA assembly: declarations, scopes, labels, operand kinds and types, regions.
    Check(check_cmd::CheckArgs),
    /// Assemble a kernel into a vISA object file (`.isa`), the Intel compiler's binary form.
    Asm(object_cmd::AsmArgs),
    /// Print the assembly of a vISA object file (`.isa`).
    Dis(object_cmd::DisArgs),
    /// Run a kernel on the CPU runtime, binding its parameters from the command line.
    Run(run_cmd::RunArgs),
    /// Launch an OpenCL kernel compiled by IGC (a zebin and its dumped vISA) with the driver's
    /// ABI, and print its buffers.
    Launch(launch_cmd::LaunchArgs),
    /// Decode a raw send's message descriptor: its fields and the equivalent vISA instruction.
    Desc(desc_cmd::DescArgs),
    /// Print a shell completion script for `visa` (e.g. `visa completions bash >
    /// ~/.local/share/bash-completion/completions/visa`).
    Completions {
        /// The shell: bash, elvish, fish, powershell or zsh.
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Spec(command) => spec_cmd::run(command),
        Command::Docs(args) => docs_cmd::run(&args),
        Command::Fmt(args) => fmt_cmd::run(&args),
        Command::Check(args) => check_cmd::run(&args),
        Command::Run(args) => run_cmd::run(&args),
        Command::Launch(args) => launch_cmd::run(&args),
        Command::Asm(args) => object_cmd::asm(&args),
        Command::Dis(args) => object_cmd::dis(&args),
        Command::Desc(args) => desc_cmd::run(&args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "visa", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

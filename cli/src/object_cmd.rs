//! `visa asm FILE.visaasm [-o FILE.isa]` and `visa dis FILE.isa`: assembly <-> vISA object files
//! (`visa_isa::object`), and [`text_of`], which lets the other commands take either.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use visa_isa::object::Object;
use visa_isa::rules::Platform;

use crate::render::{Renderer, Report};

#[derive(Debug, Args)]
pub struct AsmArgs {
    /// The assembly file (one `.kernel`).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Where to write the object file (default: FILE with the extension `.isa`).
    #[arg(short, long, value_name = "FILE.isa")]
    output: Option<PathBuf>,
    /// The platform the kernel is checked for before it is written.
    #[arg(long, value_name = "NAME", value_parser = crate::check_cmd::parse_platform)]
    platform: Option<Platform>,
    #[command(flatten)]
    color: crate::render::ColorArg,
}

#[derive(Debug, Args)]
pub struct DisArgs {
    /// The object file.
    #[arg(value_name = "FILE.isa")]
    file: PathBuf,
}

/// The magic number that starts an object file.
const MAGIC: &[u8; 4] = b"CISA";

/// The assembly text of `path`: the file itself, or the disassembly of an object file (one that
/// starts with `CISA`). Errors are printed lines (`FILE: error: ...`).
pub fn text_of(path: &Path) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("{}: error: cannot read: {e}", path.display()))?;
    if bytes.starts_with(MAGIC) {
        return disassemble(&bytes).map_err(|e| format!("{}: error: {e}", path.display()));
    }
    String::from_utf8(bytes).map_err(|_| {
        format!(
            "{}: error: not UTF-8 text and not a vISA object file",
            path.display()
        )
    })
}

fn disassemble(bytes: &[u8]) -> Result<String, visa_isa::object::ObjectError> {
    let module = Object::read(bytes)?.to_module()?;
    Ok(visa_isa::text::format_module(&module))
}

/// Prints the assembly of the object file. When an instruction stream stops decoding, what
/// was read (every declaration, the instructions before it) is printed all the same, then the
/// error: the compiler's own files hold incomplete instruction streams
/// (spec/OBJECT_FORMAT.md, "Known differences"), and their declarations are still worth seeing.
pub fn dis(args: &DisArgs) -> ExitCode {
    let file = args.file.display();
    let bytes = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{file}: error: cannot read: {e}");
            return ExitCode::FAILURE;
        }
    };
    match Object::read(&bytes).and_then(|object| object.to_module_partial()) {
        Ok((module, error)) => {
            print!("{}", visa_isa::text::format_module(&module));
            match error {
                None => ExitCode::SUCCESS,
                Some(e) => {
                    eprintln!(
                        "{file}: error: {e}\n{file}: note: the declarations and the instructions \
                         before it are printed; the instruction streams of files written by IGC \
                         1.0.x are incomplete (only the first operands of each instruction)"
                    );
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("{file}: error: {e}");
            ExitCode::FAILURE
        }
    }
}

pub fn asm(args: &AsmArgs) -> ExitCode {
    let name = args.file.display().to_string();
    let text = match text_of(&args.file) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let renderer = Renderer::new(args.color.color);
    let module = match visa_isa::text::parse(&text) {
        Ok(module) => module,
        Err(errors) => {
            renderer.text_errors(&name, &text, &errors);
            return ExitCode::FAILURE;
        }
    };
    let options = visa_isa::text::CheckOptions {
        platform: args.platform,
        ..Default::default()
    };
    let diagnostics = visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &options);
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    if !errors.is_empty() {
        for diagnostic in errors {
            renderer.report(&name, &text, &Report::check(diagnostic));
        }
        renderer.finish();
        return ExitCode::FAILURE;
    }
    let bytes = match Object::from_module(&module).and_then(|object| object.write()) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension("isa"));
    match std::fs::write(&output, bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: error: cannot write: {e}", output.display());
            ExitCode::FAILURE
        }
    }
}

//! `visa check FILE`: parse and validate vISA assembly with the one rule set that `isa!` and the
//! runtime loader use (`visa_isa::rules`, `visa_isa::text::check_with_options`): errors are
//! what the Intel compiler's verifier rejects; warnings are rules only a per-instruction
//! document states (naming it) and advice. Then the text is loaded as `visa run` would load it:
//! what the runtime does not execute, or a limit it has, is reported as a warning, so that
//! `check` never passes silently what `run` rejects.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use visa_isa::ast::StmtKind;
use visa_isa::rules::Platform;
use visa_isa::text::CheckOptions;
use visa_runtime::{LoadOptions, Program};

use crate::fmt_cmd::read_input;
use crate::render::{MessageFormat, Renderer, Report, Severity};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The assembly file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Apply the rules of this platform (bdw ... xe3p_graphics: pvc, dg2, tgl, xe2, ...);
    /// without it, what some platform accepts is accepted.
    #[arg(long, value_name = "NAME", value_parser = parse_platform)]
    platform: Option<Platform>,
    /// Treat warnings as errors (the documents' own type maps, listed types and modifier
    /// properties, and what the runtime does not execute).
    #[arg(long)]
    deny_warnings: bool,
    #[command(flatten)]
    color: crate::render::ColorArg,
    #[command(flatten)]
    message_format: crate::render::MessageFormatArg,
}

pub fn parse_platform(name: &str) -> Result<Platform, String> {
    Platform::parse(name)
        .ok_or_else(|| format!("unknown platform `{name}` (known: {})", Platform::names()))
}

pub fn run(args: &CheckArgs) -> ExitCode {
    let (name, text) = match read_input(Some(&args.file)) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let format = args.message_format.message_format;
    let renderer = Renderer::with_format(args.color.color, format);
    let module = match visa_isa::text::parse(&text) {
        Ok(module) => module,
        Err(errors) => {
            renderer.text_errors(&name, &text, &errors);
            return ExitCode::FAILURE;
        }
    };
    let options = CheckOptions {
        platform: args.platform,
        ..Default::default()
    };
    let diagnostics = visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &options);
    for diagnostic in &diagnostics {
        renderer.report(&name, &text, &Report::check(diagnostic));
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let mut warnings = diagnostics.len() - errors;
    if errors == 0 {
        // What `visa run` would refuse: every runtime limitation and limit, as warnings. The
        // checker has run above; the loader's analysis does not run it again.
        let mut load = LoadOptions::default();
        if let Some(platform) = args.platform {
            load = load.platform(platform);
        }
        let grf = if args.platform.is_none() {
            format!(" (with {}-byte GRFs)", load.grf_bytes)
        } else {
            String::new()
        };
        for refusal in Program::analyse(&module, &load) {
            let message = format!("`visa run`{grf} stops here: {}", refusal.message);
            let mut report = Report::new(refusal.span, Severity::Warning, "runtime", message);
            report.suggestion = refusal.suggestion;
            renderer.report(&name, &text, &report);
            warnings += 1;
        }
    }
    renderer.finish();
    // For tests of the promise above: the checker ran once for this file.
    if std::env::var_os("VISA_REPORT_CHECKER_RUNS").is_some() {
        eprintln!("checker runs: {}", visa_isa::text::checker_runs());
    }
    if errors > 0 || args.deny_warnings && warnings > 0 {
        return ExitCode::FAILURE;
    }
    let instructions = module
        .stmts
        .iter()
        .filter(|s| matches!(s.kind, StmtKind::Instr(_)))
        .count();
    let note = match warnings {
        0 => String::new(),
        1 => ", 1 warning".to_string(),
        n => format!(", {n} warnings"),
    };
    if format == MessageFormat::Human {
        println!("{name}: ok ({instructions} instructions{note})");
    }
    ExitCode::SUCCESS
}

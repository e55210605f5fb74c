//! `visa docs`: generate the reference documentation (static HTML or markdown) from the opcode
//! documents.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use visa_codegen::docs::{self, Format};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocsFormat {
    /// index.html + style.css + NAME.html per instruction (offline, no network resources).
    Html,
    /// index.md + NAME.md per instruction.
    Md,
}

#[derive(Debug, Args)]
pub struct DocsArgs {
    /// Directory to write the site into (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DocsFormat::Html)]
    format: DocsFormat,
    /// Directories holding the opcode documents.
    #[arg(value_name = "SPEC_DIR", default_value = "spec")]
    dirs: Vec<PathBuf>,
}

pub fn run(args: &DocsArgs) -> ExitCode {
    let parsed = visa_codegen::parse_dirs(&args.dirs);
    let failed = crate::spec_cmd::report("visa docs", &parsed, false);
    let documents = &parsed.documents;
    if documents.is_empty() {
        let dirs: Vec<String> = args.dirs.iter().map(|d| d.display().to_string()).collect();
        eprintln!(
            "visa docs: no opcode documents found in {}, no pages written",
            dirs.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let format = match args.format {
        DocsFormat::Html => Format::Html,
        DocsFormat::Md => Format::Markdown,
    };
    match docs::write_site(documents, format, &args.out) {
        Ok(site) => {
            let index = args.out.join(format!("index.{}", format.extension()));
            for path in &site.removed {
                println!("removed stale page {}", path.display());
            }
            println!(
                "wrote {} files ({} instruction pages) to {}; open {}",
                site.written.len(),
                documents.len(),
                args.out.display(),
                index.display()
            );
            for path in &parsed.left_out {
                println!("left out (no page): {}", path.display());
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(error) => {
            eprintln!("visa docs: cannot write to {}: {error}", args.out.display());
            ExitCode::FAILURE
        }
    }
}

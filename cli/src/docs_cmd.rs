//! `visa docs`: generate the reference documentation (static HTML or markdown) from the opcode
//! documents.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use visa_codegen::docs::{self, Article, Format, OBJECT_FORMAT_PAGE, SiteOptions};

/// The guide to writing kernels (`docs/guide.md`), built into the binary so that `visa docs`
/// writes it wherever it runs; `--guide FILE` replaces it, `--no-guide` leaves it out.
const GUIDE: &str = include_str!("../../docs/guide.md");

/// The repository's other pages (`docs/*.md`), built in like the guide and published beside it.
const PAGES: [Article<'static>; 2] = [
    Article {
        page: "cli",
        markdown: include_str!("../../docs/cli.md"),
    },
    Article {
        page: "runtime",
        markdown: include_str!("../../docs/runtime.md"),
    },
];

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
    /// A markdown file to publish as the guide page instead of the built-in guide to writing
    /// kernels (docs/guide.md of the repository).
    #[arg(long, value_name = "FILE", conflicts_with = "no_guide")]
    guide: Option<PathBuf>,
    /// Leave the guide page out.
    #[arg(long)]
    no_guide: bool,
    /// Directories holding the opcode documents.
    #[arg(value_name = "SPEC_DIR", default_value = "spec")]
    dirs: Vec<PathBuf>,
}

pub fn run(args: &DocsArgs) -> ExitCode {
    let guide_text = match &args.guide {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(error) => {
                eprintln!("error: --guide: cannot read {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let guide = match (&guide_text, args.no_guide) {
        (_, true) => None,
        (Some(text), false) => Some(text.as_str()),
        (None, false) => Some(GUIDE),
    };
    let parsed = visa_codegen::parse_dirs(&args.dirs);
    let failed = crate::diagnostics::report("visa docs", &parsed, false);
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
    // The object-format document of the first directory that has one.
    let object_format = args
        .dirs
        .iter()
        .find_map(|dir| visa_codegen::object::format_document_in(dir))
        .map(|(_, text)| text);
    let mut articles = PAGES.to_vec();
    if let Some(markdown) = object_format.as_deref() {
        articles.push(Article {
            page: OBJECT_FORMAT_PAGE,
            markdown,
        });
    }
    let options = SiteOptions {
        guide,
        articles: &articles,
    };
    match docs::write_site_with(documents, format, &options, &args.out) {
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

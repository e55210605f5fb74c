//! Reference documentation generated from the same [model](crate::model) that generates the
//! code: an index of all instructions and one page per instruction, as static offline HTML
//! (one stylesheet, a small inline filter script, no network resources) or as markdown.
//!
//! ```no_run
//! # fn demo(documents: &[visa_codegen::model::Document]) -> std::io::Result<()> {
//! use visa_codegen::docs::{Format, write_site};
//! let site = write_site(documents, Format::Html, std::path::Path::new("target/visa-docs"))?;
//! println!("{} files, {} stale pages removed", site.written.len(), site.removed.len());
//! # Ok(()) }
//! ```

mod category;
mod code;
mod guide;
mod html;
mod html_index;
mod layout;
mod markdown;
mod site;
mod text;

use std::path::{Path, PathBuf};

use crate::model::Document;

pub use category::category;
pub use layout::{Offset, Row, RowKind, fixed_size, layout};
pub use text::{field_id, slug};

/// The output format of the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Static HTML: `index.html`, `style.css` and one page per instruction.
    #[default]
    Html,
    /// Markdown: `index.md` and one page per instruction.
    Markdown,
}

impl Format {
    /// The page file extension (without the dot).
    pub fn extension(self) -> &'static str {
        match self {
            Self::Html => "html",
            Self::Markdown => "md",
        }
    }
}

/// One file of the generated site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory (a plain file name: the site is flat).
    pub path: String,
    /// The file's full text.
    pub contents: String,
}

/// A rendered instruction page, as listed by [`pages`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageInfo {
    /// The instruction name (opcode names joined by `_`).
    pub name: String,
    /// The page's file name, e.g. `GATHER_SCALED.html`.
    pub file: String,
    /// The index category the page is listed under.
    pub category: String,
    /// The document the page was generated from.
    pub source: String,
}

/// The instruction pages the site for `documents` has, in name order (without rendering them).
pub fn pages(documents: &[Document], format: Format) -> Vec<PageInfo> {
    site::Site::new(documents)
        .entries
        .iter()
        .map(|e| PageInfo {
            name: e.name.clone(),
            file: format!("{}.{}", e.page, format.extension()),
            category: e.category.clone(),
            source: e.doc.file.clone(),
        })
        .collect()
}

/// What a site holds besides the instruction pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SiteOptions<'a> {
    /// A guide in markdown (the repository's `docs/guide.md`): written as `guide.html` (or
    /// `guide.md`) and linked from the index and every page.
    pub guide: Option<&'a str>,
    /// Further markdown pages (the command-line reference, the runtime's page, the object-format
    /// document), written as `PAGE.html` (or `.md`) and listed on the index in this order.
    pub articles: &'a [Article<'a>],
}

/// A markdown page of the site that is not an instruction page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Article<'a> {
    /// The file stem of its page (`cli` gives `cli.html`): a slug, not `index` nor `guide`.
    pub page: &'a str,
    /// Its text; the first heading is its title.
    pub markdown: &'a str,
}

/// The file stem of the guide page.
pub use site::GUIDE_PAGE;

/// The file stem of the object-format page.
pub const OBJECT_FORMAT_PAGE: &str = "object-format";

/// Renders the whole site: `index.html` + `style.css` + one `NAME.html` per instruction, or
/// `index.md` + one `NAME.md` per instruction.
pub fn render_site(documents: &[Document], format: Format) -> Vec<OutputFile> {
    render_site_with(documents, format, &SiteOptions::default())
}

/// [`render_site`] with a guide page when `options` has one.
pub fn render_site_with(
    documents: &[Document],
    format: Format,
    options: &SiteOptions<'_>,
) -> Vec<OutputFile> {
    let site = site::Site::with_pages(documents, options.guide, options.articles);
    let ext = format.extension();
    let mut files = Vec::with_capacity(site.entries.len() + 3);
    let index = match format {
        Format::Html => html_index::index_page(&site),
        Format::Markdown => markdown::index_page(&site),
    };
    files.push(OutputFile {
        path: format!("index.{ext}"),
        contents: index,
    });
    if format == Format::Html {
        files.push(OutputFile {
            path: "style.css".to_string(),
            contents: html_index::STYLE_CSS.to_string(),
        });
    }
    if let Some(markdown) = options.guide {
        let contents = match format {
            Format::Html => guide::html_page(&site, markdown),
            Format::Markdown => guide::markdown_page(markdown),
        };
        files.push(OutputFile {
            path: format!("{GUIDE_PAGE}.{ext}"),
            contents,
        });
    }
    for article in options.articles {
        let contents = match format {
            Format::Html => guide::html_page(&site, article.markdown),
            Format::Markdown => guide::markdown_page(article.markdown),
        };
        files.push(OutputFile {
            path: format!("{}.{ext}", site::article_page(article.page)),
            contents,
        });
    }
    for (i, entry) in site.entries.iter().enumerate() {
        let page = match format {
            Format::Html => html::instruction_page(&site, i),
            Format::Markdown => markdown::instruction_page(&site, i),
        };
        if let Some(contents) = page {
            files.push(OutputFile {
                path: format!("{}.{ext}", entry.page),
                contents,
            });
        }
    }
    files
}

/// The file in an output directory that lists the pages the previous [`write_site`] wrote, so
/// that pages of instructions since renamed or removed can be deleted without touching anything
/// else in the directory.
pub const MANIFEST: &str = ".visa-docs-pages";

/// What [`write_site`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteWrite {
    /// Every file written, index first.
    pub written: Vec<PathBuf>,
    /// Pages an earlier run wrote (per [`MANIFEST`]) that the site no longer has, now deleted.
    pub removed: Vec<PathBuf>,
}

/// Renders the site and writes it into `out_dir` (created if missing). Pages that an earlier
/// run wrote and the site no longer produces (a renamed or removed instruction) are deleted;
/// files this function did not write are never touched.
pub fn write_site(
    documents: &[Document],
    format: Format,
    out_dir: &Path,
) -> std::io::Result<SiteWrite> {
    write_site_with(documents, format, &SiteOptions::default(), out_dir)
}

/// [`write_site`] with a guide page when `options` has one.
pub fn write_site_with(
    documents: &[Document],
    format: Format,
    options: &SiteOptions<'_>,
    out_dir: &Path,
) -> std::io::Result<SiteWrite> {
    std::fs::create_dir_all(out_dir)?;
    let manifest = out_dir.join(MANIFEST);
    let previous = match std::fs::read_to_string(&manifest) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let files = render_site_with(documents, format, options);
    let mut report = SiteWrite::default();
    for file in &files {
        let path = out_dir.join(&file.path);
        std::fs::write(&path, &file.contents)?;
        report.written.push(path);
    }
    let current: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    for stale in previous.lines().filter(|name| is_plain_file_name(name)) {
        if current.contains(stale) {
            continue;
        }
        let path = out_dir.join(stale);
        match std::fs::remove_file(&path) {
            Ok(()) => report.removed.push(path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    let mut listing = String::new();
    for file in &files {
        listing.push_str(&file.path);
        listing.push('\n');
    }
    std::fs::write(&manifest, listing)?;
    Ok(report)
}

/// A manifest line names a file directly inside the output directory; anything else (an edited
/// manifest naming `../x` or an absolute path) is ignored rather than deleted.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != MANIFEST
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && Path::new(name).file_name().is_some_and(|f| f == name)
}

#[cfg(test)]
mod tests;

//! Diagnostics about assembly text on stderr: the line `FILE:line:col: error: message` (the form
//! tools match), then the source line with a caret under the column (`annotate-snippets`, as
//! rustc and cargo draw them) and a `help:` line with what was probably meant, in colour when
//! asked or on a terminal; at most [`MAX_SHOWN`] of them, then how many more there were. With
//! `--message-format json`, one JSON object per diagnostic on stdout instead (for editors).

use std::cell::Cell;
use std::io::IsTerminal;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer as Snippets, Snippet};
use visa_isa::ast::Span;

/// How many diagnostics are printed before the rest are only counted.
pub const MAX_SHOWN: usize = 50;

/// When to colour diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Color {
    /// On a terminal (standard error), unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The `--color` option, shared by the commands that print diagnostics.
#[derive(Debug, Clone, clap::Args)]
pub struct ColorArg {
    /// Colour diagnostics: `auto` (on a terminal), `always` or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto)]
    pub color: Color,
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MessageFormat {
    /// For people: `FILE:line:col: error: message`, the source line and a caret, on stderr.
    #[default]
    Human,
    /// For editors and scripts: one JSON object per line on stdout (`file`, `line`, `column`,
    /// `severity`, `kind`, `document`, `message`, `suggestion`, `operand`, `related`).
    Json,
}

/// The `--message-format` option.
#[derive(Debug, Clone, clap::Args)]
pub struct MessageFormatArg {
    /// `human` (stderr, with the source line) or `json` (one object per line on stdout).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

/// Whether a diagnostic is an error or a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One diagnostic about assembly text, with what the JSON form tells apart.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    #[serde(skip)]
    pub span: Span,
    pub severity: Severity,
    /// Whose verdict: `syntax`, `rule` (the verifier's), `document` (only a per-instruction
    /// document's), `advice`, `runtime` (what `visa run` does not execute or limits), `trap`.
    pub kind: &'static str,
    /// The document of a `document` diagnostic (`SHR.md`).
    pub document: Option<&'static str>,
    pub message: String,
    /// What was probably meant.
    pub suggestion: Option<String>,
    /// The operand it is about: its field name in the instruction's table entry (`src1`), and
    /// the element of a list field.
    pub operand: Option<Operand>,
    /// Another position it involves (a first declaration).
    #[serde(skip)]
    pub related: Option<Span>,
}

/// The operand a [`Report`] is about.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Operand {
    pub field: String,
    pub element: Option<usize>,
}

impl Report {
    /// A report with only a position, a severity, a kind and a message.
    pub fn new(span: Span, severity: Severity, kind: &'static str, message: String) -> Self {
        Self {
            span,
            severity,
            kind,
            document: None,
            message,
            suggestion: None,
            operand: None,
            related: None,
        }
    }

    /// A parse error.
    pub fn syntax(e: &visa_isa::text::TextError) -> Self {
        let message = format!("found {}, expected {}", e.found, e.expected);
        let mut report = Self::new(e.span, Severity::Error, "syntax", message);
        report.suggestion = e.suggestion.clone();
        report
    }

    /// A checker diagnostic.
    pub fn check(d: &visa_isa::text::Diagnostic) -> Self {
        use visa_isa::text::{DiagnosticKind, Subject};
        let severity = if d.is_error() {
            Severity::Error
        } else {
            Severity::Warning
        };
        let (kind, document) = match d.kind {
            DiagnosticKind::Rule => ("rule", None),
            DiagnosticKind::Document { doc } => ("document", Some(doc)),
            _ => ("advice", None),
        };
        let mut report = Self::new(d.span, severity, kind, d.message.clone());
        report.document = document;
        report.suggestion = d.suggestion.clone();
        report.related = d.related;
        if let Subject::Field { name, element, .. } = d.subject {
            report.operand = Some(Operand {
                field: name.to_ascii_lowercase(),
                element,
            });
        }
        report
    }

    /// `line:col: error: message` (what follows `FILE:`).
    fn header(&self) -> String {
        let related = self
            .related
            .map(|at| format!(" (see {at})"))
            .unwrap_or_default();
        format!(
            "{}: {}: {}{related}",
            self.span,
            self.severity.word(),
            self.message
        )
    }
}

/// The JSON line of one report.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    #[serde(flatten)]
    report: &'a Report,
    related: Option<JsonPosition>,
}

#[derive(serde::Serialize)]
struct JsonPosition {
    line: u32,
    column: u32,
}

/// Prints diagnostics; counts what it leaves out past [`MAX_SHOWN`].
pub struct Renderer {
    format: MessageFormat,
    colour: bool,
    shown: Cell<usize>,
    hidden_errors: Cell<usize>,
    hidden_warnings: Cell<usize>,
}

impl Renderer {
    /// A renderer of the human form.
    pub fn new(color: Color) -> Self {
        Self::with_format(color, MessageFormat::Human)
    }

    pub fn with_format(color: Color, format: MessageFormat) -> Self {
        let colour = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Self {
            format,
            colour,
            shown: Cell::new(0),
            hidden_errors: Cell::new(0),
            hidden_warnings: Cell::new(0),
        }
    }

    /// Prints one diagnostic about the text `src` of file `name`.
    pub fn report(&self, name: &str, src: &str, report: &Report) {
        if self.format == MessageFormat::Json {
            let line = JsonReport {
                file: name,
                line: report.span.line,
                column: report.span.col,
                report,
                related: report.related.map(|at| JsonPosition {
                    line: at.line,
                    column: at.col,
                }),
            };
            match serde_json::to_string(&line) {
                Ok(json) => println!("{json}"),
                Err(e) => eprintln!("{name}: error: cannot write a diagnostic as JSON: {e}"),
            }
            return;
        }
        let severity = report.severity;
        if self.shown.get() >= MAX_SHOWN {
            let hidden = match severity {
                Severity::Error => &self.hidden_errors,
                Severity::Warning => &self.hidden_warnings,
            };
            hidden.set(hidden.get() + 1);
            return;
        }
        self.shown.set(self.shown.get() + 1);
        eprintln!("{}", self.header(name, severity, &report.header()));
        if let Some(snippet) = self.snippet(src, report.span, severity) {
            eprintln!("{snippet}");
        }
        if let Some(meant) = &report.suggestion {
            eprintln!("  = help: did you mean `{meant}`?");
        }
    }

    /// Prints the parser's errors.
    pub fn text_errors(&self, name: &str, src: &str, errors: &[visa_isa::text::TextError]) {
        for error in errors {
            self.report(name, src, &Report::syntax(error));
        }
        self.finish();
    }

    /// Prints how many diagnostics were left out, if any (once).
    pub fn finish(&self) {
        let errors = self.hidden_errors.replace(0);
        let warnings = self.hidden_warnings.replace(0);
        let plural =
            |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
        match (errors, warnings) {
            (0, 0) => {}
            (e, 0) => eprintln!("{}", plural(e, "error")),
            (0, w) => eprintln!("{}", plural(w, "warning")),
            (e, w) => eprintln!("{} and {}", plural(e, "error"), plural(w, "warning")),
        }
    }

    fn header(&self, name: &str, severity: Severity, header: &str) -> String {
        if !self.colour {
            return format!("{name}:{header}");
        }
        let (word, style) = match severity {
            Severity::Error => ("error", "\x1b[1;31m"),
            Severity::Warning => ("warning", "\x1b[1;33m"),
        };
        let marker = format!(": {word}: ");
        match header.split_once(&marker) {
            Some((at, message)) => {
                format!("\x1b[1m{name}:{at}\x1b[0m: {style}{word}\x1b[0m: \x1b[1m{message}\x1b[0m")
            }
            None => format!("{name}:{header}"),
        }
    }

    /// The source line of `span` with a caret under its column (and the rest of the token
    /// there); `None` when the span is not in the text.
    fn snippet(&self, src: &str, span: Span, severity: Severity) -> Option<String> {
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        let line_no = usize::try_from(span.line).ok()?;
        let line = src.lines().nth(line_no.checked_sub(1)?)?;
        let col = usize::try_from(span.col).ok()?.checked_sub(1)?;
        let start = line
            .char_indices()
            .nth(col)
            .map_or(line.len(), |(at, _)| at);
        let token = line.get(start..).unwrap_or("");
        let len = token
            .find(char::is_whitespace)
            .unwrap_or(token.len())
            .max(token.chars().next().map_or(0, char::len_utf8));
        let level = match severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let report = &[Group::with_level(level).element(
            Snippet::source(line)
                .line_start(line_no)
                .annotation(AnnotationKind::Primary.span(start..start + len)),
        )];
        let renderer = if self.colour {
            Snippets::styled()
        } else {
            Snippets::plain()
        };
        Some(renderer.render(report))
    }
}

//! Diagnostics about assembly text on stderr: the line `FILE:line:col: error: message` (the form
//! tools match), then the source line with a caret under the column (`annotate-snippets`, as
//! rustc and cargo draw them), in colour when asked or on a terminal; at most
//! [`MAX_SHOWN`] of them, then how many more there were.

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

/// Whether a diagnostic is an error or a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// Prints diagnostics; counts what it leaves out past [`MAX_SHOWN`].
pub struct Renderer {
    colour: bool,
    shown: Cell<usize>,
    hidden_errors: Cell<usize>,
    hidden_warnings: Cell<usize>,
}

impl Renderer {
    pub fn new(color: Color) -> Self {
        let colour = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Self {
            colour,
            shown: Cell::new(0),
            hidden_errors: Cell::new(0),
            hidden_warnings: Cell::new(0),
        }
    }

    /// Prints one diagnostic: `name:` + `header` (which starts with `line:col: error: ` or
    /// `line:col: warning: `), then the line of `src` at `span` with a caret.
    pub fn diagnostic(&self, name: &str, src: &str, span: Span, severity: Severity, header: &str) {
        if self.shown.get() >= MAX_SHOWN {
            let hidden = match severity {
                Severity::Error => &self.hidden_errors,
                Severity::Warning => &self.hidden_warnings,
            };
            hidden.set(hidden.get() + 1);
            return;
        }
        self.shown.set(self.shown.get() + 1);
        eprintln!("{}", self.header(name, severity, header));
        if let Some(snippet) = self.snippet(src, span, severity) {
            eprintln!("{snippet}");
        }
    }

    /// Prints the parser's errors.
    pub fn text_errors(&self, name: &str, src: &str, errors: &[visa_isa::text::TextError]) {
        for error in errors {
            self.diagnostic(name, src, error.span, Severity::Error, &error.to_string());
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

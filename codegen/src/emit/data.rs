//! Static table data (struct literals, arrays, tuples, calls) written straight to text.
//!
//! The instruction table is most of the generated code. Building it as tokens, re-parsing those
//! with syn and printing them with prettyplease cost about two thirds of the generator's time, so
//! the table is written here instead, in exactly the layout prettyplease gives the same
//! expression: the algorithm's decisions reduced to the few expression kinds a table uses.
//! (`codegen/tests/emit_data.rs` checks that prettyplease leaves this output unchanged.)
//!
//! The layout rules (prettyplease 0.2, a margin of 89 columns, at least 60 after indentation):
//! * an array, tuple or argument list stays on one line when it fits up to the next possible
//!   line break (its closing bracket and the punctuation after it included); otherwise every
//!   element gets its own line, indented by 4, with a trailing comma;
//! * a struct literal stays on one line only when it is at most 34 columns wide and fits;
//!   otherwise it is broken, and so is everything around it;
//! * a call whose single argument is a struct literal, array or tuple keeps that argument's
//!   opening on its own line (`Some(crate::desc::Binding {`).

use std::borrow::Cow;

const MARGIN: isize = 89;
const MIN_SPACE: isize = 60;
const INDENT: usize = 4;
/// prettyplease breaks a struct literal wider than this.
const STRUCT_MAX_WIDTH: usize = 34;

/// A Rust expression made of literals, paths, arrays, tuples, calls and struct literals.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr<'a> {
    /// Text written as is: a path or a negative number.
    Atom(Cow<'a, str>),
    /// A non-negative integer literal or `true`/`false` (arrays of these are laid out as a
    /// fill, several per line).
    Lit(Cow<'a, str>),
    /// A string literal, with the length of its escaped form.
    Str { value: Cow<'a, str>, width: usize },
    /// `&expr`.
    Ref(Box<Expr<'a>>),
    /// `[a, b]`.
    Array(Vec<Expr<'a>>),
    /// `(a, b)`.
    Pair(Box<[Expr<'a>; 2]>),
    /// `path(a, b)`.
    Call(&'static str, Vec<Expr<'a>>),
    /// `path { name: value, .. }`.
    Struct(&'static str, Vec<(&'static str, Expr<'a>)>),
}

impl<'a> Expr<'a> {
    /// A path or keyword.
    pub fn path(path: &'static str) -> Self {
        Expr::Atom(Cow::Borrowed(path))
    }

    /// An unsuffixed integer literal (negative values as `-n`).
    pub fn int(value: impl Into<i128>) -> Self {
        let value = value.into();
        let text = Cow::Owned(value.to_string());
        if value < 0 {
            Expr::Atom(text)
        } else {
            Expr::Lit(text)
        }
    }

    pub fn bool(value: bool) -> Self {
        Expr::Lit(Cow::Borrowed(if value { "true" } else { "false" }))
    }

    /// A string literal, escaped as `proc_macro2::Literal::string` escapes it.
    pub fn str(value: &'a str) -> Self {
        Expr::Str {
            width: escaped_len(value),
            value: Cow::Borrowed(value),
        }
    }

    /// [`Expr::str`] of a computed string.
    pub fn owned_str(value: String) -> Self {
        Expr::Str {
            width: escaped_len(&value),
            value: Cow::Owned(value),
        }
    }

    /// `&[items]`.
    pub fn slice(items: Vec<Expr<'a>>) -> Self {
        Expr::Ref(Box::new(Expr::Array(items)))
    }

    /// `(a, b)`.
    pub fn pair(a: Expr<'a>, b: Expr<'a>) -> Self {
        Expr::Pair(Box::new([a, b]))
    }

    pub fn some(value: Expr<'a>) -> Self {
        Expr::Call("Some", vec![value])
    }

    pub fn none() -> Self {
        Expr::path("None")
    }

    /// `Some(value)` or `None`.
    pub fn option<T>(value: Option<T>, f: impl FnOnce(T) -> Expr<'a>) -> Self {
        value.map_or_else(Expr::none, |v| Expr::some(f(v)))
    }

    /// Whether prettyplease writes a call's single argument of this kind without an argument
    /// box of its own.
    fn blocklike(&self) -> bool {
        matches!(self, Expr::Array(_) | Expr::Pair(_) | Expr::Struct(..))
    }
}

/// Writes `/// doc` lines and `{declaration} = {value};` as prettyplease prints such an item
/// (`declaration` is e.g. `pub static NAME: &[Type]`, written on one line).
pub fn item(out: &mut String, doc: &[&str], declaration: &str, value: &Expr<'_>) {
    for line in doc {
        out.push_str("///");
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    let mut writer = Writer {
        out,
        space: MARGIN,
        indent: 0,
    };
    writer.push(declaration);
    writer.push(" = ");
    writer.expr(value, 1);
    writer.push(";\n");
}

struct Writer<'o> {
    out: &'o mut String,
    /// Columns left on the current line (prettyplease's `space`).
    space: isize,
    /// Indentation of the enclosing broken block.
    indent: usize,
}

impl Writer<'_> {
    fn push(&mut self, text: &str) {
        self.out.push_str(text);
        self.space -= text.len() as isize;
    }

    fn newline(&mut self, indent: usize) {
        self.out.push('\n');
        self.out.extend(std::iter::repeat_n(' ', indent));
        self.space = (MARGIN - indent as isize).max(MIN_SPACE);
    }

    /// Whether `width` more columns, then `trail` columns that cannot move to a new line, fit.
    fn fits(&self, width: Option<usize>, trail: usize) -> bool {
        width.is_some_and(|w| (w + trail) as isize <= self.space)
    }

    /// Writes `expr`; `trail` is the width of the text that follows it up to the next place a
    /// line may break (a `,`, `)`, `;`, ...), which must fit on the same line.
    fn expr(&mut self, expr: &Expr<'_>, trail: usize) {
        match expr {
            Expr::Atom(text) | Expr::Lit(text) => self.push(text),
            Expr::Str { value, width } => {
                push_escaped(self.out, value);
                self.space -= *width as isize;
            }
            Expr::Ref(inner) => {
                self.push("&");
                self.expr(inner, trail);
            }
            Expr::Array(items) if items.is_empty() => self.push("[]"),
            Expr::Array(items) if items.iter().all(|i| matches!(i, Expr::Lit(_))) => {
                self.fill(items, trail);
            }
            Expr::Array(items) => self.list("[", items, "]", trail),
            Expr::Pair(items) => self.list("(", items.as_slice(), ")", trail),
            Expr::Call(path, args) => {
                self.push(path);
                match args.as_slice() {
                    [arg] if arg.blocklike() => {
                        self.push("(");
                        self.expr(arg, trail + 1);
                        self.push(")");
                    }
                    _ => self.list("(", args, ")", trail),
                }
            }
            Expr::Struct(path, fields) => {
                if self.fits(flat_width(expr), trail) {
                    flat(self.out, expr);
                    self.space -= flat_width(expr).unwrap_or(0) as isize;
                    return;
                }
                self.push(path);
                self.push(" {");
                let outer = self.indent;
                self.indent += INDENT;
                for (i, (name, value)) in fields.iter().enumerate() {
                    self.newline(self.indent);
                    self.push(name);
                    self.push(": ");
                    // A comma follows every field but the last, whose comma replaces the line
                    // break's blank.
                    self.expr(value, usize::from(i + 1 < fields.len()));
                    self.push(",");
                }
                self.indent = outer;
                self.newline(outer);
                self.push("}");
            }
        }
    }

    /// A bracketed, comma-separated list: on one line if it fits, else one item per line.
    fn list(&mut self, open: &str, items: &[Expr<'_>], close: &str, trail: usize) {
        self.push(open);
        let width = list_width(items, close);
        if self.fits(width, trail) {
            let start = self.out.len();
            flat_list(self.out, items, close);
            self.space -= (self.out.len() - start) as isize;
            return;
        }
        let outer = self.indent;
        self.indent += INDENT;
        for (i, item) in items.iter().enumerate() {
            self.newline(self.indent);
            self.expr(item, usize::from(i + 1 < items.len()));
            self.push(",");
        }
        self.indent = outer;
        self.newline(outer);
        self.push(close);
    }
}

impl Writer<'_> {
    /// An array of literals: on one line if it fits, else as many per line as fit.
    fn fill(&mut self, items: &[Expr<'_>], trail: usize) {
        let width = 1 + list_width(items, "]").unwrap_or(0);
        if self.fits(Some(width), trail) {
            self.push("[");
            let start = self.out.len();
            flat_list(self.out, items, "]");
            self.space -= (self.out.len() - start) as isize;
            return;
        }
        self.push("[");
        let outer = self.indent;
        self.indent += INDENT;
        self.newline(self.indent);
        // The whole run on this line, if it fits; else a break wherever the next item and its
        // comma would overflow.
        let run = list_width(items, "").unwrap_or(0);
        let fill = !self.fits(Some(run), 0);
        for (i, item) in items.iter().enumerate() {
            let text = match item {
                Expr::Lit(text) => text.as_ref(),
                _ => "",
            };
            if i > 0 {
                self.push(",");
                let comma = usize::from(i + 1 < items.len());
                if fill && !self.fits(Some(1 + text.len()), comma) {
                    self.newline(self.indent);
                } else {
                    self.push(" ");
                }
            }
            self.push(text);
        }
        self.push(",");
        self.indent = outer;
        self.newline(outer);
        self.push("]");
    }
}

/// The width of `expr` on one line, `None` if it cannot be on one line (a struct literal wider
/// than prettyplease allows, at any depth).
fn flat_width(expr: &Expr<'_>) -> Option<usize> {
    match expr {
        Expr::Atom(text) | Expr::Lit(text) => Some(text.len()),
        Expr::Str { width, .. } => Some(*width),
        Expr::Ref(inner) => Some(1 + flat_width(inner)?),
        Expr::Array(items) if items.is_empty() => Some(2),
        Expr::Array(items) => Some(1 + list_width(items, "]")?),
        Expr::Pair(items) => Some(1 + list_width(items.as_slice(), ")")?),
        Expr::Call(path, args) => Some(path.len() + 1 + list_width(args, ")")?),
        Expr::Struct(path, fields) => {
            // `path {`, a blank, `name: value` joined by `, `, a blank (prettyplease measures
            // up to here against the limit; without fields, the first blank is measured but
            // not written), then `}`.
            let mut width = path.len() + 2 + 1;
            for (i, (name, value)) in fields.iter().enumerate() {
                width += name.len() + 2 + flat_width(value)? + if i > 0 { 2 } else { 0 };
            }
            if fields.is_empty() {
                return (width <= STRUCT_MAX_WIDTH).then_some(width);
            }
            width += 1;
            (width <= STRUCT_MAX_WIDTH).then_some(width + 1)
        }
    }
}

/// The width of `a, b` plus the closing bracket (and, for a one-element tuple, its comma).
fn list_width(items: &[Expr<'_>], close: &str) -> Option<usize> {
    let mut width = close.len() + 2 * items.len().saturating_sub(1);
    for item in items {
        width += flat_width(item)?;
    }
    Some(width)
}

/// `expr` written on one line: the identity of a shared sub-table.
pub fn flat_text(expr: &Expr<'_>) -> String {
    let mut out = String::new();
    flat(&mut out, expr);
    out
}

fn flat(out: &mut String, expr: &Expr<'_>) {
    match expr {
        Expr::Atom(text) | Expr::Lit(text) => out.push_str(text),
        Expr::Str { value, .. } => push_escaped(out, value),
        Expr::Ref(inner) => {
            out.push('&');
            flat(out, inner);
        }
        Expr::Array(items) => {
            out.push('[');
            flat_list(out, items, "]");
        }
        Expr::Pair(items) => {
            out.push('(');
            flat_list(out, items.as_slice(), ")");
        }
        Expr::Call(path, args) => {
            out.push_str(path);
            out.push('(');
            flat_list(out, args, ")");
        }
        Expr::Struct(path, fields) => {
            out.push_str(path);
            out.push_str(" {");
            for (i, (name, value)) in fields.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                out.push_str(name);
                out.push_str(": ");
                flat(out, value);
            }
            out.push_str(if fields.is_empty() { "}" } else { " }" });
        }
    }
}

fn flat_list(out: &mut String, items: &[Expr<'_>], close: &str) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        flat(out, item);
    }
    out.push_str(close);
}

/// How one character of a string literal is written: as itself, or as the escape sequence
/// `char::escape_debug` gives it (except `'`, which needs none in a string).
fn escape(ch: char) -> Option<std::char::EscapeDebug> {
    let escaped = ch.escape_debug();
    (ch != '\'' && escaped.len() > 1).then_some(escaped)
}

/// The string literal for `value` (quotes included), as `proc_macro2::Literal::string` writes it.
pub fn push_escaped(out: &mut String, value: &str) {
    out.push('"');
    let mut rest = value;
    loop {
        // Plain text (most of a description) is copied in one piece.
        let plain = plain_prefix(rest);
        out.push_str(&rest[..plain]);
        rest = &rest[plain..];
        let mut chars = rest.chars();
        let Some(ch) = chars.next() else { break };
        if ch == '\0' {
            out.push_str(if octal_digit_follows(chars.as_str()) {
                "\\x00"
            } else {
                "\\0"
            });
        } else if let Some(escaped) = escape(ch) {
            out.extend(escaped);
        } else {
            out.push(ch);
        }
        rest = chars.as_str();
    }
    out.push('"');
}

/// The length in bytes of [`push_escaped`]'s output.
pub fn escaped_len(value: &str) -> usize {
    let mut len = 2;
    let mut rest = value;
    loop {
        let plain = plain_prefix(rest);
        len += plain;
        rest = &rest[plain..];
        let mut chars = rest.chars();
        let Some(ch) = chars.next() else { break };
        len += if ch == '\0' {
            if octal_digit_follows(chars.as_str()) {
                4
            } else {
                2
            }
        } else {
            escape(ch).map_or(ch.len_utf8(), |escaped| escaped.len())
        };
        rest = chars.as_str();
    }
    len
}

/// The length of the leading run of printable ASCII characters that need no escape.
fn plain_prefix(text: &str) -> usize {
    text.bytes()
        .position(|b| !(b' '..=b'~').contains(&b) || b == b'"' || b == b'\\')
        .unwrap_or(text.len())
}

/// `\0` before an octal digit would look like an octal escape: proc_macro2 writes `\x00` there.
fn octal_digit_follows(rest: &str) -> bool {
    rest.starts_with(|c: char| ('0'..='7').contains(&c))
}

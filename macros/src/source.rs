//! Turns the tokens of an `isa!` body back into vISA assembly text, remembering which token
//! produced each stretch of text so that assembler diagnostics (`line:col`) can be reported at
//! the token's span.
//!
//! Line breaks come from the token spans (Rust drops whitespace and comments but keeps positions);
//! a `;` outside a `<...>` region also ends a statement. Inline-asm placeholders are substituted
//! here, textually, as the Intel compiler does: `%N` by the N-th parameter's name and `%[name]` by
//! `name`. A brace group followed by `:type` is a Rust expression immediate: it is replaced by a
//! zero immediate of that type and recorded.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// A Rust expression written as an immediate: `{expr}:ud`.
pub struct RustImmediate {
    pub expr: TokenStream,
    pub span: Span,
    /// Line (in the rebuilt text) of the statement holding it.
    pub line: u32,
    /// Its rank among the Rust immediates of that line (0-based).
    pub rank_in_line: usize,
}

/// A stretch of rebuilt text that came from one token.
struct Piece {
    line: u32,
    col_start: u32,
    col_end: u32,
    span: Span,
}

/// The rebuilt assembly text and its map back to tokens.
pub struct Source {
    pub text: String,
    pieces: Vec<Piece>,
    pub immediates: Vec<RustImmediate>,
    /// Errors found while rebuilding (unknown `%N`, malformed `{expr}:type`).
    pub errors: Vec<syn::Error>,
    fallback: Span,
}

impl Source {
    /// The span of the token at (or, failing that, nearest after) `line:col` of the rebuilt text.
    pub fn span_at(&self, line: u32, col: u32) -> Span {
        let on_line = self.pieces.iter().filter(|p| p.line == line);
        if let Some(p) = on_line
            .clone()
            .find(|p| p.col_start <= col && col < p.col_end)
        {
            return p.span;
        }
        if let Some(p) = on_line.clone().find(|p| p.col_start >= col) {
            return p.span;
        }
        if let Some(p) = on_line.last() {
            return p.span;
        }
        self.fallback
    }

    /// The span covering a whole rebuilt line (its first token).
    pub fn line_span(&self, line: u32) -> Span {
        self.pieces
            .iter()
            .find(|p| p.line == line)
            .map_or(self.fallback, |p| p.span)
    }
}

/// Parameter names, in order, for `%N` / `%[name]` substitution.
pub struct Rebuilder<'a> {
    params: &'a [String],
    out: Source,
    line: u32,
    col: u32,
    /// Source line of the last token placed, to detect line breaks.
    last_src_line: Option<usize>,
    /// End of the last token placed (to tell touching tokens from separated ones).
    prev_end: Option<proc_macro2::LineColumn>,
    angle_depth: i32,
    imm_rank: (u32, usize),
}

impl<'a> Rebuilder<'a> {
    pub fn new(params: &'a [String], fallback: Span) -> Self {
        Self {
            params,
            out: Source {
                text: String::new(),
                pieces: Vec::new(),
                immediates: Vec::new(),
                errors: Vec::new(),
                fallback,
            },
            line: 1,
            col: 1,
            last_src_line: None,
            prev_end: None,
            angle_depth: 0,
            imm_rank: (0, 0),
        }
    }

    pub fn finish(mut self) -> Source {
        if !self.out.text.ends_with('\n') {
            self.out.text.push('\n');
        }
        self.out
    }

    fn newline(&mut self) {
        self.out.text.push('\n');
        self.line += 1;
        self.col = 1;
        self.angle_depth = 0;
    }

    /// Places `text` for a token at `span`, starting a new line when the token's source line
    /// changed, and keeping the token's source column as the indentation hint.
    fn place(&mut self, text: &str, span: Span) {
        let start = span.start();
        match self.last_src_line {
            Some(prev) if start.line > prev => self.newline(),
            _ => {}
        }
        self.last_src_line = Some(span.end().line.max(start.line));
        // Keep one space between tokens that were apart in the source, none where they touched.
        if self.col > 1 && self.needs_space(span) {
            self.out.text.push(' ');
            self.col += 1;
        }
        let col_start = self.col;
        for ch in text.chars() {
            if ch == '\n' {
                self.out.text.push('\n');
                self.line += 1;
                self.col = 1;
            } else {
                self.out.text.push(ch);
                self.col += 1;
            }
        }
        self.out.pieces.push(Piece {
            line: self.line,
            col_start,
            col_end: self.col.max(col_start + 1),
            span,
        });
        self.prev_end = Some(span.end());
    }

    fn needs_space(&self, span: Span) -> bool {
        match self.prev_end {
            Some(end) => {
                let start = span.start();
                start.line != end.line || start.column > end.column
            }
            None => false,
        }
    }

    /// Rebuilds a token stream (the body of the kernel).
    pub fn push_stream(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            i += self.push_token(&tokens, i);
        }
    }

    /// Handles `tokens[i]`, returning how many tokens were consumed.
    fn push_token(&mut self, tokens: &[TokenTree], i: usize) -> usize {
        let Some(token) = tokens.get(i) else {
            return 1;
        };
        match token {
            TokenTree::Punct(p) if p.as_char() == '%' => self.push_percent(tokens, i),
            TokenTree::Punct(p) if p.as_char() == ';' && self.angle_depth <= 0 => {
                // A statement separator: the next token starts a new line.
                self.newline();
                self.last_src_line = None;
                self.prev_end = None;
                1
            }
            TokenTree::Punct(p) => {
                match p.as_char() {
                    '<' => self.angle_depth += 1,
                    '>' => self.angle_depth -= 1,
                    _ => {}
                }
                self.place(&p.as_char().to_string(), p.span());
                1
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace && is_typed_suffix(tokens, i) => {
                self.push_rust_immediate(g.stream(), g.span());
                1
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                if !open.is_empty() {
                    self.place(open, g.span_open());
                }
                self.push_stream(g.stream());
                if !close.is_empty() {
                    self.place(close, g.span_close());
                }
                1
            }
            TokenTree::Ident(id) => {
                self.place(&id.to_string(), id.span());
                1
            }
            TokenTree::Literal(lit) => {
                self.place(&lit.to_string(), lit.span());
                1
            }
        }
    }

    /// `%N`, `%[name]` (parameter references) or `%name` (a predefined variable, kept).
    fn push_percent(&mut self, tokens: &[TokenTree], i: usize) -> usize {
        let percent_span = tokens[i].span();
        match tokens.get(i + 1) {
            Some(TokenTree::Literal(lit)) if touches(percent_span, lit.span()) => {
                let text = lit.to_string();
                match text.parse::<usize>().ok().and_then(|n| self.params.get(n)) {
                    Some(name) => {
                        let name = name.clone();
                        let span = percent_span.join(lit.span()).unwrap_or(percent_span);
                        self.place(&name, span);
                    }
                    None => {
                        self.out.errors.push(syn::Error::new(
                            lit.span(),
                            format!(
                                "`%{text}` names no parameter: the kernel has {} parameter(s)",
                                self.params.len()
                            ),
                        ));
                        self.place(&format!("%{text}"), lit.span());
                    }
                }
                2
            }
            Some(TokenTree::Group(g))
                if g.delimiter() == Delimiter::Bracket && touches(percent_span, g.span()) =>
            {
                let name = g.stream().to_string();
                if !self.params.iter().any(|p| *p == name) {
                    self.out.errors.push(syn::Error::new(
                        g.span(),
                        format!("`%[{name}]` names no parameter of this kernel"),
                    ));
                }
                self.place(&name, g.span());
                2
            }
            _ => {
                self.place("%", percent_span);
                1
            }
        }
    }

    fn push_rust_immediate(&mut self, expr: TokenStream, span: Span) {
        // Placed as a zero immediate; the `:type` that follows is rebuilt as usual.
        self.place("0", span);
        let line = self.line;
        if self.imm_rank.0 != line {
            self.imm_rank = (line, 0);
        }
        let rank_in_line = self.imm_rank.1;
        self.imm_rank.1 += 1;
        self.out.immediates.push(RustImmediate {
            expr,
            span,
            line,
            rank_in_line,
        });
    }
}

/// Whether `tokens[i]` (a brace group) is followed by `:ident` (a typed immediate) on the same line.
fn is_typed_suffix(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i + 1), tokens.get(i + 2)),
        (Some(TokenTree::Punct(colon)), Some(TokenTree::Ident(_)))
            if colon.as_char() == ':' && touches(tokens[i].span(), colon.span())
    )
}

/// Whether `b` starts exactly where `a` ends.
fn touches(a: Span, b: Span) -> bool {
    let (end, start) = (a.end(), b.start());
    end.line == start.line && end.column == start.column
}

//! Turns the tokens of an `isa!` body back into vISA assembly text, remembering which token
//! produced each stretch of text so that assembler diagnostics (`line:col`) can be reported at
//! the token's span.
//!
//! Line breaks come from the token spans (Rust drops whitespace and comments but keeps positions);
//! a `;` outside a `<...>` region also ends a statement. Inline-asm placeholders are substituted
//! here, textually, as the Intel compiler does: `%N` by the N-th parameter's name and `%[name]` by
//! `name`; `$N` is kept and bound after parsing (`visa_isa::text::bind_dollar_placeholders`). A brace group followed by `:type` is a Rust expression immediate: it is replaced by a
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
    /// Errors found while rebuilding (unknown `%N`), with the rebuilt line they are on.
    pub errors: Vec<(u32, syn::Error)>,
    fallback: Span,
}

impl Source {
    /// The span of the token at (or, failing that, nearest after) `line:col` of the rebuilt text.
    pub fn span_at(&self, line: u32, col: u32) -> Span {
        let mut on_line = self.pieces.iter().filter(|p| p.line == line);
        if let Some(p) = on_line
            .clone()
            .find(|p| p.col_start <= col && col < p.col_end)
        {
            return p.span;
        }
        if let Some(p) = on_line.clone().find(|p| p.col_start >= col) {
            return p.span;
        }
        if let Some(p) = on_line.next_back() {
            return p.span;
        }
        self.fallback
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

    /// Places the source text of one token (ident, punctuation, literal or delimiter) at `span`.
    /// Its end is worked out from the text: each position asked of a span is a round trip to the
    /// compiler, the main cost of rebuilding a large kernel.
    fn place(&mut self, text: &str, span: Span) {
        let start = span.start();
        let end = if text.contains('\n') {
            span.end()
        } else {
            proc_macro2::LineColumn {
                line: start.line,
                column: start.column.saturating_add(text.chars().count()),
            }
        };
        self.place_at(text, span, start, end);
    }

    /// Places `text` for the tokens from `span` to `last` (e.g. `%` and the `0` after it):
    /// diagnostics point at `span`, spacing follows the source up to the end of `last`.
    fn place_spanning(&mut self, text: &str, span: Span, last: Span) {
        self.place_at(text, span, span.start(), last.end());
    }

    /// Places `text` whose source runs from `start` to `end`, starting a new line when the
    /// source line changed and keeping one space where the source had a gap.
    fn place_at(
        &mut self,
        text: &str,
        span: Span,
        start: proc_macro2::LineColumn,
        end: proc_macro2::LineColumn,
    ) {
        match self.last_src_line {
            Some(prev) if start.line > prev => self.newline(),
            _ => {}
        }
        self.last_src_line = Some(end.line.max(start.line));
        // Keep one space between tokens that were apart in the source, none where they touched.
        if self.col > 1 && self.needs_space(start) {
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
        self.prev_end = Some(end);
    }

    fn needs_space(&self, start: proc_macro2::LineColumn) -> bool {
        match self.prev_end {
            Some(end) => start.line != end.line || start.column > end.column,
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
            TokenTree::Punct(p) if p.as_char() == '$' => self.push_dollar(tokens, i),
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
            TokenTree::Group(g)
                if g.delimiter() == Delimiter::Brace && is_typed_suffix(tokens, i) =>
            {
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
                // Rust reads `%0.0` as `%` and the float `0.0`: the index is the leading digits.
                let text = lit.to_string();
                let digits_end = text
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(text.len());
                let (index, rest) = text.split_at(digits_end);
                match self.param(index) {
                    Some(name) => {
                        self.place_spanning(&format!("{name}{rest}"), percent_span, lit.span())
                    }
                    None => {
                        self.place_spanning(&format!("%{text}"), percent_span, lit.span());
                        self.unknown_param('%', index, lit.span());
                    }
                }
                2
            }
            Some(TokenTree::Group(g))
                if g.delimiter() == Delimiter::Bracket && touches(percent_span, g.span()) =>
            {
                let name = g.stream().to_string();
                self.place_spanning(&name, percent_span, g.span());
                if !self.params.contains(&name) {
                    self.error(
                        g.span(),
                        format!("`%[{name}]` names no parameter of this kernel"),
                    );
                }
                2
            }
            _ => {
                self.place("%", percent_span);
                1
            }
        }
    }

    /// `$N` (LLVM-style inline asm), kept as written: the assembler reads it as a variable name
    /// (`$0`, `$0(0,0)<1>`, `$0.4`) and `visa_isa::text::bind_dollar_placeholders` binds it to
    /// parameter N afterwards, by the one rule assembly text follows too. Only the index is
    /// checked here, at its token.
    fn push_dollar(&mut self, tokens: &[TokenTree], i: usize) -> usize {
        let dollar_span = tokens[i].span();
        let Some(TokenTree::Literal(lit)) =
            tokens.get(i + 1).filter(|t| touches(dollar_span, t.span()))
        else {
            self.place("$", dollar_span);
            return 1;
        };
        // Rust reads `$0.4` as `$` and the float `0.4`: the index is the leading digits.
        let text = lit.to_string();
        let digits_end = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let index = &text[..digits_end];
        self.place_spanning(&format!("${text}"), dollar_span, lit.span());
        if self.param(index).is_none() {
            self.unknown_param('$', index, lit.span());
        }
        2
    }

    /// The parameter with index `index`.
    fn param(&self, index: &str) -> Option<String> {
        index
            .parse::<usize>()
            .ok()
            .and_then(|n| self.params.get(n))
            .cloned()
    }

    fn unknown_param(&mut self, sigil: char, index: &str, span: Span) {
        let count = self.params.len();
        self.error(
            span,
            format!("`{sigil}{index}` names no parameter: the kernel has {count} parameter(s)"),
        );
    }

    /// Records an error on the line being rebuilt.
    fn error(&mut self, span: Span, message: String) {
        let line = self.line;
        self.out.errors.push((line, syn::Error::new(span, message)));
    }

    fn push_rust_immediate(&mut self, expr: TokenStream, span: Span) {
        // Placed as a zero immediate; the `:type` that follows is rebuilt as usual.
        self.place_spanning("0", span, span);
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

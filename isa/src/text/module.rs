//! Whole texts: comments, lines, labels, scopes; recovery at line boundaries.

use std::borrow::Cow;

use super::cursor::{Cursor, is_name_char};
use super::operand::{self, Parsed};
use super::{Comment, TextError};
use super::{directive, instr};
use crate::ast::{Instruction, Module, Operand, Span, Stmt, StmtKind};
use crate::desc::InstrDesc;

/// The byte ranges of the `//` (up to, not including, the line break) and `/* */` comments of
/// `src`, in order. Comment markers inside `"strings"` are text.
fn comment_ranges(src: &str) -> Result<Vec<std::ops::Range<usize>>, TextError> {
    let mut ranges = Vec::new();
    if !src.contains('/') {
        return Ok(ranges);
    }
    // Every marker is ASCII, so the scan runs over bytes.
    let bytes = src.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        if in_string {
            in_string = b != b'"' && b != b'\n';
        } else if b == b'"' {
            in_string = true;
        } else if b == b'/' && (next == Some(b'/') || next == Some(b'*')) {
            let end = if next == Some(b'/') {
                src.get(i..)
                    .and_then(|rest| rest.find('\n'))
                    .map_or(src.len(), |n| i + n)
            } else {
                let Some(close) = src.get(i + 2..).and_then(|rest| rest.find("*/")) else {
                    return Err(TextError::new(
                        span_of(src, i),
                        "an unterminated comment",
                        "`*/`",
                    ));
                };
                i + 2 + close + 2
            };
            ranges.push(i..end);
            i = end;
            continue;
        }
        i += 1;
    }
    Ok(ranges)
}

/// Replaces `//` and `/* */` comments by spaces, one per character (keeping line breaks, so
/// columns stay right). Comment markers inside `"strings"` are text. A text without comments is
/// returned as it is.
pub(crate) fn blank_comments(src: &str) -> Result<Cow<'_, str>, TextError> {
    let ranges = comment_ranges(src)?;
    if ranges.is_empty() {
        return Ok(Cow::Borrowed(src));
    }
    let mut out = String::with_capacity(src.len());
    let mut copied = 0;
    for range in ranges {
        out.push_str(src.get(copied..range.start).unwrap_or(""));
        // One space per character (UTF-8 continuation bytes are dropped).
        for c in src.get(range.clone()).unwrap_or("").chars() {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
        copied = range.end;
    }
    out.push_str(src.get(copied..).unwrap_or(""));
    Ok(Cow::Owned(out))
}

/// The text without a leading UTF-8 byte-order mark (editors do not show it, so columns count
/// from after it).
pub(crate) fn without_bom(src: &str) -> &str {
    src.strip_prefix('\u{feff}').unwrap_or(src)
}

/// The comments of a text, in order, with where each starts and the line it ends on.
pub(crate) fn parse_comments(src: &str) -> Result<Vec<Comment>, TextError> {
    let src = without_bom(src);
    let ranges = comment_ranges(src)?;
    let mut comments = Vec::with_capacity(ranges.len());
    // Positions are computed incrementally: ranges are in order.
    let mut line = 1u32;
    let mut line_start = 0usize;
    let mut scanned = 0usize;
    let mut advance = |to: usize, line: &mut u32, line_start: &mut usize| {
        for (at, b) in src.bytes().enumerate().take(to).skip(scanned) {
            if b == b'\n' {
                *line = line.saturating_add(1);
                *line_start = at + 1;
            }
        }
        scanned = scanned.max(to);
    };
    for range in ranges {
        advance(range.start, &mut line, &mut line_start);
        let col = src
            .get(line_start..range.start)
            .map_or(0, |l| l.chars().count())
            + 1;
        let span = Span::new(line, u32::try_from(col).unwrap_or(u32::MAX));
        let raw = src.get(range.clone()).unwrap_or("");
        let text = if raw.starts_with("//") {
            raw.trim_end().to_string()
        } else {
            raw.replace("\r\n", "\n")
        };
        advance(range.end, &mut line, &mut line_start);
        comments.push(Comment {
            span,
            end_line: line,
            text,
        });
    }
    Ok(comments)
}

/// The line and column (in characters) of byte `at` of `src`.
fn span_of(src: &str, at: usize) -> Span {
    let before = src.get(..at).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let col = before.get(line_start..).map_or(0, |l| l.chars().count()) + 1;
    Span::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

pub(crate) fn parse_module(
    table: &'static [InstrDesc],
    src: &str,
) -> Result<Module, Vec<TextError>> {
    let text = blank_comments(without_bom(src)).map_err(|e| vec![e])?;
    // About one statement per 40 bytes of typical text; reserving avoids most regrowth.
    let mut stmts = Vec::with_capacity(text.len() / 40);
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if let Err(e) = parse_line(table, line, line_no, &mut stmts) {
            errors.push(e);
        }
    }
    if errors.is_empty() {
        let mut module = Module { stmts };
        super::numbered::resolve(&mut module);
        Ok(module)
    } else {
        Err(errors)
    }
}

/// A label `name:` at the cursor (not a `::`), consumed.
fn label(cur: &mut Cursor) -> Option<String> {
    let at = cur.pos();
    while cur.peek().is_some_and(|c| is_name_char(c) || c == '.') {
        cur.bump();
    }
    let end = cur.pos();
    if end > at && cur.peek() == Some(':') && cur.peek_at(1) != Some(':') {
        cur.bump();
        Some(cur.slice(at, end).to_string())
    } else {
        cur.reset(at);
        None
    }
}

/// The scope braces of a line: byte offset and `true` for `{`, `false` for `}`. A brace inside a
/// `"quoted string"` is text.
fn braces(line: &str) -> impl Iterator<Item = (usize, bool)> + '_ {
    let mut in_string = false;
    line.bytes().enumerate().filter_map(move |(at, b)| {
        match b {
            b'"' => in_string = !in_string,
            b'{' | b'}' if !in_string => return Some((at, b == b'{')),
            _ => {}
        }
        None
    })
}

/// One line. `{` and `}` are statements of their own wherever they stand (before, after or
/// between other statements, as the Intel compiler's lexer reads them); each stretch between
/// them holds any number of labels, then at most one directive or instruction.
fn parse_line(
    table: &'static [InstrDesc],
    line: &str,
    line_no: u32,
    stmts: &mut Vec<Stmt>,
) -> Result<(), TextError> {
    let mut from = 0;
    for (at, open) in braces(line) {
        let brace = if open { '{' } else { '}' };
        let mut cur = Cursor::cut(line.get(..at).unwrap_or(""), line_no, brace);
        cur.reset(from);
        parse_statements(table, &mut cur, stmts)?;
        let kind = if open {
            StmtKind::ScopeOpen
        } else {
            StmtKind::ScopeClose
        };
        stmts.push(Stmt {
            kind,
            span: cur.span_at(at),
        });
        from = at + 1;
    }
    let mut cur = Cursor::new(line, line_no);
    cur.reset(from);
    parse_statements(table, &mut cur, stmts)
}

/// The statements of a stretch of a line without scope braces: any number of labels, then at
/// most one directive or instruction.
fn parse_statements(
    table: &'static [InstrDesc],
    cur: &mut Cursor,
    stmts: &mut Vec<Stmt>,
) -> Result<(), TextError> {
    loop {
        if cur.at_end() {
            return Ok(());
        }
        let span = cur.span();
        if cur.peek() == Some('.') {
            let kind = directive::directive(cur)?;
            stmts.push(Stmt { kind, span });
            return Ok(());
        }
        match label(cur) {
            Some(name) => stmts.push(Stmt {
                kind: StmtKind::Label { name },
                span,
            }),
            None => {
                let instr = instr::instruction(table, cur)?;
                stmts.push(Stmt {
                    kind: StmtKind::Instr(instr),
                    span,
                });
                return Ok(());
            }
        }
    }
}

pub(crate) fn parse_single_instruction(
    table: &'static [InstrDesc],
    line: &str,
) -> Result<Instruction, TextError> {
    let text = blank_comments(line)?;
    let first_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let line_no = text
        .lines()
        .position(|l| !l.trim().is_empty())
        .map_or(1, |i| u32::try_from(i + 1).unwrap_or(u32::MAX));
    let mut cur = Cursor::new(first_line, line_no);
    let mut instr = instr::instruction(table, &mut cur)?;
    super::numbered::resolve_instruction(&mut instr, &Default::default(), false);
    Ok(instr)
}

pub(crate) fn parse_single_operand(text: &str) -> Result<Operand, TextError> {
    let mut cur = Cursor::new(text, 1);
    let op = match operand::operand(&mut cur)? {
        Parsed::Operand(op) => op,
        Parsed::Bare(name) => Operand::Name(name),
        Parsed::Untyped(_) => {
            cur.reset(0);
            let _ = cur.number_token();
            return Err(cur.error("a type suffix (`:ud`, `:f`, ...)"));
        }
    };
    if cur.at_end() {
        Ok(op)
    } else {
        Err(cur.error("end of operand"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_one_space_per_character() {
        let src = "a /* é\n x */ b // ü\nc \"//\"";
        let blanked = blank_comments(src).unwrap_or_else(|e| panic!("{e}"));
        // `/* é` is 4 characters, ` x */` 5, `// ü` 4; the quoted `//` is text.
        assert_eq!(blanked, "a     \n      b     \nc \"//\"");
        assert!(matches!(blank_comments("add // x"), Ok(Cow::Owned(_))));
        assert!(matches!(
            blank_comments("add V1"),
            Ok(Cow::Borrowed("add V1"))
        ));
    }

    #[test]
    fn unterminated_comment_is_reported_at_its_opening_character() {
        let err = blank_comments("ab\nxé /* oops").err();
        assert_eq!(
            err.map(|e| e.span),
            Some(Span::new(2, 4)),
            "x = 1, é = 2, space = 3, / = 4"
        );
    }

    #[test]
    fn error_columns_count_characters_not_bytes() {
        // `mov (M1, 16) ` is 13 characters and `/*éé*/ ` 7 more, so the stray character is
        // column 21 in characters (it would be 23 in bytes).
        let err = parse_single_instruction(crate::INSTRUCTIONS, "mov (M1, 16) /*éé*/ §")
            .err()
            .map(|e| (e.span, e.found));
        assert_eq!(err, Some((Span::new(1, 21), "`§`".to_string())));
    }
}

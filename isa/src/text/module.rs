//! Whole texts: comments, lines, labels, scopes; recovery at line boundaries.

use super::TextError;
use super::cursor::{Cursor, is_name_char};
use super::operand::{self, Parsed};
use super::{directive, instr};
use crate::ast::{Instruction, Module, Operand, Span, Stmt, StmtKind};
use crate::desc::InstrDesc;

/// Replaces `//` and `/* */` comments by spaces (keeping line breaks, so columns stay right).
/// Comment markers inside `"strings"` are text.
pub(crate) fn blank_comments(src: &str) -> Result<String, TextError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let (mut line, mut col) = (1u32, 1u32);
    let mut i = 0;
    let mut in_string = false;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if in_string {
            in_string = c != '"' && c != '\n';
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && next == Some('/') {
            while chars.get(i).is_some_and(|c| *c != '\n') {
                out.push(' ');
                i += 1;
            }
            continue;
        } else if c == '/' && next == Some('*') {
            let open = Span::new(line, col);
            out.push_str("  ");
            i += 2;
            col += 2;
            loop {
                match chars.get(i) {
                    None => return Err(TextError::new(open, "an unterminated comment", "`*/`")),
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        out.push_str("  ");
                        i += 2;
                        col += 2;
                        break;
                    }
                    Some('\n') => {
                        out.push('\n');
                        line += 1;
                        col = 1;
                        i += 1;
                    }
                    Some(_) => {
                        out.push(' ');
                        col += 1;
                        i += 1;
                    }
                }
            }
            continue;
        }
        out.push(c);
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        i += 1;
    }
    Ok(out)
}

pub(crate) fn parse_module(
    table: &'static [InstrDesc],
    src: &str,
) -> Result<Module, Vec<TextError>> {
    let text = blank_comments(src).map_err(|e| vec![e])?;
    let mut stmts = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let mut cur = Cursor::new(line, line_no);
        if let Err(e) = parse_line(table, &mut cur, &mut stmts) {
            errors.push(e);
        }
    }
    if errors.is_empty() {
        Ok(Module { stmts })
    } else {
        Err(errors)
    }
}

/// A label `name:` at the cursor (not a `::`), consumed.
fn label(cur: &mut Cursor) -> Option<String> {
    let at = cur.pos();
    let mut name = String::new();
    while let Some(c) = cur.peek().filter(|c| is_name_char(*c) || *c == '.') {
        name.push(c);
        cur.bump();
    }
    if !name.is_empty() && cur.peek() == Some(':') && cur.peek_at(1) != Some(':') {
        cur.bump();
        Some(name)
    } else {
        cur.reset(at);
        None
    }
}

/// One line: any number of `{`, `}` and labels, then at most one directive or instruction.
fn parse_line(
    table: &'static [InstrDesc],
    cur: &mut Cursor,
    stmts: &mut Vec<Stmt>,
) -> Result<(), TextError> {
    loop {
        if cur.at_end() {
            return Ok(());
        }
        let span = cur.span();
        let kind = match cur.peek() {
            Some('{') => {
                cur.bump();
                StmtKind::ScopeOpen
            }
            Some('}') => {
                cur.bump();
                StmtKind::ScopeClose
            }
            Some('.') => {
                let kind = directive::directive(cur)?;
                stmts.push(Stmt { kind, span });
                return Ok(());
            }
            _ => match label(cur) {
                Some(name) => StmtKind::Label { name },
                None => {
                    let instr = instr::instruction(table, cur)?;
                    stmts.push(Stmt {
                        kind: StmtKind::Instr(instr),
                        span,
                    });
                    return Ok(());
                }
            },
        };
        stmts.push(Stmt { kind, span });
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
    instr::instruction(table, &mut cur)
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

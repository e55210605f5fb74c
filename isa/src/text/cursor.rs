//! The character-level lexer of one line of assembly: a cursor with column tracking and the
//! small token readers (names, numbers, punctuation) the parsers are built from.

use super::TextError;
use crate::ast::Span;

/// A cursor over one line (comments already blanked out, so columns match the source).
#[derive(Debug, Clone)]
pub(crate) struct Cursor {
    chars: Vec<char>,
    pos: usize,
    line: u32,
}

/// Characters that may start a name: letters, `_`, and the sigils of predefined variables
/// (`%null`), inline-asm placeholders (`%0`, `$0`) and mangled labels (`??$f@M`).
pub(crate) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '%' | '$' | '?' | '@')
}

pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '?' | '@')
}

impl Cursor {
    pub(crate) fn new(text: &str, line: u32) -> Self {
        Self {
            chars: text.chars().collect(),
            pos: 0,
            line,
        }
    }

    pub(crate) fn span(&self) -> Span {
        self.span_at(self.pos)
    }

    pub(crate) fn span_at(&self, pos: usize) -> Span {
        Span::new(self.line, u32::try_from(pos + 1).unwrap_or(u32::MAX))
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.chars.len());
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    pub(crate) fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.peek().is_none()
    }

    /// The rest of the line from the cursor, trimmed.
    pub(crate) fn rest(&mut self) -> String {
        let rest: String = self.chars[self.pos.min(self.chars.len())..]
            .iter()
            .collect();
        self.pos = self.chars.len();
        rest.trim().to_string()
    }

    /// Consumes `c` after optional spaces.
    pub(crate) fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, c: char) -> Result<(), TextError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("`{c}`")))
        }
    }

    /// Consumes `word` (case-insensitive) if it comes next and is not followed by a name character.
    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        self.skip_ws();
        let len = word.chars().count();
        let matches = self.chars.get(self.pos..self.pos + len).is_some_and(|s| {
            s.iter()
                .copied()
                .map(|c| c.to_ascii_lowercase())
                .eq(word.chars())
        });
        if matches && !self.peek_at(len).is_some_and(is_name_char) {
            self.pos += len;
            true
        } else {
            false
        }
    }

    /// Reads a name (`V12`, `%null`, `%0`, `%[out]`, `$1`, `??$f@M`), or None if none starts here.
    pub(crate) fn name(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        let first = self.peek().filter(|c| is_name_start(*c))?;
        self.pos += 1;
        if first == '%' && self.peek() == Some('[') {
            // `%[name]`: a named inline-asm operand.
            let close = self.chars[self.pos..].iter().position(|c| *c == ']');
            match close {
                Some(off) if off > 1 => self.pos += off + 1,
                _ => {
                    self.pos = start;
                    return None;
                }
            }
        } else {
            while self.peek().is_some_and(is_name_char) {
                self.pos += 1;
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        if text == "%" || text == "$" {
            self.pos = start;
            return None;
        }
        Some(text)
    }

    /// Reads a `"quoted string"` (no escapes), or None when no `"` comes next.
    pub(crate) fn quoted(&mut self) -> Result<Option<String>, TextError> {
        self.skip_ws();
        if self.peek() != Some('"') {
            return Ok(None);
        }
        let open = self.span();
        self.pos += 1;
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('"') => return Ok(Some(text)),
                Some(c) => text.push(c),
                None => {
                    return Err(TextError::new(
                        open,
                        "an unterminated string",
                        "a closing `\"`",
                    ));
                }
            }
        }
    }

    pub(crate) fn expect_name(&mut self, what: &str) -> Result<String, TextError> {
        self.name().ok_or_else(|| self.error(what))
    }

    /// Reads an unsigned integer (decimal or `0x` hex).
    pub(crate) fn uint(&mut self) -> Option<u64> {
        self.skip_ws();
        let start = self.pos;
        let digits = self.number_token();
        let value = parse_uint(&digits);
        if value.is_none() {
            self.pos = start;
        }
        value
    }

    pub(crate) fn expect_uint(&mut self, what: &str) -> Result<u64, TextError> {
        self.uint().ok_or_else(|| self.error(what))
    }

    pub(crate) fn expect_u32(&mut self, what: &str) -> Result<u32, TextError> {
        self.skip_ws();
        let start = self.pos;
        let value = self.expect_uint(what)?;
        u32::try_from(value).map_err(|_| {
            self.reset(start);
            self.error(what)
        })
    }

    /// An optionally negative integer (`-4`, `+8`, `12`).
    pub(crate) fn expect_int(&mut self, what: &str) -> Result<i64, TextError> {
        self.skip_ws();
        let start = self.pos;
        let negative = match self.peek() {
            Some('-') => {
                self.pos += 1;
                true
            }
            Some('+') => {
                self.pos += 1;
                false
            }
            _ => false,
        };
        let magnitude = self.uint().and_then(|v| i64::try_from(v).ok());
        match magnitude {
            Some(v) => Ok(if negative { -v } else { v }),
            None => {
                self.reset(start);
                Err(self.error(what))
            }
        }
    }

    /// The characters of a number-like token (digits, letters, `.`, and an exponent sign), consumed.
    pub(crate) fn number_token(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.peek() {
            let after_exponent = self.pos > start
                && matches!(self.chars.get(self.pos - 1), Some('e' | 'E'))
                && !self.chars[start..self.pos]
                    .iter()
                    .any(|c| *c == 'x' || *c == 'X');
            if c.is_ascii_alphanumeric() || c == '.' || (after_exponent && (c == '+' || c == '-')) {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.chars[start..self.pos].iter().collect()
    }

    /// Describes what is at the cursor, for "found X" messages.
    pub(crate) fn found(&mut self) -> String {
        self.skip_ws();
        let Some(c) = self.peek() else {
            return "end of line".to_string();
        };
        let word: String = if is_name_char(c) || c == '%' {
            let mut end = self.pos + 1;
            while self.chars.get(end).is_some_and(|c| is_name_char(*c)) {
                end += 1;
            }
            self.chars[self.pos..end].iter().collect()
        } else {
            c.to_string()
        };
        format!("`{word}`")
    }

    /// An error at the cursor: found <what is here>, expected `expected`.
    pub(crate) fn error(&mut self, expected: &str) -> TextError {
        let found = self.found();
        TextError::new(self.span(), found, expected)
    }
}

/// Parses a decimal or `0x` hexadecimal unsigned integer.
pub(crate) fn parse_uint(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

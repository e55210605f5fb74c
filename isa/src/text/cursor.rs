//! The character-level lexer of one line of assembly: a cursor with column tracking and the
//! small token readers (names, numbers, punctuation) the parsers are built from.

use super::TextError;
use crate::ast::Span;

/// A cursor over one line (comments already blanked out, so columns match the source).
///
/// Positions are byte offsets into the line, always on character boundaries; columns in spans
/// count characters (computed from the byte offset only when the line is not pure ASCII).
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    ascii: bool,
    /// The character the line was cut at (a scope brace ends a stretch of statements), named
    /// instead of "end of line" in messages.
    cut_at: Option<char>,
}

/// Characters that may start a name: letters, `_`, and the sigils of predefined variables
/// (`%null`), inline-asm placeholders (`%0`, `$0`) and mangled labels (`??$f@M`).
pub(crate) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '%' | '$' | '?' | '@')
}

pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '?' | '@')
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str, line: u32) -> Self {
        Self {
            text,
            pos: 0,
            line,
            ascii: text.is_ascii(),
            cut_at: None,
        }
    }

    /// A cursor over `text`, the part of a line before the character `cut_at`.
    pub(crate) fn cut(text: &'a str, line: u32, cut_at: char) -> Self {
        Self {
            cut_at: Some(cut_at),
            ..Self::new(text, line)
        }
    }

    /// The rest of the line from the cursor, not consumed.
    pub(crate) fn remaining(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    #[inline]
    pub(crate) fn span(&self) -> Span {
        self.span_at(self.pos)
    }

    pub(crate) fn span_at(&self, pos: usize) -> Span {
        let chars = if self.ascii {
            pos
        } else {
            self.text.get(..pos).map_or(pos, |s| s.chars().count())
        };
        Span::new(self.line, u32::try_from(chars + 1).unwrap_or(u32::MAX))
    }

    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    #[inline]
    pub(crate) fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
    }

    /// The text between two positions.
    #[inline]
    pub(crate) fn slice(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or("")
    }

    /// The character starting at byte `at`.
    #[inline]
    fn char_at(&self, at: usize) -> Option<char> {
        let byte = *self.text.as_bytes().get(at)?;
        if byte.is_ascii() {
            Some(char::from(byte))
        } else {
            self.text.get(at..)?.chars().next()
        }
    }

    #[inline]
    pub(crate) fn peek(&self) -> Option<char> {
        self.char_at(self.pos)
    }

    /// The character `ahead` characters after the cursor.
    #[inline]
    pub(crate) fn peek_at(&self, ahead: usize) -> Option<char> {
        if self.ascii {
            self.char_at(self.pos + ahead)
        } else {
            self.text.get(self.pos..)?.chars().nth(ahead)
        }
    }

    #[inline]
    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    #[inline]
    pub(crate) fn skip_ws(&mut self) {
        while let Some(&b) = self.text.as_bytes().get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
                self.pos += 1;
            } else if b.is_ascii() || !self.skip_wide_space() {
                return;
            }
        }
    }

    /// Skips one non-ASCII whitespace character (`char::is_whitespace`); false when the
    /// character at the cursor is not one.
    #[cold]
    fn skip_wide_space(&mut self) -> bool {
        match self.peek().filter(|c| c.is_whitespace()) {
            Some(c) => {
                self.pos += c.len_utf8();
                true
            }
            None => false,
        }
    }

    /// The character just before the cursor, if any.
    pub(crate) fn previous(&self) -> Option<char> {
        self.text
            .get(..self.pos)
            .and_then(|t| t.chars().next_back())
    }

    #[inline]
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The rest of the line from the cursor, trimmed.
    pub(crate) fn rest(&mut self) -> String {
        let rest = self.text.get(self.pos..).unwrap_or("");
        self.pos = self.text.len();
        rest.trim().to_string()
    }

    /// Consumes `c` after optional spaces.
    #[inline]
    pub(crate) fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    #[inline]
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
        let end = self.pos + word.len();
        let matches = self
            .text
            .as_bytes()
            .get(self.pos..end)
            .is_some_and(|s| s.iter().map(u8::to_ascii_lowercase).eq(word.bytes()));
        if matches && !self.char_at(end).is_some_and(is_name_char) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    /// Reads a name (`V12`, `%null`, `%0`, `%[out]`, `$1`, `??$f@M`), or None if none starts here.
    pub(crate) fn name(&mut self) -> Option<String> {
        self.name_str().map(String::from)
    }

    /// [`Cursor::name`], borrowed from the line.
    pub(crate) fn name_str(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let start = self.pos;
        let first = self.peek().filter(|c| is_name_start(*c))?;
        self.pos += first.len_utf8();
        if first == '%' && self.peek() == Some('[') {
            // `%[name]`: a named inline-asm operand.
            let close = self
                .text
                .get(self.pos..)
                .and_then(|rest| rest.bytes().position(|b| b == b']'));
            match close {
                Some(off) if off > 1 => self.pos += off + 1,
                _ => {
                    self.pos = start;
                    return None;
                }
            }
        } else {
            // Name characters are ASCII, so a byte loop finds the end.
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            self.pos += rest
                .iter()
                .position(|&b| !is_name_char(char::from(b)) || !b.is_ascii())
                .unwrap_or(rest.len());
        }
        let text = self.text.get(start..self.pos).unwrap_or("");
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
        let start = self.pos;
        loop {
            match self.bump() {
                Some('"') => {
                    let text = self.text.get(start..self.pos - 1).unwrap_or("");
                    return Ok(Some(text.to_string()));
                }
                Some(_) => {}
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
        if let Some(value) = self.plain_decimal() {
            return Some(value);
        }
        let digits = self.number_token();
        let value = parse_uint(digits);
        if value.is_none() {
            self.pos = start;
        }
        value
    }

    /// The common case of [`Cursor::uint`]: decimal digits that end the number token (not
    /// `0x..`, not followed by letters or `.`), consumed; None (nothing consumed) otherwise.
    #[inline]
    fn plain_decimal(&mut self) -> Option<u64> {
        let bytes = self.text.as_bytes();
        let mut end = self.pos;
        let mut value = 0u64;
        while let Some(digit) = bytes
            .get(end)
            .and_then(|b| b.checked_sub(b'0'))
            .filter(|d| *d < 10)
        {
            value = value.checked_mul(10)?.checked_add(u64::from(digit))?;
            end += 1;
        }
        let continues = bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.');
        if end == self.pos || continues {
            return None;
        }
        self.pos = end;
        Some(value)
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
    pub(crate) fn number_token(&mut self) -> &'a str {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut hex = false;
        loop {
            match bytes.get(self.pos) {
                Some(&b) if b.is_ascii_alphanumeric() || b == b'.' => {
                    hex |= b == b'x' || b == b'X';
                    self.pos += 1;
                }
                // An exponent sign (`1.5e+3`), not in hex digits.
                Some(b'+' | b'-')
                    if self.pos > start
                        && !hex
                        && matches!(bytes.get(self.pos - 1), Some(b'e' | b'E')) =>
                {
                    self.pos += 1;
                }
                _ => break,
            }
        }
        self.text.get(start..self.pos).unwrap_or("")
    }

    /// Describes what is at the cursor, for "found X" messages.
    pub(crate) fn found(&mut self) -> String {
        self.skip_ws();
        let Some(c) = self.peek() else {
            return match self.cut_at {
                Some(cut) => format!("`{cut}`"),
                None => "end of line".to_string(),
            };
        };
        let word = if is_name_char(c) || c == '%' {
            let mut end = self.pos + c.len_utf8();
            while self.char_at(end).is_some_and(is_name_char) {
                end += 1;
            }
            self.text.get(self.pos..end).unwrap_or("")
        } else {
            self.text
                .get(self.pos..self.pos + c.len_utf8())
                .unwrap_or("")
        };
        format!("`{}`", visible(word))
    }

    /// An error at the cursor: found <what is here>, expected `expected`.
    pub(crate) fn error(&mut self, expected: &str) -> TextError {
        let found = self.found();
        TextError::new(self.span(), found, expected)
    }
}

/// `text` with control characters and invisible format characters (a byte-order mark, a
/// zero-width space) written as escapes (`\u{7}`), so that messages show them.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{2060}') {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Parses a decimal or `0x` hexadecimal unsigned integer.
pub(crate) fn parse_uint(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if !text.is_empty() {
        text.bytes().try_fold(0u64, |value, b| {
            let digit = b.checked_sub(b'0').filter(|d| *d < 10)?;
            value.checked_mul(10)?.checked_add(u64::from(digit))
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_shown_escaped() {
        let found = |line: &str| Cursor::new(line, 1).found();
        assert_eq!(found("\u{7}x"), "`\\u{7}`");
        assert_eq!(found("\u{feff}"), "`\\u{feff}`");
        assert_eq!(found("§"), "`§`");
        assert_eq!(found("\""), "`\"`");
    }
}

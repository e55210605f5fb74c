//! Small inline grammars shared by the section parsers: list markers, bold labels, numbers,
//! platform tags and type lists.

use crate::model::{Platform, PlatformBound, TypeName};

/// A list item `- text` / `* text` / `+ text`, recognised by its text whatever its indentation.
/// Returns the item's content (after the marker and its spaces).
pub(crate) fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let mut chars = t.chars();
    let marker = chars.next()?;
    if !matches!(marker, '-' | '*' | '+') {
        return None;
    }
    let rest = &t[1..];
    if rest.is_empty() {
        return Some(rest);
    }
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some(rest.trim_start())
}

/// A bold label at the start of a list item: `**Label:** rest` or `**Label**: rest` or
/// `**Label** rest`. Returns (label without the colon, rest).
pub(crate) fn bold_label(content: &str) -> Option<(&str, &str)> {
    let inner = content.strip_prefix("**")?;
    let close = inner.find("**")?;
    let label = &inner[..close];
    let mut rest = &inner[close + 2..];
    if let Some(r) = rest.strip_prefix(':') {
        rest = r;
    }
    let label = label.trim_end();
    let label = label.strip_suffix(':').unwrap_or(label).trim();
    Some((label, rest.trim()))
}

/// The leading word of a list item (after its platform tags), read as a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeItem<'a> {
    /// `0b01: label`, `0x3: label`, `12: label`.
    Code { code: u64, label: &'a str },
    /// `0x4-0x7: label` (also `0x4..0x7`, `0x4..=0x7`, an en dash).
    Range {
        first: u64,
        last: u64,
        label: &'a str,
    },
    /// Written like a number but not one: `0b1x: ..`, `0x1G: ..`, `1, 2: ..`, a reversed range,
    /// a value wider than 64 bits.
    Malformed { token: &'a str },
    /// Not a code: `2D_array: ..`, `Note: ..`, text without a colon.
    NotCode,
}

/// Reads `text` (a list item's content, platform tags removed) as a code item: a number or a
/// range of numbers, then `:` and the label.
pub(crate) fn code_item(text: &str) -> CodeItem<'_> {
    let Some((token, label)) = text.split_once(':') else {
        return CodeItem::NotCode;
    };
    let token = token.trim();
    let label = label.trim();
    if let Some(code) = code_number(token) {
        return CodeItem::Code { code, label };
    }
    for separator in ["..=", "..", "\u{2013}", "-"] {
        if let Some((first, last)) = token.split_once(separator)
            && let (Some(first), Some(last)) = (code_number(first.trim()), code_number(last.trim()))
        {
            return if first <= last {
                CodeItem::Range { first, last, label }
            } else {
                CodeItem::Malformed { token }
            };
        }
    }
    let prefixed = ["0x", "0X", "0b", "0B"]
        .iter()
        .any(|p| token.starts_with(p));
    let numeral = token.starts_with(|c: char| c.is_ascii_digit())
        && token.chars().all(|c| {
            c.is_ascii_hexdigit()
                || matches!(
                    c,
                    'x' | 'X' | '_' | ' ' | ',' | '.' | '-' | '=' | '\u{2013}'
                )
        });
    if prefixed || numeral {
        CodeItem::Malformed { token }
    } else {
        CodeItem::NotCode
    }
}

/// A non-negative code that fits in 64 bits.
fn code_number(token: &str) -> Option<u64> {
    if token.starts_with('-') {
        return None;
    }
    parse_int(token).and_then(|v| u64::try_from(v).ok())
}

/// Parses an integer written as `0x..`, `0b..` or decimal (optionally negative).
pub(crate) fn parse_int(token: &str) -> Option<i128> {
    let t = token.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let value = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        parse_radix(hex, 16)?
    } else if let Some(bin) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        parse_radix(bin, 2)?
    } else {
        parse_radix(t, 10)?
    };
    Some(if negative { -value } else { value })
}

fn parse_radix(digits: &str, radix: u32) -> Option<i128> {
    if digits.is_empty() || digits.len() > 70 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(digits, radix).ok()
}

/// Parses the inside of a platform tag (`XEHP+`, `-XEHP`, `PVC`). Platform names are upper-case
/// letters, digits and `_` (so that prose such as `{NoMask}` is not taken for a tag).
pub(crate) fn platform_tag(inner: &str) -> Option<Platform> {
    let (bound, name) = if let Some(name) = inner.strip_suffix('+') {
        (PlatformBound::Since, name)
    } else if let Some(name) = inner.strip_prefix('-') {
        (PlatformBound::Before, name)
    } else {
        (PlatformBound::Only, inner)
    };
    let valid = !name.is_empty()
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    valid.then(|| Platform {
        name: name.to_string(),
        bound,
    })
}

/// Removes every platform tag from `text`; returns the remaining text (whitespace collapsed) and
/// the tags in order.
pub(crate) fn strip_platforms(text: &str) -> (String, Vec<Platform>) {
    let mut out = String::with_capacity(text.len());
    let mut platforms = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after
            .find('}')
            .and_then(|close| platform_tag(&after[..close]).map(|p| (p, close)))
        {
            Some((platform, close)) => {
                out.push_str(&rest[..open]);
                out.push(' ');
                platforms.push(platform);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (collapse_whitespace(&out), platforms)
}

pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Leading platform tags of `text` (`{XEHP+}0b100: ...`): the tags and the text after them.
pub(crate) fn leading_platforms(text: &str) -> (Vec<Platform>, &str) {
    let mut platforms = Vec::new();
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix('{') {
        let Some(close) = after.find('}') else { break };
        let Some(platform) = platform_tag(&after[..close]) else {
            break;
        };
        platforms.push(platform);
        rest = after[close + 1..].trim_start();
    }
    (platforms, rest)
}

/// Parses a type list such as `B,D,F.{XEHP+}BF` or `BOOL (for predicate), BF, HF`. A platform tag
/// applies to the type it precedes and every later one. Words that are not type names (such as
/// parenthesised remarks) are dropped.
pub(crate) fn type_list(text: &str) -> Vec<TypeName> {
    let mut types = Vec::new();
    let mut platforms: Vec<Platform> = Vec::new();
    let without_remarks = remove_parenthesised(text);
    for piece in without_remarks.split(',') {
        // `W.{XEHP+}BF`: a `.` followed by a tag separates two types.
        for (n, part) in piece.split(".{").enumerate() {
            let part = if n > 0 {
                format!("{{{part}")
            } else {
                part.to_string()
            };
            let (tags, rest) = leading_platforms(&part);
            if !tags.is_empty() {
                platforms = tags;
            }
            let name = rest.trim().trim_end_matches('.').trim();
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            {
                types.push(TypeName {
                    name: name.to_string(),
                    platforms: platforms.clone(),
                });
            }
        }
    }
    types
}

fn remove_parenthesised(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(name: &str, bound: PlatformBound) -> Platform {
        Platform {
            name: name.to_string(),
            bound,
        }
    }

    #[test]
    fn list_items_by_text() {
        assert_eq!(
            list_item("      - **Offset(scalar):** x"),
            Some("**Offset(scalar):** x")
        );
        assert_eq!(list_item("*\tBit[1]: y"), Some("Bit[1]: y"));
        assert_eq!(list_item("-"), Some(""));
        assert_eq!(list_item("-1 is not a bullet"), None);
        assert_eq!(list_item("**bold**"), None);
    }

    #[test]
    fn bold_labels_with_the_colon_inside_or_outside() {
        assert_eq!(
            bold_label("**Exec_size(ub):** Execution size"),
            Some(("Exec_size(ub)", "Execution size"))
        );
        assert_eq!(
            bold_label("**Type map{XEHP+}**"),
            Some(("Type map{XEHP+}", ""))
        );
        assert_eq!(bold_label("**Key**: value"), Some(("Key", "value")));
        assert_eq!(bold_label("**unclosed"), None);
    }

    #[test]
    fn integers_in_three_bases() {
        assert_eq!(parse_int("0x4e"), Some(0x4e));
        assert_eq!(parse_int("0b1010"), Some(10));
        assert_eq!(parse_int("-8"), Some(-8));
        assert_eq!(parse_int("0x"), None);
        assert_eq!(parse_int("0xZZ"), None);
        assert_eq!(parse_int("12a"), None);
        assert_eq!(parse_int(&"1".repeat(80)), None);
    }

    #[test]
    fn platform_tags() {
        assert_eq!(
            platform_tag("XEHP+"),
            Some(tag("XEHP", PlatformBound::Since))
        );
        assert_eq!(
            platform_tag("-XEHP"),
            Some(tag("XEHP", PlatformBound::Before))
        );
        assert_eq!(
            platform_tag("PVC_XT"),
            Some(tag("PVC_XT", PlatformBound::Only))
        );
        assert_eq!(platform_tag("NoMask"), None);
        assert_eq!(platform_tag("+"), None);
        let (text, tags) = strip_platforms("T0 (SLM): {ICLLP+} Yes, marked {NoMask}");
        assert_eq!(text, "T0 (SLM): Yes, marked {NoMask}");
        assert_eq!(tags, [tag("ICLLP", PlatformBound::Since)]);
    }

    #[test]
    fn type_lists_carry_platform_tails() {
        let types = type_list("D,UD,UW,W.{PVC+}Q,UQ");
        let written: Vec<(String, usize)> = types
            .iter()
            .map(|t| (t.name.clone(), t.platforms.len()))
            .collect();
        assert_eq!(
            written,
            [
                ("D", 0),
                ("UD", 0),
                ("UW", 0),
                ("W", 0),
                ("Q", 1),
                ("UQ", 1)
            ]
            .map(|(n, p)| (n.to_string(), p))
        );
        let names: Vec<String> = type_list("BOOL (for predicate), BF, HF")
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(names, ["BOOL", "BF", "HF"]);
    }
}

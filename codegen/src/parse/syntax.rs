//! The `## Text` section: syntax statements parsed into [`SyntaxTemplate`]s.
//!
//! Grammar of a statement (spaces between the parts):
//! `[ [(<P>)] ] MNEMONIC { .SUFFIX | [.OPTIONAL] } [ (<exec_size>) ] { <operand> | [<operand>] }`
//! where a mnemonic may contain `{a|b}` alternatives and a suffix is `<field>`, a word (a field
//! when it names one of the document's fields, else a literal) or `{a|b}`. An operand may be
//! composite: `"literal"` text, `<Name>` placeholders and optional `[...]` groups written without
//! spaces (`<DstData>":"<DataSize>["x"<DataElemsPerAddr=1>]`).

use super::diag::Diags;
use super::text::Line;
use crate::model::{
    DiagnosticKind, PatternPiece, SyntaxLine, SyntaxOperand, SyntaxSuffix, SyntaxTemplate,
};

pub(crate) struct TextSection {
    pub syntax: Vec<SyntaxLine>,
    pub comments: Vec<String>,
}

pub(crate) fn text_section(
    lines: &[Line<'_>],
    field_names: &[&str],
    diags: &mut Diags,
) -> TextSection {
    let mut syntax: Vec<SyntaxLine> = Vec::new();
    let mut comments = Vec::new();
    // Indentation of the statement being read (continuation lines are indented deeper).
    let mut statement_indent: Option<usize> = None;
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        let trimmed = line.trimmed();
        if trimmed.starts_with("//") || (trimmed.ends_with(':') && !trimmed.contains('<')) {
            comments.push(trimmed.to_string());
            statement_indent = None;
            continue;
        }
        let (code, comment) = match trimmed.find("//") {
            Some(at) => (trimmed[..at].trim_end(), Some(trimmed[at..].to_string())),
            None => (trimmed, None),
        };
        let code = code.strip_suffix('|').unwrap_or(code).trim_end();
        let indent = line.indent();
        match (statement_indent, syntax.last_mut()) {
            (Some(first), Some(last)) if indent > first => {
                last.text.push('\n');
                last.text.push_str(code);
            }
            _ => {
                statement_indent = Some(indent);
                syntax.push(SyntaxLine {
                    text: code.to_string(),
                    template: None,
                    loc: line.loc_of_content(),
                });
            }
        }
        comments.extend(comment);
    }
    for statement in &mut syntax {
        let flat = statement.text.replace('\n', " ");
        match template(&flat, field_names) {
            Ok(template) => statement.template = Some(template),
            Err(message) => diags.warn(
                DiagnosticKind::Syntax,
                statement.loc,
                format!("syntax statement kept as text only: {message}"),
            ),
        }
    }
    TextSection { syntax, comments }
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }
    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }
    /// Consumes `open`, then everything up to the matching `close`; returns the inside.
    fn group(&mut self, close: char) -> Result<&'a str, String> {
        let rest = self.rest();
        let open = rest.chars().next().unwrap_or(' ');
        let inner = rest.get(open.len_utf8()..).unwrap_or("");
        let Some(end) = inner.find(close) else {
            return Err(format!("`{open}` without its closing `{close}`"));
        };
        self.pos += open.len_utf8() + end + close.len_utf8();
        Ok(&inner[..end])
    }
    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }
}

pub(crate) fn template(text: &str, field_names: &[&str]) -> Result<SyntaxTemplate, String> {
    let mut cur = Cursor { text, pos: 0 };
    cur.skip_ws();
    let mut predicate = false;
    if cur.peek() == Some('[') {
        let inner: String = cur.group(']')?.split_whitespace().collect();
        let lower = inner.to_ascii_lowercase();
        if !matches!(lower.as_str(), "(<p>)" | "(pred)" | "(<pred>)" | "(p)") {
            return Err(format!(
                "expected `[(<P>)]` or a mnemonic, found `[{inner}]`"
            ));
        }
        predicate = true;
        cur.skip_ws();
    }
    let mnemonic = mnemonic(&mut cur)?;
    let mut suffixes = Vec::new();
    loop {
        match cur.peek() {
            Some('.') => {
                cur.bump();
                suffixes.push(suffix_atom(&mut cur, field_names)?);
            }
            Some('[') => {
                let inner = cur.group(']')?;
                suffixes.push(bracket_suffix(inner, field_names)?);
            }
            _ => break,
        }
    }
    match cur.peek() {
        None => {}
        Some(c) if c.is_whitespace() => {}
        Some(c) => return Err(format!("unexpected `{c}` after `{mnemonic}`")),
    }
    cur.skip_ws();
    let mut exec_size = None;
    if cur.peek() == Some('(') {
        let inner = cur.group(')')?;
        let name = inner.replace(['<', '>'], "");
        let name = super::inline::collapse_whitespace(&name);
        if name.is_empty() {
            return Err("empty `()`: expected `(<exec_size>)`".to_string());
        }
        exec_size = Some(name);
    }
    let mut operands = Vec::new();
    loop {
        cur.skip_ws();
        match cur.peek() {
            None => break,
            Some('(') => {
                let inner = cur.group(')')?;
                operands.push(list_operand(inner)?);
            }
            Some('<' | '[' | '"') => operands.push(operand_slot(&mut cur)?),
            Some(c) => {
                return Err(format!(
                    "unexpected `{c}` in the operand list: expected `<operand>`, `[<operand>]`, `(<item0>, <item1>, ...)` or a composite operand"
                ));
            }
        }
    }
    Ok(SyntaxTemplate {
        predicate,
        mnemonic,
        suffixes,
        exec_size,
        operands,
    })
}

/// `(<Label0>, <Label1>, ...)` or `(Label0, Label1, ..., LabelN-1)`: a comma-separated list whose
/// elements are written out, with `...` for the ones between. It names the list field after its
/// first element without the index (`Label`).
fn list_operand(inner: &str) -> Result<SyntaxOperand, String> {
    let items: Vec<&str> = inner
        .split(',')
        .map(|item| {
            item.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .trim()
        })
        .collect();
    let first = items.first().copied().unwrap_or("");
    let name = crate::model::list_of_element(first).unwrap_or("");
    let is_name = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name || !items.contains(&"...") {
        return Err(format!(
            "expected a list `(<Name0>, <Name1>, ...)` in the operands, found `({inner})`"
        ));
    }
    Ok(SyntaxOperand {
        name: name.to_string(),
        optional: false,
        list: true,
        pattern: Vec::new(),
    })
}

fn mnemonic(cur: &mut Cursor<'_>) -> Result<String, String> {
    let mut out = String::new();
    loop {
        match cur.peek() {
            Some('{') => {
                let inner = cur.group('}')?;
                out.push('{');
                out.push_str(inner);
                out.push('}');
            }
            Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '*' => {
                out.push(c);
                cur.bump();
            }
            _ => break,
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        let found = cur
            .peek()
            .map_or("end of line".to_string(), |c| format!("`{c}`"));
        return Err(format!("expected a mnemonic, found {found}"));
    }
    Ok(out)
}

/// The part after a `.`: `<field>`, `{a|b}` or a word.
fn suffix_atom(cur: &mut Cursor<'_>, field_names: &[&str]) -> Result<SyntaxSuffix, String> {
    match cur.peek() {
        Some('<') => {
            let name = cur.group('>')?.trim();
            if name.is_empty() {
                return Err("empty suffix `.<>`".to_string());
            }
            Ok(SyntaxSuffix::Field {
                name: name.to_string(),
            })
        }
        Some('{') => {
            let inner = cur.group('}')?;
            alternatives(inner)
        }
        _ => {
            let word = cur.word();
            if word.is_empty() {
                let found = cur
                    .peek()
                    .map_or("end of line".to_string(), |c| format!("`{c}`"));
                return Err(format!("expected a suffix after `.`, found {found}"));
            }
            Ok(word_suffix(word, field_names))
        }
    }
}

fn word_suffix(word: &str, field_names: &[&str]) -> SyntaxSuffix {
    if field_names.iter().any(|f| f.eq_ignore_ascii_case(word)) {
        SyntaxSuffix::Field {
            name: word.to_string(),
        }
    } else {
        SyntaxSuffix::Literal {
            text: word.to_string(),
        }
    }
}

fn alternatives(inner: &str) -> Result<SyntaxSuffix, String> {
    let options: Vec<String> = inner
        .split('|')
        .map(|o| o.trim().trim_start_matches('.').to_string())
        .collect();
    let valid = options.len() > 1
        && options
            .iter()
            .all(|o| !o.is_empty() && o.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if valid {
        Ok(SyntaxSuffix::Alternatives { options })
    } else {
        Err(format!(
            "expected `{{a|b}}` alternatives, found `{{{inner}}}`"
        ))
    }
}

/// `[.sat]`, `[.<Mode>]`, `[.16|.64]` (optional) or `[Name]` glued to the previous suffix (BFN's
/// `.x[BooleanFuncCtrl]`: the field's value is printed there).
fn bracket_suffix(inner: &str, field_names: &[&str]) -> Result<SyntaxSuffix, String> {
    let trimmed = inner.trim();
    if let Some(after_dot) = trimmed.strip_prefix('.') {
        if trimmed.contains('|') {
            return Ok(SyntaxSuffix::Optional {
                inner: Box::new(alternatives(trimmed)?),
            });
        }
        let mut cur = Cursor {
            text: after_dot,
            pos: 0,
        };
        let atom = suffix_atom(&mut cur, field_names)?;
        if !cur.rest().trim().is_empty() {
            return Err(format!("unexpected `{}` in `[{inner}]`", cur.rest().trim()));
        }
        return Ok(SyntaxSuffix::Optional {
            inner: Box::new(atom),
        });
    }
    if !trimmed.is_empty()
        && trimmed
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Ok(SyntaxSuffix::Field {
            name: trimmed.to_string(),
        });
    }
    Err(format!("expected `[.suffix]`, found `[{inner}]`"))
}

/// One operand of the list, up to the next space: `<name>`, `[<name>]` (optional), or a composite
/// operand made of `"literal"`, `<Name>` placeholders (`<Name:hex>`, `<Name:+hex>`, `<Name:+dec>`,
/// `<Name=default>`) and optional `[...]` groups written without spaces between them.
fn operand_slot(cur: &mut Cursor<'_>) -> Result<SyntaxOperand, String> {
    let pieces = pattern(cur, None)?;
    let plain = |piece: &PatternPiece| match piece {
        PatternPiece::Field {
            name,
            style: None,
            default: None,
        } => Some(name.clone()),
        _ => None,
    };
    match pieces.as_slice() {
        [single] => {
            if let Some(name) = plain(single) {
                return Ok(SyntaxOperand {
                    name,
                    optional: false,
                    list: false,
                    pattern: Vec::new(),
                });
            }
            if let PatternPiece::Optional { pieces: inner } = single
                && let [only] = inner.as_slice()
                && let Some(name) = plain(only)
            {
                return Ok(SyntaxOperand {
                    name,
                    optional: true,
                    list: false,
                    pattern: Vec::new(),
                });
            }
        }
        [] => return Err("empty operand".to_string()),
        _ => {}
    }
    let name = PatternPiece::names(&pieces)
        .first()
        .map(|n| n.to_string())
        .ok_or("a composite operand without a `<placeholder>`")?;
    Ok(SyntaxOperand {
        name,
        optional: false,
        list: false,
        pattern: pieces,
    })
}

/// The pieces of a composite operand up to a space (or the end), or up to the `]` closing a group
/// when `close` is set.
fn pattern(cur: &mut Cursor<'_>, close: Option<char>) -> Result<Vec<PatternPiece>, String> {
    let mut pieces = Vec::new();
    loop {
        match cur.peek() {
            None if close.is_none() => return Ok(pieces),
            None => return Err("`[` without its closing `]` in an operand".to_string()),
            Some(c) if c.is_whitespace() => {
                if close.is_none() {
                    return Ok(pieces);
                }
                return Err(
                    "a space inside `[...]` of an operand: quote literal spaces".to_string()
                );
            }
            Some(']') if close == Some(']') => {
                cur.bump();
                if pieces.is_empty() {
                    return Err("empty `[]` in an operand".to_string());
                }
                return Ok(pieces);
            }
            Some('"') => {
                let text = cur.group('"')?;
                if text.is_empty() {
                    return Err("empty literal `\"\"` in an operand".to_string());
                }
                pieces.push(PatternPiece::Literal {
                    text: text.to_string(),
                });
            }
            Some('<') => pieces.push(placeholder(cur.group('>')?)?),
            Some('[') => {
                cur.bump();
                let inner = pattern(cur, Some(']'))?;
                pieces.push(PatternPiece::Optional { pieces: inner });
            }
            Some(c) => {
                return Err(format!(
                    "unexpected `{c}` in an operand: expected `<placeholder>`, `\"literal\"` or `[...]`"
                ));
            }
        }
    }
}

/// `Name`, `Name:hex`, `Name:+hex`, `Name:+dec`, `Name=default` (both: `Name:hex=1`). Without `:` or `=` the
/// whole text is the name, as for any placeholder (binding reports a name that is no field).
fn placeholder(inner: &str) -> Result<PatternPiece, String> {
    if !inner.contains([':', '=']) && !inner.trim().is_empty() {
        return Ok(PatternPiece::Field {
            name: inner.trim().to_string(),
            style: None,
            default: None,
        });
    }
    let (head, default) = match inner.split_once('=') {
        Some((head, default)) => (head, Some(default.trim().to_string())),
        None => (inner, None),
    };
    let (name, style) = match head.split_once(':') {
        Some((name, style)) => (name.trim(), Some(style.trim().to_string())),
        None => (head.trim(), None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "expected `<Name>` in an operand, found `<{inner}>`"
        ));
    }
    if let Some(style) = style.as_deref()
        && !matches!(style, "hex" | "+hex" | "+dec")
    {
        return Err(format!(
            "unknown number style `:{style}` in `<{inner}>` (expected `:hex`, `:+hex` or `:+dec`)"
        ));
    }
    if default.as_deref() == Some("") {
        return Err(format!("empty default in `<{inner}>`"));
    }
    Ok(PatternPiece::Field {
        name: name.to_string(),
        style,
        default,
    })
}

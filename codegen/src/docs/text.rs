//! Text helpers shared by the HTML and markdown renderers: escaping, identifiers, platform tags,
//! code formatting and splitting syntax lines into placeholders.

use crate::model::{Document, Field, Platform, PlatformBound, TextBlock, TypeName};

/// Escapes text for HTML element content and double- or single-quoted attribute values.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escapes text for inline markdown (paragraph lines, list items, headings, table cells):
/// characters that markdown or its embedded HTML would interpret are backslash-escaped, a
/// leading list/heading marker is neutralised, and line breaks become spaces so a value cannot
/// start a new block or break a table row.
pub fn markdown_inline(text: &str) -> String {
    escape_markdown(text, true)
}

fn escape_markdown(text: &str, at_line_start: bool) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
    if !at_line_start {
        return out;
    }
    // A line that starts with `-`, `+`, `=` or `12.` / `12)` would become a list or heading.
    let digits = out.chars().take_while(char::is_ascii_digit).count();
    let after_marker = out.chars().nth(digits + 1);
    match out.chars().nth(digits) {
        Some('.' | ')') if digits > 0 && after_marker.is_none_or(char::is_whitespace) => {
            out.insert(digits, '\\');
        }
        Some('-' | '+' | '=') if digits == 0 => out.insert(0, '\\'),
        _ => {}
    }
    out
}

/// A fenced markdown code block holding `text` verbatim: the fence is longer than any backtick
/// run inside, so the content cannot close it.
pub fn markdown_fence(text: &str, info: &str) -> String {
    let mut longest = 0usize;
    let mut run = 0usize;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest.max(2) + 1);
    let body = text.trim_end_matches(['\n', '\r']);
    format!("{fence}{info}\n{body}\n{fence}\n")
}

/// Reduces a name to characters that are safe in file names, URLs and HTML ids.
pub fn slug(name: &str) -> String {
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if slug.is_empty() {
        "_".to_string()
    } else {
        slug
    }
}

/// The anchor id of a field's description on an instruction page.
pub fn field_id(name: &str) -> String {
    format!("field-{}", slug(name))
}

/// `XEHP+`, `-XEHP` or `XEHP`, as the documents write the tag (without braces).
pub fn platform_tag(platform: &Platform) -> String {
    match platform.bound {
        PlatformBound::Since => format!("{}+", platform.name),
        PlatformBound::Before => format!("-{}", platform.name),
        PlatformBound::Only => platform.name.clone(),
    }
}

/// A sentence describing the tag, for tooltips and plain text.
pub fn platform_meaning(platform: &Platform) -> String {
    match platform.bound {
        PlatformBound::Since => format!("{} and later platforms", platform.name),
        PlatformBound::Before => format!("platforms before {}", platform.name),
        PlatformBound::Only => format!("{} only", platform.name),
    }
}

/// A type list as `UD, D, {XEHP+}BF`.
pub fn type_list(types: &[TypeName]) -> String {
    types
        .iter()
        .map(|t| {
            let tags: String = t
                .platforms
                .iter()
                .map(|p| format!("{{{}}}", platform_tag(p)))
                .collect();
            format!("{tags}{}", t.name)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A code in binary, zero-padded to `width` bits: `0b010`.
pub fn binary(code: u64, width: u32) -> String {
    let width = width.clamp(1, 64) as usize;
    format!("0b{code:0width$b}")
}

/// A code in hexadecimal: `0x2`.
pub fn hex(code: u64) -> String {
    format!("0x{code:x}")
}

/// The number of bits needed to write every code of a plain value list (at least one).
pub fn value_width(codes: impl IntoIterator<Item = u64>) -> u32 {
    codes
        .into_iter()
        .map(|c| 64 - c.leading_zeros())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Every platform tag used anywhere in the document, deduplicated in first-seen order.
pub fn all_platforms(doc: &Document) -> Vec<Platform> {
    let mut seen: Vec<Platform> = Vec::new();
    let mut add = |ps: &[Platform]| {
        for p in ps {
            if !seen.contains(p) {
                seen.push(p.clone());
            }
        }
    };
    for field in &doc.fields {
        field.allowed_types.iter().for_each(|t| add(&t.platforms));
        for bits in &field.bitfields {
            add(&bits.platforms);
            bits.values.iter().for_each(|v| add(&v.platforms));
        }
        field.values.iter().for_each(|v| add(&v.platforms));
    }
    for prop in &doc.properties {
        prop.types.iter().for_each(|t| add(&t.platforms));
    }
    for map in &doc.type_maps {
        add(&map.platforms);
        for (_, types) in &map.entries {
            types.iter().for_each(|t| add(&t.platforms));
        }
    }
    seen
}

/// A piece of a syntax line: literal text, or a placeholder that names a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxPiece<'a> {
    Text(&'a str),
    /// `text` is the placeholder as written (with its `<>` when it had them).
    Field {
        text: &'a str,
        field: &'a Field,
    },
}

/// Splits a syntax line into literal text and placeholders naming a field of `doc`: `<name>`
/// placeholders, and `.name` suffixes whose word is a field name (e.g. `CMP.rel_op`).
pub fn syntax_pieces<'a>(line: &'a str, doc: &'a Document) -> Vec<SyntaxPiece<'a>> {
    let mut pieces = Vec::new();
    let mut literal_start = 0;
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < bytes.len() {
        let found = match bytes.get(i) {
            Some(b'<') => line[i + 1..].find('>').and_then(|len| {
                let inner = &line[i + 1..i + 1 + len];
                placeholder_field(doc, inner).map(|field| (i + len + 2, field))
            }),
            Some(b'.') => {
                let word_len = line[i + 1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(line.len() - i - 1);
                let word = &line[i + 1..i + 1 + word_len];
                (!word.is_empty())
                    .then(|| doc.field(word))
                    .flatten()
                    .map(|field| (i + 1 + word_len, field))
            }
            _ => None,
        };
        match found {
            Some((end, field)) => {
                // For `.name` the dot stays literal text; only the word is the placeholder.
                let start = if bytes.get(i) == Some(&b'.') {
                    i + 1
                } else {
                    i
                };
                if literal_start < start {
                    pieces.push(SyntaxPiece::Text(&line[literal_start..start]));
                }
                pieces.push(SyntaxPiece::Field {
                    text: &line[start..end],
                    field,
                });
                literal_start = end;
                i = end;
            }
            None => i += line[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if literal_start < line.len() {
        pieces.push(SyntaxPiece::Text(&line[literal_start..]));
    }
    pieces
}

/// The field a `<placeholder>` stands for: the field of that name or, failing that, the only
/// field whose name starts with it (`<P>` for `Pred`).
fn placeholder_field<'a>(doc: &'a Document, inner: &str) -> Option<&'a Field> {
    if let Some(field) = list_element_field(doc, inner) {
        return Some(field);
    }
    if inner.is_empty() || !inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    if let Some(field) = doc.field(inner) {
        return Some(field);
    }
    let lower = inner.to_ascii_lowercase();
    let mut matches = doc
        .fields
        .iter()
        .filter(|f| f.name.to_ascii_lowercase().starts_with(&lower));
    match (matches.next(), matches.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// `<Label0>`, `<Label1>`, `<LabelN-1>`: an element of the list field `Label`.
fn list_element_field<'a>(doc: &'a Document, inner: &str) -> Option<&'a Field> {
    let base = crate::model::list_of_element(inner)?;
    let is_list = doc
        .formats
        .iter()
        .flat_map(|t| &t.fields)
        .any(|cell| cell.repeat.is_some() && cell.name.eq_ignore_ascii_case(base));
    if is_list { doc.field(base) } else { None }
}

/// A block of free text split at blank lines; indented paragraphs are preformatted (code,
/// pseudo-code, ASCII diagrams), the others are prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paragraph {
    Prose(String),
    Preformatted(String),
}

pub fn paragraphs(text: &str) -> Vec<Paragraph> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut flush = |lines: &mut Vec<&str>| {
        if lines.is_empty() {
            return;
        }
        let indented = lines
            .iter()
            .any(|l| l.starts_with(' ') || l.starts_with('\t'));
        if indented {
            out.push(Paragraph::Preformatted(dedent(lines)));
        } else {
            out.push(Paragraph::Prose(lines.join("\n")));
        }
        lines.clear();
    };
    for line in text.lines() {
        if line.trim().is_empty() {
            flush(&mut current);
        } else {
            current.push(line.trim_end());
        }
    }
    flush(&mut current);
    out
}

/// Removes the indentation common to all lines.
fn dedent(lines: &[&str]) -> String {
    let common = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(common..).unwrap_or(l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits prose at backtick code spans: `(is_code, text)` pieces. An unmatched backtick stays
/// literal text.
pub fn code_spans(text: &str) -> Vec<(bool, &str)> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            break;
        };
        if open > 0 {
            pieces.push((false, &rest[..open]));
        }
        pieces.push((true, &after[..close]));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push((false, rest));
    }
    pieces
}

/// Prose as HTML: escaped, with backtick code spans as `<code>`.
pub fn html_prose(text: &str) -> String {
    code_spans(text)
        .into_iter()
        .map(|(code, piece)| {
            if code {
                format!("<code>{}</code>", html(piece))
            } else {
                html(piece)
            }
        })
        .collect()
}

/// Prose as inline markdown: escaped, with backtick code spans kept as code spans. In a table
/// cell (`in_table`) pipes inside code spans are escaped too, as tables split rows first.
pub fn markdown_prose(text: &str, in_table: bool) -> String {
    code_spans(text)
        .into_iter()
        .enumerate()
        .map(|(i, (code, piece))| {
            if code {
                let piece = piece.replace(['\n', '\r'], " ");
                let piece = if in_table {
                    piece.replace('|', "\\|")
                } else {
                    piece
                };
                format!("`{piece}`")
            } else {
                escape_markdown(piece, i == 0)
            }
        })
        .collect()
}

/// A description split into its summary (the first paragraph, when it is prose) and the rest
/// (`None` when nothing is left). Without a prose first paragraph there is no summary.
pub fn split_summary(block: Option<&TextBlock>) -> (Option<String>, Option<TextBlock>) {
    let Some(block) = block.filter(|b| !b.text.trim().is_empty()) else {
        return (None, None);
    };
    let text = block.text.trim_start_matches('\n');
    let (first, rest) = match text.find("\n\n") {
        Some(at) => (&text[..at], &text[at..]),
        None => (text, ""),
    };
    let indented = first
        .lines()
        .any(|l| l.starts_with(' ') || l.starts_with('\t'));
    if indented {
        return (None, Some(block.clone()));
    }
    let rest = rest.trim_start_matches('\n');
    let rest = (!rest.trim().is_empty()).then(|| TextBlock {
        text: rest.to_string(),
        loc: block.loc,
    });
    (Some(first.to_string()), rest)
}

/// A markdown page's title (the guide's, an article's): its first heading's text, or "Guide".
pub fn title(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let mut in_heading = false;
    let mut title = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { .. }) => in_heading = true,
            Event::End(TagEnd::Heading(_)) if in_heading => break,
            Event::Text(t) | Event::Code(t) if in_heading => title.push_str(&t),
            _ => {}
        }
    }
    if title.trim().is_empty() {
        "Guide".to_string()
    } else {
        title.trim().to_string()
    }
}

//! The field bullets of the Description section: `- **Name(type):** text`, their `Bit[..]`
//! sub-fields and code lists.
//!
//! Items are recognised by their text, and nesting is taken from the text too, so flattened
//! copies and lists indented more or less than usual parse like the originals: a `Bit[..]` item
//! belongs to the last field bullet, a code item to the last `Bit[..]` item of that field (or to
//! the field itself before any `Bit[..]` item). A code item is a number (`0b..`, `0x..`, decimal)
//! or a range of numbers followed by `:`; any other item is description text, of the code above
//! it when indented deeper than that code, else of the sub-field or the field. What cannot be
//! placed (a bold item that is not `Name(type)`, a malformed `Bit[..]`, a code that does not fit)
//! is kept as description text with a warning.

use super::diag::Diags;
use super::inline::{
    CodeItem, bold_label, code_item, collapse_whitespace, leading_platforms, list_item, parse_int,
    strip_platforms, type_list,
};
use super::text::{Line, prose};
use crate::model::{BitField, CodeRange, CodeValue, DiagnosticKind, Field, FieldType, TextBlock};

/// The Description section split into its prose and its field bullets.
pub(crate) struct DescriptionSection {
    pub prose: Option<TextBlock>,
    pub fields: Vec<Field>,
}

/// An item line, classified by its text.
enum Item<'a> {
    /// A bold label: a field bullet when it reads `Name(type)`.
    Bold {
        label: &'a str,
        rest: &'a str,
    },
    Bit(&'a str),
    Code(&'a str),
    /// A list item that is not a code but is written like one.
    Malformed {
        content: &'a str,
        token: &'a str,
    },
    /// Any other text; `item` when it is a list item.
    Text {
        text: &'a str,
        item: bool,
    },
}

fn classify<'a>(line: &'a Line<'_>) -> Item<'a> {
    if line.in_fence {
        return Item::Text {
            text: line.trimmed(),
            item: false,
        };
    }
    let Some(content) = list_item(line.text) else {
        return Item::Text {
            text: line.trimmed(),
            item: false,
        };
    };
    if let Some((label, rest)) = bold_label(content) {
        return Item::Bold { label, rest };
    }
    let (_, after_tags) = leading_platforms(content);
    if after_tags.starts_with("Bit[") || after_tags.starts_with("bit[") {
        return Item::Bit(content);
    }
    match code_item(after_tags) {
        CodeItem::Code { .. } | CodeItem::Range { .. } => Item::Code(content),
        CodeItem::Malformed { token } => Item::Malformed { content, token },
        CodeItem::NotCode => Item::Text {
            text: content,
            item: true,
        },
    }
}

/// The field bullet of a line, if it is one: its name and type token.
fn field_label<'l>(line: &'l Line<'_>) -> Option<(&'l str, &'l str)> {
    match classify(line) {
        Item::Bold { label, .. } => {
            split_name_type(label).filter(|(n, t)| !n.is_empty() && !t.is_empty())
        }
        _ => None,
    }
}

pub(crate) fn description(lines: &[Line<'_>], diags: &mut Diags) -> DescriptionSection {
    let first_field = lines
        .iter()
        .position(|l| !l.is_fence && field_label(l).is_some());
    let prose_lines = lines
        .get(..first_field.unwrap_or(lines.len()))
        .unwrap_or(&[]);
    for line in prose_lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        if let Item::Bit(_) = classify(line) {
            diags.warning(
                line.loc_of_content(),
                "`Bit[..]` item before any field bullet: kept as description text",
            );
        }
    }
    let text = prose(prose_lines);
    let prose_block = prose_lines
        .iter()
        .find(|l| !l.is_blank() && !l.is_fence)
        .filter(|_| !text.is_empty())
        .map(|l| TextBlock {
            text,
            loc: l.loc_of_content(),
        });

    let mut builder = Builder::default();
    for line in lines
        .get(first_field.unwrap_or(lines.len())..)
        .unwrap_or(&[])
    {
        if line.is_blank() || line.is_fence {
            continue;
        }
        builder.line(line, diags);
    }
    let mut fields = builder.fields;
    for field in &mut fields {
        derive_from_description(field);
    }
    DescriptionSection {
        prose: prose_block,
        fields,
    }
}

/// Where the items after a construct the parser could not place go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Orphans {
    /// Everything up to the next field bullet (after a rejected bullet).
    UntilField,
    /// Everything up to the next `Bit[..]` item or field bullet (after a rejected `Bit[..]`).
    UntilBit,
}

/// The last code item read.
#[derive(Debug, Clone, Copy)]
struct LastCode {
    indent: usize,
    /// A single code (a range has no description of its own).
    single: bool,
}

#[derive(Default)]
struct Builder {
    fields: Vec<Field>,
    /// Indentation of the current `Bit[..]` item of the last field: codes go to it.
    bit: Option<usize>,
    /// The last code item of the current code list: deeper text describes it.
    last_code: Option<LastCode>,
    /// Set after a construct that could not be placed: what follows is description text.
    orphans: Option<Orphans>,
}

impl Builder {
    fn line(&mut self, line: &Line<'_>, diags: &mut Diags) {
        let indent = line.indent();
        let item = classify(line);
        match (self.orphans, &item) {
            // A bold item ends the orphans: it is a field, or reported on its own.
            (_, Item::Bold { .. }) => self.orphans = None,
            (Some(Orphans::UntilBit), Item::Bit(_)) => self.orphans = None,
            (Some(_), _) => {
                self.describe_field(line.trimmed());
                return;
            }
            (None, _) => {}
        }
        match item {
            Item::Bold { label, rest } => self.bold(line, label, rest, diags),
            Item::Bit(content) => self.bit(line, content, diags),
            Item::Code(content) => self.code(line, content, diags),
            Item::Malformed { content, token } => {
                diags.warning(
                    line.loc_of(token),
                    format!(
                        "`{token}` is not a code (expected 0b.., 0x.. or a decimal number, or a range such as 0x4-0x7, before `:`): kept as description text"
                    ),
                );
                self.text(indent, content, true, line, diags);
            }
            Item::Text { text, item } => self.text(indent, text, item, line, diags),
        }
    }

    /// Appends text to the last field's description (the place of what could not be placed).
    fn describe_field(&mut self, text: &str) {
        if let Some(field) = self.fields.last_mut() {
            append_text(&mut field.description, text);
        }
    }

    fn bold(&mut self, line: &Line<'_>, label: &str, rest: &str, diags: &mut Diags) {
        self.bit = None;
        self.last_code = None;
        let loc = line.loc_of(label);
        let rejected = |builder: &mut Builder, diags: &mut Diags, message: String| {
            diags.warning(loc, message);
            builder.describe_field(line.trimmed());
            builder.orphans = Some(Orphans::UntilField);
        };
        let Some((name, token)) = split_name_type(label) else {
            let message = format!(
                "`**{label}**` is not a field bullet (`**Name(type):**`): kept as description text with the items under it"
            );
            return rejected(self, diags, message);
        };
        if name.is_empty() || token.is_empty() {
            let message = format!(
                "field bullet `**{label}**` has an empty name or type (expected e.g. `**Name(ub):**`): kept as description text with the items under it"
            );
            return rejected(self, diags, message);
        }
        if let Some(first) = self.fields.iter().find(|f| f.name == name) {
            let message = format!(
                "field `{name}` is described twice (first at {}:{}): the second bullet and the items under it are kept as description text",
                first.loc.line, first.loc.col
            );
            return rejected(self, diags, message);
        }
        let ty = FieldType::from_token(token);
        if let FieldType::Other(other) = &ty {
            diags.warning(
                loc,
                format!("unknown type `{other}` for field `{name}`: kept as written"),
            );
        }
        self.fields.push(Field {
            name: name.to_string(),
            ty,
            description: collapse_whitespace(rest),
            allowed_types: Vec::new(),
            operand_classes: Vec::new(),
            unwritten: None,
            bitfields: Vec::new(),
            values: Vec::new(),
            ranges: Vec::new(),
            range: None,
            loc,
        });
    }

    fn bit(&mut self, line: &Line<'_>, content: &str, diags: &mut Diags) {
        self.bit = None;
        self.last_code = None;
        let (mut platforms, after_tags) = leading_platforms(content);
        let loc = line.loc_of(after_tags);
        let Some(field) = self.fields.last_mut() else {
            return;
        };
        let parsed = bit_range(after_tags, field);
        let (hi, lo, rest) = match parsed {
            Ok(range) => range,
            Err(problem) => {
                diags.warning(
                    loc,
                    format!("{problem}: kept as description text with the codes under it"),
                );
                append_text(&mut field.description, line.trimmed());
                self.orphans = Some(Orphans::UntilBit);
                return;
            }
        };
        let (description, mut more) = strip_platforms(rest);
        platforms.append(&mut more);
        if let Some(first) = field
            .bitfields
            .iter()
            .find(|b| b.hi == hi && b.lo == lo && b.platforms == platforms)
        {
            diags.warning(
                loc,
                format!(
                    "`Bit[{hi}..{lo}]` of field `{}` is described twice (first at {}:{}): kept as description text with the codes under it",
                    field.name, first.loc.line, first.loc.col
                ),
            );
            append_text(&mut field.description, line.trimmed());
            self.orphans = Some(Orphans::UntilBit);
            return;
        }
        field.bitfields.push(BitField {
            hi,
            lo,
            description,
            platforms,
            values: Vec::new(),
            ranges: Vec::new(),
            loc,
        });
        self.bit = Some(line.indent());
    }

    fn code(&mut self, line: &Line<'_>, content: &str, diags: &mut Diags) {
        let indent = line.indent();
        let in_bit = self.bit.is_some();
        let Some(field) = self.fields.last_mut() else {
            return;
        };
        let (mut platforms, after_tags) = leading_platforms(content);
        let loc = line.loc_of(after_tags);
        let item = code_item(after_tags);
        let (label, token) = match item {
            CodeItem::Code { label, .. } | CodeItem::Range { label, .. } => (
                label,
                after_tags.split_once(':').map_or("", |(t, _)| t.trim()),
            ),
            _ => return,
        };
        let (label, mut more) = strip_platforms(label);
        platforms.append(&mut more);
        let width = field_width(&field.ty);
        let (owner, table_width, values, ranges) =
            match field.bitfields.last_mut().filter(|_| in_bit) {
                Some(bit) => (
                    format!("`Bit[{}..{}]` of field `{}`", bit.hi, bit.lo, field.name),
                    bit.hi - bit.lo + 1,
                    &mut bit.values,
                    &mut bit.ranges,
                ),
                None => (
                    format!("field `{}`", field.name),
                    width,
                    &mut field.values,
                    &mut field.ranges,
                ),
            };
        let fits = |code: u64| table_width >= 64 || code < 1u64 << table_width;
        let problem = match item {
            CodeItem::Code { code, .. } if !fits(code) => Some((
                DiagnosticKind::CodeTooWide,
                format!("code `{token}` does not fit in {owner} ({table_width} bits wide)"),
            )),
            CodeItem::Code { code, .. } => values
                .iter()
                .find(|v| v.code == code && v.platforms == platforms)
                .map(|first| {
                    (
                        DiagnosticKind::DuplicateCode,
                        format!(
                            "duplicate code `{token}` in {owner} (first at {}:{})",
                            first.loc.line, first.loc.col
                        ),
                    )
                }),
            CodeItem::Range { last, .. } if !fits(last) => Some((
                DiagnosticKind::CodeTooWide,
                format!("code range `{token}` does not fit in {owner} ({table_width} bits wide)"),
            )),
            _ => None,
        };
        if let Some((kind, problem)) = problem {
            diags.warn(kind, loc, format!("{problem}: kept as description text"));
            self.text(indent, line.trimmed(), false, line, diags);
            return;
        }
        match item {
            CodeItem::Code { code, .. } => values.push(CodeValue {
                code,
                label,
                platforms,
                description: String::new(),
                loc,
            }),
            CodeItem::Range { first, last, .. } => ranges.push(CodeRange {
                first,
                last,
                label,
                platforms,
                loc,
            }),
            _ => {}
        }
        self.last_code = Some(LastCode {
            indent,
            single: matches!(item, CodeItem::Code { .. }),
        });
    }

    /// Description text: of the last code when indented deeper than it, else of the current
    /// `Bit[..]` item when deeper than that, else of the field. A list item at the level of
    /// the codes sits in a code table without being a code: placed, and reported.
    fn text(&mut self, indent: usize, text: &str, item: bool, line: &Line<'_>, diags: &mut Diags) {
        let Some(field) = self.fields.last_mut() else {
            return;
        };
        if item && self.last_code.is_some_and(|c| c.indent == indent) {
            diags.warning(
                line.loc_of_content(),
                format!(
                    "item `{}` in the code list of field `{}` is not a code: kept as description text",
                    collapse_whitespace(text),
                    field.name
                ),
            );
        }
        let under_code = self
            .last_code
            .is_some_and(|c| c.single && indent > c.indent);
        let under_bit = self.bit.is_some_and(|b| indent > b);
        let target = match field.bitfields.last_mut().filter(|_| self.bit.is_some()) {
            Some(bit) => match bit.values.last_mut().filter(|_| under_code) {
                Some(code) => &mut code.description,
                None if under_bit || under_code => {
                    // The first line is the item's own text, which names the sub-field: nested
                    // text starts on a line of its own even when the item has none.
                    if bit.description.is_empty() {
                        bit.description.push('\n');
                    }
                    &mut bit.description
                }
                None => &mut field.description,
            },
            None => match field.values.last_mut().filter(|_| under_code) {
                Some(code) => &mut code.description,
                None => &mut field.description,
            },
        };
        append_text(target, text);
    }
}

/// Reads `Bit[hi..lo]: rest` / `Bit[n]: rest`; the error says what is wrong with it.
fn bit_range<'a>(text: &'a str, field: &Field) -> Result<(u32, u32, &'a str), String> {
    let after_bit = text.get(4..).unwrap_or("");
    let Some(close) = after_bit.find(']') else {
        return Err("expected `Bit[hi..lo]` or `Bit[n]`: missing `]`".to_string());
    };
    let inner = &after_bit[..close];
    let range = match inner.split_once("..") {
        Some((hi, lo)) => parse_int(hi).zip(parse_int(lo)),
        None => parse_int(inner).map(|n| (n, n)),
    };
    let Some((hi, lo)) = range else {
        return Err(format!(
            "expected `Bit[hi..lo]` or `Bit[n]` with decimal bit numbers, found `Bit[{inner}]`"
        ));
    };
    if hi < lo {
        return Err(format!(
            "bit range `Bit[{inner}]` is reversed (the high bit comes first: `Bit[{lo}..{hi}]`)"
        ));
    }
    let width = field_width(&field.ty);
    let bits = u32::try_from(hi).ok().zip(u32::try_from(lo).ok());
    let Some((hi, lo)) = bits.filter(|&(hi, _)| hi < width) else {
        return Err(format!(
            "`Bit[{inner}]` is outside the {width}-bit field `{}` ({})",
            field.name,
            field.ty.token()
        ));
    };
    let rest = after_bit[close + 1..].trim_start();
    Ok((hi, lo, rest.strip_prefix(':').unwrap_or(rest)))
}

/// `Name(type)` -> (name, type); the type is the last parenthesised group (SWITCHJMP has a field
/// named `Label(Num_labels-1)`).
fn split_name_type(label: &str) -> Option<(&str, &str)> {
    let body = label.strip_suffix(')')?;
    let mut depth = 0usize;
    for (i, c) in body.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => return Some((body[..i].trim(), body[i + 1..].trim())),
            '(' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Bits available to `Bit[..]` items and codes of a field of this type.
fn field_width(ty: &FieldType) -> u32 {
    match ty {
        FieldType::Ub => 8,
        FieldType::Uw => 16,
        FieldType::Ud | FieldType::D => 32,
        _ => 64,
    }
}

fn append_text(target: &mut String, text: &str) {
    let text = collapse_whitespace(text);
    if text.is_empty() {
        return;
    }
    if !target.is_empty() && !target.ends_with('\n') {
        target.push('\n');
    }
    target.push_str(&text);
}

/// Fills the allowed types, operand classes and value range from the field's description.
fn derive_from_description(field: &mut Field) {
    let text = field.description.clone();
    let lower = text.to_ascii_lowercase();
    if let Some(at) = lower.find("must have type") {
        let rest = &text[at + "must have type".len()..];
        let rest = rest.split('\n').next().unwrap_or("");
        let rest = rest.split(". ").next().unwrap_or("");
        field.allowed_types = type_list(rest);
    }
    if let Some(at) = lower.find("operand class:") {
        let rest = text[at + "operand class:".len()..].trim_start();
        let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        field.operand_classes = rest[..end]
            .trim_end_matches('.')
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
    }
    if let Some(at) = lower.find("unwritten value:") {
        let rest = text[at + "unwritten value:".len()..].trim_start();
        let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        let token = rest[..end].trim_end_matches(['.', ';', ',']);
        field.unwritten = (!token.is_empty()).then(|| token.to_string());
    }
    field.range = value_range(&text);
}

/// "Valid values are [0-31]" / "in the range [1..32]" -> (lo, hi).
fn value_range(text: &str) -> Option<(i64, i64)> {
    let lower = text.to_ascii_lowercase();
    let at = lower
        .find("valid values are")
        .or_else(|| lower.find("range"))?;
    let rest = &text[at..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let inner = rest[open + 1..close].trim();
    let (lo, hi) = match inner.split_once("..") {
        Some(pair) => pair,
        None => {
            let minus = inner.get(1..)?.find('-')? + 1;
            (&inner[..minus], &inner[minus + 1..])
        }
    };
    let lo = i64::try_from(parse_int(lo)?).ok()?;
    let hi = i64::try_from(parse_int(hi)?).ok()?;
    (lo <= hi).then_some((lo, hi))
}

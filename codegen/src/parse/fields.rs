//! The field bullets of the Description section: `- **Name(type):** text`, their `Bit[..]`
//! sub-fields and code lists.
//!
//! Items are recognised by their text; nesting is taken from the text too (a `Bit[..]` item
//! belongs to the last field bullet, a code item to the last `Bit[..]` item unless it is indented
//! less than that item), so flattened copies parse like the originals.

use super::diag::Diags;
use super::inline::{
    bold_label, collapse_whitespace, leading_platforms, list_item, parse_int, strip_platforms,
    type_list,
};
use super::text::{Line, prose};
use crate::model::{BitField, CodeValue, Field, FieldType, TextBlock};

/// The Description section split into its prose and its field bullets.
pub(crate) struct DescriptionSection {
    pub prose: Option<TextBlock>,
    pub fields: Vec<Field>,
}

/// An item line, classified.
enum Item<'a> {
    Field { label: &'a str, rest: &'a str },
    Bit(&'a str),
    Code(&'a str),
    Text(&'a str),
}

fn classify<'a>(line: &'a Line<'_>) -> Item<'a> {
    let Some(content) = list_item(line.text) else {
        return Item::Text(line.trimmed());
    };
    if let Some((label, rest)) = bold_label(content) {
        return Item::Field { label, rest };
    }
    let (_, after_tags) = leading_platforms(content);
    if after_tags.starts_with("Bit[") || after_tags.starts_with("bit[") {
        return Item::Bit(content);
    }
    if is_code_item(after_tags) {
        return Item::Code(content);
    }
    Item::Text(content)
}

/// `0b01: label`, `0x3: label`, `12: label`: a number-like word directly followed by `:`.
fn is_code_item(text: &str) -> bool {
    if !text.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let word_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    text[word_len..].trim_start().starts_with(':')
}

pub(crate) fn description(lines: &[Line<'_>], diags: &mut Diags) -> DescriptionSection {
    let first_field = lines
        .iter()
        .position(|l| !l.in_fence && !l.is_fence && matches!(classify(l), Item::Field { .. }));
    let prose_lines = lines
        .get(..first_field.unwrap_or(lines.len()))
        .unwrap_or(&[]);
    let text = prose(prose_lines);
    let prose_block = prose_lines
        .iter()
        .find(|l| !l.is_blank() && !l.is_fence)
        .filter(|_| !text.is_empty())
        .map(|l| TextBlock {
            text,
            loc: l.loc_of_content(),
        });

    let mut builder = Builder {
        fields: Vec::new(),
        bit_indent: 0,
        in_bit: false,
        skip_codes: false,
        orphaned: false,
    };
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

struct Builder {
    fields: Vec<Field>,
    /// Indentation of the last `Bit[..]` item of the current field.
    bit_indent: usize,
    /// Whether codes go to the last `Bit[..]` item.
    in_bit: bool,
    /// The last `Bit[..]` item was malformed: its codes are dropped (already reported).
    skip_codes: bool,
    /// The last field bullet was malformed: the items under it are dropped (already reported).
    orphaned: bool,
}

impl Builder {
    fn line(&mut self, line: &Line<'_>, diags: &mut Diags) {
        let indent = line.indent();
        let item = classify(line);
        if self.orphaned && !matches!(item, Item::Field { .. }) {
            return;
        }
        match item {
            Item::Field { label, rest } => {
                self.skip_codes = false;
                self.field(line, label, rest, diags);
            }
            Item::Bit(content) => {
                self.in_bit = false;
                self.skip_codes = true;
                self.bit(line, content, diags);
            }
            Item::Code(_) if self.skip_codes && indent >= self.bit_indent => {}
            Item::Code(content) => {
                let Some(field) = self.fields.last_mut() else {
                    return;
                };
                let Some(value) = code_value(line, content, diags) else {
                    return;
                };
                if self.in_bit && indent >= self.bit_indent {
                    if let Some(bit) = field.bitfields.last_mut() {
                        add_bit_code(bit, &field.name, value, diags);
                    }
                } else {
                    self.in_bit = false;
                    add_field_code(field, value, diags);
                }
            }
            Item::Text(text) => {
                let Some(field) = self.fields.last_mut() else {
                    return;
                };
                let bit = field
                    .bitfields
                    .last_mut()
                    .filter(|_| self.in_bit && indent > self.bit_indent);
                let target = match bit {
                    Some(bit) => &mut bit.description,
                    None => &mut field.description,
                };
                append_text(target, text);
            }
        }
    }

    fn field(&mut self, line: &Line<'_>, label: &str, rest: &str, diags: &mut Diags) {
        self.in_bit = false;
        self.orphaned = true;
        let loc = line.loc_of(label);
        let Some((name, token)) = split_name_type(label) else {
            if label.is_empty() {
                diags.error(
                    line.loc_of_content(),
                    "field bullet has no name: expected `- **Name(type):** text`",
                );
            } else {
                diags.error(
                    loc,
                    format!("expected `Name(type)` in the field bullet, found `**{label}**`"),
                );
            }
            return;
        };
        if name.is_empty() {
            diags.error(loc, format!("field bullet has no name before `({token})`"));
            return;
        }
        if token.is_empty() {
            diags.error(
                loc,
                format!("field `{name}` has an empty type: expected e.g. `{name}(ub)`"),
            );
            return;
        }
        let ty = FieldType::from_token(token);
        if let FieldType::Other(other) = &ty {
            diags.warning(
                loc,
                format!("unknown type `{other}` for field `{name}`: kept as written"),
            );
        }
        if let Some(first) = self.fields.iter().find(|f| f.name == name) {
            diags.error(
                loc,
                format!(
                    "field `{name}` is described twice (first at {}:{})",
                    first.loc.line, first.loc.col
                ),
            );
            return;
        }
        self.fields.push(Field {
            name: name.to_string(),
            ty,
            description: collapse_whitespace(rest),
            allowed_types: Vec::new(),
            operand_classes: Vec::new(),
            bitfields: Vec::new(),
            values: Vec::new(),
            range: None,
            loc,
        });
        self.orphaned = false;
    }

    fn bit(&mut self, line: &Line<'_>, content: &str, diags: &mut Diags) {
        self.bit_indent = line.indent();
        let Some(field) = self.fields.last_mut() else {
            return;
        };
        let (mut platforms, after_tags) = leading_platforms(content);
        let loc = line.loc_of(after_tags);
        let after_bit = &after_tags[4..];
        let Some(close) = after_bit.find(']') else {
            diags.error(loc, "expected `Bit[hi..lo]` or `Bit[n]`: missing `]`");
            return;
        };
        let inner = &after_bit[..close];
        let range = match inner.split_once("..") {
            Some((hi, lo)) => parse_int(hi).zip(parse_int(lo)),
            None => parse_int(inner).map(|n| (n, n)),
        };
        let Some((hi, lo)) = range else {
            diags.error(loc, format!("expected `Bit[hi..lo]` or `Bit[n]` with decimal bit numbers, found `Bit[{inner}]`"));
            return;
        };
        if hi < lo {
            diags.error(loc, format!("bit range `Bit[{inner}]` is reversed: write the high bit first (`Bit[{lo}..{hi}]`)"));
            return;
        }
        let width = field_width(&field.ty);
        let bits = u32::try_from(hi).ok().zip(u32::try_from(lo).ok());
        let Some((hi, lo)) = bits.filter(|&(hi, _)| hi < width) else {
            diags.error(
                loc,
                format!(
                    "`Bit[{inner}]` is outside the {width}-bit field `{}` ({})",
                    field.name,
                    field.ty.token()
                ),
            );
            return;
        };
        let rest = after_bit[close + 1..].trim_start();
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        let (description, mut more) = strip_platforms(rest);
        platforms.append(&mut more);
        if let Some(first) = field
            .bitfields
            .iter()
            .find(|b| b.hi == hi && b.lo == lo && b.platforms == platforms)
        {
            diags.error(
                loc,
                format!(
                    "`Bit[{inner}]` of field `{}` is described twice (first at {}:{})",
                    field.name, first.loc.line, first.loc.col
                ),
            );
            return;
        }
        field.bitfields.push(BitField {
            hi,
            lo,
            description,
            platforms,
            values: Vec::new(),
            loc,
        });
        self.in_bit = true;
        self.skip_codes = false;
    }
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

/// Bits available to `Bit[..]` items of a field of this type.
fn field_width(ty: &FieldType) -> u32 {
    match ty {
        FieldType::Ub => 8,
        FieldType::Uw => 16,
        FieldType::Ud | FieldType::D => 32,
        _ => 64,
    }
}

fn code_value(line: &Line<'_>, content: &str, diags: &mut Diags) -> Option<CodeValue> {
    let (mut platforms, after_tags) = leading_platforms(content);
    let loc = line.loc_of(after_tags);
    let (token, label) = after_tags.split_once(':')?;
    let token = token.trim();
    let Some(code) = parse_int(token).and_then(|v| u64::try_from(v).ok()) else {
        diags.error(
            loc,
            format!("bad code `{token}`: expected a binary (0b..), hex (0x..) or decimal number"),
        );
        return None;
    };
    let (label, mut more) = strip_platforms(label);
    platforms.append(&mut more);
    Some(CodeValue {
        code,
        label,
        platforms,
        loc,
    })
}

fn add_bit_code(bit: &mut BitField, field: &str, value: CodeValue, diags: &mut Diags) {
    let width = bit.hi - bit.lo + 1;
    if width < 64 && value.code >= 1u64 << width {
        diags.error(
            value.loc,
            format!(
                "code {} does not fit in `Bit[{}..{}]` of field `{field}` ({width} bits wide)",
                value.code, bit.hi, bit.lo
            ),
        );
        return;
    }
    if let Some(first) = bit
        .values
        .iter()
        .find(|v| v.code == value.code && v.platforms == value.platforms)
    {
        diags.error(
            value.loc,
            format!(
                "duplicate code {} in `Bit[{}..{}]` of field `{field}` (first at {}:{})",
                value.code, bit.hi, bit.lo, first.loc.line, first.loc.col
            ),
        );
        return;
    }
    bit.values.push(value);
}

fn add_field_code(field: &mut Field, value: CodeValue, diags: &mut Diags) {
    if let Some(first) = field
        .values
        .iter()
        .find(|v| v.code == value.code && v.platforms == value.platforms)
    {
        diags.error(
            value.loc,
            format!(
                "duplicate value {} of field `{}` (first at {}:{})",
                value.code, field.name, first.loc.line, first.loc.col
            ),
        );
        return;
    }
    field.values.push(value);
}

fn append_text(target: &mut String, text: &str) {
    let text = collapse_whitespace(text);
    if text.is_empty() {
        return;
    }
    if !target.is_empty() {
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

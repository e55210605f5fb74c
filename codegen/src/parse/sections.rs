//! The small sections: Opcode, Properties and Operand type maps.

use super::diag::Diags;
use super::inline::{bold_label, leading_platforms, list_item, type_list};
use super::keep_line;
use super::text::Line;
use crate::model::{ExtraText, Loc, OpcodeDef, Property, TypeMap};

/// `## Opcode`: one `NAME = 0x..` per line, a sub-operation after its parent. A line that is
/// not a declaration is kept as text of the section and returned with what is wrong with it
/// (the caller reports it, or leaves the document out when no line declares an opcode).
pub(crate) fn opcodes(
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
) -> (Vec<OpcodeDef>, Vec<(Loc, String)>) {
    let mut out: Vec<OpcodeDef> = Vec::new();
    let mut rejected = Vec::new();
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        match opcode_line(line, &out) {
            Ok(opcode) => out.push(opcode),
            Err(problem) => {
                rejected.push(problem);
                keep_line(extra, "Opcode", line);
            }
        }
    }
    (out, rejected)
}

/// One `NAME = 0x..` line; the error says where and what is wrong.
fn opcode_line(line: &Line<'_>, earlier: &[OpcodeDef]) -> Result<OpcodeDef, (Loc, String)> {
    let text = line.trimmed();
    let Some((name, value)) = text.split_once('=') else {
        return Err((
            line.loc_of_content(),
            format!("expected `NAME = 0x..` in the Opcode section, found `{text}`"),
        ));
    };
    let name = name.trim();
    let value_text = value.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err((
            line.loc_of(name),
            format!("expected an opcode name (letters, digits, `_`) before `=`, found `{name}`"),
        ));
    }
    let Some(number) = super::inline::parse_int(value_text) else {
        return Err((
            line.loc_of(value_text),
            format!("bad opcode value `{value_text}` (expected a number such as 0x4e)"),
        ));
    };
    let Some(value) = u8::try_from(number).ok().map(u32::from) else {
        return Err((
            line.loc_of(value_text),
            format!("opcode value `{value_text}` does not fit in one byte (0x00..=0xff)"),
        ));
    };
    if earlier.iter().any(|o| o.name == name) {
        return Err((
            line.loc_of(name),
            format!("opcode `{name}` is declared twice"),
        ));
    }
    Ok(OpcodeDef {
        name: name.to_string(),
        value,
        loc: line.loc_of(name),
    })
}

/// `#### Properties`: bullets `- **Key:** value`.
pub(crate) fn properties(
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Vec<Property> {
    let mut out: Vec<Property> = Vec::new();
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        let bullet = list_item(line.text).and_then(bold_label);
        match bullet {
            Some((key, value)) if !key.is_empty() => {
                let types = if key.to_ascii_lowercase().starts_with("supported type") {
                    type_list(value)
                } else {
                    Vec::new()
                };
                let mut property = Property {
                    key: key.to_string(),
                    value: String::new(),
                    types,
                    loc: line.loc_of(key),
                    words: Vec::new(),
                };
                append_words(&mut property, line, value);
                out.push(property);
            }
            Some(_) => {
                diags.warning(
                    line.loc_of_content(),
                    "property bullet has no name (expected `- **Key:** value`): kept as text",
                );
                keep_line(extra, "Properties", line);
            }
            None => match out.last_mut() {
                // A continuation line of the previous property.
                Some(last) if list_item(line.text).is_none() => {
                    append_words(last, line, line.trimmed());
                }
                _ => {
                    diags.warning(
                        line.loc_of_content(),
                        format!(
                            "line `{}` in Properties is not `- **Key:** value`: kept as text",
                            line.trimmed()
                        ),
                    );
                    keep_line(extra, "Properties", line);
                }
            },
        }
    }
    out
}

/// Appends the words of `text` (a slice of `line`) to a property's value, whitespace collapsed,
/// remembering where each is written.
fn append_words(property: &mut Property, line: &Line<'_>, text: &str) {
    for word in text.split_whitespace() {
        if !property.value.is_empty() {
            property.value.push(' ');
        }
        property
            .words
            .push((property.value.len(), line.loc_of(word)));
        property.value.push_str(word);
    }
}

/// `#### Operand type maps`: `- **Type map{XEHP+}**` with nested `- **Dst types:** ...` bullets.
pub(crate) fn type_maps(
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Vec<TypeMap> {
    let mut out: Vec<TypeMap> = Vec::new();
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        let Some((label, value)) = list_item(line.text).and_then(bold_label) else {
            diags.warning(
                line.loc_of_content(),
                format!(
                    "line `{}` in Operand type maps is not a `- **...**` bullet: kept as text",
                    line.trimmed()
                ),
            );
            keep_line(extra, "Operand type maps", line);
            continue;
        };
        let (platforms, rest) = split_trailing_tags(label);
        if rest.eq_ignore_ascii_case("type map") {
            out.push(TypeMap {
                platforms,
                entries: Vec::new(),
                loc: line.loc_of(label),
            });
            continue;
        }
        let role = rest
            .strip_suffix(" types")
            .or_else(|| rest.strip_suffix(" Types"))
            .or_else(|| rest.strip_suffix(" type"))
            .unwrap_or(rest)
            .trim();
        match out.last_mut() {
            Some(map) if !role.is_empty() => map.entries.push((role.to_string(), type_list(value))),
            Some(_) => {
                diags.warning(
                    line.loc_of_content(),
                    "type map entry has no operand name: kept as text",
                );
                keep_line(extra, "Operand type maps", line);
            }
            None => {
                diags.warning(
                    line.loc_of(label),
                    format!("`{label}` appears before any `- **Type map**` bullet: kept as text"),
                );
                keep_line(extra, "Operand type maps", line);
            }
        }
    }
    out
}

/// `Type map{XEHP+}` -> ([XEHP+], "Type map").
fn split_trailing_tags(label: &str) -> (Vec<crate::model::Platform>, &str) {
    match label.find('{') {
        Some(open) => {
            let (platforms, rest) = leading_platforms(&label[open..]);
            if rest.is_empty() && !platforms.is_empty() {
                (platforms, label[..open].trim())
            } else {
                (Vec::new(), label)
            }
        }
        None => (Vec::new(), label),
    }
}

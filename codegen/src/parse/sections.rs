//! The small sections: Opcode, Properties and Operand type maps.

use super::diag::Diags;
use super::inline::{bold_label, collapse_whitespace, leading_platforms, list_item, type_list};
use super::text::{Line, Section};
use crate::model::{OpcodeDef, Property, TypeMap};

/// `## Opcode`: one `NAME = 0x..` per line, a sub-operation after its parent.
pub(crate) fn opcodes(section: &Section, lines: &[Line<'_>], diags: &mut Diags) -> Vec<OpcodeDef> {
    let mut out: Vec<OpcodeDef> = Vec::new();
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        let text = line.trimmed();
        let Some((name, value)) = text.split_once('=') else {
            diags.error(
                line.loc_of_content(),
                format!("expected `NAME = 0x..` in the Opcode section, found `{text}`"),
            );
            continue;
        };
        let name = name.trim();
        let value_text = value.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            diags.error(
                line.loc_of(name),
                format!(
                    "expected an opcode name (letters, digits, `_`) before `=`, found `{name}`"
                ),
            );
            continue;
        }
        let Some(number) = super::inline::parse_int(value_text) else {
            diags.error(
                line.loc_of(value_text),
                format!("bad opcode value `{value_text}`: expected a number such as 0x4e"),
            );
            continue;
        };
        let Some(value) = u8::try_from(number).ok().map(u32::from) else {
            diags.error(
                line.loc_of(value_text),
                format!("opcode value `{value_text}` does not fit in one byte (0x00..=0xff)"),
            );
            continue;
        };
        if out.iter().any(|o| o.name == name) {
            diags.error(
                line.loc_of(name),
                format!("opcode `{name}` is declared twice"),
            );
            continue;
        }
        out.push(OpcodeDef {
            name: name.to_string(),
            value,
            loc: line.loc_of(name),
        });
    }
    if out.is_empty() && !diags.has_errors() {
        diags.error(
            section.loc,
            "the Opcode section declares no opcode: expected a line `NAME = 0x..`",
        );
    }
    out
}

/// `#### Properties`: bullets `- **Key:** value`.
pub(crate) fn properties(lines: &[Line<'_>], diags: &mut Diags) -> Vec<Property> {
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
                out.push(Property {
                    key: key.to_string(),
                    value: collapse_whitespace(value),
                    types,
                    loc: line.loc_of(key),
                });
            }
            Some(_) => diags.error(
                line.loc_of_content(),
                "property bullet has no name: expected `- **Key:** value`",
            ),
            None => match out.last_mut() {
                // A continuation line of the previous property.
                Some(last) if list_item(line.text).is_none() => {
                    last.value = collapse_whitespace(&format!("{} {}", last.value, line.trimmed()));
                }
                _ => diags.warning(
                    line.loc_of_content(),
                    format!(
                        "ignored line in Properties: expected `- **Key:** value`, found `{}`",
                        line.trimmed()
                    ),
                ),
            },
        }
    }
    out
}

/// `#### Operand type maps`: `- **Type map{XEHP+}**` with nested `- **Dst types:** ...` bullets.
pub(crate) fn type_maps(lines: &[Line<'_>], diags: &mut Diags) -> Vec<TypeMap> {
    let mut out: Vec<TypeMap> = Vec::new();
    for line in lines.iter().filter(|l| !l.is_blank() && !l.is_fence) {
        let Some((label, value)) = list_item(line.text).and_then(bold_label) else {
            diags.warning(
                line.loc_of_content(),
                format!("ignored line in Operand type maps: `{}`", line.trimmed()),
            );
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
            Some(_) => diags.error(line.loc_of_content(), "type map entry has no operand name"),
            None => diags.error(
                line.loc_of(label),
                format!("`{label}` appears before any `- **Type map**` bullet"),
            ),
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

//! The binary layouts of a document's conditional Format tables (`### CONDITION`, spec/README.md):
//! each condition resolved to tests on field values, each table to its cells. A condition that
//! does not resolve (an unknown field, a token no code of the field has, a number wider than the
//! field, a field that holds no integer) or a table cell that cannot be a layout cell (a list) is
//! a warning at its position, and the document keeps the one layout of its fields with presence
//! bytes.

use crate::model::{CodeValue, Document, FormatTable, Loc};

use super::checks::matches;
use super::ir::{FieldModel, LayoutCellModel, LayoutModel, LayoutTestModel, Role};
use super::names;

/// The layouts of `doc`'s conditional tables, or none (with a warning) when one does not
/// resolve.
pub(super) fn layouts(
    doc: &Document,
    fields: &[FieldModel<'_>],
    warn: &mut dyn FnMut(Loc, String),
) -> Vec<LayoutModel> {
    let mut out = Vec::new();
    for table in &doc.formats {
        let Some(condition) = &table.condition else {
            continue;
        };
        match layout(table, condition, fields) {
            Ok(layout) => out.push(layout),
            Err(why) => {
                warn(
                    table.loc,
                    format!(
                        "the conditional Format tables are read as one layout with presence bytes: {why}"
                    ),
                );
                return Vec::new();
            }
        }
    }
    out
}

fn layout(
    table: &FormatTable,
    condition: &str,
    fields: &[FieldModel<'_>],
) -> Result<LayoutModel, String> {
    let when = condition
        .split(';')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|clause| test(clause, fields))
        .collect::<Result<Vec<_>, _>>()?;
    if when.is_empty() {
        return Err("a CONDITION without a `Field=code, ...` line".to_string());
    }
    let cells = table
        .fields
        .iter()
        .map(|cell| {
            let field = index(fields, &cell.name)?;
            if cell.repeat.is_some() || fields[field].repeat.is_some() {
                return Err(format!("the list `{}` in a conditional table", cell.name));
            }
            Ok(LayoutCellModel {
                field,
                optional: cell.optional,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LayoutModel { when, cells })
}

fn index(fields: &[FieldModel<'_>], name: &str) -> Result<usize, String> {
    fields
        .iter()
        .position(|f| f.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("`{name}` is no field of the document"))
}

/// `Field=token, token, ...`: the field's value is one of the codes named (a code token, a
/// `prefix*` of tokens, or a number).
fn test(clause: &str, fields: &[FieldModel<'_>]) -> Result<LayoutTestModel, String> {
    let (name, listed) = clause
        .split_once('=')
        .ok_or_else(|| format!("`{clause}` is not `Field=code, ...`"))?;
    let field = index(fields, name.trim())?;
    let model = &fields[field];
    if model.role != Role::Value || model.width().is_none() {
        return Err(format!(
            "`{}` holds no integer code, so a condition cannot test it",
            model.name
        ));
    }
    let (codes, lo, width) = codes(model);
    // A sub-field's codes test its bits; a whole field's, every bit.
    let whole = Some(width) == model.width();
    let mask = if whole || width >= 64 {
        u64::MAX
    } else {
        ((1u64 << width) - 1) << lo
    };
    let mut values = Vec::new();
    for token in listed.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let before = values.len();
        values.extend(
            codes
                .iter()
                .filter(|c| matches(token, &names::text_token(&c.label)))
                .map(|c| c.code << lo),
        );
        if values.len() == before {
            let number = parse_number(token)
                .ok_or_else(|| format!("`{token}` names no code of {}", model.name))?;
            if width < 64 && number >> width != 0 {
                return Err(format!(
                    "`{token}` does not fit the {width} bits {} is written with",
                    model.name
                ));
            }
            values.push(number << lo);
        }
    }
    if values.is_empty() {
        return Err(format!("the condition on {} lists no code", model.name));
    }
    Ok(LayoutTestModel {
        field,
        mask,
        values,
    })
}

/// The codes a field's value is written with (its value list, or its only coded sub-field),
/// with the sub-field's lowest bit and width.
fn codes<'a>(field: &FieldModel<'a>) -> (&'a [CodeValue], u32, u32) {
    let width = field.width().unwrap_or(64);
    let Some(bullet) = field.bullet else {
        return (&[], 0, width);
    };
    if !bullet.values.is_empty() {
        return (&bullet.values, 0, width);
    }
    let mut coded = bullet.bitfields.iter().filter(|b| !b.values.is_empty());
    match (coded.next(), coded.next()) {
        (Some(only), None) => (&only.values, only.lo, only.hi - only.lo + 1),
        _ => (&[], 0, width),
    }
}

/// The value of the code `token` names in `field` (a code token, or a number), shifted to its
/// sub-field's place.
pub(super) fn code_value(field: &FieldModel<'_>, token: &str) -> Option<u64> {
    let (codes, lo, _) = codes(field);
    codes
        .iter()
        .find(|c| names::text_token(&c.label).eq_ignore_ascii_case(token))
        .map(|c| c.code)
        .or_else(|| parse_number(token))
        .map(|v| v << lo)
}

/// A decimal or `0x` hexadecimal number of a document.
pub(super) fn parse_number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

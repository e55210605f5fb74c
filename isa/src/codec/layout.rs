//! Instructions with several binary layouts: a document's conditional Format tables
//! ([`crate::desc::LayoutDesc`], spec/README.md). An instruction is written in the first layout
//! whose condition its fields meet, every cell one after the other without presence bytes. A
//! field the layout does not have must be left out (or hold its unwritten value, as the assembly
//! leaves it), unless the condition allows it one value only, which it then reads as. A cell
//! marked optional (`Name*` in that table) that is left out is written as its kind's zero, and
//! those bytes read back as left out; a field named twice is written twice. Reading tries the
//! layouts in order and takes the first that reads and whose condition the fields read meet.

use crate::ast::{ElemType, FieldValue, Instruction};
use crate::desc::{FieldDesc, FieldKind, InstrDesc, LayoutDesc};

use super::operand::{class, type_code};
use super::plan::DescPlan;
use super::reader::Reader;
use super::symbols::SymbolTable;
use super::{DecodeError, DecodeErrorKind, EncodeError, FieldProblem};

/// The bytes a left-out optional cell is written as: the raw operand `%null` (variable 0, offset
/// 0), the immediate `0:ud` (class, type, the dword 0), an integer's unwritten value.
fn zero(field: &FieldDesc) -> Vec<u8> {
    match field.kind {
        FieldKind::RawOperand => vec![0; 6],
        FieldKind::Scalar | FieldKind::VecOperand => {
            vec![class::IMMEDIATE, type_code(ElemType::Ud), 0, 0, 0, 0]
        }
        other => {
            let size = other.int_size().unwrap_or(0);
            field
                .unwritten
                .to_le_bytes()
                .into_iter()
                .take(size)
                .collect()
        }
    }
}

/// Whether `value` is what the assembly gives `field` when it does not write it (left out, or
/// its unwritten value): the value of a field outside the layout, and of an optional cell
/// written as its zero.
fn left_out(field: &FieldDesc, value: &FieldValue) -> bool {
    matches!(value, FieldValue::Absent) || *value == field.unwritten_value()
}

/// The value the layout's condition gives field `field` when it allows one value only: a field
/// the layout does not write then reads as that value.
fn pinned(layout: &LayoutDesc, field: usize) -> Option<u64> {
    layout.when.iter().find_map(|test| match test.values {
        [only] if test.field == field && test.mask == u64::MAX => Some(*only),
        _ => None,
    })
}

/// Whether `fields` meet every test of the layout's condition.
fn holds(layout: &LayoutDesc, fields: &[FieldValue]) -> bool {
    layout.when.iter().all(|test| match fields.get(test.field) {
        Some(FieldValue::Int(v)) => test.values.contains(&(v & test.mask)),
        _ => false,
    })
}

/// The layout `inst` is written in: the first whose condition holds.
fn select<'d>(desc: &'d InstrDesc, inst: &Instruction) -> Result<&'d LayoutDesc, EncodeError> {
    desc.layouts
        .iter()
        .find(|l| holds(l, &inst.fields))
        .ok_or(EncodeError::NoLayout { instr: desc.name })
}

/// Appends the cells of `inst`'s layout to `bytes`, and where each ends to `ends`.
pub(super) fn encode(
    desc: &InstrDesc,
    inst: &Instruction,
    sat_field: Option<usize>,
    syms: &mut SymbolTable,
    bytes: &mut Vec<u8>,
    ends: &mut Vec<usize>,
) -> Result<(), EncodeError> {
    let layout = select(desc, inst)?;
    let error = |field: &FieldDesc, reason| EncodeError::Field {
        instr: desc.name,
        field: field.name,
        reason,
    };
    for (i, (field, value)) in desc.fields.iter().zip(&inst.fields).enumerate() {
        let placed = layout.cells.iter().any(|c| c.field == i) || pinned(layout, i).is_some();
        if !placed && !left_out(field, value) {
            return Err(error(field, FieldProblem::NotInLayout));
        }
    }
    let mut saturation_written = false;
    for cell in layout.cells {
        let (Some(field), Some(value)) = (desc.fields.get(cell.field), inst.fields.get(cell.field))
        else {
            return Err(EncodeError::NoLayout { instr: desc.name });
        };
        if cell.optional && left_out(field, value) {
            bytes.extend(zero(field));
        } else {
            let saturate = inst.saturate && sat_field == Some(cell.field);
            saturation_written |= saturate;
            super::encode_value(field, value, saturate, syms, bytes)
                .map_err(|reason| error(field, reason))?;
        }
        ends.push(bytes.len());
    }
    // `.sat` rides on its field's bytes: a layout that leaves that field out cannot hold it.
    if inst.saturate && !saturation_written {
        return Err(EncodeError::Saturate { instr: desc.name });
    }
    Ok(())
}

/// Reads the fields of an instruction of `desc` (with its codec plan) in the first of its layouts that
/// reads and whose condition holds; returns them and whether the saturation flag was read.
pub(super) fn decode(
    r: &mut Reader<'_>,
    (desc, plan): (&InstrDesc, Option<&DescPlan>),
    sat_field: Option<usize>,
    syms: &SymbolTable,
) -> Result<(Vec<FieldValue>, bool), DecodeError> {
    let start = r.pos();
    let mut first_error = None;
    for layout in desc.layouts {
        let mut attempt = r.clone();
        match read_layout(&mut attempt, (desc, plan), layout, sat_field, syms) {
            Ok((fields, saturate)) if holds(layout, &fields) => {
                *r = attempt;
                return Ok((fields, saturate));
            }
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or(DecodeError::new(
        start,
        DecodeErrorKind::NoLayout(desc.name),
    )))
}

fn read_layout(
    r: &mut Reader<'_>,
    (desc, plan): (&InstrDesc, Option<&DescPlan>),
    layout: &LayoutDesc,
    sat_field: Option<usize>,
    syms: &SymbolTable,
) -> Result<(Vec<FieldValue>, bool), DecodeError> {
    let mut fields: Vec<FieldValue> = desc.fields.iter().map(FieldDesc::unwritten_value).collect();
    let mut read = vec![false; desc.fields.len()];
    let mut saturate = false;
    for cell in layout.cells {
        let at = r.pos();
        let Some(field) = desc.fields.get(cell.field) else {
            return Err(DecodeError::new(at, DecodeErrorKind::NoLayout(desc.name)));
        };
        let (value, sat) = if cell.optional && r.skip_if(&zero(field)) {
            (field.unwritten_value(), false)
        } else {
            super::decode_value(r, (plan, cell.field), field, sat_field, syms)?
        };
        if read.get(cell.field) == Some(&true) {
            if fields.get(cell.field) != Some(&value) {
                return Err(DecodeError::new(
                    at,
                    DecodeErrorKind::CopyDiffers(field.name),
                ));
            }
            continue;
        }
        saturate |= sat;
        if let (Some(slot), Some(done)) = (fields.get_mut(cell.field), read.get_mut(cell.field)) {
            *slot = value;
            *done = true;
        }
    }
    for (i, slot) in fields.iter_mut().enumerate() {
        if let (false, Some(value)) = (read.get(i) == Some(&true), pinned(layout, i)) {
            *slot = FieldValue::Int(value);
        }
    }
    Ok((fields, saturate))
}

//! Queries on the instruction table shared by the parser, formatter and checker.

use crate::ast::FieldValue;
use crate::desc::{Binding, CodeDesc, FieldDesc, FieldRole, InstrDesc, SuffixDesc, SyntaxDesc};

/// A whole-field binding of a field whose codes all sit in its only coded sub-field
/// (`.rel_op` naming `Rel_op`, whose codes are under `Bit[2..0]`) means that sub-field.
pub(crate) fn resolve(desc: &InstrDesc, binding: Binding) -> Binding {
    let Some(field) = desc.fields.get(binding.field) else {
        return binding;
    };
    if binding.bitfield.is_some() || !field.values.is_empty() {
        return binding;
    }
    let mut coded = field
        .bitfields
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.codes.is_empty());
    match (coded.next(), coded.next()) {
        (Some((index, _)), None) => Binding {
            field: binding.field,
            bitfield: Some(index),
        },
        _ => binding,
    }
}

/// The documented codes a binding can take (of the field, or of its sub-field).
pub(crate) fn binding_codes(desc: &InstrDesc, binding: Binding) -> &'static [CodeDesc] {
    let binding = resolve(desc, binding);
    let Some(field) = desc.fields.get(binding.field) else {
        return &[];
    };
    match binding.bitfield {
        Some(b) => field.bitfields.get(b).map_or(&[], |bf| bf.codes),
        None => field.values,
    }
}

/// Bit position and mask of a binding inside its field value.
pub(crate) fn binding_shift_mask(desc: &InstrDesc, binding: Binding) -> (u32, u64) {
    let binding = resolve(desc, binding);
    let bitfield = desc
        .fields
        .get(binding.field)
        .and_then(|f| binding.bitfield.and_then(|b| f.bitfields.get(b)));
    match bitfield {
        Some(bf) => (bf.lo, bf.mask()),
        None => (0, u64::MAX),
    }
}

/// Whether `value` fits the bits of a binding (a sub-field's width, or the field's size).
pub(crate) fn binding_fits(desc: &InstrDesc, binding: Binding, value: u64) -> bool {
    let (shift, mask) = binding_shift_mask(desc, binding);
    let width_mask = match (binding.bitfield, desc.fields.get(binding.field)) {
        (None, Some(field)) => match field.kind.bits() {
            Some(bits) if bits < 64 => (1u64 << bits) - 1,
            _ => u64::MAX,
        },
        _ => mask >> shift,
    };
    value & !width_mask == 0
}

/// Reads the value of a binding from integer field values.
pub(crate) fn binding_value(
    desc: &InstrDesc,
    fields: &[FieldValue],
    binding: Binding,
) -> Option<u64> {
    match fields.get(binding.field)? {
        FieldValue::Int(v) => {
            let (shift, mask) = binding_shift_mask(desc, binding);
            Some((v & mask) >> shift)
        }
        _ => None,
    }
}

/// Writes a code into integer field values (other bits kept).
pub(crate) fn set_binding(
    desc: &InstrDesc,
    fields: &mut [FieldValue],
    binding: Binding,
    code: u64,
) {
    let (shift, mask) = binding_shift_mask(desc, binding);
    if let Some(slot) = fields.get_mut(binding.field) {
        let old = match slot {
            FieldValue::Int(v) => *v,
            _ => 0,
        };
        *slot = FieldValue::Int((old & !mask) | (code.checked_shl(shift).unwrap_or(0) & mask));
    }
}

/// Whether the field is the execution-size field (`FieldValue::Exec`).
pub(crate) fn is_exec_field(field: &FieldDesc) -> bool {
    field.role == FieldRole::ExecSize
}

pub(crate) fn exec_size_codes(field: &FieldDesc) -> &'static [CodeDesc] {
    field
        .bitfields
        .iter()
        .find(|b| b.lo == 0)
        .map_or(&[], |b| b.codes)
}

pub(crate) fn exec_mask_codes(field: &FieldDesc) -> &'static [CodeDesc] {
    field
        .bitfields
        .iter()
        .find(|b| b.lo == 4)
        .map_or(&[], |b| b.codes)
}

/// Whether the field holds an operand (rather than an integer or a reference by name).
pub(crate) fn is_operand_field(field: &FieldDesc) -> bool {
    field.role == FieldRole::Operand
}

/// `a, b or c` list of code texts, for messages.
pub(crate) fn code_list(codes: &[CodeDesc]) -> String {
    let texts: Vec<&str> = codes.iter().map(|c| c.text).collect();
    texts.join(", ")
}

/// Whether the codes a template selects (its mnemonic choice and its code-setting suffixes)
/// are the ones the field values hold.
pub(crate) fn template_selects(
    desc: &InstrDesc,
    syntax: &SyntaxDesc,
    fields: &[FieldValue],
) -> bool {
    let holds = |b: Binding, code: u64| binding_value(desc, fields, b) == Some(code);
    syntax.mnemonic_sets.is_none_or(|(b, code)| holds(b, code))
        && syntax.suffixes.iter().all(|s| match s {
            SuffixDesc::Sets { binding, code, .. } => holds(*binding, *code),
            _ => true,
        })
}

/// Whether a template writes every field that holds an operand.
pub(crate) fn template_covers(syntax: &SyntaxDesc, fields: &[FieldValue]) -> bool {
    fields.iter().enumerate().all(|(i, v)| {
        !matches!(v, FieldValue::Operand(_) | FieldValue::List(_))
            || syntax.operands.iter().any(|&(f, _)| f == i)
    })
}

/// The template an instruction is printed with: the first that selects the codes it holds
/// and writes all its operands; else the first that selects its codes; else the first.
pub(crate) fn template_for<'a>(
    desc: &'a InstrDesc,
    fields: &[FieldValue],
) -> Option<&'a SyntaxDesc> {
    let selecting = || {
        desc.syntax
            .iter()
            .filter(|s| template_selects(desc, s, fields))
    };
    selecting()
        .find(|s| template_covers(s, fields))
        .or_else(|| selecting().next())
        .or_else(|| desc.syntax.first())
}

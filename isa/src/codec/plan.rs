//! What decoding needs to know about each instruction, computed once per table entry.
//!
//! Decoding used to re-derive these for every instruction: the saturation field (a scan of the
//! fields), the symbol table a reference field indexes (from the field's name), and the
//! execution size of the exec-size byte ([`bits::bits_to_exec`] reads the field's code texts
//! such as `"16"` and `"M1_NM"`). Plans are built lazily, one per entry of
//! [`crate::INSTRUCTIONS`] on its first decode.

use std::sync::OnceLock;

use crate::ast::ExecSize;
use crate::bits;
use crate::desc::{FieldKind, FieldRole, InstrDesc};

use super::SymbolKind;

/// The decoding facts of one instruction.
pub(crate) struct DescPlan {
    /// The field that carries `.sat` (see [`super::saturation_field`]).
    pub(crate) sat_field: Option<usize>,
    /// Per field: the symbol table a reference field indexes.
    reference_kinds: Box<[SymbolKind]>,
    /// The one-byte execution-size field and the execution size of each of its 256 values
    /// (`None`: the value does not decode).
    exec: Option<(usize, Box<[Option<ExecSize>; 256]>)>,
}

impl DescPlan {
    fn new(desc: &InstrDesc) -> Self {
        let exec = desc
            .fields
            .iter()
            .position(|f| f.role == FieldRole::ExecSize && f.kind == FieldKind::Ub)
            .and_then(|index| {
                let field = desc.fields.get(index)?;
                let mut values = Box::new([None; 256]);
                for (value, slot) in (0u64..).zip(values.iter_mut()) {
                    *slot = bits::bits_to_exec(field, value).ok();
                }
                Some((index, values))
            });
        Self {
            sat_field: super::saturation_field(desc),
            reference_kinds: desc
                .fields
                .iter()
                .map(|f| SymbolKind::for_reference_field(f.name))
                .collect(),
            exec,
        }
    }

    /// The symbol table field `field` indexes when it is a reference.
    pub(crate) fn reference_kind(&self, field: usize) -> Option<SymbolKind> {
        self.reference_kinds.get(field).copied()
    }

    /// The execution size `value` encodes in field `field`, or `None` when it does not decode
    /// or the field is not the one-byte execution-size field (the caller then asks
    /// [`bits::bits_to_exec`], which also gives the error).
    pub(crate) fn exec(&self, field: usize, value: u64) -> Option<ExecSize> {
        let (exec_field, values) = self.exec.as_ref()?;
        if *exec_field != field {
            return None;
        }
        values.get(usize::try_from(value).ok()?).copied().flatten()
    }
}

static PLANS: OnceLock<Box<[OnceLock<DescPlan>]>> = OnceLock::new();

/// The plan of entry `desc` of [`crate::INSTRUCTIONS`].
pub(crate) fn plan(desc: usize) -> Option<&'static DescPlan> {
    let plans = PLANS.get_or_init(|| {
        (0..crate::INSTRUCTIONS.len())
            .map(|_| OnceLock::new())
            .collect()
    });
    let entry = crate::INSTRUCTIONS.get(desc)?;
    Some(plans.get(desc)?.get_or_init(|| DescPlan::new(entry)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_table_matches_bits_to_exec_for_every_byte() {
        let mut checked = 0;
        for (index, desc) in crate::INSTRUCTIONS.iter().enumerate() {
            let plan = plan(index).unwrap_or_else(|| panic!("no plan for {}", desc.name));
            for (field_index, field) in desc.fields.iter().enumerate() {
                if field.role != FieldRole::ExecSize || field.kind != FieldKind::Ub {
                    continue;
                }
                for value in 0..256u64 {
                    assert_eq!(
                        plan.exec(field_index, value),
                        bits::bits_to_exec(field, value).ok(),
                        "{}.{} = {value:#x}",
                        desc.name,
                        field.name
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "no one-byte execution-size field in the table");
    }

    #[test]
    fn reference_kinds_follow_field_names() {
        for (index, desc) in crate::INSTRUCTIONS.iter().enumerate() {
            let plan = plan(index).unwrap_or_else(|| panic!("no plan for {}", desc.name));
            for (field_index, field) in desc.fields.iter().enumerate() {
                assert_eq!(
                    plan.reference_kind(field_index),
                    Some(SymbolKind::for_reference_field(field.name))
                );
            }
            assert_eq!(plan.sat_field, super::super::saturation_field(desc));
        }
    }
}

//! `switchjmp`: the uniform multiway jump (SWITCHJMP.md), its label list resolved at load.

use visa_isa::instrs::view;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, SwitchJmp};

impl Decoder<'_> {
    /// `switchjmp`: its index operand (of a type the document allows for `Index`) and its
    /// label list (as many labels as the range of `Num_labels` allows; a table of none has no
    /// valid index).
    pub(super) fn decode_switchjmp(
        &mut self,
        f: &Fields,
        i: &view::Switchjmp,
    ) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        if exec.size != 1 {
            return Err(f.err(format!(
                "switchjmp execution size is {}, it must be 1 (the jump is uniform)",
                exec.size
            )));
        }
        let index = self.src(f, i.index, 1, false)?;
        let allowed = f.field(view::Switchjmp::INDEX)?.allowed_types;
        if index.ty.is_float()
            || !allowed.is_empty()
                && !allowed
                    .iter()
                    .any(|t| t.name.eq_ignore_ascii_case(index.ty.name()))
        {
            // The document's type list is a warning for the checker (the compiler's verifier
            // does not check the index type), so the loader refuses such an index as not
            // executed rather than as a broken rule: a jump-table position is an unsigned
            // integer here.
            let names: Vec<&str> = allowed.iter().map(|t| t.name).collect();
            return Err(f.not_executed(format!(
                "switchjmp index has type {}, it must be an unsigned integer ({})",
                index.ty,
                names.join(", ")
            )));
        }
        let range = f
            .field(view::Switchjmp::NUM_LABELS)?
            .range
            .unwrap_or((1, i64::MAX));
        let len = i64::try_from(i.label.len()).unwrap_or(i64::MAX);
        if !(range.0.max(1)..=range.1).contains(&len) {
            return Err(f.err(format!(
                "switchjmp: the label list has {len} labels, it must have {} to {}",
                range.0.max(1),
                range.1
            )));
        }
        let targets = i
            .label
            .iter()
            .map(|op| self.label(f, op))
            .collect::<Result<Box<[usize]>, _>>()?;
        Ok(Op::SwitchJmp(Box::new(SwitchJmp { index, targets })))
    }
}

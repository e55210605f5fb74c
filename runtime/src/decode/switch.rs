//! `switchjmp`: the uniform multiway jump (SWITCHJMP.md), its label list resolved at load.

use visa_isa::ast::FieldValue;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, SwitchJmp};

impl Decoder<'_> {
    /// `switchjmp`: its index operand and its label list (at least one label: a table of none
    /// has no valid index).
    pub(super) fn decode_switchjmp(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if exec.size != 1 {
            return Err(f.err(format!(
                "switchjmp execution size is {}, it must be 1 (the jump is uniform)",
                exec.size
            )));
        }
        let index = self.src(f, f.operand("Index")?, 1, false)?;
        if index.ty.is_float() {
            return Err(f.err(format!(
                "switchjmp index has type {}, it must be an unsigned integer",
                index.ty
            )));
        }
        let labels = match f.get("Label") {
            Some(FieldValue::List(items)) => items.as_slice(),
            _ => return Err(f.err("switchjmp: the label list is missing")),
        };
        if labels.is_empty() {
            return Err(f.err("switchjmp: the label list is empty"));
        }
        let targets = labels
            .iter()
            .map(|item| match item {
                FieldValue::Operand(op) => self.label(f, op),
                other => Err(f.err(format!("expected a label, found {other:?}"))),
            })
            .collect::<Result<Box<[usize]>, _>>()?;
        Ok(Op::SwitchJmp(Box::new(SwitchJmp { index, targets })))
    }
}

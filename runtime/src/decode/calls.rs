//! `fcall`: the callee is named by the `Func_id` operand and resolved to a function object of
//! the module; the argument and return sizes are checked against `%arg` / `%retval`. Also the
//! IEEE forms `divm` / `sqrtm`, which are `div` / `sqrt` restricted to F and DF.

use visa_isa::ast::{ElemType, ExecSize, Operand, Predicate, SrcMod};
use visa_isa::instrs::view;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{AluOp, ExecType, Op};

/// `%arg` holds 32 GRFs and `%retval` 12 (FCALL.md).
const MAX_ARG_GRFS: u8 = 32;
const MAX_RETVAL_GRFS: u8 = 12;

impl Decoder<'_> {
    /// `divm` / `sqrtm` (DIVM.md, SQRTM.md): correctly rounded like `div` / `sqrt`, F or DF
    /// operands only, no source modifiers.
    pub(super) fn decode_ieee_math(
        &mut self,
        f: &Fields,
        exec: ExecSize,
        pred: Option<&Predicate>,
        dst: &Operand,
        srcs: &[&Operand],
    ) -> Result<Op, LoadError> {
        // `divm` divides its two sources, `sqrtm` takes the root of its one.
        let op = if srcs.len() == 2 {
            AluOp::Div
        } else {
            AluOp::Sqrt
        };
        let mnemonic = f.desc.name.to_ascii_lowercase();
        let only = || f.err(format!("{mnemonic} takes F or DF operands only"));
        // `alu` rejects integer operands of `sqrt` with its own (HF-including) wording.
        let decoded = self.alu(f, op, exec, pred, dst, srcs).map_err(|e| {
            if e.message.contains("floating-point") {
                only()
            } else {
                e
            }
        })?;
        if let Op::Alu(a) = &decoded {
            if !matches!(a.exec_type, ExecType::Float(ElemType::F | ElemType::Df))
                || !a.dst.ty.is_float()
            {
                return Err(only());
            }
            if a.srcs.iter().any(|s| s.modifier != SrcMod::None) {
                return Err(f.err(format!("{mnemonic} takes no source modifiers")));
            }
        }
        Ok(decoded)
    }

    pub(super) fn decode_fcall(&mut self, f: &Fields, i: &view::Fcall) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let pred = self.pred(f, i.pred)?;
        let name = match i.func_id {
            Operand::Name(name) => name,
            other => return Err(f.err(format!("fcall: expected a function name, found {other:?}"))),
        };
        let function = *self.functions.get(name).ok_or_else(|| {
            f.err(format!(
                "fcall: no function '{name}' in this module (a `.global_function \"{name}\"`)"
            ))
        })?;
        // Messages name the fields as the table does.
        let size = |index: usize, value: u8, max: u8| -> Result<u8, LoadError> {
            let what = f.field(index)?.name;
            if value > max {
                return Err(f.err(format!(
                    "fcall: {what} {value} exceeds the {max} registers available"
                )));
            }
            Ok(value)
        };
        Ok(Op::Fcall {
            exec,
            pred,
            function,
            arg_size: size(view::Fcall::ARG_SIZE, i.arg_size, MAX_ARG_GRFS)?,
            ret_size: size(view::Fcall::RETURN_SIZE, i.return_size, MAX_RETVAL_GRFS)?,
        })
    }
}

//! `fcall`: the callee is named by the `Func_id` operand and resolved to a function object of
//! the module; the argument and return sizes are checked against `%arg` / `%retval`. Also the
//! IEEE forms `divm` / `sqrtm`, which are `div` / `sqrt` restricted to F and DF.

use visa_isa::ast::{ElemType, Operand, SrcMod};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{AluOp, ExecType, Op};

/// `%arg` holds 32 GRFs and `%retval` 12 (FCALL.md).
const MAX_ARG_GRFS: u64 = 32;
const MAX_RETVAL_GRFS: u64 = 12;

impl Decoder<'_> {
    /// `divm` / `sqrtm` (DIVM.md, SQRTM.md): correctly rounded like `div` / `sqrt`, F or DF
    /// operands only, no source modifiers.
    pub(super) fn decode_ieee_math(&mut self, f: &Fields, divide: bool) -> Result<Op, LoadError> {
        let (op, srcs): (AluOp, &[&str]) = if divide {
            (AluOp::Div, &["Src0", "Src1"])
        } else {
            (AluOp::Sqrt, &["Src0"])
        };
        let mnemonic = f.desc.name.to_ascii_lowercase();
        let only = || f.err(format!("{mnemonic} takes F or DF operands only"));
        // `alu` rejects integer operands of `sqrt` with its own (HF-including) wording.
        let decoded = self.alu(f, op, srcs).map_err(|e| {
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

    pub(super) fn decode_fcall(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let pred = self.pred(f)?;
        let name = match f.operand("Func_id")? {
            Operand::Name(name) => name,
            other => return Err(f.err(format!("fcall: expected a function name, found {other:?}"))),
        };
        let function = *self.functions.get(name).ok_or_else(|| {
            f.err(format!(
                "fcall: no function '{name}' in this module (a `.global_function \"{name}\"`)"
            ))
        })?;
        let size = |field: &str, max: u64| -> Result<u8, LoadError> {
            let value = f.int(field)?;
            if value > max {
                return Err(f.err(format!(
                    "fcall: {field} {value} exceeds the {max} registers available"
                )));
            }
            u8::try_from(value).map_err(|_| f.err(format!("fcall: bad {field} {value}")))
        };
        Ok(Op::Fcall {
            exec,
            pred,
            function,
            arg_size: size("Arg_size", MAX_ARG_GRFS)?,
            ret_size: size("Return_size", MAX_RETVAL_GRFS)?,
        })
    }
}

//! The LSC messages (LSC_UNTYPED.md) this runtime executes so far: `lsc_load` and `lsc_store`
//! of one `d32` or `d64` element per lane through 64-bit flat addresses of untyped global
//! memory (`ugm`), with the address scale and immediate offset (`flat[0x4*IDX+0x100]:a64`),
//! which address shared virtual memory exactly as `svm_gather`/`svm_scatter` of one 4- or
//! 8-byte block per lane do (lane i's element is the i-th of the data operand), so they decode
//! to that operation. The 2D block forms go to `lsc_block2d`. Every other form is refused at
//! load, naming what it uses.

use visa_isa::ast::{FieldValue, Operand};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, SvmScattered};

/// Each field that selects the form, with the token it must have (any one of them).
const EXECUTED_FORM: &[(&str, &[&str])] = &[
    ("LscSFID", &["ugm"]),
    ("AddrType", &["flat"]),
    ("AddrSize", &["a64"]),
    ("DataOrder", &["n"]),
    // `none` is a plain `V:d32` read back from binary, where the default was not written.
    ("DataElemsPerAddr", &["1", "none"]),
];

impl Decoder<'_> {
    pub(super) fn decode_lsc_untyped(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let word = |name: &str| -> Result<&'static str, LoadError> {
            let code = f.int(name)?;
            f.token(name, code)
                .ok_or_else(|| f.err(format!("{name}: undocumented code {code}")))
        };
        let operation = word("LscSubOp")?;
        if let Some(store) = super::lsc_block2d::block2d_operation(operation) {
            return self.decode_lsc_block2d(f, operation, store);
        }
        let not_yet = |what: String| {
            let form = [operation, &what].join(" ");
            f.not_executed(format!(
                "{}: of the LSC messages this runtime executes only lsc_load and \
                 lsc_store of one d32 or d64 element per lane through 64-bit flat addresses \
                 (ugm, with any scale and offset) and the 2D block forms so far",
                form.trim_end()
            ))
        };
        let scatter = match operation {
            "lsc_load" => false,
            "lsc_store" => true,
            _ => return Err(not_yet(String::new())),
        };
        for (field, executed) in EXECUTED_FORM {
            let token = word(field)?;
            if !executed.contains(&token) {
                return Err(not_yet(format!("with {field} {token}")));
            }
        }
        // `flat(BASE)[...]`: what a base operand adds to flat addresses is not settled here.
        let base_written = match f.get("Surface") {
            Some(FieldValue::Operand(op)) => !matches!(
                op,
                Operand::Name(name) | Operand::Raw { var: name, .. } | Operand::General { var: name, .. }
                    if name == "%null"
            ),
            _ => false,
        };
        if base_written {
            return Err(not_yet("with a base operand on flat addresses".to_string()));
        }
        let block_bytes = match word("DataSize")? {
            "d32" => 4,
            "d64" => 8,
            other => return Err(not_yet(format!("of {other} elements"))),
        };
        // The scale is 1 and the offset 0 when not written; the offset is a signed dword.
        let address_scale = match f.get("AddrScale") {
            Some(FieldValue::Int(scale)) => *scale,
            _ => 1,
        };
        let address_offset = i64::from(f.int("AddrImmOffset")? as u32 as i32);
        let exec = f.exec()?;
        let pred = self.pred(f)?;
        let addresses = self.raw(f, f.operand("Src0Addrs")?, exec.size * 8)?;
        let data_field = if scatter { "Src1Data" } else { "DstData" };
        let data = self.raw(f, f.operand(data_field)?, exec.size * block_bytes)?;
        let access = Box::new(SvmScattered {
            exec,
            pred,
            block_bytes,
            blocks: 1,
            addresses,
            address_scale,
            address_offset,
            data,
        });
        Ok(if scatter {
            Op::SvmScatter(access)
        } else {
            Op::SvmGather(access)
        })
    }
}

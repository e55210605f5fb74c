//! Decoding of the four-channel, legacy element and qword gathers/scatters.

use crate::error::LoadError;
use crate::ops::*;

use super::{Decoder, Fields};

impl Decoder<'_> {
    /// The four-channel messages: on a surface or (`svm`) at addresses, loads or (`scatter`)
    /// stores.
    pub(super) fn decode_gather4(
        &mut self,
        f: &Fields,
        svm: bool,
        scatter: bool,
    ) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if ![8, 16].contains(&exec.size) {
            return Err(f.err("four-channel gather/scatter execution size must be 8 or 16"));
        }
        let pred = self.pred(f)?;
        let mask = (f.int("Channels")? & 0xf) as u8;
        if mask == 0 {
            return Err(f.err("the channel mask must select at least one of R, G, B, A"));
        }
        let slot_dwords = exec.size.max(self.layout.grf_bytes / 4);
        let target = if svm {
            Gather4Target::Svm {
                address: self.src(f, f.operand("Address")?, 1, true)?,
                offsets: self.raw(f, f.operand("Element_offset")?, exec.size * 8)?,
            }
        } else {
            Gather4Target::Surface {
                surface: self.surface(f, f.operand("Surface")?)?,
                offset: self.src(f, f.operand("Offset")?, 1, true)?,
                offsets: self.raw(f, f.operand("Element_offset")?, exec.size * 4)?,
            }
        };
        // Every requested channel's group, up to the last lane of the last group.
        let used = ((mask.count_ones() - 1) * slot_dwords + exec.size) * 4;
        let data = self.raw(f, f.operand(if scatter { "Src" } else { "Dst" })?, used)?;
        let access = Box::new(Gather4 {
            exec,
            pred,
            mask,
            slot_dwords,
            target,
            data,
        });
        Ok(if scatter {
            Op::Scatter4(access)
        } else {
            Op::Gather4(access)
        })
    }

    pub(super) fn decode_legacy_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
    ) -> Result<Op, LoadError> {
        let exec = f.exec_field("Num_elts")?;
        if ![1, 8, 16].contains(&exec.size) {
            return Err(f.err("gather/scatter element count must be 1, 8 or 16"));
        }
        let code = f.int("Elt_size")? & 0b11;
        let elt_bytes = match f.token("Elt_size", code).and_then(|t| t.parse().ok()) {
            Some(n) => n,
            None => match code {
                0 => 1,
                1 => 2,
                2 => 4,
                _ => return Err(f.err(format!("bad element size code {code}"))),
            },
        };
        if ![1, 2, 4].contains(&elt_bytes) {
            return Err(f.err(format!("bad element size {elt_bytes}")));
        }
        let access = Box::new(LegacyScattered {
            exec,
            elt_bytes,
            surface: self.surface(f, f.operand("Surface")?)?,
            global_offset: self.src(f, f.operand("Global_offset")?, 1, true)?,
            offsets: self.raw(f, f.operand("Element_offset")?, exec.size * 4)?,
            data: self.raw(
                f,
                f.operand(if scatter { "Src" } else { "Dst" })?,
                exec.size * 4,
            )?,
        });
        Ok(if scatter {
            Op::Scatter(access)
        } else {
            Op::Gather(access)
        })
    }

    pub(super) fn decode_qw_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
    ) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(f.err("qw_gather/qw_scatter execution size must be 1, 2, 4, 8 or 16"));
        }
        let pred = self.pred(f)?;
        if f.int("Num_blocks")? & 0b11 != 0 {
            return Err(f.err("only one 8-byte block per lane is defined"));
        }
        let access = Box::new(QwScattered {
            exec,
            pred,
            surface: self.surface(f, f.operand("Surface")?)?,
            offsets: self.raw(f, f.operand("Offset")?, exec.size * 4)?,
            data: self.raw(
                f,
                f.operand(if scatter { "Src" } else { "Dst" })?,
                exec.size * 8,
            )?,
        });
        Ok(if scatter {
            Op::QwScatter(access)
        } else {
            Op::QwGather(access)
        })
    }
}

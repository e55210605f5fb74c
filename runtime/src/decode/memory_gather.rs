//! Decoding of the four-channel, legacy element and qword gathers/scatters.

use visa_isa::ast::{ExecSize, Operand, Predicate};
use visa_isa::instrs::view::gather::EltSize;
use visa_isa::instrs::view::gather4_scaled::Channels;

use crate::error::LoadError;
use crate::ops::*;

use super::{Decoder, Fields};

/// Where a four-channel message goes: a surface and its offset, or SVM at an address.
pub(super) enum Gather4Base<'v> {
    Surface(&'v Operand, &'v Operand),
    Svm(&'v Operand),
}

impl Decoder<'_> {
    /// The four-channel messages: on a surface or (`svm`) at addresses, loads or (`scatter`)
    /// stores.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decode_gather4(
        &mut self,
        f: &Fields,
        scatter: bool,
        (exec, pred, channels): (ExecSize, Option<&Predicate>, Channels),
        base: Gather4Base,
        element_offset: &Operand,
        data: &Operand,
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        if ![8, 16].contains(&exec.size) {
            return Err(f.err("four-channel gather/scatter execution size must be 8 or 16"));
        }
        let pred = self.pred(f, pred)?;
        let mask = (channels.encode() & 0xf) as u8;
        if mask == 0 {
            return Err(f.err("the channel mask must select at least one of R, G, B, A"));
        }
        let slot_dwords = exec.size.max(self.layout.grf_bytes / 4);
        let target = match base {
            Gather4Base::Svm(address) => Gather4Target::Svm {
                address: self.src(f, address, 1, true)?,
                offsets: self.raw(f, element_offset, exec.size * 8)?,
            },
            Gather4Base::Surface(surface, offset) => Gather4Target::Surface {
                surface: self.surface(f, surface)?,
                offset: self.src(f, offset, 1, true)?,
                offsets: self.raw(f, element_offset, exec.size * 4)?,
            },
        };
        // Every requested channel's group, up to the last lane of the last group.
        let used = ((mask.count_ones() - 1) * slot_dwords + exec.size) * 4;
        let data = self.raw(f, data, used)?;
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

    /// `gather` / `scatter`: `[surface, global_offset, element_offset, data]`.
    pub(super) fn decode_legacy_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
        (elt_size, num_elts): (EltSize, ExecSize),
        [surface, global_offset, element_offset, data]: [&Operand; 4],
    ) -> Result<Op, LoadError> {
        let exec = f.exec(num_elts)?;
        if ![1, 8, 16].contains(&exec.size) {
            return Err(f.err("gather/scatter element count must be 1, 8 or 16"));
        }
        let elt_bytes = match elt_size {
            EltSize::N1Byte => 1,
            EltSize::N2Bytes => 2,
            EltSize::N4Bytes => 4,
        };
        let access = Box::new(LegacyScattered {
            exec,
            elt_bytes,
            surface: self.surface(f, surface)?,
            global_offset: self.src(f, global_offset, 1, true)?,
            offsets: self.raw(f, element_offset, exec.size * 4)?,
            data: self.raw(f, data, exec.size * 4)?,
        });
        Ok(if scatter {
            Op::Scatter(access)
        } else {
            Op::Gather(access)
        })
    }

    /// `qw_gather` / `qw_scatter` (one 8-byte block per lane, the only count documented):
    /// `[surface, offsets, data]`.
    pub(super) fn decode_qw_scattered(
        &mut self,
        f: &Fields,
        scatter: bool,
        (exec, pred): (ExecSize, Option<&Predicate>),
        [surface, offsets, data]: [&Operand; 3],
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        if ![1, 2, 4, 8, 16].contains(&exec.size) {
            return Err(f.err("qw_gather/qw_scatter execution size must be 1, 2, 4, 8 or 16"));
        }
        let pred = self.pred(f, pred)?;
        let access = Box::new(QwScattered {
            exec,
            pred,
            surface: self.surface(f, surface)?,
            offsets: self.raw(f, offsets, exec.size * 4)?,
            data: self.raw(f, data, exec.size * 8)?,
        });
        Ok(if scatter {
            Op::QwScatter(access)
        } else {
            Op::QwGather(access)
        })
    }
}

//! `fcvt` and `srnd` (FCVT.md, SRND.md) on raw bits, through the pure conversions of
//! `crate::fp8`. All sources are read before the destination is written.

use crate::error::Fault;
use crate::exec::lane_numbers;
use crate::fp8;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::{Fp8Convert, Fp8Kind};

impl Thread<'_> {
    pub(crate) fn exec_fp8(&mut self, c: &Fp8Convert) -> Result<(), Fault> {
        let enables = self.channel_enables(c.exec, c.pred)?;
        let mut results = [0u64; MAX_LANES];
        for lane in lane_numbers(enables) {
            let x = self.src_bits(&c.srcs[0], lane)?;
            let random = match c.srcs.get(1) {
                Some(src) => self.src_bits(src, lane)?,
                None => 0,
            };
            let sat = c.saturate;
            let result = match c.kind {
                Fp8Kind::Bf8ToHf => u64::from(fp8::bf8_to_hf(x as u8)),
                Fp8Kind::HfToBf8 => u64::from(fp8::hf_to_bf8(x as u16, sat)),
                Fp8Kind::Hf8ToHf => u64::from(fp8::hf8_to_hf(x as u8)),
                Fp8Kind::HfToHf8 => u64::from(fp8::hf_to_hf8(x as u16, sat)),
                Fp8Kind::Tf32ToF => x & 0xffff_ffff,
                Fp8Kind::FToTf32 => u64::from(fp8::f_to_tf32(x as u32, sat)),
                Fp8Kind::SrndHfToBf8 => u64::from(fp8::srnd_hf_to_bf8(x as u16, random as u8, sat)),
                Fp8Kind::SrndFToHf => u64::from(fp8::srnd_f_to_hf(x as u32, random as u16, sat)),
            };
            if let Some(slot) = results.get_mut(lane as usize) {
                *slot = result;
            }
        }
        for lane in lane_numbers(enables) {
            let result = results.get(lane as usize).copied().unwrap_or(0);
            self.write_dst_bits(&c.dst, lane, result)?;
        }
        Ok(())
    }
}

//! `sad2` (SAD2.md): for each pair of channels whose even channel is enabled, the sum of the
//! two absolute differences goes to the even destination element and the odd one becomes
//! undefined. All sources are read before the destination is written.

use crate::convert::Num;
use crate::error::Fault;
use crate::exec::lane_numbers;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::Sad2;

impl Thread<'_> {
    pub(crate) fn exec_sad2(&mut self, s: &Sad2) -> Result<(), Fault> {
        let enables = self.channel_enables(s.exec, s.pred)?;
        let mut sums = [0i128; MAX_LANES];
        let mut pairs = 0u32;
        for lane in (0..s.exec.size).step_by(2) {
            if enables >> lane & 1 == 0 {
                continue;
            }
            let mut sum = 0i128;
            for l in [lane, lane + 1] {
                let a = self.src_value(&s.srcs[0], l)?.as_int();
                let b = self.src_value(&s.srcs[1], l)?.as_int();
                sum += (a - b).abs();
            }
            if let Some(slot) = sums.get_mut(lane as usize) {
                *slot = sum;
            }
            pairs |= 1 << lane;
        }
        for lane in lane_numbers(pairs) {
            let sum = sums.get(lane as usize).copied().unwrap_or(0);
            self.write_dst(&s.dst, lane, Num::Int(sum), s.saturate)?;
            self.undefine_dst(&s.dst, lane + 1)?;
        }
        Ok(())
    }
}

//! `movs` (MOVS.md): moves binding-table numbers between state slots and UD values. Every
//! source element is read before any destination element is written.

use crate::convert::Num;
use crate::error::{Fault, TrapKind};
use crate::exec::lane_numbers;
use crate::machine::{MAX_LANES, StateSlot, Thread};
use crate::ops::{Movs, MovsDst, MovsSrc, StateElems};

/// The binding-table number a UD operand's value sets: its low 32 bits.
pub(crate) fn state_number(value: Num) -> u32 {
    value.as_int() as u32
}

impl Thread<'_> {
    pub(crate) fn exec_movs(&mut self, m: &Movs) -> Result<(), Fault> {
        let enables = self.channel_enables(m.exec, None)?;
        let mut values = [0u32; MAX_LANES];
        for lane in lane_numbers(enables) {
            let value = match &m.src {
                MovsSrc::State(StateElems::Fixed(number)) => *number,
                MovsSrc::State(StateElems::Slots { var, first }) => self
                    .states
                    .get((first + lane) as usize)
                    .and_then(|slot| slot.number())
                    .ok_or_else(|| {
                        let name = self
                            .program
                            .layout
                            .states
                            .get(usize::from(*var))
                            .map_or_else(String::new, |s| s.name.clone());
                        Fault::at_lane(TrapKind::Uninitialized { var: name }, lane)
                    })?,
                MovsSrc::Value(src) => state_number(self.src_value(src, lane)?),
            };
            if let Some(slot) = values.get_mut(lane as usize) {
                *slot = value;
            }
        }
        for lane in lane_numbers(enables) {
            let value = values.get(lane as usize).copied().unwrap_or_default();
            match &m.dst {
                MovsDst::State { first, .. } => {
                    if let Some(slot) = self.states.get_mut((first + lane) as usize) {
                        *slot = StateSlot::new(Some(value));
                    }
                }
                MovsDst::General(dst) => {
                    self.write_dst(dst, lane, Num::Int(i128::from(value)), false)?;
                }
            }
        }
        Ok(())
    }
}

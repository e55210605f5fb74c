//! `nbarrier` (NBARRIER.md): the mode decides between a wait and a signal; the signal's type
//! and consumer count default to the baseline form (type 0, consumers = producers).

use visa_isa::ast::Operand;
use visa_isa::instrs::view;
use visa_isa::instrs::view::nbarrier::Mode;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{NamedBarrier, Op};

impl Decoder<'_> {
    pub(super) fn decode_nbarrier(
        &mut self,
        f: &Fields,
        i: &view::Nbarrier,
    ) -> Result<Op, LoadError> {
        let signal = match i.mode {
            Mode::Wait => false,
            Mode::Signal => true,
        };
        let id = self.src(f, i.id, 1, true)?;
        // The wait form leaves out every operand but the id.
        let mut scalar = |op: Option<&Operand>| -> Result<Option<crate::ops::Src>, LoadError> {
            op.map(|op| self.src(f, op, 1, true)).transpose()
        };
        let (role, producers, consumers) = if signal {
            let producers = scalar(i.num_producers)?
                .ok_or_else(|| f.err("nbarrier.signal: missing producer count"))?;
            (
                scalar(i.type_value)?,
                Some(producers),
                scalar(i.num_consumers)?,
            )
        } else {
            (None, None, None)
        };
        Ok(Op::NamedBarrier(Box::new(NamedBarrier {
            signal,
            id,
            role,
            producers,
            consumers,
        })))
    }
}

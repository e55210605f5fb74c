//! `nbarrier` (NBARRIER.md): the mode decides between a wait and a signal; the signal's type
//! and consumer count default to the baseline form (type 0, consumers = producers).

use visa_isa::ast::FieldValue;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{NamedBarrier, Op};

impl Decoder<'_> {
    pub(super) fn decode_nbarrier(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let signal = match f.int("Mode")? {
            0 => false,
            1 => true,
            other => {
                return Err(f.err(format!(
                    "nbarrier: mode {other} is not documented (0 wait, 1 signal)"
                )));
            }
        };
        let mut scalar = |name: &str| -> Result<Option<crate::ops::Src>, LoadError> {
            match f.get(name) {
                None | Some(FieldValue::Absent) => Ok(None),
                Some(_) => Ok(Some(self.src(f, f.operand(name)?, 1, true)?)),
            }
        };
        let id = scalar("Id")?.ok_or_else(|| f.err("nbarrier: missing barrier id"))?;
        let (role, producers, consumers) = if signal {
            let producers = scalar("Num_producers")?
                .ok_or_else(|| f.err("nbarrier.signal: missing producer count"))?;
            (scalar("Type")?, Some(producers), scalar("Num_consumers")?)
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

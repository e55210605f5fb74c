//! The predefined variables whose value differs from thread to thread (the ids), where a
//! program keeps them and what each thread's hold: one description that the thread start
//! (`start`) and compiled code starting the next thread of a batch (`jit::lower`,
//! `jit::driver`) both write from.

use std::ops::Range;

use crate::machine::Thread;
use crate::program::Program;

/// Where a predefined variable is in the register file.
#[derive(Clone, Copy)]
pub(super) struct IdSlot {
    pub(super) offset: usize,
    /// Bytes per element (at most 8).
    pub(super) size: usize,
    pub(super) count: usize,
}

impl IdSlot {
    /// The predefined variable `name`, when the program uses it.
    pub(super) fn of(program: &Program, name: &str) -> Option<IdSlot> {
        let layout = &program.layout;
        let var = layout.vars.get(layout.predefined_index(name)?)?;
        Some(IdSlot {
            offset: var.offset as usize,
            size: (var.ty.size() as usize).min(8),
            count: var.num_elts as usize,
        })
    }
}

/// What an element of a per-thread id holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdValue {
    /// The thread's group (`%group_id_x`, element 1 of `%r0`).
    Group,
    /// Its first work-item within the group, its number in the group times the SIMD width
    /// (`%local_id_x`).
    LocalItem,
    /// Its number within its group (`%thread_x`).
    InGroup,
    /// Its number in the launch (`%hw_id`).
    Global,
    /// Zero (the other elements of `%r0`).
    Zero,
}

/// One element of a per-thread id: `size` bytes at register-file byte `offset`, the low bytes
/// of its value (little-endian).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IdStore {
    pub(crate) offset: usize,
    pub(crate) size: usize,
    pub(crate) value: IdValue,
}

/// Where a thread is in the grid of its launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ThreadPlace {
    pub(crate) group: u32,
    pub(crate) in_group: u32,
    pub(crate) global: u32,
}

impl ThreadPlace {
    /// The value of `id` for this thread of a launch of `simd` channels.
    pub(crate) fn value(self, id: IdValue, simd: u32) -> u64 {
        match id {
            IdValue::Group => u64::from(self.group),
            IdValue::LocalItem => u64::from(self.in_group) * u64::from(simd),
            IdValue::InGroup => u64::from(self.in_group),
            IdValue::Global => u64::from(self.global),
            IdValue::Zero => 0,
        }
    }

    /// The next thread of the launch (groups of `per_group` threads), wrapping at the end of
    /// the grid.
    pub(crate) fn next(self, per_group: u32) -> ThreadPlace {
        let in_group = self.in_group.wrapping_add(1);
        let wrap = in_group == per_group;
        ThreadPlace {
            group: self.group.wrapping_add(u32::from(wrap)),
            in_group: if wrap { 0 } else { in_group },
            global: self.global.wrapping_add(1),
        }
    }
}

/// Elements [`ThreadIds::write`] writes to `%r0`: its second holds the group, the others 0.
const R0_VALUES: usize = 8;

/// The per-thread ids a program uses, as the element stores that set them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ThreadIds {
    stores: Vec<IdStore>,
}

impl ThreadIds {
    pub(crate) fn new(program: &Program) -> ThreadIds {
        let mut stores = Vec::new();
        let ids: [(&str, &[IdValue]); 5] = [
            ("%group_id_x", &[IdValue::Group]),
            ("%local_id_x", &[IdValue::LocalItem]),
            ("%thread_x", &[IdValue::InGroup]),
            ("%hw_id", &[IdValue::Global]),
            ("%r0", &[IdValue::Zero, IdValue::Group]),
        ];
        for (name, values) in ids {
            let Some(slot) = IdSlot::of(program, name) else {
                continue;
            };
            let elements = if name == "%r0" {
                R0_VALUES
            } else {
                values.len()
            };
            for e in 0..elements.min(slot.count) {
                stores.push(IdStore {
                    offset: slot.offset + e * slot.size,
                    size: slot.size,
                    value: values.get(e).copied().unwrap_or(IdValue::Zero),
                });
            }
        }
        ThreadIds { stores }
    }

    pub(crate) fn stores(&self) -> &[IdStore] {
        &self.stores
    }

    /// Whether the program uses any of them.
    pub(crate) fn any(&self) -> bool {
        !self.stores.is_empty()
    }

    /// The bytes [`ThreadIds::write`] writes.
    pub(super) fn written(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.stores.iter().map(|s| s.offset..s.offset + s.size)
    }

    /// Writes the ids of the thread at `place` of a launch of `simd` channels.
    // (Inlined: a call would cost more than the few stores of most programs.)
    #[inline(always)]
    pub(crate) fn write(&self, thread: &mut Thread<'_>, place: ThreadPlace, simd: u32) {
        for store in &self.stores {
            let bytes = place.value(store.value, simd).to_le_bytes();
            // (Lengths known at compile time: no call to copy 4 bytes.)
            match store.size {
                4 => thread.write_bytes(store.offset, &bytes[..4]),
                8 => thread.write_bytes(store.offset, &bytes),
                size => thread.write_bytes(store.offset, &bytes[..size.min(8)]),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::LoadOptions;

    #[test]
    fn the_next_thread_wraps_into_the_next_group() {
        let place = ThreadPlace {
            group: 4,
            in_group: 1,
            global: 9,
        };
        let next = place.next(3);
        assert_eq!((next.group, next.in_group, next.global), (4, 2, 10));
        let next = next.next(3);
        assert_eq!((next.group, next.in_group, next.global), (5, 0, 11));
        assert_eq!(next.value(IdValue::LocalItem, 16), 0);
        assert_eq!(place.value(IdValue::LocalItem, 16), 16);
        // One thread per group: every thread starts a group.
        let alone = ThreadPlace {
            group: 4,
            in_group: 0,
            global: 4,
        };
        let next = alone.next(1);
        assert_eq!((next.group, next.in_group, next.global), (5, 0, 5));
    }

    #[test]
    fn only_the_ids_a_program_uses_are_written() {
        let text = ".decl X v_type=G type=d num_elts=16 align=GRF\n\
                    add (M1, 16) X(0,0)<1> %thread_x(0,0)<0;1,0> %r0(0,1)<0;1,0>\n";
        let program = Program::from_text(text, &LoadOptions::default()).expect("loads");
        let ids = ThreadIds::new(&program);
        let values: Vec<(usize, IdValue)> =
            ids.stores().iter().map(|s| (s.size, s.value)).collect();
        let mut expected = vec![
            (2, IdValue::InGroup),
            (4, IdValue::Zero),
            (4, IdValue::Group),
        ];
        expected.extend([(4, IdValue::Zero); 6]);
        assert_eq!(values, expected);
        let plain = Program::from_text(
            ".decl X v_type=G type=d num_elts=16 align=GRF\n\
             mov (M1, 16) X(0,0)<1> 0x1:d\n",
            &LoadOptions::default(),
        )
        .expect("loads");
        assert!(!ThreadIds::new(&plain).any());
    }
}

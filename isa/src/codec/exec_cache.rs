//! Decoded execution-size bytes, computed once per instruction.
//!
//! [`bits::bits_to_exec`] finds an execution size by reading the field's code texts (`"16"`,
//! `"M1_NM"`); decoding would do that for every instruction, so the results for all 256 values
//! of an instruction's one-byte execution-size field are kept in a table built on first use.

use std::sync::OnceLock;

use crate::ast::ExecSize;
use crate::bits;
use crate::desc::{FieldKind, FieldRole};

/// `values[byte]`: the execution size the byte encodes, `None` when it does not decode.
struct ByteTable {
    field: usize,
    values: [Option<ExecSize>; 256],
}

/// One lazily built table per entry of [`crate::INSTRUCTIONS`] (`None`: no one-byte
/// execution-size field).
static TABLES: OnceLock<Box<[OnceLock<Option<ByteTable>>]>> = OnceLock::new();

/// The execution size `value` encodes in field `field` of instruction `desc`, or `None` when it
/// does not decode or the field is not the instruction's one-byte execution-size field (the
/// caller then asks [`bits::bits_to_exec`], which also gives the error).
pub(crate) fn decoded(desc: usize, field: usize, value: u64) -> Option<ExecSize> {
    let tables = TABLES.get_or_init(|| {
        (0..crate::INSTRUCTIONS.len())
            .map(|_| OnceLock::new())
            .collect()
    });
    let table = tables.get(desc)?.get_or_init(|| build(desc)).as_ref()?;
    if table.field != field {
        return None;
    }
    let byte = usize::try_from(value).ok()?;
    table.values.get(byte).copied().flatten()
}

fn build(desc: usize) -> Option<ByteTable> {
    let fields = crate::INSTRUCTIONS.get(desc)?.fields;
    let field = fields
        .iter()
        .position(|f| f.role == FieldRole::ExecSize && f.kind == FieldKind::Ub)?;
    let desc_field = fields.get(field)?;
    let mut values = [None; 256];
    for (value, slot) in (0u64..).zip(values.iter_mut()) {
        *slot = bits::bits_to_exec(desc_field, value).ok();
    }
    Some(ByteTable { field, values })
}

//! Support for the generated typed instructions ([`crate::instrs`]): the conversion error and
//! the field readers the generated `TryFrom<&ast::Instruction>` impls call.

use crate::ast::{FieldValue, Instruction, Operand, Predicate};
use crate::bits::{self, BitfieldError};
use crate::desc::InstrDesc;

/// Why a generic [`Instruction`] does not convert to a typed one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConvertError {
    /// `Instruction::desc` is not an index into [`crate::INSTRUCTIONS`].
    #[error("instruction table index {0} is out of range")]
    UnknownDesc(usize),
    /// The instruction is a different table entry.
    #[error("expected a {expected} instruction, found {found}")]
    WrongInstruction {
        /// The instruction the typed struct stands for.
        expected: &'static str,
        /// The instruction found.
        found: &'static str,
    },
    /// The number of field values differs from the Format table.
    #[error("{instr}: expected {expected} field values, found {found}")]
    FieldCount {
        /// The instruction.
        instr: &'static str,
        /// Fields in the Format table.
        expected: usize,
        /// Values present.
        found: usize,
    },
    /// A field value of the wrong kind (an operand where an integer belongs ...).
    #[error("{instr}.{field}: expected {expected}")]
    WrongKind {
        /// The instruction.
        instr: &'static str,
        /// The field.
        field: &'static str,
        /// What the field needs.
        expected: &'static str,
    },
    /// An integer that does not fit the field.
    #[error("{instr}.{field}: value {value:#x} does not fit the field")]
    OutOfRange {
        /// The instruction.
        instr: &'static str,
        /// The field.
        field: &'static str,
        /// The value.
        value: u64,
    },
    /// An undocumented code.
    #[error("{instr}.{field}: {source}")]
    Bitfield {
        /// The instruction.
        instr: &'static str,
        /// The field.
        field: &'static str,
        /// What is wrong with the value.
        source: BitfieldError,
    },
    /// `.sat` on an instruction whose syntax has no `[.sat]`.
    #[error("{instr}: `.sat` is not allowed")]
    Saturate {
        /// The instruction.
        instr: &'static str,
    },
}

/// Checks that `inst` is table entry `index` with one value per field.
pub fn check(inst: &Instruction, index: usize) -> Result<&'static InstrDesc, ConvertError> {
    let expected = crate::INSTRUCTIONS
        .get(index)
        .ok_or(ConvertError::UnknownDesc(index))?;
    let found = crate::INSTRUCTIONS
        .get(inst.desc)
        .ok_or(ConvertError::UnknownDesc(inst.desc))?;
    if inst.desc != index {
        return Err(ConvertError::WrongInstruction {
            expected: expected.name,
            found: found.name,
        });
    }
    if inst.fields.len() != expected.fields.len() {
        return Err(ConvertError::FieldCount {
            instr: expected.name,
            expected: expected.fields.len(),
            found: inst.fields.len(),
        });
    }
    Ok(expected)
}

fn names(inst: &Instruction, i: usize) -> (&'static str, &'static str) {
    let desc = crate::INSTRUCTIONS.get(inst.desc);
    let field = desc.and_then(|d| d.fields.get(i)).map_or("?", |f| f.name);
    (desc.map_or("?", |d| d.name), field)
}

fn wrong(inst: &Instruction, i: usize, expected: &'static str) -> ConvertError {
    let (instr, field) = names(inst, i);
    ConvertError::WrongKind {
        instr,
        field,
        expected,
    }
}

fn value(inst: &Instruction, i: usize) -> Result<&FieldValue, ConvertError> {
    inst.fields.get(i).ok_or_else(|| wrong(inst, i, "a value"))
}

/// Whether field `i` holds a value (not [`FieldValue::Absent`]).
pub fn present(inst: &Instruction, i: usize) -> bool {
    !matches!(inst.fields.get(i), None | Some(FieldValue::Absent))
}

/// The encoded integer of field `i`: an integer, or an execution size encoded with the field's
/// codes.
pub fn bits(inst: &Instruction, i: usize) -> Result<u64, ConvertError> {
    match value(inst, i)? {
        FieldValue::Int(v) => Ok(*v),
        FieldValue::Exec(exec) => {
            let field = crate::INSTRUCTIONS
                .get(inst.desc)
                .and_then(|d| d.fields.get(i))
                .ok_or_else(|| wrong(inst, i, "a field"))?;
            bits::exec_to_bits(field, exec).map_err(|source| {
                let (instr, field) = names(inst, i);
                ConvertError::Bitfield {
                    instr,
                    field,
                    source,
                }
            })
        }
        _ => Err(wrong(inst, i, "an integer")),
    }
}

/// Field `i` as an integer of type `T`.
pub fn int<T: TryFrom<u64>>(inst: &Instruction, i: usize) -> Result<T, ConvertError> {
    let v = bits(inst, i)?;
    T::try_from(v).map_err(|_| {
        let (instr, field) = names(inst, i);
        ConvertError::OutOfRange {
            instr,
            field,
            value: v,
        }
    })
}

/// Field `i` decoded by a generated bitfield type.
pub fn coded<T>(
    inst: &Instruction,
    i: usize,
    decode: fn(u64) -> Result<T, BitfieldError>,
) -> Result<T, ConvertError> {
    decode(bits(inst, i)?).map_err(|source| {
        let (instr, field) = names(inst, i);
        ConvertError::Bitfield {
            instr,
            field,
            source,
        }
    })
}

/// Field `i` as an operand.
pub fn operand(inst: &Instruction, i: usize) -> Result<Operand, ConvertError> {
    match value(inst, i)? {
        FieldValue::Operand(op) => Ok(op.clone()),
        _ => Err(wrong(inst, i, "an operand")),
    }
}

/// The elements of list field `i`, as `element` reads each.
fn list<T>(
    inst: &Instruction,
    i: usize,
    element: impl Fn(&FieldValue) -> Option<T>,
    expected: &'static str,
) -> Result<Vec<T>, ConvertError> {
    match value(inst, i)? {
        FieldValue::List(items) => items
            .iter()
            .map(|item| element(item).ok_or_else(|| wrong(inst, i, expected)))
            .collect(),
        _ => Err(wrong(inst, i, "a list")),
    }
}

/// List field `i` as operands (names, for a list of labels).
pub fn operand_list(inst: &Instruction, i: usize) -> Result<Vec<Operand>, ConvertError> {
    let operand = |v: &FieldValue| match v {
        FieldValue::Operand(op) => Some(op.clone()),
        _ => None,
    };
    list(inst, i, operand, "a list of operands")
}

/// List field `i` as integers.
pub fn int_list(inst: &Instruction, i: usize) -> Result<Vec<u64>, ConvertError> {
    let int = |v: &FieldValue| match v {
        FieldValue::Int(v) => Some(*v),
        _ => None,
    };
    list(inst, i, int, "a list of integers")
}

/// Field `i` as a predicate (absent: none).
pub fn pred(inst: &Instruction, i: usize) -> Result<Option<Predicate>, ConvertError> {
    match value(inst, i)? {
        FieldValue::Pred(p) => Ok(p.clone()),
        FieldValue::Absent => Ok(None),
        _ => Err(wrong(inst, i, "a predicate")),
    }
}

/// Field `i` as it is (fields without a defined encoding).
pub fn raw(inst: &Instruction, i: usize) -> FieldValue {
    inst.fields.get(i).cloned().unwrap_or(FieldValue::Absent)
}

/// The generic value of an execution-size field of table entry `index`: decoded when its codes
/// allow, the integer otherwise.
pub fn exec_value(index: usize, i: usize, value: u64) -> FieldValue {
    crate::INSTRUCTIONS
        .get(index)
        .and_then(|d| d.fields.get(i))
        .and_then(|field| bits::bits_to_exec(field, value).ok())
        .map_or(FieldValue::Int(value), FieldValue::Exec)
}

/// Field readers of the generated views ([`crate::instrs::view`]): field `i` of an instruction
/// viewed as table entry `index` of [`crate::INSTRUCTIONS`] (errors name that entry's fields,
/// whatever table the instruction was parsed with). Absent integers read as 0.
pub mod view {
    use super::{ConvertError, FieldValue, Instruction, Operand, Predicate};
    use crate::ast::ExecSize;
    use crate::bits::{self, BitfieldError};
    use crate::desc::FieldDesc;

    fn field(index: usize, i: usize) -> Option<&'static FieldDesc> {
        crate::INSTRUCTIONS.get(index)?.fields.get(i)
    }

    fn names(index: usize, i: usize) -> (&'static str, &'static str) {
        let instr = crate::INSTRUCTIONS.get(index).map_or("?", |d| d.name);
        (instr, field(index, i).map_or("?", |f| f.name))
    }

    fn wrong(index: usize, i: usize, expected: &'static str) -> ConvertError {
        let (instr, field) = names(index, i);
        ConvertError::WrongKind {
            instr,
            field,
            expected,
        }
    }

    fn bitfield(index: usize, i: usize, source: BitfieldError) -> ConvertError {
        let (instr, field) = names(index, i);
        ConvertError::Bitfield {
            instr,
            field,
            source,
        }
    }

    fn value(inst: &Instruction, index: usize, i: usize) -> Result<&FieldValue, ConvertError> {
        inst.fields.get(i).ok_or_else(|| wrong(index, i, "a value"))
    }

    /// Checks that `inst` has one value per field of table entry `index`.
    pub fn check(inst: &Instruction, index: usize) -> Result<(), ConvertError> {
        let desc = crate::INSTRUCTIONS
            .get(index)
            .ok_or(ConvertError::UnknownDesc(index))?;
        if inst.fields.len() != desc.fields.len() {
            return Err(ConvertError::FieldCount {
                instr: desc.name,
                expected: desc.fields.len(),
                found: inst.fields.len(),
            });
        }
        Ok(())
    }

    /// The encoded integer of field `i` (an execution size encoded with the field's codes).
    pub fn bits(inst: &Instruction, index: usize, i: usize) -> Result<u64, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::Int(v) => Ok(*v),
            FieldValue::Absent => Ok(0),
            FieldValue::Exec(exec) => {
                let desc = field(index, i).ok_or_else(|| wrong(index, i, "a field"))?;
                bits::exec_to_bits(desc, exec).map_err(|e| bitfield(index, i, e))
            }
            _ => Err(wrong(index, i, "an integer")),
        }
    }

    /// Field `i` as an integer of type `T`.
    pub fn int<T: TryFrom<u64>>(
        inst: &Instruction,
        index: usize,
        i: usize,
    ) -> Result<T, ConvertError> {
        let v = bits(inst, index, i)?;
        T::try_from(v).map_err(|_| {
            let (instr, field) = names(index, i);
            ConvertError::OutOfRange {
                instr,
                field,
                value: v,
            }
        })
    }

    /// Field `i` decoded by a generated bitfield type.
    pub fn coded<T>(
        inst: &Instruction,
        index: usize,
        i: usize,
        decode: fn(u64) -> Result<T, BitfieldError>,
    ) -> Result<T, ConvertError> {
        decode(bits(inst, index, i)?).map_err(|e| bitfield(index, i, e))
    }

    /// An execution-size field: lanes and mask control (an integer decoded with its codes).
    pub fn exec(inst: &Instruction, index: usize, i: usize) -> Result<ExecSize, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::Exec(exec) => Ok(*exec),
            FieldValue::Int(v) => {
                let desc = field(index, i).ok_or_else(|| wrong(index, i, "a field"))?;
                bits::bits_to_exec(desc, *v).map_err(|e| bitfield(index, i, e))
            }
            _ => Err(wrong(index, i, "an execution size")),
        }
    }

    /// Field `i` as an operand.
    pub fn operand(inst: &Instruction, index: usize, i: usize) -> Result<&Operand, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::Operand(op) => Ok(op),
            _ => Err(wrong(index, i, "an operand")),
        }
    }

    /// List field `i` as operands.
    pub fn operand_list(
        inst: &Instruction,
        index: usize,
        i: usize,
    ) -> Result<Vec<&Operand>, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::List(items) => items
                .iter()
                .map(|item| match item {
                    FieldValue::Operand(op) => Ok(op),
                    _ => Err(wrong(index, i, "a list of operands")),
                })
                .collect(),
            _ => Err(wrong(index, i, "a list")),
        }
    }

    /// List field `i` as integers.
    pub fn int_list(inst: &Instruction, index: usize, i: usize) -> Result<Vec<u64>, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::List(items) => items
                .iter()
                .map(|item| match item {
                    FieldValue::Int(v) => Ok(*v),
                    _ => Err(wrong(index, i, "a list of integers")),
                })
                .collect(),
            _ => Err(wrong(index, i, "a list")),
        }
    }

    /// Field `i` as a predicate (absent: none).
    pub fn pred(
        inst: &Instruction,
        index: usize,
        i: usize,
    ) -> Result<Option<&Predicate>, ConvertError> {
        match value(inst, index, i)? {
            FieldValue::Pred(p) => Ok(p.as_ref()),
            FieldValue::Absent => Ok(None),
            _ => Err(wrong(index, i, "a predicate")),
        }
    }

    /// Field `i` as it is.
    pub fn raw(inst: &Instruction, i: usize) -> &FieldValue {
        static ABSENT: FieldValue = FieldValue::Absent;
        inst.fields.get(i).unwrap_or(&ABSENT)
    }
}

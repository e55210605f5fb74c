//! The binary codec: instructions in the vISA bytecode layout given by each instruction's Format
//! table ([`crate::INSTRUCTIONS`]).
//!
//! An instruction is its opcode byte, its sub-operation byte when it has one, then every field in
//! order: `ub` 1 byte, `uw` 2, `ud`/`d` 4, `uq` 8 (little-endian); `scalar`/`vec_operand` a vector
//! operand and `raw_operand` a raw operand ([`operand`]). The predicate field holds the predicate
//! word; the execution-size field the byte its codes describe. Integer fields that name things
//! (`<surface>`, `<label>`) hold the index of the name in a [`SymbolTable`].
//!
//! A list field (`Label0 | LabelN | Label(Num_labels-1)`) is its elements back to back, each
//! of the field's kind; the earlier count field says how many there are.
//!
//! An instruction whose document has conditional Format tables (`### CONDITION`) has one
//! layout per table instead ([`crate::desc::LayoutDesc`], module `layout`).
//!
//! Project choices: a field written `Name*` (present only under a condition the documents state
//! in prose) is preceded by a presence byte (0 absent, 1 present); `.sat` is the saturation
//! modifier of the instruction's first `vec_operand` field (its destination). The binary form
//! records neither an operand's explicit `:type` on general operands nor whether an execution
//! mask was written: decoding gives `ty: None` and `mask_written: true`.

mod layout;
pub mod operand;
mod plan;
pub mod reader;
pub mod symbols;

use crate::ast::{FieldValue, Instruction, Operand};
use crate::bits::{self, BitfieldError};
use crate::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc};

pub use operand::OperandError;
pub use reader::Reader;
pub use symbols::{SymbolKind, SymbolLimit, SymbolTable};

/// Why an instruction does not encode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// `Instruction::desc` is not an index into [`crate::INSTRUCTIONS`].
    #[error("instruction table index {0} is out of range")]
    UnknownDesc(usize),
    /// The number of field values differs from the Format table.
    #[error("{instr}: expected {expected} field values, found {found}")]
    FieldCount {
        /// The instruction.
        instr: &'static str,
        /// Fields in the Format table.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A field's value does not suit the field.
    #[error("{instr}.{field}: {reason}")]
    Field {
        /// The instruction.
        instr: &'static str,
        /// The field.
        field: &'static str,
        /// What is wrong.
        reason: FieldProblem,
    },
    /// The instruction meets the condition of none of its binary layouts (its conditional
    /// Format tables).
    #[error("{instr}: no binary layout of the instruction holds this form")]
    NoLayout {
        /// The instruction.
        instr: &'static str,
    },
    /// `.sat` on an instruction without a vector destination.
    #[error("{instr}: `.sat` needs a vec_operand destination field")]
    Saturate {
        /// The instruction.
        instr: &'static str,
    },
}

/// What is wrong with one field's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldProblem {
    /// A required field is absent.
    #[error("the field is required")]
    Missing,
    /// The value has the wrong kind for the field.
    #[error("expected {0}")]
    WrongKind(&'static str),
    /// An integer that does not fit the field.
    #[error("value {0:#x} does not fit the field")]
    OutOfRange(u64),
    /// An undocumented code.
    #[error(transparent)]
    Code(#[from] BitfieldError),
    /// The operand does not encode.
    #[error(transparent)]
    Operand(#[from] OperandError),
    /// The field's type has no binary encoding.
    #[error("the field's type has no binary encoding")]
    Unsupported,
    /// The field holds a value, and the binary layout of this form has no place for it.
    #[error("the binary layout of this form has no place for the field; leave it out")]
    NotInLayout,
    /// A list whose length is not the value of its count field.
    #[error("the list has {len} elements but its count field holds {count}")]
    ListLength {
        /// Elements in the list.
        len: usize,
        /// The count field's value.
        count: u64,
    },
}

/// Why bytes do not decode: what and at which byte offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {kind}")]
pub struct DecodeError {
    /// Offset of the offending byte in the input.
    pub offset: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// An error at `offset`.
    pub const fn new(offset: usize, kind: DecodeErrorKind) -> Self {
        Self { offset, kind }
    }
}

/// The kinds of [`DecodeError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The input ends inside an instruction.
    #[error("unexpected end of input ({needed} more byte(s) needed)")]
    UnexpectedEnd {
        /// Bytes the read needed.
        needed: usize,
    },
    /// No instruction has this opcode (and sub-operation).
    #[error("unknown opcode {opcode:#04x}{}", subop.map(|s| format!(" sub-operation {s:#04x}")).unwrap_or_default())]
    UnknownOpcode {
        /// The opcode byte.
        opcode: u8,
        /// The sub-operation byte, when the opcode has sub-operations.
        subop: Option<u8>,
    },
    /// An index the symbol table does not name.
    #[error("no {kind} has index {id}")]
    UnknownSymbol {
        /// The table.
        kind: SymbolKind,
        /// The index.
        id: u32,
    },
    /// An operand tag (class or modifier) that is not defined, or a modifier where none is
    /// allowed.
    #[error("invalid operand tag or class byte {0:#04x}")]
    InvalidTag(u8),
    /// A type code that is not defined (or not allowed here).
    #[error("invalid type code {0:#04x}")]
    InvalidType(u8),
    /// A region word with undefined parameters.
    #[error("invalid region {0:#06x}")]
    InvalidRegion(u16),
    /// A predicate word with reserved bits set.
    #[error("invalid predicate word {0:#06x}")]
    InvalidPredicate(u16),
    /// An immediate of a narrow type whose dword is not that type's extension.
    #[error("invalid immediate dword {0:#010x} for its type")]
    InvalidImmediate(u32),
    /// A presence byte other than 0 or 1.
    #[error("invalid presence byte {0:#04x}")]
    InvalidPresence(u8),
    /// A field value with undocumented codes.
    #[error("field {field}: {source}")]
    Code {
        /// The field.
        field: &'static str,
        /// What is wrong.
        source: BitfieldError,
    },
    /// The saturation modifier on an operand other than the destination.
    #[error("field {0}: saturation is only allowed on the destination")]
    MisplacedSaturation(&'static str),
    /// A field whose type has no binary encoding.
    #[error("field {0}: the field's type has no binary encoding")]
    Unsupported(&'static str),
    /// The bytes read in none of the instruction's binary layouts whose condition they meet.
    #[error("{0}: the bytes fit none of the instruction's binary layouts")]
    NoLayout(&'static str),
    /// A field written twice in its layout, with two different values.
    #[error("field {0}: its two copies differ")]
    CopyDiffers(&'static str),
}

/// The field that carries `.sat`: the first `vec_operand` field.
fn saturation_field(desc: &InstrDesc) -> Option<usize> {
    desc.fields
        .iter()
        .position(|f| f.kind == FieldKind::VecOperand)
}

/// Appends the binary form of `inst` to `out`, giving new names indices in `syms`. On error,
/// `out` is left as it was.
pub fn encode(
    inst: &Instruction,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    encode_with_ends(inst, syms, out).map(|_| ())
}

/// [`encode`], returning where each part of the instruction's bytes ends: the opcode (and
/// sub-operation) byte(s), then each field in order, or, for an instruction with conditional
/// layouts, each cell of the layout written (a field may have two) (offsets from the
/// instruction's start).
pub fn encode_with_ends(
    inst: &Instruction,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<Vec<usize>, EncodeError> {
    let desc = crate::INSTRUCTIONS
        .get(inst.desc)
        .ok_or(EncodeError::UnknownDesc(inst.desc))?;
    if inst.fields.len() != desc.fields.len() {
        return Err(EncodeError::FieldCount {
            instr: desc.name,
            expected: desc.fields.len(),
            found: inst.fields.len(),
        });
    }
    let sat_field = saturation_field(desc);
    if inst.saturate && sat_field.is_none() {
        return Err(EncodeError::Saturate { instr: desc.name });
    }
    let mut bytes = vec![desc.opcode];
    bytes.extend(desc.subop);
    let mut ends = Vec::with_capacity(desc.fields.len() + 1);
    ends.push(bytes.len());
    if !desc.layouts.is_empty() {
        layout::encode(desc, inst, sat_field, syms, &mut bytes, &mut ends)?;
        out.extend(bytes);
        return Ok(ends);
    }
    for (i, (field, value)) in desc.fields.iter().zip(&inst.fields).enumerate() {
        let saturate = inst.saturate && sat_field == Some(i);
        let count = field.repeat.and_then(|c| inst.fields.get(c));
        encode_field(field, value, count, saturate, syms, &mut bytes).map_err(|reason| {
            EncodeError::Field {
                instr: desc.name,
                field: field.name,
                reason,
            }
        })?;
        ends.push(bytes.len());
    }
    out.extend(bytes);
    Ok(ends)
}

/// Encodes one field; `count` is the value of its count field when it is a list.
fn encode_field(
    field: &FieldDesc,
    value: &FieldValue,
    count: Option<&FieldValue>,
    saturate: bool,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<(), FieldProblem> {
    if field.optional {
        let present = !matches!(value, FieldValue::Absent);
        out.push(u8::from(present));
        if !present {
            return Ok(());
        }
    }
    if field.repeat.is_none() {
        return encode_value(field, value, saturate, syms, out);
    }
    let FieldValue::List(items) = value else {
        return Err(FieldProblem::WrongKind("a list"));
    };
    match count {
        Some(FieldValue::Int(n)) if *n == items.len() as u64 => {}
        Some(FieldValue::Int(n)) => {
            return Err(FieldProblem::ListLength {
                len: items.len(),
                count: *n,
            });
        }
        _ => return Err(FieldProblem::WrongKind("a count field holding an integer")),
    }
    items
        .iter()
        .try_for_each(|item| encode_value(field, item, false, syms, out))
}

/// Encodes one value (a whole field, or one element of a list field) of the field's kind.
fn encode_value(
    field: &FieldDesc,
    value: &FieldValue,
    saturate: bool,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<(), FieldProblem> {
    match field.kind {
        FieldKind::Scalar | FieldKind::VecOperand => match value {
            FieldValue::Operand(op) => Ok(operand::encode_vector(op, saturate, syms, out)?),
            FieldValue::Absent => Err(FieldProblem::Missing),
            _ => Err(FieldProblem::WrongKind("an operand")),
        },
        FieldKind::RawOperand => match value {
            FieldValue::Operand(op) => Ok(operand::encode_raw(op, syms, out)?),
            FieldValue::Absent => Err(FieldProblem::Missing),
            _ => Err(FieldProblem::WrongKind("a raw operand")),
        },
        FieldKind::Other => Err(FieldProblem::Unsupported),
        FieldKind::Ub | FieldKind::Uw | FieldKind::Ud | FieldKind::D | FieldKind::Uq => {
            let size = field.kind.int_size().unwrap_or(8);
            let v = int_value(field, value, syms)?;
            if size < 8 && v >> (size * 8) != 0 {
                return Err(FieldProblem::OutOfRange(v));
            }
            out.extend(v.to_le_bytes().into_iter().take(size));
            Ok(())
        }
    }
}

fn int_value(
    field: &FieldDesc,
    value: &FieldValue,
    syms: &mut SymbolTable,
) -> Result<u64, FieldProblem> {
    match value {
        FieldValue::Int(v) => {
            if matches!(field.role, FieldRole::Value | FieldRole::ExecSize) {
                bits::check_field(field, *v)?;
            }
            Ok(*v)
        }
        FieldValue::Exec(exec) => Ok(bits::exec_to_bits(field, exec)?),
        FieldValue::Pred(pred) => Ok(u64::from(operand::encode_predicate(pred.as_ref(), syms)?)),
        FieldValue::Operand(Operand::Name(name)) => {
            let kind = SymbolKind::for_reference_field(field.name);
            let id = syms.intern(kind, name).map_err(OperandError::from)?;
            Ok(u64::from(id))
        }
        FieldValue::Operand(_) | FieldValue::List(_) => {
            Err(FieldProblem::WrongKind("an integer or a name"))
        }
        FieldValue::Absent => Err(FieldProblem::Missing),
    }
}

/// Decodes one instruction from the start of `bytes`; returns it and the number of bytes read.
/// Indices are named through `syms`; an index it does not know is an error.
pub fn decode(bytes: &[u8], syms: &SymbolTable) -> Result<(Instruction, usize), DecodeError> {
    let mut r = Reader::new(bytes);
    let inst = decode_from(&mut r, syms)?;
    Ok((inst, r.pos()))
}

fn find_desc(r: &mut Reader<'_>) -> Result<usize, DecodeError> {
    let at = r.pos();
    let opcode = r.u8()?;
    if crate::Opcode::has_subops(opcode) {
        let before_subop = r.clone();
        let subop = r.u8()?;
        if let Some(op) = crate::Opcode::from_value(opcode, Some(subop)) {
            return Ok(op.index());
        }
        if let Some(op) = crate::Opcode::from_value(opcode, None) {
            *r = before_subop;
            return Ok(op.index());
        }
        return Err(DecodeError::new(
            at,
            DecodeErrorKind::UnknownOpcode {
                opcode,
                subop: Some(subop),
            },
        ));
    }
    crate::Opcode::from_value(opcode, None)
        .map(crate::Opcode::index)
        .ok_or(DecodeError::new(
            at,
            DecodeErrorKind::UnknownOpcode {
                opcode,
                subop: None,
            },
        ))
}

fn decode_from(r: &mut Reader<'_>, syms: &SymbolTable) -> Result<Instruction, DecodeError> {
    let index = find_desc(r)?;
    let desc = crate::INSTRUCTIONS.get(index).ok_or(DecodeError::new(
        r.pos(),
        DecodeErrorKind::UnknownOpcode {
            opcode: 0,
            subop: None,
        },
    ))?;
    let plan = plan::plan(index);
    let sat_field = match plan {
        Some(plan) => plan.sat_field,
        None => saturation_field(desc),
    };
    if !desc.layouts.is_empty() {
        let (fields, saturate) = layout::decode(r, (desc, plan), sat_field, syms)?;
        return Ok(Instruction::built(index, saturate, fields));
    }
    let mut fields = Vec::with_capacity(desc.fields.len());
    let mut saturate = false;
    for (i, field) in desc.fields.iter().enumerate() {
        if field.optional {
            let at = r.pos();
            match r.u8()? {
                0 => {
                    fields.push(FieldValue::Absent);
                    continue;
                }
                1 => {}
                other => {
                    return Err(DecodeError::new(
                        at,
                        DecodeErrorKind::InvalidPresence(other),
                    ));
                }
            }
        }
        let value = match field.repeat {
            None => {
                let (value, sat) = decode_value(r, (plan, i), field, sat_field, syms)?;
                saturate |= sat;
                value
            }
            Some(count) => {
                let at = r.pos();
                let len = match fields.get(count) {
                    Some(FieldValue::Int(n)) => *n,
                    _ => {
                        return Err(DecodeError::new(
                            at,
                            DecodeErrorKind::Unsupported(field.name),
                        ));
                    }
                };
                // Every element takes at least one byte: a count beyond the input is an error
                // before anything is allocated for it.
                if len > r.remaining() as u64 {
                    return Err(DecodeError::new(
                        at,
                        DecodeErrorKind::UnexpectedEnd {
                            needed: usize::try_from(len)
                                .unwrap_or(usize::MAX)
                                .saturating_sub(r.remaining()),
                        },
                    ));
                }
                let mut items = Vec::with_capacity(len as usize);
                for _ in 0..len {
                    items.push(decode_value(r, (plan, i), field, None, syms)?.0);
                }
                FieldValue::List(items)
            }
        };
        fields.push(value);
    }
    Ok(Instruction::built(index, saturate, fields))
}

/// Decodes one value of field `i`'s kind, and whether it carried the saturation flag (allowed
/// only on `sat_field`).
fn decode_value(
    r: &mut Reader<'_>,
    (plan, i): (Option<&plan::DescPlan>, usize),
    field: &FieldDesc,
    sat_field: Option<usize>,
    syms: &SymbolTable,
) -> Result<(FieldValue, bool), DecodeError> {
    let at = r.pos();
    match field.kind {
        FieldKind::Scalar | FieldKind::VecOperand => {
            let (op, sat) = operand::decode_vector(r, syms)?;
            if sat && sat_field != Some(i) {
                return Err(DecodeError::new(
                    at,
                    DecodeErrorKind::MisplacedSaturation(field.name),
                ));
            }
            Ok((FieldValue::Operand(op), sat))
        }
        FieldKind::RawOperand => Ok((FieldValue::Operand(operand::decode_raw(r, syms)?), false)),
        FieldKind::Other => Err(DecodeError::new(
            at,
            DecodeErrorKind::Unsupported(field.name),
        )),
        FieldKind::Ub | FieldKind::Uw | FieldKind::Ud | FieldKind::D | FieldKind::Uq => {
            let v = r.uint(field.kind.int_size().unwrap_or(8))?;
            Ok((int_field((plan, i), field, v, at, syms)?, false))
        }
    }
}

fn int_field(
    (plan, field_index): (Option<&plan::DescPlan>, usize),
    field: &FieldDesc,
    v: u64,
    at: usize,
    syms: &SymbolTable,
) -> Result<FieldValue, DecodeError> {
    let code_error = |source| {
        DecodeError::new(
            at,
            DecodeErrorKind::Code {
                field: field.name,
                source,
            },
        )
    };
    match field.role {
        FieldRole::Predicate => {
            let word = u16::try_from(v)
                .map_err(|_| DecodeError::new(at, DecodeErrorKind::InvalidPredicate(u16::MAX)))?;
            Ok(FieldValue::Pred(operand::decode_predicate(word, at, syms)?))
        }
        FieldRole::ExecSize => match plan.and_then(|p| p.exec(field_index, v)) {
            Some(exec) => Ok(FieldValue::Exec(exec)),
            None => bits::bits_to_exec(field, v)
                .map(FieldValue::Exec)
                .map_err(code_error),
        },
        FieldRole::Reference => {
            let kind = plan
                .and_then(|p| p.reference_kind(field_index))
                .unwrap_or_else(|| SymbolKind::for_reference_field(field.name));
            let id = u32::try_from(v).map_err(|_| {
                DecodeError::new(at, DecodeErrorKind::UnknownSymbol { kind, id: u32::MAX })
            })?;
            let name = syms.name(kind, id).ok_or(DecodeError::new(
                at,
                DecodeErrorKind::UnknownSymbol { kind, id },
            ))?;
            Ok(FieldValue::Operand(Operand::Name(name.to_string())))
        }
        FieldRole::Value | FieldRole::Operand => {
            bits::check_field(field, v).map_err(code_error)?;
            Ok(FieldValue::Int(v))
        }
    }
}

/// An instruction of a stream that does not encode, with its position in the stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("instruction {index}: {error}")]
pub struct ModuleEncodeError {
    /// Index of the instruction in the stream.
    pub index: usize,
    /// Why it does not encode.
    pub error: EncodeError,
}

/// Encodes an instruction stream (instructions back to back).
pub fn encode_module(
    insts: &[Instruction],
    syms: &mut SymbolTable,
) -> Result<Vec<u8>, ModuleEncodeError> {
    let mut out = Vec::new();
    for (index, inst) in insts.iter().enumerate() {
        encode(inst, syms, &mut out).map_err(|error| ModuleEncodeError { index, error })?;
    }
    Ok(out)
}

/// Decodes an instruction stream: instructions back to back until the input ends. Error offsets
/// count from the start of `bytes`.
pub fn decode_module(bytes: &[u8], syms: &SymbolTable) -> Result<Vec<Instruction>, DecodeError> {
    let mut r = Reader::new(bytes);
    // Instructions take at least 8 bytes in practice (about 25 on average); a low estimate
    // avoids most regrowth without reserving much more than needed.
    let mut insts = Vec::with_capacity(bytes.len() / 32);
    while !r.is_empty() {
        insts.push(decode_from(&mut r, syms)?);
    }
    Ok(insts)
}

//! The messages pass: the compiler's limit on the registers one LSC message moves
//! (LSC_UNTYPED.md, "Verifier rules", counted by [`crate::send::Lsc::data_registers`] on the
//! message's descriptor), and the compiler's rule on the lengths of a `raw_sends` with an
//! immediate descriptor. Both read the instruction through its message descriptor
//! (`spec/messages/`, always generated) and its fields by their documents' names, so a
//! directory of documents without ours still builds.

use crate::ast::{FieldValue, Instruction, Operand, Span};
use crate::desc::InstrDesc;
use crate::send::{self, Message};
use crate::text::scope::{Diagnostic, Subject};

/// The most registers of data one LSC message may move.
pub const MAX_LSC_DATA_REGISTERS: u64 = 8;

/// Reports an untyped LSC message that moves more than [`MAX_LSC_DATA_REGISTERS`] registers, at
/// its data operand.
pub(crate) fn check_data_registers(
    table: &[InstrDesc],
    i: &Instruction,
    statement: Span,
    grf: u32,
    out: &mut Vec<Diagnostic>,
) {
    let Some(desc) = table.get(i.desc) else {
        return;
    };
    let Some(encoded) = send::encode(desc, i, grf) else {
        return;
    };
    let Message::Lsc(message) = send::decode(encoded.sfid, encoded.desc, encoded.ex_desc) else {
        return;
    };
    let Some(registers) = message.data_registers(encoded.exec, grf) else {
        return;
    };
    let grf = u64::from(grf.max(1));
    if registers <= MAX_LSC_DATA_REGISTERS {
        return;
    }
    // The data operand: the destination of a load, the source of a store.
    let Some((index, name)) = ["DstData", "Src1Data"]
        .into_iter()
        .find_map(|name| Some((desc.field_index(name)?, name)))
        .filter(|(index, _)| {
            i.fields
                .get(*index)
                .is_some_and(|v| *v != FieldValue::Absent)
        })
        .or_else(|| Some((desc.field_index("Src1Data")?, "Src1Data")))
    else {
        return;
    };
    let message = format!(
        "this message moves {registers} registers of data ({grf}-byte registers); an LSC message \
         moves at most {MAX_LSC_DATA_REGISTERS}"
    );
    out.push(at_field(i, statement, index, name, message));
}

/// An error about field `index` (called `name`) of `i`, at the field when its place is known.
fn at_field(
    i: &Instruction,
    statement: Span,
    index: usize,
    name: &'static str,
    message: String,
) -> Diagnostic {
    let at = i
        .field_spans
        .get(index)
        .copied()
        .filter(|s| *s != Span::default());
    Diagnostic::error(statement, message).about(
        Subject::Field {
            index,
            name,
            element: None,
        },
        at,
    )
}

/// Reports a `raw_sends` whose immediate descriptor contradicts its lengths (the compiler's rule,
/// [`crate::send::Message::raw_sends_length_problem`]), at the descriptor.
pub(crate) fn check_raw_sends_lengths(
    table: &[InstrDesc],
    i: &Instruction,
    statement: Span,
    out: &mut Vec<Diagnostic>,
) {
    let Some(desc) = table.get(i.desc) else {
        return;
    };
    let field = |name: &str| desc.field_index(name).and_then(|k| i.fields.get(k));
    let int = |name: &str| match field(name) {
        Some(FieldValue::Int(v)) => u32::try_from(*v).ok(),
        _ => None,
    };
    let immediate = |name: &str| match field(name) {
        Some(FieldValue::Operand(Operand::Immediate(imm))) => u32::try_from(imm.bits).ok(),
        _ => None,
    };
    // An instruction with a shared function, two lengths and an immediate descriptor (RAW_SENDS;
    // RAW_SEND has no NumSrc0).
    let (Some(ffid), Some(num_src0), Some(num_dst), Some(message_desc), Some(ex_desc)) = (
        int("FFID"),
        int("NumSrc0"),
        int("NumDst"),
        immediate("Desc"),
        immediate("ExDesc"),
    ) else {
        return;
    };
    let dst_null = matches!(
        field("Dst"),
        Some(FieldValue::Operand(Operand::Raw { var, .. } | Operand::Name(var))) if var == "%null"
    );
    let Ok(ffid) = u8::try_from(ffid) else {
        return;
    };
    let message = send::decode(ffid, message_desc, ex_desc);
    let Some(problem) = message.raw_sends_length_problem(num_src0, num_dst, dst_null) else {
        return;
    };
    let Some(index) = desc.field_index("Desc") else {
        return;
    };
    out.push(at_field(i, statement, index, "Desc", problem));
}

//! The messages pass: the compiler's limit on the registers one LSC message moves (LSC_UNTYPED.md, "Verifier
//! rules"): a message other than a 2D block load moves at most [`MAX_LSC_DATA_REGISTERS`] registers
//! of data. The count is the compiler's: per vector element, the lanes' data rounded down to
//! whole registers (at least one), times the vector size (the channel count of a quad form);
//! transposed, the vector's bytes over the register size (at least one). And the compiler's
//! rule on the lengths of a `raw_sends` with an immediate descriptor.

use crate::text::scope::{Diagnostic, Subject};
use crate::ast::{Instruction, Operand, Span};
use crate::desc::InstrDesc;
use crate::fields::{
    LscUntypedDataElemsPerAddr as Elems, LscUntypedDataOrder as Order, LscUntypedDataSize as Size,
    LscUntypedLscSubOp as SubOp,
};
use crate::instrs::{self, view};

/// The most registers of data one LSC message may move.
pub const MAX_LSC_DATA_REGISTERS: u64 = 8;

/// Bytes one element takes in the registers (the widening sizes take a dword).
fn register_bytes(size: Size) -> Option<u64> {
    match size {
        Size::D8 => Some(1),
        Size::D16 => Some(2),
        Size::D32 | Size::D8u32 | Size::D16u32 | Size::D16u32h => Some(4),
        Size::D64 => Some(8),
        _ => None,
    }
}

/// The vector size a `DataElemsPerAddr` code means.
fn vector(elems: Elems) -> Option<u64> {
    match elems {
        Elems::N1 => Some(1),
        Elems::N2 => Some(2),
        Elems::N3 => Some(3),
        Elems::N4 => Some(4),
        Elems::N8 => Some(8),
        Elems::N16 => Some(16),
        Elems::N32 => Some(32),
        Elems::N64 => Some(64),
        _ => None,
    }
}

/// Reports an untyped LSC message that moves more than [`MAX_LSC_DATA_REGISTERS`] registers, at
/// its data operand.
pub(crate) fn check_data_registers(
    table: &[InstrDesc],
    i: &Instruction,
    statement: Span,
    grf: u32,
    out: &mut Vec<Diagnostic>,
) {
    if table.get(i.desc).map(|d| d.opcode) != Some(instrs::LscUntyped::desc().opcode) {
        return;
    }
    let Ok(v) = view::LscUntyped::lift(i) else {
        return;
    };
    if matches!(v.lsc_sub_op, SubOp::LscLoadBlock2d | SubOp::LscStoreBlock2d) {
        return;
    }
    let Some(bytes) = register_bytes(v.data_size) else {
        return;
    };
    let count = match (v.ch_mask, v.data_elems_per_addr) {
        (Some(mask), _) if mask.encode() != 0 => u64::from((mask.encode() & 0xF).count_ones()),
        (_, Some(elems)) => match vector(elems) {
            Some(n) => n,
            None => return,
        },
        _ => 1,
    };
    let grf = u64::from(grf.max(1));
    let registers = if v.data_order == Order::T {
        (count * bytes / grf).max(1)
    } else {
        count * (bytes * u64::from(v.exec_size.size) / grf).max(1)
    };
    if registers <= MAX_LSC_DATA_REGISTERS {
        return;
    }
    let (index, name) = if v.dst_data.is_some() {
        (view::LscUntyped::DST_DATA, "DstData")
    } else {
        (view::LscUntyped::SRC1_DATA, "Src1Data")
    };
    let at = i
        .field_spans
        .get(index)
        .copied()
        .filter(|s| *s != Span::default());
    out.push(
        Diagnostic::error(
            statement,
            format!(
                "this message moves {registers} registers of data ({}-byte registers); an LSC \
                 message moves at most {MAX_LSC_DATA_REGISTERS}",
                grf
            ),
        )
        .about(
            Subject::Field {
                index,
                name,
                element: None,
            },
            at,
        ),
    );
}

/// Reports a `raw_sends` whose immediate descriptor contradicts its lengths (the compiler's rule,
/// [`crate::send::Message::raw_sends_length_problem`]), at the descriptor.
pub(crate) fn check_raw_sends_lengths(
    table: &[InstrDesc],
    i: &Instruction,
    statement: Span,
    out: &mut Vec<Diagnostic>,
) {
    if table.get(i.desc).map(|d| d.opcode) != Some(instrs::RawSends::desc().opcode) {
        return;
    }
    let Ok(v) = view::RawSends::lift(i) else {
        return;
    };
    let immediate = |op: &Operand| match op {
        Operand::Immediate(imm) => u32::try_from(imm.bits).ok(),
        _ => None,
    };
    let (Some(desc), Some(ex_desc)) = (immediate(v.desc), immediate(v.ex_desc)) else {
        return;
    };
    let dst_null = matches!(
        v.dst,
        Operand::Raw { var, .. } | Operand::Name(var) if var == "%null"
    );
    let message = crate::send::decode(v.ffid, desc, ex_desc);
    let Some(problem) =
        message.raw_sends_length_problem(u32::from(v.num_src0), u32::from(v.num_dst), dst_null)
    else {
        return;
    };
    let index = view::RawSends::DESC;
    let at = i
        .field_spans
        .get(index)
        .copied()
        .filter(|s| *s != Span::default());
    out.push(Diagnostic::error(statement, problem).about(
        Subject::Field {
            index,
            name: "Desc",
            element: None,
        },
        at,
    ));
}

//! `raw_send` and `raw_sends` (RAW_SEND.md, RAW_SENDS.md): the descriptors are decoded with the
//! message documents of `spec/messages/` (`visa_isa::send`, typed accessors) and the message runs
//! as the vISA instruction that sends it: an LSC load, store or atomic is decoded as its
//! `lsc_*` instruction with the send's registers as its operands (the hardware lays the payload
//! and response out as vISA does); a 2D block message reads its surface and block shape from
//! the address payload when it runs; a fence has no effect here; a gateway barrier message is
//! the named-barrier signal of its payload. What is not modelled is refused at load, naming the
//! decoded message.

use visa_isa::ast::{ExecSize, FieldValue, Operand, Predicate};
use visa_isa::instrs::{RawSend, RawSends};
use visa_isa::messages::{gateway, lsc};
use visa_isa::send::{self, Message};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::Op;
use crate::ops::block2d::{Block2dPayload, PAYLOAD_BYTES};

/// The placeholders the equivalent instruction is written with before the send's registers
/// replace them.
const PLACEHOLDERS: [&str; 3] = ["RAW_SEND_SRC0", "RAW_SEND_SRC1", "RAW_SEND_DST"];

/// What a raw send holds, whichever form it is written in.
struct Send<'a> {
    sfid: u8,
    desc: &'a Operand,
    ex_desc: Option<&'a Operand>,
    ex_desc_value: u32,
    lengths: [u32; 3],
    operands: [&'a Operand; 3],
    eot: bool,
}

/// The execution size and predicate of a raw send (from its typed view).
pub(super) struct SendControl<'a> {
    pub exec: ExecSize,
    pub pred: Option<&'a Predicate>,
}

fn immediate(op: &Operand) -> Option<u32> {
    match op {
        Operand::Immediate(imm) => u32::try_from(imm.bits).ok(),
        _ => None,
    }
}

impl Decoder<'_> {
    pub(super) fn decode_raw_send(
        &mut self,
        f: &Fields,
        split: bool,
        control: SendControl,
    ) -> Result<Op, LoadError> {
        let (sends, send);
        let s = if split {
            sends = RawSends::try_from(f.instr).map_err(|e| f.err(e.to_string()))?;
            Send {
                sfid: sends.ffid,
                desc: &sends.desc,
                ex_desc: Some(&sends.ex_desc),
                ex_desc_value: 0,
                lengths: [
                    u32::from(sends.num_src0),
                    u32::from(sends.num_src1),
                    u32::from(sends.num_dst),
                ],
                operands: [&sends.src0, &sends.src1, &sends.dst],
                eot: sends.modifiers.encode() & 2 != 0,
            }
        } else {
            send = RawSend::try_from(f.instr).map_err(|e| f.err(e.to_string()))?;
            Send {
                sfid: (send.ex_msg_desc & 0xF) as u8,
                desc: &send.desc,
                ex_desc: None,
                ex_desc_value: send.ex_msg_desc,
                lengths: [u32::from(send.num_src), 0, u32::from(send.num_dst)],
                operands: [&send.src, &Operand::Name("%null".into()), &send.dst],
                eot: false,
            }
        };
        let mnemonic = if split { "raw_sends" } else { "raw_send" };
        let Some(desc) = immediate(s.desc) else {
            return Err(f.not_executed_about(
                s.desc,
                format!("{mnemonic} with a descriptor held in a register: the message is not known at load"),
            ));
        };
        let ex_desc = match s.ex_desc {
            Some(op) => immediate(op).ok_or_else(|| {
                f.not_executed_about(
                    op,
                    format!("{mnemonic} with an extended descriptor held in a register"),
                )
            })?,
            None => s.ex_desc_value,
        };
        let message = send::decode(s.sfid, desc, ex_desc);
        let name = describe(&message, s.sfid, desc);
        let refuse = |why: &str| f.not_executed(format!("{mnemonic} of {name}: {why}"));
        if s.eot {
            return Err(refuse(
                "ending the thread with a message is not modelled (write ret)",
            ));
        }
        let dst_null = matches!(
            s.operands[2],
            Operand::Raw { var, .. } | Operand::Name(var) if var == "%null"
        );
        // The compiler rejects a raw_sends whose lengths contradict its descriptor.
        if split
            && let Some(problem) =
                message.raw_sends_length_problem(s.lengths[0], s.lengths[2], dst_null)
        {
            return Err(f.err(format!("{mnemonic} of {name}: {problem}")));
        }
        match message {
            Message::Lsc(m) => {
                let (mlen, rlen) = (m.desc.mlen(), m.desc.rlen());
                if u64::from(s.lengths[0]) != mlen || (!dst_null && u64::from(s.lengths[2]) != rlen)
                {
                    return Err(refuse(&format!(
                        "the descriptor gives {mlen} payload and {rlen} response registers, the \
                         instruction {} and {}; this runtime runs a message whose registers are \
                         the descriptor's",
                        s.lengths[0], s.lengths[2]
                    )));
                }
                match m.desc.opcode() {
                    // Accesses are already ordered here (as `lsc_fence`).
                    lsc::Opcode::Fence => return Ok(Op::Nop),
                    lsc::Opcode::LoadBlock2d | lsc::Opcode::StoreBlock2d => {
                        return self.raw_block2d(f, &control, &s, &m, name);
                    }
                    _ => {}
                }
                let Some(text) = m.equivalent(
                    f.exec(control.exec)?.size,
                    PLACEHOLDERS[0],
                    PLACEHOLDERS[1],
                    PLACEHOLDERS[2],
                ) else {
                    return Err(refuse("no lsc_* instruction of ours sends this message"));
                };
                let mut instr = visa_isa::text::parse_instruction(&text)
                    .map_err(|e| refuse(&format!("its equivalent `{text}` does not read: {e}")))?;
                instr.span = f.instr.span;
                for value in &mut instr.fields {
                    match value {
                        FieldValue::Operand(op) => substitute(op, &s.operands),
                        FieldValue::Pred(p) => p.clone_from(&control.pred.cloned()),
                        _ => {}
                    }
                }
                let table = visa_isa::INSTRUCTIONS
                    .get(instr.desc)
                    .ok_or_else(|| refuse("its equivalent is not in the table"))?;
                self.decode(table, &instr).map_err(|e| LoadError {
                    message: format!("{mnemonic} of {name} (as `{text}`): {}", e.message),
                    ..e
                })
            }
            Message::Gateway(g) => match g.desc.opcode() {
                gateway::Opcode::Barrier => {
                    let payload = self.raw(f, s.operands[0], 32)?;
                    Ok(Op::GatewayBarrier(Box::new(payload)))
                }
                _ => Err(refuse(
                    "of the gateway messages this runtime runs the barrier signal only",
                )),
            },
            Message::Other { .. } => Err(refuse(
                "no document of spec/messages/ describes this shared function",
            )),
        }
    }

    fn raw_block2d(
        &mut self,
        f: &Fields,
        control: &SendControl,
        s: &Send,
        m: &send::Lsc,
        name: String,
    ) -> Result<Op, LoadError> {
        let store = m.desc.opcode() == lsc::Opcode::StoreBlock2d;
        // 2D blocks move plain elements: the widening sizes have no 2D block form.
        let elem_bytes = match m.desc.data_size() {
            lsc::DataSize::D8 => 1,
            lsc::DataSize::D16 => 2,
            lsc::DataSize::D32 => 4,
            lsc::DataSize::D64 => 8,
            other => {
                let size = other
                    .token()
                    .map_or_else(|| format!("{other:?}"), str::to_string);
                return Err(f.not_executed(format!("{name}: 2D blocks of {size} elements")));
            }
        };
        let grf = self.layout.grf_bytes;
        let payload = self.raw(f, s.operands[0], PAYLOAD_BYTES)?;
        let (operand, regs) = if store {
            (s.operands[1], s.lengths[1])
        } else {
            (s.operands[2], s.lengths[2])
        };
        let data = self.raw(f, operand, regs * grf)?;
        Ok(Op::Block2dPayload(Box::new(Block2dPayload {
            store,
            exec: f.exec(control.exec)?,
            pred: self.pred(f, control.pred)?,
            elem_bytes,
            transpose: m.transposed(),
            vnni: m.desc.vnni() == visa_isa::messages::lsc::Vnni::T,
            grf_bytes: grf,
            payload,
            offset: [0, 0],
            data,
            data_bytes: regs * grf,
            message: name,
        })))
    }
}

/// The equivalent instruction's placeholder operands become the send's registers.
fn substitute(op: &mut Operand, operands: &[&Operand; 3]) {
    let var = match op {
        Operand::Raw { var, .. } | Operand::General { var, .. } | Operand::Name(var) => var.clone(),
        _ => return,
    };
    if let Some(k) = PLACEHOLDERS.iter().position(|p| *p == var) {
        *op = operands[k].clone();
    }
}

/// `load_block2d.ugm.d16 (desc 0x2420203)`: the decoded message, for messages.
fn describe(message: &Message, sfid: u8, desc: u32) -> String {
    let name = visa_isa::messages::find(sfid)
        .map_or_else(|| format!("sfid 0x{sfid:X}"), |(n, _)| n.to_string());
    let op = message.operation().unwrap_or("an undocumented operation");
    let size = match message {
        Message::Lsc(m) if m.desc.opcode() != lsc::Opcode::Fence => {
            m.desc.data_size().token().map(|t| format!(".{t}"))
        }
        _ => None,
    };
    format!("{op}.{name}{} (desc 0x{desc:X})", size.unwrap_or_default())
}

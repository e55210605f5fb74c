//! What a raw send's descriptors mean (spec/messages/): [`decode`] reads the message of a shared
//! function through the generated typed accessors of [`crate::messages`], and [`Message`] says it
//! as fields and as the vISA instruction that sends the same message. `visa desc` prints this;
//! the runtime runs raw sends through it.

use std::fmt::Write as _;

use crate::messages::{self, FieldInfo, Word, gateway, lsc};

/// A decoded message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    /// An untyped load/store-cache message (`ugm`, `ugml`, `slm`).
    Lsc(Lsc),
    /// A gateway message.
    Gateway(Gateway),
    /// A shared function no document describes.
    Other {
        /// Its SFID.
        sfid: u8,
    },
}

/// An LSC message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lsc {
    /// The shared function's name (`ugm`).
    pub sfid: &'static str,
    /// Its descriptors.
    pub desc: lsc::Descriptor,
}

/// A gateway message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gateway {
    /// Its descriptors.
    pub desc: gateway::Descriptor,
}

/// The message `desc` and `ex_desc` describe for shared function `sfid`.
pub fn decode(sfid: u8, desc: u32, ex_desc: u32) -> Message {
    if let Some((name, _)) = lsc::SHARED_FUNCTIONS.iter().find(|(_, c)| *c == sfid) {
        return Message::Lsc(Lsc {
            sfid: name,
            desc: lsc::Descriptor { desc, ex_desc },
        });
    }
    if gateway::SHARED_FUNCTIONS.iter().any(|(_, c)| *c == sfid) {
        return Message::Gateway(Gateway {
            desc: gateway::Descriptor { desc, ex_desc },
        });
    }
    Message::Other { sfid }
}

/// One field as a message uses it: its description, value and the label of its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldValue {
    /// The field.
    pub field: &'static FieldInfo,
    /// Its value.
    pub value: u64,
    /// The label of its code (`None` for a number or a value without a code).
    pub meaning: Option<&'static str>,
}

impl Message {
    /// The descriptor's message and response lengths in registers (`Mlen`, `Rlen` of the
    /// message documents), `None` when no document describes the message.
    pub fn lengths(&self) -> Option<(u64, u64)> {
        match self {
            Message::Lsc(m) => Some((m.desc.mlen(), m.desc.rlen())),
            Message::Gateway(g) => Some((g.desc.mlen(), g.desc.rlen())),
            Message::Other { .. } => None,
        }
    }

    /// The compiler's rule on `raw_sends` with an immediate descriptor (RAW_SENDS.md, from
    /// visa/VisaToG4/TranslateSendRaw.cpp): the payload is the descriptor's message length
    /// (`NumSrc0`), and a response that is not `%null` holds at least its response length
    /// (`NumDst`). A description of the problem, or `None`.
    pub fn raw_sends_length_problem(
        &self,
        num_src0: u32,
        num_dst: u32,
        dst_null: bool,
    ) -> Option<String> {
        let (mlen, rlen) = self.lengths()?;
        if u64::from(num_src0) != mlen {
            return Some(format!(
                "the descriptor's message length is {mlen} registers, the instruction's payload \
                 {num_src0}"
            ));
        }
        if !dst_null && u64::from(num_dst) < rlen {
            return Some(format!(
                "the descriptor's response length is {rlen} registers, more than the \
                 instruction's {num_dst}"
            ));
        }
        None
    }

    /// The operation's token (`load_block2d`, `barrier`), `None` when it has no code.
    pub fn operation(&self) -> Option<&'static str> {
        match self {
            Message::Lsc(m) => m.desc.opcode().token(),
            Message::Gateway(g) => g.desc.opcode().token(),
            Message::Other { .. } => None,
        }
    }

    /// The fields the operation reads, with their values; payload fields only when `payload`
    /// (the first payload register's bytes) is given.
    pub fn fields(&self, payload: Option<&[u8]>) -> Vec<FieldValue> {
        let (fields, desc, ex_desc, sfid): (&'static [FieldInfo], u32, u32, &str) = match self {
            Message::Lsc(m) => (lsc::FIELDS, m.desc.desc, m.desc.ex_desc, m.sfid),
            Message::Gateway(g) => (gateway::FIELDS, g.desc.desc, g.desc.ex_desc, ""),
            Message::Other { .. } => return Vec::new(),
        };
        let op = self.operation().unwrap_or("");
        fields
            .iter()
            .filter(|f| f.used_by(op) && f.on(sfid))
            .filter_map(|field| {
                let value = match field.word {
                    Word::Desc => field.read(u64::from(desc)),
                    Word::ExDesc => field.read(u64::from(ex_desc)),
                    Word::Payload => messages::payload_bits(payload?, field.hi, field.lo)?,
                };
                Some(FieldValue {
                    field,
                    value,
                    meaning: field.code(value).map(|c| c.label),
                })
            })
            .filter(|v| applies(fields, v.field, desc, ex_desc))
            .collect()
    }
}

/// Whether `field`'s `When:` condition holds (a descriptor field's code token).
fn applies(fields: &[FieldInfo], field: &FieldInfo, desc: u32, ex_desc: u32) -> bool {
    let Some((other, tokens)) = field.when else {
        return true;
    };
    let Some(other) = fields.iter().find(|f| f.name == other) else {
        return false;
    };
    let value = match other.word {
        Word::Desc => other.read(u64::from(desc)),
        Word::ExDesc => other.read(u64::from(ex_desc)),
        Word::Payload => return false,
    };
    other.code(value).is_some_and(|c| tokens.contains(&c.token))
}

/// `uc.ca|uc.wb`: the spelling for loads, or for stores and atomics.
fn spelling(token: &'static str, store: bool) -> &'static str {
    match token.split_once('|') {
        Some((load, other)) => {
            if store {
                other
            } else {
                load
            }
        }
        None => token,
    }
}

impl Lsc {
    /// Whether the operation writes memory (stores and atomics), which spells caching
    /// differently.
    pub fn writes_memory(&self) -> bool {
        self.desc
            .opcode()
            .token()
            .is_some_and(|t| t.starts_with("store") || t.starts_with("atomic"))
    }

    /// The first- and last-level cache controls (`("uc", "ca")`).
    pub fn caching(&self) -> Option<(&'static str, &'static str)> {
        if !lsc::CACHING.on(self.sfid) {
            return None;
        }
        let token = spelling(self.desc.caching().token()?, self.writes_memory());
        token.split_once('.')
    }

    /// The registers of data the message moves as the compiler's verifier counts them for its
    /// limit (LSC_UNTYPED.md, "Verifier rules"), with `exec` lanes and `grf`-byte registers:
    /// per vector element the lanes' data rounded down to whole registers (at least one), times
    /// the vector size (the channel count of a quad form); transposed, the vector's bytes over
    /// the register size (at least one). `None` for messages the limit leaves out (2D blocks,
    /// fences) or whose sizes have no code.
    pub fn data_registers(&self, exec: u32, grf: u32) -> Option<u64> {
        let op = self.desc.opcode();
        if matches!(
            op,
            lsc::Opcode::LoadBlock2d | lsc::Opcode::StoreBlock2d | lsc::Opcode::Fence
        ) {
            return None;
        }
        let bytes: u64 = match self.desc.data_size() {
            lsc::DataSize::D8 => 1,
            lsc::DataSize::D16 => 2,
            lsc::DataSize::D32 | lsc::DataSize::D8u32 | lsc::DataSize::D16u32 => 4,
            lsc::DataSize::D16u32h => 4,
            lsc::DataSize::D64 => 8,
            lsc::DataSize::Other(_) => return None,
        };
        let count = if matches!(op, lsc::Opcode::LoadQuad | lsc::Opcode::StoreQuad) {
            u64::from((self.desc.ch_mask() & 0xF).count_ones())
        } else {
            u64::from(self.vector()?)
        };
        let grf = u64::from(grf.max(1));
        Some(if self.transposed() {
            (count * bytes / grf).max(1)
        } else {
            count * (bytes * u64::from(exec) / grf).max(1)
        })
    }

    /// Elements per address.
    pub fn vector(&self) -> Option<u32> {
        self.desc.vec_size().token()?.parse().ok()
    }

    /// Whether the vector of the single address fills the registers one after another.
    pub fn transposed(&self) -> bool {
        self.desc.transpose() == lsc::Transpose::T
    }

    /// `V:d32x4t`: the data operand's shape after `:`.
    fn data_shape(&self) -> Option<String> {
        let mut s = self.desc.data_size().token()?.to_string();
        let v = self.vector()?;
        if v > 1 || self.transposed() {
            let _ = write!(s, "x{v}");
        }
        if self.transposed() {
            s.push('t');
        }
        Some(s)
    }

    /// `flat[A]:a64`, `bti(0x8)[A]:a32`: the address operand.
    fn address(&self, addr: &str) -> Option<String> {
        let size = self.desc.addr_size().token()?;
        let model = match self.desc.addr_type() {
            lsc::AddrType::Flat => "flat".to_string(),
            lsc::AddrType::Bti => format!("bti(0x{:X})", self.desc.bti()),
            lsc::AddrType::Bss => format!("bss(0x{:X})", self.desc.surface_offset() << 11),
            lsc::AddrType::Ss => format!("ss(0x{:X})", self.desc.surface_offset() << 11),
            lsc::AddrType::Other(_) => return None,
        };
        Some(format!("{model}[{addr}]:{size}"))
    }

    /// The vISA instruction that sends this message with execution size `exec`, its address
    /// payload in `src0`, its data in `src1` and its response in `dst` (variable names), or
    /// `None` when no `lsc_*` instruction of LSC_UNTYPED.md writes it (2D blocks take their
    /// shape from the payload: see [`Lsc::block2d_text`]).
    pub fn equivalent(&self, exec: u32, src0: &str, src1: &str, dst: &str) -> Option<String> {
        let op = self.desc.opcode().token()?;
        let mut head = format!("lsc_{op}.{}", self.sfid);
        if op == "fence" {
            let fence_op = self.desc.fence_op().token()?;
            let scope = self.desc.fence_scope().token()?;
            return Some(format!("lsc_fence.{}.{fence_op}.{scope}", self.sfid));
        }
        if let Some((l1, l3)) = self.caching().filter(|c| *c != ("df", "df")) {
            let _ = write!(head, ".{l1}.{l3}");
        }
        let exec = format!("(M1, {exec})");
        if op.ends_with("block2d") || op.contains("quad") || op.ends_with("strided") {
            return None;
        }
        let shape = self.data_shape()?;
        let address = self.address(src0)?;
        if op.starts_with("atomic") {
            let extra = match op {
                "atomic_iinc" | "atomic_idec" | "atomic_load" => "%null %null".to_string(),
                "atomic_icas" | "atomic_fcas" => return None,
                _ => format!("{src1} %null"),
            };
            return Some(format!("{head} {exec} {dst}:{shape} {address} {extra}"));
        }
        if op.starts_with("store") {
            return Some(format!("{head} {exec} {address} {src1}:{shape}"));
        }
        Some(format!("{head} {exec} {dst}:{shape} {address}"))
    }

    /// A 2D block message as the payload-addressed vISA form writes it
    /// (`lsc_load_block2d.ugm.uc.uc (M1, 1) D:d16.2x16x32nn flat[A + (0,0)]`, LSC_UNTYPED.md), with
    /// the block shape of `payload` when given (a block count of 1 left out, as printed).
    pub fn block2d_text(&self, payload: Option<&[u8]>, src0: &str, data: &str) -> Option<String> {
        let op = self.desc.opcode().token()?;
        if !op.ends_with("block2d") {
            return None;
        }
        let mut head = format!("lsc_{op}.{}", self.sfid);
        if let Some((l1, l3)) = self.caching().filter(|c| *c != ("df", "df")) {
            let _ = write!(head, ".{l1}.{l3}");
        }
        let view = payload.map(lsc::Payload);
        let shape = match view
            .and_then(|p| Some((p.array_length()?, p.block_width()?, p.block_height()?)))
        {
            Some((0, w, h)) => format!("{}x{}", w + 1, h + 1),
            Some((a, w, h)) => format!("{}x{}x{}", a + 1, w + 1, h + 1),
            None => "BxWxH".to_string(),
        };
        let order = if self.transposed() { 't' } else { 'n' };
        let vnni = if self.desc.vnni() == lsc::Vnni::T {
            't'
        } else {
            'n'
        };
        let size = self.desc.data_size().token()?;
        let data = format!("{data}:{size}.{shape}{order}{vnni}");
        let address = format!("flat[{src0} + (0,0)]");
        Some(if op.starts_with("store") {
            format!("{head} (M1, 1) {address} {data}")
        } else {
            format!("{head} (M1, 1) {data} {address}")
        })
    }
}

impl Gateway {
    /// The vISA instruction with the same effect, with the payload's values when given.
    pub fn equivalent(&self, payload: Option<&[u8]>) -> Option<String> {
        match self.desc.opcode() {
            gateway::Opcode::Barrier => {
                let p = payload.map(gateway::Payload);
                Some(
                    match p.and_then(|p| {
                        Some((
                            p.barrier_id()?,
                            p.barrier_type()?,
                            p.producers()?,
                            p.consumers()?,
                        ))
                    }) {
                        Some((id, ty, prod, cons)) => format!(
                            "nbarrier.signal 0x{id:X}:ub 0x{:X}:uw 0x{prod:X}:ub 0x{cons:X}:ub",
                            ty.code()
                        ),
                        None => {
                            "nbarrier.signal (id, type and counts from payload dword 2)".to_string()
                        }
                    },
                )
            }
            gateway::Opcode::Eot => Some("ret (M1, 1) (end of thread)".to_string()),
            _ => None,
        }
    }
}

mod encode;
pub use encode::{
    CORPUS_DECLS, EncodedMessage, encode, lsc_corpus_messages, lsc_instruction_corpus,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_s_descriptors_read_as_iga_reads_them() {
        let Message::Lsc(m) = decode(0xF, 0x0242_0203, 0) else {
            panic!("ugm is LSC")
        };
        let mut payload = [0u8; 32];
        payload[28] = 15; // width 16
        payload[29] = 7; // height 8
        assert_eq!(
            m.block2d_text(Some(&payload), "A", "D").as_deref(),
            Some("lsc_load_block2d.ugm.uc.uc (M1, 1) D:d16.16x8nn flat[A + (0,0)]")
        );
        // The equivalent is an instruction of LSC_UNTYPED.md, as the parser prints it.
        let text = m.block2d_text(Some(&payload), "A", "D").unwrap_or_default();
        let i = crate::text::parse_instruction(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(crate::text::format_instruction(&i), text);
        let Message::Gateway(g) = decode(3, 0x0200_0004, 0) else {
            panic!("gateway")
        };
        let mut payload = [0u8; 32];
        payload[8] = 1; // id
        payload[10] = 2; // producers
        payload[11] = 2; // consumers
        assert_eq!(
            g.equivalent(Some(&payload)).as_deref(),
            Some("nbarrier.signal 0x1:ub 0x0:uw 0x2:ub 0x2:ub")
        );
        // iga64 -Xdsd ugm "(16)" 0x0 0x8200580: load.ugm.d32.a64, four address registers.
        let m = decode(0xF, 0x0820_0580, 0);
        assert_eq!(m.operation(), Some("load"));
        let Message::Lsc(m) = m else { panic!() };
        assert_eq!(
            m.equivalent(16, "A", "%null", "D").as_deref(),
            Some("lsc_load.ugm (M1, 16) D:d32 flat[A]:a64")
        );
        // A store with write-back caching: code 2 spells uc.wb for stores.
        let Message::Lsc(s) = decode(0xF, 0x0204_0584, 0) else {
            panic!()
        };
        assert_eq!(s.caching(), Some(("uc", "wb")));
    }
}

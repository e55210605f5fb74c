//! Our LSC instructions as hardware descriptors: [`encode`] maps an `lsc_*` instruction to the
//! message it sends, through the `vISA:` correspondences of the message documents (a message
//! field takes the code whose token is the instruction's tokens put in its template); the
//! message and response lengths follow from the execution size and the data shape.
//! [`lsc_instruction_corpus`] writes the instructions whose descriptors the differential test
//! against `iga64 -Xdsd` covers.

use crate::ast::{FieldValue, Instruction, Operand};
use crate::desc::InstrDesc;
use crate::messages::{FieldInfo, Word, bits, lsc, with_bits};
use crate::text;

/// The descriptors of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodedMessage {
    /// The shared function.
    pub sfid: u8,
    /// The execution size of the send.
    pub exec: u32,
    /// The message descriptor.
    pub desc: u32,
    /// The extended descriptor.
    pub ex_desc: u32,
}

/// The token (or, for a field without codes, the decimal value) an instruction field holds.
fn token_of(desc: &InstrDesc, instr: &Instruction, name: &str) -> Option<String> {
    let index = desc.field_index(name)?;
    let field = desc.fields.get(index)?;
    let value = match instr.fields.get(index)? {
        FieldValue::Int(v) => *v,
        FieldValue::Operand(Operand::Immediate(imm)) => imm.bits,
        _ => return None,
    };
    if let Some(c) = field.values.iter().find(|c| c.code == value) {
        return Some(c.text.to_string());
    }
    for b in field.bitfields {
        let sub = (value & b.mask()) >> b.lo;
        if let Some(c) = b.codes.iter().find(|c| c.code == sub) {
            return Some(c.text.to_string());
        }
    }
    (field.values.is_empty() && field.bitfields.is_empty()).then(|| value.to_string())
}

/// `lsc_<LscSubOp>` with the instruction's tokens put in.
fn fill(template: &str, desc: &InstrDesc, instr: &Instruction) -> Option<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('>')? + open;
        out.push_str(&token_of(desc, instr, &rest[open + 1..close])?);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The value of a message field whose code token (either spelling of `a|b`) is `token`, or
/// `token` without the family prefix of a mnemonic (`lsc_load` stands for `load`).
fn code_for(field: &FieldInfo, token: &str) -> Option<u64> {
    if field.codes.is_empty() {
        return token.parse().ok();
    }
    let unprefixed = token.split_once('_').map(|(_, rest)| rest);
    let find = |wanted: &str| {
        field
            .codes
            .iter()
            .find(|c| c.token.split('|').any(|t| t == wanted))
            .map(|c| c.value)
    };
    find(token).or_else(|| unprefixed.and_then(find))
}

/// The message an `lsc_*` instruction (LSC_UNTYPED, LSC_FENCE) sends with GRFs of `grf_bytes`,
/// or `None` for an instruction that is not one of a message document.
pub fn encode(desc: &InstrDesc, instr: &Instruction, grf_bytes: u32) -> Option<EncodedMessage> {
    // The shared function: the field whose token names one of the document's.
    let sfid = desc.fields.iter().find_map(|f| {
        let token = token_of(desc, instr, f.name)?;
        lsc::SHARED_FUNCTIONS
            .iter()
            .find(|(n, _)| *n == token)
            .map(|(_, c)| *c)
    })?;
    let mut words = [0u64; 2];
    // The first field of the document is the operation; the others apply as it uses them.
    let mut op = None;
    for field in lsc::FIELDS {
        let (Some(template), word) = (field.visa, field.word) else {
            continue;
        };
        let slot = match word {
            Word::Desc => 0,
            Word::ExDesc => 1,
            Word::Payload => continue,
        };
        // An instruction without the operation's field (`lsc_fence`) names it by its mnemonic.
        let filled = fill(template, desc, instr)
            .or_else(|| op.is_none().then(|| desc.name.to_ascii_lowercase()));
        let Some(token) = filled else {
            continue;
        };
        if op.is_none() {
            op = lsc::Opcode::from_code(code_for(field, &token)?).token();
        }
        let op = op?;
        let sfid_name = lsc::SHARED_FUNCTIONS
            .iter()
            .find(|(_, c)| *c == sfid)
            .map_or("", |(n, _)| *n);
        if !field.used_by(op) || !field.on(sfid_name) {
            continue;
        }
        if let Some(value) = code_for(field, &token) {
            words[slot] = with_bits(words[slot], field.hi, field.lo, value);
        }
    }
    let mut message = lsc::Descriptor {
        desc: words[0] as u32,
        ex_desc: words[1] as u32,
    };
    let exec = instr
        .fields
        .iter()
        .find_map(|v| match v {
            FieldValue::Exec(e) => Some(e.size),
            _ => None,
        })
        .unwrap_or(1);
    let (mlen, rlen) = lengths(&message, desc, instr, exec, grf_bytes)?;
    message.set_mlen(mlen);
    message.set_rlen(rlen);
    Some(EncodedMessage {
        sfid,
        exec,
        desc: message.desc,
        ex_desc: message.ex_desc,
    })
}

fn registers(bytes: u64, grf_bytes: u32) -> u64 {
    bytes.div_ceil(u64::from(grf_bytes.max(1)))
}

/// The message's payload (first part) and response lengths in registers.
fn lengths(
    m: &lsc::Descriptor,
    desc: &InstrDesc,
    instr: &Instruction,
    exec: u32,
    grf_bytes: u32,
) -> Option<(u64, u64)> {
    let op = m.opcode().token()?;
    if op == "fence" {
        return Some((1, 0));
    }
    let (mem_bits, reg_bits) = match m.data_size().token()? {
        "d8" => (8, 8),
        "d16" => (16, 16),
        "d32" => (32, 32),
        "d64" => (64, 64),
        _ => (0, 32),
    };
    let _ = mem_bits;
    let reg_bytes = reg_bits / 8;
    if op.ends_with("block2d") {
        let int = |name: &str| token_of(desc, instr, name).and_then(|t| t.parse::<u64>().ok());
        let blocks = int("Blocks").unwrap_or(1).max(1);
        let (w, h) = (int("BlockWidth")?, int("BlockHeight")?);
        // Each row of a block is padded to a power of two elements; each block to whole GRFs.
        let row = (w * reg_bytes).next_power_of_two();
        let per_block = registers(row * h, grf_bytes);
        let response = if op.starts_with("load") {
            blocks * per_block
        } else {
            0
        };
        return Some((1, response.min(31)));
    }
    let addr_bytes = match m.addr_size().token() {
        Some("a16") => 2,
        Some("a32") => 4,
        _ => 8,
    };
    let transposed = m.transpose() == lsc::Transpose::T && op != "load_quad" && op != "store_quad";
    let vector = if op.contains("quad") {
        u64::from(bits(u64::from(m.desc), 15, 12).count_ones())
    } else {
        m.vec_size().token()?.parse().ok()?
    };
    let lanes = if transposed { 1 } else { u64::from(exec) };
    let mlen = registers(lanes * addr_bytes, grf_bytes);
    let data = if transposed {
        registers(vector * reg_bytes, grf_bytes)
    } else {
        vector * registers(u64::from(exec) * reg_bytes, grf_bytes)
    };
    let writes_back = op.starts_with("load") || op.starts_with("atomic");
    Some((mlen, if writes_back { data } else { 0 }))
}

/// The declarations the corpus' instructions use.
pub const CORPUS_DECLS: &str = "\
.decl D v_type=G type=ud num_elts=2048 align=GRF
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl A32 v_type=G type=ud num_elts=16 align=GRF
.decl S v_type=G type=ud num_elts=32 align=GRF
.decl Q v_type=G type=uq num_elts=1
.decl X v_type=G type=d num_elts=1
.decl Y v_type=G type=d num_elts=1
";

/// The corpus' instructions our checker accepts for `platform`, each with the message it sends
/// (GRFs of `grf_bytes`); duplicates of a message are kept once.
pub fn lsc_corpus_messages(
    platform: crate::rules::Platform,
    grf_bytes: u32,
) -> Vec<(String, EncodedMessage)> {
    let mut out: Vec<(String, EncodedMessage)> = Vec::new();
    for line in lsc_instruction_corpus() {
        let source = format!(".kernel \"k\"\n{CORPUS_DECLS}{line}\nret (M1, 1)\n");
        let Ok(module) = text::parse(&source) else {
            continue;
        };
        let options = text::CheckOptions {
            platform: Some(platform),
            ..Default::default()
        };
        let errors = text::check_with_options(crate::INSTRUCTIONS, &module, &options)
            .iter()
            .any(|d| d.severity == text::Severity::Error);
        if errors {
            continue;
        }
        let Ok(instr) = text::parse_instruction(&line) else {
            continue;
        };
        let Some(desc) = crate::INSTRUCTIONS.get(instr.desc) else {
            continue;
        };
        let Some(message) = encode(desc, &instr, grf_bytes) else {
            continue;
        };
        if !out.iter().any(|(_, m)| *m == message) {
            out.push((line, message));
        }
    }
    out
}

/// Every instruction our LSC document writes for the differential test: each operation on each
/// shared function with each data shape, cache pair and address model, with execution sizes 16
/// (1 when transposed), as text; those our checker rejects for platform `pvc` are left out by
/// the caller.
pub fn lsc_instruction_corpus() -> Vec<String> {
    let mut out = Vec::new();
    let sfids = ["ugm", "ugml", "slm"];
    let sizes = ["d8", "d16", "d32", "d64", "d8u32", "d16u32", "d16u32h"];
    let vectors = ["", "x2", "x3", "x4", "x8", "x16", "x32", "x64"];
    let cachings = [
        "", ".uc.uc", ".uc.ca", ".ca.uc", ".ca.ca", ".st.uc", ".st.ca", ".ri.ca", ".uc.wb",
        ".wt.uc", ".wt.wb", ".st.wb", ".wb.wb",
    ];
    let atomics = [
        "iinc", "idec", "load", "store", "iadd", "isub", "smin", "smax", "umin", "umax", "icas",
        "fadd", "fsub", "fmin", "fmax", "fcas", "and", "or", "xor",
    ];
    for sfid in sfids {
        let addr = if sfid == "slm" {
            "flat[A32]:a32"
        } else {
            "flat[A]:a64"
        };
        for size in sizes {
            for vector in vectors {
                for order in ["", "t"] {
                    let exec = if order == "t" { 1 } else { 16 };
                    let shape = format!("{size}{vector}{order}");
                    out.push(format!("lsc_load.{sfid} (M1, {exec}) D:{shape} {addr}"));
                    out.push(format!("lsc_store.{sfid} (M1, {exec}) {addr} D:{shape}"));
                }
            }
        }
        for caching in cachings {
            out.push(format!("lsc_load.{sfid}{caching} (M1, 16) D:d32 {addr}"));
            out.push(format!("lsc_store.{sfid}{caching} (M1, 16) {addr} D:d32"));
            out.push(format!(
                "lsc_atomic_iadd.{sfid}{caching} (M1, 16) D:d32 {addr} S %null"
            ));
            out.push(format!(
                "lsc_load_block2d.{sfid}{caching} (M1, 1) D:d16.16x8nn flat[Q,0x7F,0x3F,0x7F,X,Y]"
            ));
        }
        for op in atomics {
            for size in ["d16u32", "d32", "d64"] {
                let extra = match op {
                    "iinc" | "idec" | "load" => "%null %null",
                    "icas" | "fcas" => "S S",
                    _ => "S %null",
                };
                out.push(format!(
                    "lsc_atomic_{op}.{sfid} (M1, 16) D:{size} {addr} {extra}"
                ));
            }
        }
        for (model, size) in [("bti(0x8)", "a32"), ("flat", "a32"), ("flat", "a64")] {
            let var = if size == "a32" { "A32" } else { "A" };
            out.push(format!(
                "lsc_load.{sfid} (M1, 16) D:d32x4 {model}[{var}]:{size}"
            ));
        }
    }
    for (size, shapes) in [
        ("d8", &["64x32nn", "2x32x32nn", "4x16x32nt", "32x32nt"][..]),
        (
            "d16",
            &[
                "16x8nn",
                "2x16x32nn",
                "16x16nt",
                "4x8x16nn",
                "16x32nn",
                "8x16tn",
            ][..],
        ),
        ("d32", &["16x8nn", "2x8x8nn", "8x16tn", "16x16nn"][..]),
        ("d64", &["8x8nn", "4x8tn"][..]),
    ] {
        for shape in shapes {
            out.push(format!(
                "lsc_load_block2d.ugm (M1, 1) D:{size}.{shape} flat[Q,0x7F,0x3F,0x7F,X,Y]"
            ));
        }
        out.push(format!(
            "lsc_store_block2d.ugm (M1, 1) flat[Q,0x7F,0x3F,0x7F,X,Y] D:{size}.8x8nn"
        ));
    }
    for sfid in ["ugm", "slm"] {
        for op in ["none", "evict", "invalidate", "discard", "clean", "flushl3"] {
            for scope in ["group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq"] {
                out.push(format!("lsc_fence.{sfid}.{op}.{scope}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gather_encodes_as_iga_decodes_it() {
        // iga64 -Xdsd ugm "(16)" 0x0 0x8200580: load.ugm.d32.a64, Mlen 4, Rlen 2 (32-byte
        // GRFs: 16 addresses of 8 bytes, 16 dwords); with 64-byte GRFs, 2 and 1.
        let line = "lsc_load.ugm (M1, 16) D:d32 flat[A]:a64";
        let instr = text::parse_instruction(line).expect("parses");
        let desc = &crate::INSTRUCTIONS[instr.desc];
        let m = encode(desc, &instr, 32).expect("an LSC message");
        assert_eq!(
            (m.sfid, m.exec, m.desc, m.ex_desc),
            (0xF, 16, 0x0820_0580, 0)
        );
        let m = encode(desc, &instr, 64).expect("an LSC message");
        assert_eq!(m.desc, 0x0410_0580);
        let corpus = lsc_corpus_messages(crate::rules::Platform::Pvc, 64);
        assert!(corpus.len() > 500, "{}", corpus.len());
    }
}

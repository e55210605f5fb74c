//! `visa desc SFID DESC [EXDESC] [--platform P] [--exec-size N] [--payload DWORDS]`: prints a raw
//! send's message as its fields and as the vISA instruction that sends the same message
//! (`visa_isa::send`, from the documents of `spec/messages/`).

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use visa_isa::messages;
use visa_isa::rules::Platform;
use visa_isa::send::{self, Message};

#[derive(Debug, Args)]
pub struct DescArgs {
    /// The shared function: its number (`15`, `0xF`) or name (`ugm`, `ugml`, `slm`, `gtwy`).
    #[arg(required_unless_present = "lsc_corpus")]
    sfid: Option<String>,
    /// The message descriptor (`0x2420203`).
    #[arg(required_unless_present = "lsc_corpus")]
    desc: Option<String>,
    /// The extended message descriptor (0 when left out).
    ex_desc: Option<String>,
    /// The platform whose descriptors these are (dg2 or pvc, the default: the documents
    /// describe Xe-HPG and Xe-HPC).
    #[arg(long, value_name = "NAME", default_value = "pvc")]
    platform: String,
    /// The execution size of the send (for the equivalent instruction).
    #[arg(long, value_name = "N", default_value_t = 1)]
    exec_size: u32,
    /// The first payload register's dwords, comma-separated (`0x1000,0,0x3f,...`): prints the
    /// payload fields (2D block address, barrier) and uses them in the equivalent instruction.
    #[arg(long, value_name = "DWORDS", value_delimiter = ',')]
    payload: Vec<String>,
    /// Instead: list the message of every LSC instruction of our corpus that the checker accepts
    /// for the platform (`SFID-NAME (EXEC) EXDESC DESC # instruction`, the input of
    /// `scripts/iga_descriptors.sh`).
    #[arg(long)]
    lsc_corpus: bool,
}

fn number(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

fn word(text: &str, what: &str) -> Result<u32, String> {
    number(text)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("error: {what} `{text}` is not a 32-bit number"))
}

/// The text `visa desc` prints for one message.
pub fn describe(sfid: u8, desc: u32, ex_desc: u32, exec: u32, payload: Option<&[u8]>) -> String {
    let message = send::decode(sfid, desc, ex_desc);
    let mut out = String::new();
    let name = messages::find(sfid).map_or("?", |(n, _)| n);
    let _ = writeln!(
        out,
        "sfid 0x{sfid:X} ({name})  desc 0x{desc:08X}  exdesc 0x{ex_desc:08X}"
    );
    if let Message::Other { .. } = message {
        let _ = writeln!(
            out,
            "  no document of spec/messages/ describes this shared function"
        );
        return out;
    }
    for v in message.fields(payload) {
        let f = v.field;
        let bits = if f.hi == f.lo {
            format!("{}[{}]", f.word.name(), f.hi)
        } else {
            format!("{}[{}:{}]", f.word.name(), f.hi, f.lo)
        };
        let meaning = v
            .meaning
            .unwrap_or(if f.codes.is_empty() { "" } else { "(no code)" });
        let _ = writeln!(
            out,
            "  {bits:<18} {:<18} 0x{:<8X} {meaning}",
            f.name, v.value
        );
    }
    let equivalent = match message {
        Message::Lsc(m) => m
            .equivalent(exec, "A", "S", "D")
            .or_else(|| m.block2d_text(payload, "A", "D")),
        Message::Gateway(g) => g.equivalent(payload),
        Message::Other { .. } => None,
    };
    match equivalent {
        Some(text) => {
            let _ = writeln!(out, "vISA: {text}");
        }
        None => {
            let op = message.operation().unwrap_or("an operation without a code");
            let _ = writeln!(
                out,
                "vISA: no instruction of ours writes this message ({op})"
            );
        }
    }
    out
}

pub fn run(args: &DescArgs) -> ExitCode {
    let result = (|| -> Result<String, String> {
        let platform = Platform::parse(&args.platform).ok_or_else(|| {
            format!(
                "error: unknown platform `{}` (known: {})",
                args.platform,
                Platform::names()
            )
        })?;
        if !matches!(
            platform,
            Platform::Dg2 | Platform::Pvc | Platform::PvcXt | Platform::Mtl | Platform::Arl
        ) {
            return Err(format!(
                "error: the message documents describe Xe-HPG and Xe-HPC descriptors (dg2, mtl, arl, \
                 pvc), not those of {}",
                platform.name()
            ));
        }
        if args.lsc_corpus {
            let mut out = String::new();
            for (line, m) in send::lsc_corpus_messages(platform, platform.grf_bytes()) {
                let name = messages::find(m.sfid).map_or("?", |(n, _)| n);
                let _ = writeln!(
                    out,
                    "{name} ({}) 0x{:X} 0x{:X} # {line}",
                    m.exec, m.ex_desc, m.desc
                );
            }
            return Ok(out);
        }
        let sfid_text = args.sfid.as_deref().unwrap_or("");
        let sfid = match number(sfid_text) {
            Some(n) => u8::try_from(n).ok().filter(|n| *n < 16),
            None => messages::sfid_named(sfid_text),
        }
        .ok_or_else(|| {
            format!(
                "error: `{sfid_text}` is not a shared function (0 to 15, or ugm, ugml, slm, gtwy)"
            )
        })?;
        let desc = word(args.desc.as_deref().unwrap_or(""), "the descriptor")?;
        let ex_desc = args
            .ex_desc
            .as_deref()
            .map_or(Ok(0), |e| word(e, "the extended descriptor"))?;
        let mut payload = Vec::new();
        for dword in &args.payload {
            payload.extend_from_slice(&word(dword, "a payload dword")?.to_le_bytes());
        }
        let payload = (!payload.is_empty()).then_some(payload.as_slice());
        Ok(describe(sfid, desc, ex_desc, args.exec_size, payload))
    })();
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

//! Reads assembly lines on stdin and writes the bytecode of each one that parses and encodes
//! into `<out>/codec_roundtrip/` (plain) and `<out>/runtime_exec/` (behind the 0 mode byte).
//! Every line is encoded with fresh symbol tables, so its names get the first free indices,
//! which the fuzz targets declare.

use std::io::Read;
use std::path::PathBuf;

use visa_isa::codec::{self, SymbolTable};

fn main() -> std::io::Result<()> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "corpus".into()));
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let codec_dir = out.join("codec_roundtrip");
    let runtime_dir = out.join("runtime_exec");
    std::fs::create_dir_all(&codec_dir)?;
    std::fs::create_dir_all(&runtime_dir)?;
    let mut written = 0;
    for line in input.lines() {
        let Ok(inst) = visa_isa::text::parse_instruction(line.trim()) else {
            continue;
        };
        let mut bytes = Vec::new();
        if codec::encode(&inst, &mut SymbolTable::new(), &mut bytes).is_err() {
            continue;
        }
        let name = format!("enc-{written:05}");
        std::fs::write(codec_dir.join(&name), &bytes)?;
        let mut prefixed = vec![0u8];
        prefixed.extend(&bytes);
        std::fs::write(runtime_dir.join(&name), &prefixed)?;
        written += 1;
    }
    eprintln!("{written} bytecode seeds written");
    Ok(())
}

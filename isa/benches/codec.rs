//! Binary codec throughput: `codec/decode` (goal >= 200 MB/s) and, for reference, `codec/encode`
//! on one stream of many instructions.
//!
//! The stream holds the instructions of the Intel compiler's printed corpus
//! (`../shared/asm-corpus/igc-printed.txt`) that parse and encode, repeated until it has at least
//! [`STREAM_INSTRUCTIONS`]; without `../shared`, a synthetic mix of ALU, control-flow and memory
//! instructions of the generated table.

#[path = "../../benches/support/mod.rs"]
mod support;

use std::time::Duration;

use criterion::{Criterion, Throughput};
use support::{Figures, verdict};
use visa_isa::ast::Instruction;
use visa_isa::codec::{self, SymbolTable};
use visa_isa::text;

const DECODE_GOAL_MB_S: f64 = 200.0;
const STREAM_INSTRUCTIONS: usize = 50_000;

fn main() {
    let (source, unique) = instructions();
    assert!(!unique.is_empty(), "no instruction encodes");
    let stream: Vec<Instruction> = unique
        .iter()
        .cycle()
        .take(STREAM_INSTRUCTIONS.max(unique.len()))
        .cloned()
        .collect();
    let mut syms = SymbolTable::new();
    let bytes = codec::encode_module(&stream, &mut syms)
        .unwrap_or_else(|e| panic!("instruction {} does not encode: {}", e.index, e.error));
    let decoded = codec::decode_module(&bytes, &syms).unwrap_or_else(|e| panic!("decode: {e}"));
    assert_eq!(
        decoded.len(),
        stream.len(),
        "decode gives a different count"
    );

    if let Some((only, times)) = support::repeat_request() {
        match only.as_str() {
            "codec/decode" => {
                support::repeat(times, || codec::decode_module(&bytes, &syms).is_ok())
            }
            "codec/encode" => support::repeat(times, || {
                codec::encode_module(&stream, &mut SymbolTable::new()).is_ok()
            }),
            other => panic!("VISA_BENCH_ONLY: unknown workload {other}"),
        }
        return;
    }
    let figures = Figures::new();
    let mut c = Criterion::default().configure_from_args();
    let mut group = figures.group(&mut c, "codec");
    group.inner.sample_size(30);
    group.inner.warm_up_time(Duration::from_secs(1));
    group.inner.measurement_time(Duration::from_secs(3));
    group
        .inner
        .throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench("decode", || codec::decode_module(&bytes, &syms));
    group.bench("encode", || {
        let mut fresh = SymbolTable::new();
        codec::encode_module(&stream, &mut fresh)
    });
    group.finish();
    c.final_summary();

    println!("\n== binary codec (load {}) ==", support::load());
    println!(
        "stream: {} instructions ({} distinct, {source}), {} bytes, {:.1} bytes/instruction",
        stream.len(),
        unique.len(),
        bytes.len(),
        bytes.len() as f64 / stream.len() as f64
    );
    for id in ["decode", "encode"] {
        let key = format!("codec/{id}");
        if let (Some(line), Some(t)) = (figures.describe(&key), figures.median(&key)) {
            let mb_s = bytes.len() as f64 / t.as_secs_f64() / 1e6;
            let m_instr_s = stream.len() as f64 / t.as_secs_f64() / 1e6;
            let cpu_mb_s = figures
                .cpu_per_iter(&key)
                .filter(|d| !d.is_zero())
                .map_or(0.0, |d| bytes.len() as f64 / d.as_secs_f64() / 1e6);
            print!(
                "{id:>7}: {line}; {mb_s:.1} MB/s (wall), {cpu_mb_s:.1} MB/s (CPU), \
                 {m_instr_s:.2} M instructions/s (wall)"
            );
            if id == "decode" {
                print!(
                    "; goal >= {DECODE_GOAL_MB_S:.0} MB/s: {}",
                    verdict(mb_s >= DECODE_GOAL_MB_S)
                );
            }
            println!();
        }
    }
}

/// The distinct instructions of the stream and where they come from.
fn instructions() -> (&'static str, Vec<Instruction>) {
    if let Some(path) = visa_testutil::shared_or(
        "asm-corpus/igc-printed.txt",
        "using a synthetic instruction mix",
    ) && let Ok(corpus) = std::fs::read_to_string(path)
    {
        let encodable: Vec<Instruction> = corpus
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('.'))
            .filter_map(|l| text::parse_instruction(l).ok())
            .filter(|i| codec::encode(i, &mut SymbolTable::new(), &mut Vec::new()).is_ok())
            .collect();
        if !encodable.is_empty() {
            return ("the igc-printed corpus", encodable);
        }
    }
    let lines = [
        "add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:d",
        "mad (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> V3(0,0)<0;1,0> V1(0,0)<1;1,0>",
        "cmp.lt (M1, 16) P1 V1(0,0)<1;1,0> 0x40:d",
        "(P1) sel (M1, 16) V4(0,0)<1> V1(0,0)<1;1,0> V2(0,0)<1;1,0>",
        "(P1) goto (M1, 16) LOOP",
        "mov (M1_NM, 1) V5(0,0)<1> V1(0,2)<0;1,0>",
        "svm_gather.4.1 (M1, 16) V6.0 V1.0",
        "gather_scaled.4 (M1, 16) T6 0x0:ud V7.0 V8.0",
    ];
    let parsed = lines
        .iter()
        .map(|l| text::parse_instruction(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    ("a synthetic mix", parsed)
}

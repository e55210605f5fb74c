//! Assembly text throughput, in instructions per second:
//!
//! - `text/parse` and `text/format` over the instruction lines of the Intel compiler's printed
//!   corpus (`../shared/asm-corpus/igc-printed.txt`) that the parser accepts, as one text.
//!   Goals: format >= 5 M instructions/s, parse >= 2 M instructions/s.
//! - `macro_kernel/parse_and_check`: the assembler work of `isa!` on a 1,000-instruction kernel
//!   (parse + check; the macro's token rebuilding and AST lowering are not reachable from here:
//!   `benches/macro_compile.sh` times a real compile). Goal for the whole expansion: < 100 ms.

#[path = "../../benches/support/mod.rs"]
mod support;

use std::time::Duration;

use criterion::{Criterion, Throughput};
use support::{Figures, show, verdict};
use visa_isa::ast::StmtKind;
use visa_isa::text;

const FORMAT_GOAL: f64 = 5e6;
const PARSE_GOAL: f64 = 2e6;
const MACRO_GOAL: Duration = Duration::from_millis(100);
/// Instructions in the `isa!`-sized kernel.
const KERNEL_INSTRUCTIONS: usize = 1000;

fn main() {
    let corpus = corpus_text();
    if let Some((only, times)) = support::repeat_request() {
        let Some((src, _)) = &corpus else { return };
        let module = text::parse(src).unwrap_or_else(|_| panic!("the accepted lines parse"));
        match only.as_str() {
            "text/parse" => support::repeat(times, || text::parse(src).is_ok()),
            "text/format" => support::repeat(times, || text::format_module(&module).len()),
            other => panic!("VISA_BENCH_ONLY: unknown workload {other}"),
        }
        return;
    }
    let figures = Figures::new();
    let mut c = Criterion::default().configure_from_args();
    if let Some((src, count)) = &corpus {
        let module = text::parse(src).unwrap_or_else(|_| panic!("the accepted lines parse"));
        let mut group = figures.group(&mut c, "text");
        group.inner.sample_size(30);
        group.inner.warm_up_time(Duration::from_secs(1));
        group.inner.measurement_time(Duration::from_secs(3));
        group.inner.throughput(Throughput::Elements(*count as u64));
        group.bench("parse", || text::parse(src));
        group.bench("format", || text::format_module(&module));
        group.finish();
    }

    let kernel = kernel_text(KERNEL_INSTRUCTIONS);
    let module = text::parse(&kernel).unwrap_or_else(|e| panic!("kernel does not parse: {e:?}"));
    let errors: Vec<_> = text::check(&module)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "the kernel does not check: {errors:?}");
    let mut group = figures.group(&mut c, "macro_kernel");
    group.inner.sample_size(30);
    group.inner.warm_up_time(Duration::from_secs(1));
    group.inner.measurement_time(Duration::from_secs(3));
    group
        .inner
        .throughput(Throughput::Elements(KERNEL_INSTRUCTIONS as u64));
    group.bench("parse", || text::parse(&kernel));
    group.bench("check", || text::check(&module));
    group.bench("parse_and_check", || {
        text::parse(&kernel).map(|m| text::check(&m))
    });
    group.finish();
    c.final_summary();

    println!("\n== assembly text (load {}) ==", support::load());
    match &corpus {
        None => println!("corpus: skipped: ../shared not found"),
        Some((_, count)) => {
            println!("corpus: {count} instruction lines of igc-printed.txt the parser accepts");
            for (id, goal) in [("parse", PARSE_GOAL), ("format", FORMAT_GOAL)] {
                let key = format!("text/{id}");
                if let (Some(line), Some(t)) = (figures.describe(&key), figures.median(&key)) {
                    let rate = *count as f64 / t.as_secs_f64();
                    let cpu_rate = figures
                        .cpu_per_iter(&key)
                        .filter(|d| !d.is_zero())
                        .map_or(0.0, |d| *count as f64 / d.as_secs_f64());
                    println!(
                        "{id:>7}: {line}; {:.2} M instructions/s (wall), {:.2} M/s (CPU); \
                         goal >= {:.0} M/s: {}",
                        rate / 1e6,
                        cpu_rate / 1e6,
                        goal / 1e6,
                        verdict(rate >= goal)
                    );
                }
            }
        }
    }
    println!("isa! kernel of {KERNEL_INSTRUCTIONS} instructions:");
    for id in ["parse", "check", "parse_and_check"] {
        if let Some(line) = figures.describe(&format!("macro_kernel/{id}")) {
            println!("{id:>16}: {line}");
        }
    }
    if let Some(t) = figures.median("macro_kernel/parse_and_check") {
        println!(
            "parse + check is {:.1}% of the {} expansion goal ({} for the part measured here)",
            100.0 * t.as_secs_f64() / MACRO_GOAL.as_secs_f64(),
            show(MACRO_GOAL),
            verdict(t < MACRO_GOAL)
        );
    }
}

/// The instruction lines of the corpus that parse, joined into one text, and their number.
fn corpus_text() -> Option<(String, usize)> {
    let path = visa_testutil::shared("asm-corpus/igc-printed.txt")?;
    let corpus = std::fs::read_to_string(path).ok()?;
    let accepted: Vec<&str> = corpus
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('.'))
        .filter(|l| text::parse_instruction(l).is_ok())
        .collect();
    let src = accepted.join("\n");
    // Each accepted line must be one instruction of the whole text too.
    let module = text::parse(&src).ok()?;
    let instructions = module
        .stmts
        .iter()
        .filter(|s| matches!(s.kind, StmtKind::Instr(_)))
        .count();
    assert_eq!(
        instructions,
        accepted.len(),
        "lines and instructions differ"
    );
    Some((src, instructions))
}

/// A kernel of `count` SIMD16 ALU instructions over declared variables, cycling through eight
/// forms (the same kernel `benches/macro_compile.sh` writes into an `isa!` invocation).
fn kernel_text(count: usize) -> String {
    let mut src = String::from(
        ".decl A v_type=G type=d num_elts=16 align=GRF\n\
         .decl B v_type=G type=d num_elts=16 align=GRF\n\
         .decl C v_type=G type=d num_elts=16 align=GRF\n\
         .decl P1 v_type=P num_elts=16\n\
         mov (M1, 16) A(0,0)<1> 0x1:d\n\
         mov (M1, 16) B(0,0)<1> 0x2:d\n\
         mov (M1, 16) C(0,0)<1> 0x3:d\n",
    );
    for i in 0..count.saturating_sub(3) {
        let line = match i % 8 {
            0 => format!("add (M1, 16) B(0,0)<1> A(0,0)<1;1,0> {:#x}:d", i + 1),
            1 => "mul (M1, 16) C(0,0)<1> B(0,0)<1;1,0> A(0,0)<1;1,0>".to_string(),
            2 => "mad (M1, 16) B(0,0)<1> C(0,0)<1;1,0> 0x3:d B(0,0)<1;1,0>".to_string(),
            3 => "cmp.lt (M1, 16) P1 B(0,0)<1;1,0> C(0,0)<1;1,0>".to_string(),
            4 => "(P1) sel (M1, 16) A(0,0)<1> B(0,0)<1;1,0> C(0,0)<1;1,0>".to_string(),
            5 => "shl (M1, 16) C(0,0)<1> A(0,0)<1;1,0> 0x2:d".to_string(),
            6 => "xor (M1, 16) A(0,0)<1> A(0,0)<1;1,0> C(0,0)<1;1,0>".to_string(),
            _ => "mov (M1, 16) A(0,0)<1> C(0,0)<1;1,0>".to_string(),
        };
        src.push_str(&line);
        src.push('\n');
    }
    src
}

//! The spec pipeline over the 106 upstream opcode documents (`../shared/visa-docs/instructions`):
//! reading and parsing them, generating the four Rust files (lowering, emitting, prettyplease),
//! and both together. Goal: parse + generate under 50 ms.
//!
//! With `PIPELINE_ONCE` set, the bench instead runs parse + generate once and exits (for
//! `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load);
//! a non-empty value is a directory to write the four generated files into (to compare outputs).

#[path = "../../benches/support/mod.rs"]
mod support;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use support::{Figures, show, verdict};
use visa_codegen::emit;

const GOAL: Duration = Duration::from_millis(50);

fn main() {
    let Some(dir) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let dirs = [dir];
    if let Some(out) = std::env::var_os("PIPELINE_ONCE") {
        once(&dirs, PathBuf::from(out));
        return;
    }
    let parsed = visa_codegen::parse_dirs(&dirs);
    if parsed.has_errors() {
        for e in parsed.errors() {
            eprintln!("{e}");
        }
        panic!("the upstream documents cannot be read");
    }
    let docs = parsed.documents;
    if let Err(errors) = emit::generate(&docs) {
        for e in errors {
            eprintln!("{e}");
        }
        panic!("the upstream documents do not generate");
    }

    let figures = Figures::new();
    let mut c = Criterion::default().configure_from_args();
    let mut group = figures.group(&mut c, "pipeline");
    group.inner.sample_size(20);
    group.inner.warm_up_time(Duration::from_secs(1));
    group.inner.measurement_time(Duration::from_secs(3));
    group.bench("parse", || parse(&dirs));
    // Generation takes hundreds of milliseconds: ten single-iteration samples.
    group.inner.sample_size(10);
    group.inner.sampling_mode(SamplingMode::Flat);
    group.bench("generate", || emit::generate(&docs));
    group.bench("parse_and_generate", || emit::generate(&parse(&dirs)));
    group.finish();
    c.final_summary();

    println!(
        "\n== spec pipeline: {} documents (load {}) ==",
        docs.len(),
        support::load()
    );
    for id in ["parse", "generate", "parse_and_generate"] {
        if let Some(line) = figures.describe(&format!("pipeline/{id}")) {
            println!("{id:>20}: {line}");
        }
    }
    if let Some(total) = figures.median("pipeline/parse_and_generate") {
        println!(
            "goal parse + generate < {}: {} (wall median {:.2}x the goal)",
            show(GOAL),
            verdict(total < GOAL),
            total.as_secs_f64() / GOAL.as_secs_f64()
        );
    }
}

fn parse(dirs: &[PathBuf]) -> Vec<visa_codegen::model::Document> {
    visa_codegen::parse_dirs(dirs).documents
}

/// One parse + generate, for instruction counting; writes the files into `out` unless empty.
fn once(dirs: &[PathBuf], out: PathBuf) {
    let generated = match emit::generate(&parse(dirs)) {
        Ok(generated) => generated,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            panic!("the upstream documents do not generate");
        }
    };
    if !out.as_os_str().is_empty()
        && let Err(e) = std::fs::create_dir_all(&out).and_then(|()| generated.write_to(&out))
    {
        panic!("cannot write {}: {e}", out.display());
    }
    println!(
        "generated {} bytes",
        generated
            .files()
            .iter()
            .map(|(_, s)| s.len())
            .sum::<usize>()
    );
}

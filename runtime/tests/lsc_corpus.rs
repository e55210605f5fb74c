//! Every LSC line of the Intel compiler's printed corpus (`../shared/asm-corpus/igc-printed.txt`)
//! that our documents describe loads in the runtime, or is refused at load with the runtime's
//! "not executed by this runtime" reason; every typed line (`.tgm`, `spec/LSC_TYPED.md`) is refused
//! naming typed surfaces, which the runtime does not model. The corpus prints instructions without their
//! declarations, so each line is declared here as a kernel would declare its operands: address
//! registers as `uq` for 64-bit addresses and `ud` for 32-bit ones, data as `ud` (`uq` for
//! `d64`), 2D block surface bases as `uq`, large enough for any message (64-byte GRFs: the LSC
//! platforms). Lines that do not parse are `isa/tests/text_lsc.rs`'s subject.

use std::collections::BTreeMap;

use visa_isa::ast::{FieldValue, Instruction, Operand};
use visa_isa::text;
use visa_runtime::{LoadErrorKind, LoadOptions, Program};

/// Each variable an operand field names, with the type it is declared with.
fn variables(i: &Instruction, line: &str) -> BTreeMap<String, &'static str> {
    let desc = &visa_isa::INSTRUCTIONS[i.desc];
    let wide_addresses = line.contains(":a64");
    let wide_data = line.contains(":d64");
    let mut vars = BTreeMap::new();
    for (field, value) in desc.fields.iter().zip(&i.fields) {
        let FieldValue::Operand(op) = value else {
            continue;
        };
        let name = match op {
            Operand::Raw { var, .. } | Operand::General { var, .. } => var,
            _ => continue,
        };
        if name.starts_with('%') {
            continue;
        }
        let ty = match field.name {
            "Src0Addrs" | "Src0AddrBase" if wide_addresses => "uq",
            "SurfaceBaseAddr" => "uq",
            "Surface" if line.contains("flat(") => "uq",
            "DstData" | "Src1Data" | "Src2Data" if wide_data => "uq",
            "Src0AddrX" | "Src0AddrY" => "d",
            _ => "ud",
        };
        vars.insert(name.clone(), ty);
    }
    vars
}

fn kernel(i: &Instruction, line: &str) -> String {
    let mut src = String::new();
    for (name, ty) in variables(i, line) {
        // 4 KiB of each: more than any message moves.
        let count = if ty == "uq" { 512 } else { 1024 };
        src += &format!(".decl {name} v_type=G type={ty} num_elts={count} align=GRF\n");
    }
    if let Some(FieldValue::Pred(Some(p))) =
        i.fields.iter().find(|f| matches!(f, FieldValue::Pred(_)))
    {
        src += &format!(".decl {} v_type=P num_elts=32\n", p.name);
    }
    src + line + "\n"
}

#[test]
fn every_described_lsc_line_loads_or_names_why_it_is_not_executed() {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return;
    };
    let corpus = std::fs::read_to_string(path).expect("the corpus is readable");
    let options = LoadOptions::default().grf_bytes(64);
    let (mut loaded, mut refused) = (0, BTreeMap::<String, usize>::new());
    let mut typed_refused = 0;
    let mut failures = Vec::new();
    for line in corpus
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("lsc_") && !l.starts_with('#') && !l.starts_with("//"))
    {
        let Ok(instruction) = text::parse_instruction(line) else {
            continue;
        };
        let src = kernel(&instruction, line);
        match Program::from_text(&src, &options) {
            Ok(_) if line.contains(".tgm") => {
                failures.push(format!("{line}\n   a typed message loaded\n{src}"))
            }
            Ok(_) => loaded += 1,
            Err(e) if e.kind == LoadErrorKind::NotExecuted && line.contains(".tgm") => {
                assert!(e.message.contains("typed surfaces"), "{line}: {e}");
                typed_refused += 1;
                let reason = e.message.split(" at ").next().unwrap_or("").to_string();
                *refused.entry(reason).or_default() += 1;
            }
            Err(e) if e.kind == LoadErrorKind::NotExecuted => {
                let reason = e.message.split(" at ").next().unwrap_or("").to_string();
                *refused.entry(reason).or_default() += 1;
            }
            Err(e) => failures.push(format!("{line}\n   {e}\n{src}")),
        }
    }
    println!(
        "lsc lines of the corpus: {loaded} load, {} refused:",
        refused.values().sum::<usize>()
    );
    for (reason, count) in &refused {
        println!("  {count:3} {reason}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The 138 lines `text_lsc` parses: 79 untyped (the payload-addressed 2D block load among
    // them, which loads), 59 typed (all refused).
    assert_eq!(loaded + refused.values().sum::<usize>(), 138);
    assert_eq!(typed_refused, 59);
    // 74 when this test was written (the other 4: `bss` and `surf` addresses); it may only grow.
    assert!(loaded >= 74, "{loaded} load");
}

//! One rule set: `visa check` (and `isa!`, which runs the same checker) accepts a kernel exactly
//! when `Program::load` accepts it or rejects it only as "not executed by this runtime".

use std::collections::BTreeMap;

#[path = "printed/mod.rs"]
mod printed;

#[test]
fn printed_lines_pass_check() {
    let Some(path) = visa_testutil::shared("asm-corpus/igc-printed.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the corpus is readable");
    let declared = printed::declared_types(&text);
    let mut total = 0;
    let mut pass = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for (_, line) in printed::instruction_lines(&text) {
        total += 1;
        let Some((_, kernels)) = printed::kernels_for_line(line, &declared) else {
            continue;
        };
        let mut first = None;
        let ok = kernels.iter().any(|k| {
            let m = visa_isa::text::parse(k).expect("parses");
            let d = visa_isa::text::check(&m);
            let e: Vec<_> = d.iter().filter(|d| d.is_error()).collect();
            if let Some(e) = e.first() {
                first.get_or_insert(e.message.clone());
            }
            e.is_empty()
        });
        if ok {
            pass += 1;
        } else if let Some(m) = first {
            *reasons.entry(m).or_default() += 1;
        }
    }
    println!("pass check: {pass} of {total}");
    for (m, c) in reasons {
        println!("{c:4} {m}");
    }
}

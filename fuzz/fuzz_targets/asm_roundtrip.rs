//! Arbitrary text as assembly: when it parses, its printed form parses to the same module
//! (up to what printing normalises, see `canonical`) and prints identically; printed with its
//! comments (`format_source`), likewise, keeping every comment.
#![no_main]

use libfuzzer_sys::fuzz_target;
use visa_isa::ast::{FieldValue, Module, StmtKind};
use visa_isa::text;

/// The module with what printing does not keep cleared: positions (printing moves statements)
/// and whether an execution mask was written (the printer always writes it: `(8)` prints as
/// `(M1, 8)`).
fn canonical(mut m: Module) -> Module {
    m.clear_positions();
    for stmt in &mut m.stmts {
        if let StmtKind::Instr(instr) = &mut stmt.kind {
            for field in &mut instr.fields {
                if let FieldValue::Exec(exec) = field {
                    exec.mask_written = true;
                }
            }
        }
    }
    m
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let _ = text::parse_instruction(src);
    let _ = text::parse_operand(src);
    let Ok(module) = text::parse(src) else {
        return;
    };
    let _ = text::check(&module);
    let printed = text::format_module(&module);
    let again = match text::parse(&printed) {
        Ok(again) => again,
        Err(e) => panic!("printed form does not parse: {:?}\n{printed}", e.first()),
    };
    assert_eq!(
        text::format_module(&again),
        printed,
        "printing is not stable"
    );
    assert_eq!(
        canonical(again),
        canonical(module.clone()),
        "the printed form parses to a different module:\n{printed}"
    );
    // Printing with the comments and blank lines kept: the same module, the same comments in
    // order, and stable.
    let kept = match text::format_source(src) {
        Ok(kept) => kept,
        Err(e) => panic!("parses but does not format: {:?}", e.first()),
    };
    let again = match text::parse(&kept) {
        Ok(again) => again,
        Err(e) => panic!("formatted form does not parse: {:?}\n{kept}", e.first()),
    };
    assert_eq!(canonical(again), canonical(module), "{kept}");
    let texts = |s: &str| -> Vec<String> {
        text::parse_comments(s)
            .map(|c| c.into_iter().map(|c| c.text).collect())
            .unwrap_or_default()
    };
    assert_eq!(texts(&kept), texts(src), "comments changed:\n{kept}");
    assert_eq!(
        text::format_source(&kept).ok().as_deref(),
        Some(kept.as_str()),
        "formatting is not stable"
    );
});

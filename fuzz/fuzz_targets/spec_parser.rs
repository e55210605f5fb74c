//! Arbitrary bytes as an opcode document: the parser never panics, and every diagnostic points
//! inside the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use visa_codegen::parse::parse_document;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_document("fuzz.md", &text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let lines = text.split('\n').count().max(1) as u32;
    for d in &parsed.diagnostics {
        assert!(
            d.loc.line >= 1 && d.loc.line <= lines && d.loc.col >= 1,
            "diagnostic outside the file ({lines} lines): {d}"
        );
        assert_eq!(d.file, "fuzz.md");
    }
});

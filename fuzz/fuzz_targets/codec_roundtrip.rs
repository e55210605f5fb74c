//! Arbitrary bytes as bytecode: when an instruction decodes, encoding it and decoding the
//! result gives the same instruction, and re-encoding is stable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use visa_isa::codec::{self, SymbolKind, SymbolTable};

/// A few names of every kind, so that decoding gets past symbol look-ups.
fn symbols() -> SymbolTable {
    let mut syms = SymbolTable::new();
    for kind in SymbolKind::ALL {
        let first = kind.first_free();
        for id in first..first + 4 {
            syms.define(kind, id, &format!("{kind:?}{id}"));
        }
    }
    syms
}

fuzz_target!(|data: &[u8]| {
    let syms = symbols();
    let _ = codec::decode_module(data, &syms);
    let Ok((inst, used)) = codec::decode(data, &syms) else {
        return;
    };
    assert!(used >= 1 && used <= data.len());
    let mut encode_syms = syms.clone();
    let mut bytes = Vec::new();
    if let Err(e) = codec::encode(&inst, &mut encode_syms, &mut bytes) {
        panic!("a decoded instruction does not encode: {e}\n{inst:?}");
    }
    assert_eq!(
        encode_syms, syms,
        "encoding a decoded instruction added names"
    );
    let (again, again_used) = match codec::decode(&bytes, &syms) {
        Ok(r) => r,
        Err(e) => panic!("re-encoded bytes do not decode: {e}\n{inst:?}\n{bytes:02x?}"),
    };
    assert_eq!(again_used, bytes.len());
    assert_eq!(again, inst);
    let mut bytes_again = Vec::new();
    let _ = codec::encode(&again, &mut encode_syms, &mut bytes_again);
    assert_eq!(bytes_again, bytes, "encoding is not stable");
    // Text is the other view of the same instruction: it must print without panicking.
    let _ = visa_isa::text::format_instruction(&inst);
});

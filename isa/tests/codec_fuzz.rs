//! The decoder never panics: random bytes, and valid encodings with random damage (byte
//! flips, truncation, insertions, concatenation). Whatever decodes re-encodes to bytes that
//! decode to the same instruction.

mod codec_support;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use visa_isa::ast::Instruction;
use visa_isa::codec::{self, SymbolTable};

/// Decodes `bytes` both ways; a decoded instruction must survive encode -> decode.
fn exercise(bytes: &[u8], syms: &SymbolTable) -> Result<(), TestCaseError> {
    let _ = codec::decode_module(bytes, syms);
    if let Ok((inst, used)) = codec::decode(bytes, syms) {
        prop_assert!((1..=bytes.len()).contains(&used));
        let mut out = Vec::new();
        let mut encode_syms = syms.clone();
        codec::encode(&inst, &mut encode_syms, &mut out)
            .map_err(|e| TestCaseError::fail(format!("decoded but does not encode: {e}")))?;
        let (again, again_used) = codec::decode(&out, syms)
            .map_err(|e| TestCaseError::fail(format!("re-encoded bytes do not decode: {e}")))?;
        prop_assert_eq!(again_used, out.len());
        prop_assert_eq!(again, inst);
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Damage {
    Flip { at: usize, value: u8 },
    Truncate { at: usize },
    Insert { at: usize, value: u8 },
    Remove { at: usize },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Damage::Flip { at, value }),
        any::<usize>().prop_map(|at| Damage::Truncate { at }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Damage::Insert { at, value }),
        any::<usize>().prop_map(|at| Damage::Remove { at }),
    ]
}

fn apply(bytes: &mut Vec<u8>, damage: &Damage) {
    let len = bytes.len();
    match *damage {
        Damage::Flip { at, value } if len > 0 => bytes[at % len] ^= value,
        Damage::Truncate { at } => bytes.truncate(at % (len + 1)),
        Damage::Insert { at, value } => bytes.insert(at % (len + 1), value),
        Damage::Remove { at } if len > 0 => {
            bytes.remove(at % len);
        }
        _ => {}
    }
}

/// Encodes `insts` with fresh tables; `None` when one does not encode.
fn encoded(insts: &[Instruction]) -> Option<(Vec<u8>, SymbolTable)> {
    let mut syms = SymbolTable::new();
    let bytes = codec::encode_module(insts, &mut syms).ok()?;
    Some((bytes, syms))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        exercise(&bytes, &SymbolTable::new())?;
    }

    #[test]
    fn a_known_opcode_followed_by_random_bytes_never_panics(
        index in 0..visa_isa::INSTRUCTIONS.len(),
        tail in prop::collection::vec(any::<u8>(), 0..48),
    ) {
        let desc = &visa_isa::INSTRUCTIONS[index];
        let mut bytes = vec![desc.opcode];
        bytes.extend(desc.subop);
        bytes.extend(tail);
        exercise(&bytes, &SymbolTable::new())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn damaged_valid_encodings_never_panic(
        insts in prop::collection::vec(codec_support::any_instruction(), 1..4),
        damages in prop::collection::vec(damage(), 1..5),
    ) {
        let Some((mut bytes, syms)) = encoded(&insts) else {
            return Err(TestCaseError::reject("does not encode"));
        };
        // The undamaged stream decodes to what was encoded.
        prop_assert_eq!(codec::decode_module(&bytes, &syms).ok(), Some(insts.clone()));
        for d in &damages {
            apply(&mut bytes, d);
            exercise(&bytes, &syms)?;
            // Without names, every symbol index is unknown: an error, never a panic.
            exercise(&bytes, &SymbolTable::new())?;
        }
    }
}

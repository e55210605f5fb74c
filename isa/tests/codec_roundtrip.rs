//! `decode(encode(i)) == i` for random valid instructions of every table entry, the typed
//! conversion round trip (and the typed view), and stream encoding.

mod codec_support;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use visa_isa::INSTRUCTIONS;
use visa_isa::ast::Instruction;
use visa_isa::codec::{self, SymbolTable};
use visa_isa::instrs::{Instr, view};

fn round_trip(inst: &Instruction) -> Result<(), TestCaseError> {
    let mut syms = SymbolTable::new();
    let mut bytes = Vec::new();
    codec::encode(inst, &mut syms, &mut bytes)
        .map_err(|e| TestCaseError::fail(format!("encode: {e}")))?;
    let (decoded, used) =
        codec::decode(&bytes, &syms).map_err(|e| TestCaseError::fail(format!("decode: {e}")))?;
    prop_assert_eq!(used, bytes.len());
    prop_assert_eq!(&decoded, inst);
    // Every proper prefix is an error, never a panic, and never a success.
    for cut in 0..bytes.len() {
        prop_assert!(codec::decode(bytes.get(..cut).unwrap_or_default(), &syms).is_err());
    }
    Ok(())
}

#[test]
fn every_table_entry_round_trips_through_the_codec() {
    assert!(!INSTRUCTIONS.is_empty(), "the table is empty");
    let mut covered = 0;
    for (index, desc) in INSTRUCTIONS.iter().enumerate() {
        if !codec_support::encodable(desc) {
            continue;
        }
        covered += 1;
        let mut runner = TestRunner::new(Config {
            cases: 48,
            ..Config::default()
        });
        let strategy = codec_support::instruction(index, desc);
        if let Err(e) = runner.run(&strategy, |inst| round_trip(&inst)) {
            panic!("{}: {e}", desc.name);
        }
    }
    assert!(covered > 0);
}

#[test]
fn every_table_entry_round_trips_through_its_typed_struct() {
    for (index, desc) in INSTRUCTIONS.iter().enumerate() {
        let mut runner = TestRunner::new(Config {
            cases: 32,
            ..Config::default()
        });
        let strategy = codec_support::instruction(index, desc);
        let result = runner.run(&strategy, |inst| {
            let typed = Instr::try_from(&inst).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(typed.desc().name, desc.name);
            prop_assert_eq!(typed.opcode().index(), index);
            // The borrowed view reads the same instruction, without copying it.
            let view = view::Instr::lift(typed.opcode(), &inst)
                .map_err(|e| TestCaseError::fail(format!("view: {e}")))?;
            prop_assert_eq!(view.opcode(), typed.opcode());
            prop_assert!(std::ptr::eq(view.generic(), &inst));
            let back: Instruction = typed.into();
            prop_assert_eq!(back, inst);
            Ok(())
        });
        if let Err(e) = result {
            panic!("{}: {e}", desc.name);
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 64, ..Config::default() })]

    #[test]
    fn streams_round_trip(insts in prop::collection::vec(codec_support::any_instruction(), 0..12)) {
        let mut syms = SymbolTable::new();
        let bytes = codec::encode_module(&insts, &mut syms).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let decoded = codec::decode_module(&bytes, &syms).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(decoded, insts);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let syms = SymbolTable::new();
        match codec::decode(&bytes, &syms) {
            Ok((_, used)) => prop_assert!(used <= bytes.len()),
            Err(e) => prop_assert!(e.offset <= bytes.len()),
        }
        let _ = codec::decode_module(&bytes, &syms);
    }

    #[test]
    fn corrupted_encodings_never_panic(
        inst in codec_support::any_instruction(),
        position in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut syms = SymbolTable::new();
        let mut bytes = Vec::new();
        codec::encode(&inst, &mut syms, &mut bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let at = position.index(bytes.len());
        if let Some(b) = bytes.get_mut(at) {
            *b = byte;
        }
        match codec::decode(&bytes, &syms) {
            Ok((decoded, used)) => {
                prop_assert!(used <= bytes.len());
                // Whatever decodes re-encodes to the same bytes.
                let mut again = Vec::new();
                codec::encode(&decoded, &mut syms.clone(), &mut again)
                    .map_err(|e| TestCaseError::fail(format!("re-encode: {e}")))?;
                prop_assert_eq!(again.as_slice(), bytes.get(..used).unwrap_or_default());
            }
            Err(e) => prop_assert!(e.offset <= bytes.len()),
        }
    }
}

//! Unit tests of the container: round trips and errors on truncated or corrupt files.

use super::*;
use crate::text;

const KERNEL: &str = ".version 4.1\n.kernel \"k\"\n.decl X v_type=G type=d num_elts=8 align=GRF\n.decl Y v_type=G type=d num_elts=8 align=GRF\nadd (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x5:d\nret (M1, 1)\n";

fn object() -> Object {
    let module = text::parse(KERNEL).expect("parses");
    Object::from_module(&module).expect("converts")
}

#[test]
fn written_files_read_back_equal() {
    let object = object();
    let bytes = object.write().expect("writes");
    assert_eq!(&bytes[..4], b"CISA");
    let read = Object::read(&bytes).expect("reads");
    assert_eq!(read, object);
    assert_eq!(read.write().expect("writes again"), bytes);
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let bytes = object().write().expect("writes");
    for len in 0..bytes.len() {
        let error = Object::read(&bytes[..len]).expect_err("truncated");
        assert!(error.offset <= bytes.len(), "{error}");
        assert!(!error.field.is_empty(), "{error}");
    }
}

#[test]
fn a_huge_count_is_refused_before_allocating() {
    let mut bytes = object().write().expect("writes");
    // kernel_data.string_count is the first field of the kernel object.
    let offset = u32::from_le_bytes(bytes[11..15].try_into().expect("4 bytes")) as usize;
    bytes[offset..offset + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = Object::read(&bytes).expect_err("refused");
    assert_eq!(error.field, "kernel_data.strings");
    assert!(
        matches!(error.kind, ObjectErrorKind::CountTooLarge { .. }),
        "{error}"
    );
}

#[test]
fn a_bad_magic_names_the_field() {
    let mut bytes = object().write().expect("writes");
    bytes[0] = b'X';
    let error = Object::read(&bytes).expect_err("refused");
    assert_eq!(
        (error.offset, error.field.as_str()),
        (0, "common_isa_header.magic")
    );
}

#[test]
fn the_module_comes_back_from_the_binary() {
    let object = object();
    let module = object.to_module().expect("converts back");
    let printed = text::format_module(&module);
    assert!(
        printed.contains(".decl X v_type=G type=d num_elts=8 align=GRF"),
        "{printed}"
    );
    assert!(
        printed.contains("add (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x5:d"),
        "{printed}"
    );
    // The default `Target` the writer added is not printed: assembling adds it again.
    assert!(!printed.contains(".kernel_attr"), "{printed}");
    assert_eq!(object.kernels[0].data.attributes.len(), 1);
    assert_eq!(Object::from_module(&module).expect("again"), object);
}

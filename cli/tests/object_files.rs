//! `visa asm`, `visa dis`, and `visa run` / `visa check` on object files (`.isa`), end to end.

mod common;

#[test]
fn the_main_job_runs_the_same_from_its_object_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let isa = dir.path().join("gather_add_scatter.isa");
    let isa = isa.to_str().expect("UTF-8 path");
    let out = common::visa(&[
        "asm",
        "examples/gather_add_scatter.visaasm",
        "-o",
        isa,
        "--platform",
        "PVC",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let bytes = std::fs::read(isa).expect("written");
    assert_eq!(&bytes[..6], b"CISA\x04\x01", "magic and version 4.1");

    // The disassembly assembles to the same bytes.
    let dis = common::visa(&["dis", isa]);
    assert!(dis.status.success(), "{}", common::stderr(&dis));
    let text = dir.path().join("again.visaasm");
    std::fs::write(&text, &dis.stdout).expect("writes");
    let again = dir.path().join("again.isa");
    let out = common::visa(&[
        "asm",
        text.to_str().expect("UTF-8"),
        "-o",
        again.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert_eq!(std::fs::read(&again).expect("written"), bytes);

    // `visa check` and `visa run` take the object file; the run prints what the text's does.
    let check = common::visa(&["check", isa]);
    assert!(check.status.success(), "{}", common::stderr(&check));
    let from_text = common::visa(&common::main_job(
        "examples/gather_add_scatter.visaasm",
        &[],
    ));
    let from_object = common::visa(&common::main_job(isa, &[]));
    assert!(
        from_object.status.success(),
        "{}",
        common::stderr(&from_object)
    );
    assert_eq!(from_object.stdout, from_text.stdout);
}

#[test]
fn a_truncated_object_file_is_an_error_naming_offset_and_field() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let isa = dir.path().join("k.isa");
    std::fs::write(&isa, b"CISA\x04\x01\x01\x00\x05").expect("writes");
    let out = common::visa(&["dis", isa.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = common::stderr(&out);
    // One kernel entry announced, one byte left: refused before anything is allocated.
    assert!(
        stderr.contains("at byte 8: common_isa_header.kernels: 1 element(s)"),
        "{stderr}"
    );
}

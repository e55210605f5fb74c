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

/// A kernel and the `.global_function` it calls go into one object file (the function as a
/// function object, named by the caller's string pool) and run from it: each lane's value
/// comes back doubled plus one, computed here by hand.
#[test]
fn a_kernel_with_a_global_function_runs_from_its_object_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let text = dir.path().join("call.visaasm");
    std::fs::write(
        &text,
        ".version 4.1
.kernel \"call\"
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl ARG v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl RES v_type=G type=ud num_elts=8 alias=<%retval, 0>
mov (M1, 8) ARG(0,0)<1> V(0,0)<1;1,0>
fcall (M1_NM, 1) twice_plus_one 1 1
mov (M1, 8) V(0,0)<1> RES(0,0)<1;1,0>
ret (M1, 1)
.global_function \"twice_plus_one\"
.decl IN v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl OUT v_type=G type=ud num_elts=8 alias=<%retval, 0>
.decl T v_type=G type=ud num_elts=8 align=GRF
add (M1, 8) T(0,0)<1> IN(0,0)<1;1,0> IN(0,0)<1;1,0>
add (M1, 8) OUT(0,0)<1> T(0,0)<1;1,0> 0x1:ud
fret (M1_NM, 1)
",
    )
    .expect("writes");
    let isa = dir.path().join("call.isa");
    let (text, isa) = (text.to_str().expect("UTF-8"), isa.to_str().expect("UTF-8"));
    let out = common::visa(&["asm", text, "-o", isa]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let dis = common::visa(&["dis", isa]);
    let listing = String::from_utf8_lossy(&dis.stdout);
    assert!(
        listing.contains(".global_function \"twice_plus_one\""),
        "{listing}"
    );
    let run = common::visa(&[
        "run",
        isa,
        "--simd",
        "8",
        "--arg",
        "V:ud=[0, 1, 2, 3, 100, 4000000, 2147483647, 7]",
        "--print",
        "V",
    ]);
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert_eq!(
        String::from_utf8_lossy(&run.stdout).trim(),
        "V = [1, 3, 5, 7, 201, 8000001, 4294967295, 15]"
    );
}

/// A file the compiler wrote (GenX_IR -binary, whose instruction streams keep only the first
/// operands of each instruction): `visa dis` prints its declarations all the same, then names
/// the instruction and byte where the stream stops decoding.
#[test]
fn dis_of_a_compiler_file_prints_what_it_reads_then_the_error() {
    let out = common::visa(&["dis", "fixtures/object/genx/fcall_0.isa"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        ".kernel \"fcall_0\"",
        ".decl ARG v_type=G type=ud num_elts=8 alias=<%arg, 0>",
        ".global_function \"twice\"",
        ".decl OUT v_type=G type=ud num_elts=8 alias=<%retval, 0>",
    ] {
        assert!(stdout.contains(line), "{line} missing from\n{stdout}");
    }
    let stderr = common::stderr(&out);
    assert!(
        stderr.contains("error: at byte 4: kernel_data.instructions[0]:"),
        "{stderr}"
    );
}

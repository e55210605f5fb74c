//! The syntax conventions added for the second batch of documents, checked on the generated
//! table of `spec/`: named sub-fields (`.<op>`), optional alternatives choosing codes
//! (`[.16|.64]`), literal suffixes and mnemonic parts selecting codes (`nbarrier.signal`,
//! `fence_local`), flag letters (`fence_global.ER`), glued hex values (`bfn.xd8`), plain-number
//! and quoted-string operands, lane counts packed with the mask (`gather.4 (M1, 16)`), and state
//! operands (`%bss(0)`). Expected field values are written out by hand from the documents' codes.

use visa_isa::ast::{ExecSize, FieldValue, Instruction, Operand};
use visa_isa::text;

fn parse(line: &str) -> Instruction {
    text::parse_instruction(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The value of the field named `name`.
fn field<'a>(i: &'a Instruction, name: &str) -> &'a FieldValue {
    let desc = &visa_isa::INSTRUCTIONS[i.desc];
    let index = desc
        .field_index(name)
        .unwrap_or_else(|| panic!("{} has no field {name}", desc.name));
    &i.fields[index]
}

fn int(i: &Instruction, name: &str) -> u64 {
    match field(i, name) {
        FieldValue::Int(v) => *v,
        other => panic!("{name}: {other:?}"),
    }
}

/// Parses, checks the instruction name, prints back exactly `line`, and reparses identically.
fn round_trip(line: &str, instr: &str) -> Instruction {
    let i = parse(line);
    assert_eq!(visa_isa::INSTRUCTIONS[i.desc].name, instr, "{line}");
    let printed = text::format_instruction(&i);
    assert_eq!(printed, line);
    assert_eq!(parse(&printed), i, "{line}");
    i
}

#[test]
fn named_sub_field_and_optional_width_choice() {
    // Op: Bit[4..0] is the operation (`add` = 0, `inc` = 2), Bit[6..5] the width (16 = 0b01,
    // 64 = 0b10); no width suffix is code 0 (32-bit).
    let line = "svm_atomic.add (M1, 8) ADDR.0 OLD.0 SRC.0 %null.0";
    assert_eq!(int(&round_trip(line, "SVM_ATOMIC"), "Op"), 0);
    let line = "svm_atomic.inc.16 (M1, 8) ADDR.0 OLD.0 %null.0 %null.0";
    assert_eq!(int(&round_trip(line, "SVM_ATOMIC"), "Op"), 0b010_0010);
    let line = "svm_atomic.cmpxchg.64 (M1_NM, 1) ADDR.0 OLD.0 A.0 B.0";
    assert_eq!(int(&round_trip(line, "SVM_ATOMIC"), "Op"), 0b100_0111);
    // DWORD_ATOMIC: `[.16]` is the one-bit Bit[5].
    let line = "dword_atomic.xchg.16 (M1, 16) T6 OFFS.0 SRC.0 %null.0 DST.0";
    assert_eq!(int(&round_trip(line, "DWORD_ATOMIC"), "Op"), 0b10_0110);
    let err = text::parse_instruction("svm_atomic.nop (M1, 8) A.0 B.0 C.0 D.0").unwrap_err();
    assert!(err.expected.contains("add"), "{err}");
}

#[test]
fn literal_suffixes_select_codes_and_templates() {
    let wait = round_trip("nbarrier.wait 0x1:ub", "NBARRIER");
    assert_eq!(int(&wait, "Mode"), 0);
    let short = round_trip("nbarrier.signal 0x1:ub 0x8:ub", "NBARRIER");
    assert_eq!(int(&short, "Mode"), 1);
    assert_eq!(field(&short, "Type"), &FieldValue::Absent);
    // The long form is printed with the template that writes all four operands.
    let long = round_trip("nbarrier.signal 0x1:ub 0x2:uw 0x8:ub 0x4:ub", "NBARRIER");
    assert_eq!(int(&long, "Mode"), 1);
    assert!(matches!(
        field(&long, "Num_consumers"),
        FieldValue::Operand(_)
    ));
    // `.wait` does not take the operands of `.signal`.
    assert!(text::parse_instruction("nbarrier.wait 0x1:ub 0x8:ub").is_err());

    let end = round_trip("lifetime.end V12", "LIFETIME");
    assert_eq!(int(&end, "properties"), 1);
    assert_eq!(
        field(&end, "variable"),
        &FieldValue::Operand(Operand::Name("V12".into()))
    );
    assert_eq!(
        int(&round_trip("lifetime.start V12", "LIFETIME"), "properties"),
        0
    );
}

#[test]
fn mnemonic_parts_and_flag_letters() {
    // Mask: E = bit 0, I = 1, S = 2, C = 3, R = 4, local = bit 5, L1 = bit 6, sw = bit 7.
    assert_eq!(int(&round_trip("fence_global", "FENCE"), "Mask"), 0);
    assert_eq!(int(&round_trip("fence_global.ER", "FENCE"), "Mask"), 0x11);
    assert_eq!(int(&round_trip("fence_local.E", "FENCE"), "Mask"), 0x21);
    assert_eq!(
        int(&round_trip("fence_global.EISCRL1", "FENCE"), "Mask"),
        0x5f
    );
    assert_eq!(int(&round_trip("fence_sw", "FENCE"), "Mask"), 0x80);
    // Letters are read in any case, printed as documented.
    let i = parse("fence_local.cl1");
    assert_eq!(int(&i, "Mask"), 0x68);
    assert_eq!(text::format_instruction(&i), "fence_local.CL1");
    // Out of order or repeated letters are not a flag word.
    assert!(text::parse_instruction("fence_global.RE").is_err());
    assert!(text::parse_instruction("fence_global.EE").is_err());
}

#[test]
fn glued_hex_suffix() {
    let line = "bfn.xd8 (M1, 32) R(0,0)<1> C(0,0)<1;1,0> B(0,0)<1;1,0> A(0,0)<1;1,0>";
    assert_eq!(int(&round_trip(line, "BFN"), "BooleanFuncCtrl"), 0xd8);
    let line = "bfn.x0 (M1, 16) R(0,0)<1> C(0,0)<1;1,0> B(0,0)<1;1,0> A(0,0)<1;1,0>";
    assert_eq!(int(&round_trip(line, "BFN"), "BooleanFuncCtrl"), 0);
    assert!(
        text::parse_instruction(
            "bfn.xzz (M1, 16) R(0,0)<1> C(0,0)<1;1,0> B(0,0)<1;1,0> A(0,0)<1;1,0>"
        )
        .is_err()
    );
    assert!(
        text::parse_instruction(
            "bfn.x100 (M1, 16) R(0,0)<1> C(0,0)<1;1,0> B(0,0)<1;1,0> A(0,0)<1;1,0>"
        )
        .is_err(),
        "0x100 does not fit the byte"
    );
}

#[test]
fn number_and_string_operands() {
    let call = round_trip("fcall (M1, 1) foo 3 1", "FCALL");
    assert_eq!(int(&call, "Arg_size"), 3);
    assert_eq!(int(&call, "Return_size"), 1);
    assert_eq!(
        field(&call, "Func_id"),
        &FieldValue::Operand(Operand::Name("foo".into()))
    );
    assert!(text::parse_instruction("fcall (M1, 1) foo bar 1").is_err());
    // Printed `LOC` and `FILE`: the compiler's lexer reads no lower-case spelling of them.
    assert_eq!(int(&round_trip("LOC 42", "LOC"), "Line_number"), 42);
    assert_eq!(int(&parse("loc 42"), "Line_number"), 42);
    assert_eq!(int(&parse("loc 0x10"), "Line_number"), 16);
    let file = round_trip("FILE \"src/a b.cl\"", "FILE");
    assert_eq!(
        field(&file, "File_name"),
        &FieldValue::Operand(Operand::Name("src/a b.cl".into()))
    );
    let err = text::parse_instruction("file a.cl").unwrap_err();
    assert_eq!(err.expected, "a quoted string");
    let err = text::parse_instruction("file \"a.cl").unwrap_err();
    assert_eq!(err.found, "an unterminated string");
}

#[test]
fn lane_count_packed_with_the_mask() {
    let i = round_trip("gather.4 (M1, 16) %slm 0x0:ud OFFS.0 DATA.0", "GATHER");
    assert_eq!(
        field(&i, "Num_elts"),
        &FieldValue::Exec(ExecSize {
            size: 16,
            mask_offset: 0,
            no_mask: false,
            mask_written: true
        })
    );
    assert_eq!(int(&i, "Elt_size"), 2);
    let i = round_trip("scatter.1 (M2_NM, 1) T6 0x4:ud OFFS.0 DATA.0", "SCATTER");
    assert!(
        matches!(field(&i, "Num_elts"), FieldValue::Exec(e) if e.size == 1 && e.no_mask && e.mask_offset == 1)
    );
    // Num_elts has no code for 4 lanes.
    let err = text::parse_instruction("gather.4 (M1, 4) %slm 0x0:ud OFFS.0 DATA.0").unwrap_err();
    assert!(err.expected.contains("8, 16, 1"), "{err}");
}

#[test]
fn compiler_spelling_of_the_mnemonic() {
    let line = "svm_gather4scaled.R (M1, 16) 0x0:uq ADDR.0 DST.0";
    let i = text::parse_instruction(line);
    assert!(i.is_ok_and(|i| visa_isa::INSTRUCTIONS[i.desc].name == "SVM_GATHER4_SCALED"));
    assert!(text::parse_instruction("svm_gather4_scaled.R (M1, 16) 0x0:uq ADDR.0 DST.0").is_err());
}

#[test]
fn state_operands_check_as_state() {
    let src = ".decl OFF v_type=G type=ud num_elts=1\n\
               movs (M1_NM, 1) %bss(0) OFF(0,0)<0;1,0>\n\
               movs (M1_NM, 1) OFF(0,0)<1> T6(0)\n";
    let m = text::parse(src).unwrap_or_else(|e| panic!("{}", e[0]));
    let diagnostics = text::check(&m);
    let t6 = diagnostics
        .iter()
        .filter(|d| d.message.contains("T6"))
        .count();
    // T6 is not declared in this module; nothing else is wrong.
    assert_eq!(t6, diagnostics.len(), "{diagnostics:?}");
    assert_eq!(
        text::format_module(&m).lines().nth(1),
        Some("    movs (M1_NM, 1) %bss(0) OFF(0,0)<0;1,0>")
    );
    // A general variable is not a state operand.
    let m = text::parse(
        ".decl OFF v_type=G type=ud num_elts=4\nmovs (M1_NM, 1) OFF(0) OFF(0,0)<0;1,0>\n",
    )
    .unwrap();
    let diagnostics = text::check(&m);
    assert!(
        diagnostics.iter().any(|d| d.message.contains("<dst>")),
        "{diagnostics:?}"
    );
}

/// The compiler reads raw_sends' numbers as `.` and a number, two tokens with blanks allowed
/// between them (GenX_IR accepts `raw_sends .15 .1 .0 .4` and `raw_sends . 15 . 1 . 0 . 4`): the
/// spaced forms read as the dotted one and print dotted. Only a plain-number suffix may be
/// spaced; a suffix with codes keeps its dot against the word.
#[test]
fn numeric_suffixes_may_be_spaced_as_the_compiler_reads_them() {
    let canonical = "raw_sends.15.1.0.4 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 T.0";
    let expected = parse(canonical);
    assert_eq!(
        [
            int(&expected, "FFID"),
            int(&expected, "NumSrc0"),
            int(&expected, "NumSrc1"),
            int(&expected, "NumDst")
        ],
        [15, 1, 0, 4]
    );
    for spaced in [
        "raw_sends .15 .1 .0 .4 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 T.0",
        "raw_sends.15 .1 .0 .4 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 T.0",
        "raw_sends . 15 . 1 . 0 . 4 (M1, 1) 0x0:ud 0x2420203:ud P.0 %null.0 T.0",
    ] {
        let i = parse(spaced);
        assert_eq!(i.fields, expected.fields, "{spaced}");
        assert_eq!(text::format_instruction(&i), canonical, "{spaced}");
    }
    let eot = parse("raw_sendsc_eot .1 .0 .0 (M1, 1) 0x0:ud 0x2000010:ud P.0 %null.0 %null.0");
    assert_eq!(
        text::format_instruction(&eot),
        "raw_sendsc_eot.1.0.0 (M1, 1) 0x0:ud 0x2000010:ud P.0 %null.0 %null.0"
    );
    // A spaced number binds only to a plain-number field: `.16` is no cache control of
    // `lsc_load` (GenX_IR refuses it too), the error is at it.
    let e = text::parse_instruction("lsc_load.ugm .16 (M1, 16) V:d32 flat[A]:a64")
        .expect_err("spaced coded suffix");
    assert_eq!(e.span.col, 14, "{e}");
}

/// The compiler's lexer reads each word suffix as a token of its own, so blanks may come before
/// it: GenX_IR accepts `add .sat (M1, 16) ...`, `lsc_load .ugm (M1, 16) ...` and
/// `lsc_load.ugm .ca.ca (M1, 16) ...` (checked with IGC 1.0.12504 on PVC). They read as the
/// unspaced forms and print without the blanks.
#[test]
fn word_suffixes_may_follow_blanks_as_the_compiler_reads_them() {
    for (spaced, canonical) in [
        (
            "add .sat (M1, 16) A(0,0)<1> B(0,0)<1;1,0> B(0,0)<1;1,0>",
            "add.sat (M1, 16) A(0,0)<1> B(0,0)<1;1,0> B(0,0)<1;1,0>",
        ),
        (
            "lsc_load .ugm (M1, 16) A:d32 flat[B]:a32",
            "lsc_load.ugm (M1, 16) A:d32 flat[B]:a32",
        ),
        (
            "lsc_load.ugm \t.ca.ca (M1, 16) A:d32 flat[B]:a32",
            "lsc_load.ugm.ca.ca (M1, 16) A:d32 flat[B]:a32",
        ),
    ] {
        let i = parse(spaced);
        assert_eq!(i.fields, parse(canonical).fields, "{spaced}");
        assert_eq!(text::format_instruction(&i), canonical, "{spaced}");
    }
    // A dot that starts no suffix is still an error at the dot.
    let e = text::parse_instruction("add . (M1, 16) A(0,0)<1> B(0,0)<1;1,0> B(0,0)<1;1,0>")
        .expect_err("a lone dot");
    assert_eq!(e.span.col, 5, "{e}");
}

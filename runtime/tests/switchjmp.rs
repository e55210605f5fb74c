//! `switchjmp`: the uniform multiway jump. A loop dispatches on its counter through a jump table,
//! checked against the same dispatch written in Rust; indices of every unsigned type; an index
//! past the table traps; malformed uses are load errors.

mod common;

use common::{program, run_v, trap_kind};
use visa_runtime::{LoadOptions, Program, TrapKind};

/// Ten rounds; round `i` applies case `i % 4` to every element of `V`.
const DISPATCH_LOOP: &str = "
.decl V v_type=G type=d num_elts=8 align=GRF
.decl I v_type=G type=ud num_elts=1
.decl K v_type=G type=ud num_elts=1
.decl P1 v_type=P num_elts=1
mov (M1_NM, 1) I(0,0)<1> 0x0:ud
LOOP:
and (M1_NM, 1) K(0,0)<1> I(0,0)<0;1,0> 0x3:ud
switchjmp (M1, 1) K(0,0)<0;1,0> (ADD1, TWICE, SUB3, FLIP)
ADD1:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:d
jmp (M1, 1) NEXT
TWICE:
mul (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x2:d
jmp (M1, 1) NEXT
SUB3:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> -3:d
jmp (M1, 1) NEXT
FLIP:
xor (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x5:d
NEXT:
add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:ud
cmp.lt (M1_NM, 1) P1 I(0,0)<0;1,0> 0xa:ud
(P1) jmp (M1, 1) LOOP
";

fn dispatch_reference(v: i32) -> i32 {
    (0..10).fold(v, |v, round| match round % 4 {
        0 => v.wrapping_add(1),
        1 => v.wrapping_mul(2),
        2 => v.wrapping_sub(3),
        _ => v ^ 5,
    })
}

#[test]
fn a_loop_dispatches_each_round_through_the_jump_table() {
    let input: [i32; 8] = [0, 1, -1, 7, 100, -50, 12345, i32::MAX / 4];
    let bits: Vec<u32> = input.iter().map(|v| *v as u32).collect();
    let out = run_v(DISPATCH_LOOP, &bits).unwrap();
    let expected: Vec<u32> = input
        .iter()
        .map(|v| dispatch_reference(*v) as u32)
        .collect();
    assert_eq!(out, expected);
}

/// `V` gets the number of the case the index selects.
fn select_with(index: &str) -> String {
    format!(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl B v_type=G type=ub num_elts=4
.decl W v_type=G type=uw num_elts=2
mov (M1_NM, 1) B(0,0)<1> 0x2:ub
mov (M1_NM, 1) W(0,0)<1> 0x1:uw
switchjmp (M1_NM, 1) {index} (C0, C1, C2)
C0:
mov (M1, 8) V(0,0)<1> 0x0:ud
ret (M1, 1)
C1:
mov (M1, 8) V(0,0)<1> 0x1:ud
ret (M1, 1)
C2:
mov (M1, 8) V(0,0)<1> 0x2:ud
"
    )
}

#[test]
fn the_index_may_be_a_byte_word_dword_or_immediate() {
    for (index, case) in [
        ("B(0,0)<0;1,0>", 2),
        ("W(0,0)<0;1,0>", 1),
        ("0x0:ud", 0),
        ("0x2:uw", 2),
    ] {
        let out = run_v(&select_with(index), &[9; 8]).unwrap();
        assert_eq!(out, [case; 8], "index {index}");
    }
}

#[test]
fn an_index_past_the_table_traps_with_the_index_and_the_table_size() {
    let result = run_v(&select_with("0x3:ud"), &[9; 8]);
    assert_eq!(
        trap_kind(result),
        TrapKind::SwitchIndex {
            index: 3,
            labels: 3
        }
    );
    let message = match run_v(&select_with("0x7:ub"), &[9; 8]) {
        Err(e) => e.to_string(),
        Ok(v) => panic!("expected a trap, got {v:?}"),
    };
    assert!(
        message.contains("switchjmp index 7 is outside its table of 3 label(s)"),
        "{message}"
    );
    assert!(
        message.contains("switchjmp"),
        "names the instruction: {message}"
    );
}

#[test]
fn a_one_label_table_jumps_there() {
    let src = "
.decl V v_type=G type=ud num_elts=8 align=GRF
switchjmp (M1, 1) 0x0:ud (ONLY)
mov (M1, 8) V(0,0)<1> 0x63:ud
ONLY:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
";
    assert_eq!(run_v(src, &[4; 8]).unwrap(), [5; 8]);
}

fn load_error(src: &str) -> String {
    match Program::from_text(src, &LoadOptions::default()) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("expected a load error for\n{src}"),
    }
}

#[test]
fn malformed_switches_are_load_errors() {
    let decl = ".decl K v_type=G type=ud num_elts=1\n.decl F v_type=G type=f num_elts=1\n";
    let undefined = load_error(&format!(
        "{decl}switchjmp (M1, 1) K(0,0)<0;1,0> (A, MISSING)\nA:\n"
    ));
    assert!(undefined.contains("MISSING"), "{undefined}");
    let float = load_error(&format!("{decl}switchjmp (M1, 1) F(0,0)<0;1,0> (A)\nA:\n"));
    assert!(float.contains("index") && float.contains("f"), "{float}");
    let empty = load_error(&format!("{decl}switchjmp (M1, 1) K(0,0)<0;1,0> ()\n"));
    assert!(
        empty.contains("the list <label> has 0 elements, it must have 1 to 32"),
        "{empty}"
    );
    // The checker's limits hold at load too: 1 to 32 labels (the range of `Num_labels`), an
    // index of type UB, UW or UD.
    let many = vec!["A"; 33].join(", ");
    let too_many = load_error(&format!(
        "{decl}switchjmp (M1, 1) K(0,0)<0;1,0> ({many})\nA:\n"
    ));
    assert!(
        too_many.contains("the list <label> has 33 elements, it must have 1 to 32"),
        "{too_many}"
    );
    let signed =
        load_error(".decl I v_type=G type=d num_elts=1\nswitchjmp (M1, 1) I(0,0)<0;1,0> (A)\nA:\n");
    assert!(
        signed.contains("switchjmp index has type d, it must be an unsigned integer (UB, UW, UD)"),
        "{signed}"
    );
}

#[test]
fn the_table_round_trips_through_the_formatter() {
    let src = ".decl K v_type=G type=ud num_elts=1\nswitchjmp (M1, 1) K(0,0)<0;1,0> (A,B C)\nA:\nB:\nC:\n";
    let module = visa_isa::text::parse(src).unwrap();
    let text = visa_isa::text::format_module(&module);
    assert!(
        text.contains("switchjmp (M1, 1) K(0,0)<0;1,0> (A, B, C)"),
        "{text}"
    );
    program(&text);
}

//! `sad2` (SAD2.md): sums of absolute differences over pairs of byte channels, the sum in the
//! even destination element and the odd one undefined. Expectations computed in Rust.

mod common;

use common::{defined, program, tracks_definedness};
use visa_runtime::{Launch, LoadOptions, Program};

const SRC: &str = "
.decl A v_type=G type=ub num_elts=16 align=GRF
.decl B v_type=G type=b num_elts=16 align=GRF
.decl D v_type=G type=w num_elts=16 align=GRF
.decl P v_type=P num_elts=16
mov (M1_NM, 16) D(0,0)<1> 0x7777:w
cmp.ne (M1_NM, 16) P A(0,0)<1;1,0> 0x0:ub
(P) sad2 (M1_NM, 16) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
";

#[test]
fn pairs_sum_their_absolute_differences_into_the_even_channel() {
    let a: [u8; 16] = [255, 0, 10, 20, 0, 9, 200, 100, 1, 2, 3, 4, 5, 6, 7, 8];
    let b: [i8; 16] = [
        -128, 127, 20, 10, 5, 5, -1, -100, 1, 2, -3, -4, 0, 0, 127, -128,
    ];
    let p = program(SRC);
    let r = Launch::new(&p)
        .simd(1)
        .bind_elements("A", &a)
        .bind_elements("B", &b)
        .capture("D")
        .run()
        .unwrap();
    let (bytes, _) = r.thread_bytes("D", 0).unwrap();
    let d: Vec<i16> = bytes
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let defined = defined(&r, "D");
    for pair in 0..8 {
        let (e, o) = (2 * pair, 2 * pair + 1);
        let diff = |l: usize| (i32::from(a[l]) - i32::from(b[l])).abs();
        if a[e] == 0 {
            // The predicate disables the even channel: the pair keeps its old values.
            assert_eq!((d[e], d[o]), (0x7777, 0x7777), "pair {pair}");
            assert!(defined[2 * o] && defined[2 * o + 1]);
        } else {
            assert_eq!(i32::from(d[e]), diff(e) + diff(o), "pair {pair}");
            assert!(
                !tracks_definedness() || !defined[2 * o] && !defined[2 * o + 1],
                "odd channel {o} is undefined"
            );
        }
    }
}

#[test]
fn operand_types_and_size_are_checked_at_load() {
    let load = |decls: &str, line: &str| {
        Program::from_text(&format!("{decls}\n{line}\n"), &LoadOptions::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let decls = ".decl A v_type=G type=ub num_elts=16 align=GRF
.decl D v_type=G type=w num_elts=16 align=GRF
.decl E v_type=G type=d num_elts=16 align=GRF";
    let err = load(decls, "sad2 (M1, 16) E(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>").unwrap_err();
    // The compiler's verifier rule (spec/SAD2.md, Compiler checks) speaks first.
    assert!(err.contains("it must be of type W, UW"), "{err}");
    let err = load(decls, "sad2 (M1, 16) D(0,0)<1> E(0,0)<1;1,0> A(0,0)<1;1,0>").unwrap_err();
    assert!(err.contains("sources must be B or UB"), "{err}");
    let err = load(decls, "sad2 (M1, 1) D(0,0)<1> A(0,0)<0;1,0> A(0,0)<0;1,0>").unwrap_err();
    assert!(err.contains("at least 2"), "{err}");
}

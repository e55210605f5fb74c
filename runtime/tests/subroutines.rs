//! Subroutines: `.function "name"` + `name:` (or `subroutine name`) entered by `call`, left by
//! `ret`, with the call masks of CALL.md / RET.md. Expected values are worked out by hand.

mod common;

use common::{run_v, trap_kind};
use visa_runtime::TrapKind;

#[test]
fn scalar_calls_return_after_the_call() {
    let src = "
.decl V v_type=G type=ud num_elts=8 align=GRF
call (M1_NM, 1) double_0
call (M1_NM, 1) double_0
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
ret (M1_NM, 1)
.function \"double_0\"
double_0:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> V(0,0)<1;1,0>
ret (M1_NM, 1)
";
    let v: Vec<u32> = (0..8).collect();
    let expected: Vec<u32> = v.iter().map(|x| x * 4 + 1).collect();
    assert_eq!(run_v(src, &v).unwrap(), expected);
}

#[test]
fn wide_calls_enter_with_the_predicated_channels_and_restore_the_mask() {
    // Channels with V < 4 call the subroutine; inside, channels with V even return early,
    // the others add 10 more. After the return every channel is active again.
    let src = "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl B v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
.decl P2 v_type=P num_elts=8
cmp.lt (M1, 8) P1 V(0,0)<1;1,0> 0x4:ud
and (M1, 8) B(0,0)<1> V(0,0)<1;1,0> 0x1:ud
cmp.eq (M1, 8) P2 B(0,0)<1;1,0> 0x0:ud
(P1) call (M1, 8) sub_1
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
ret (M1_NM, 1)
.function \"sub_1\"
sub_1:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x64:ud
(P2) ret (M1, 8)
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0xa:ud
ret (M1, 8)
";
    let v: Vec<u32> = (0..8).collect();
    let expected: Vec<u32> = v
        .iter()
        .map(|&x| match x {
            x if x < 4 && x % 2 == 0 => x + 100 + 1,
            x if x < 4 => x + 110 + 1,
            x => x + 1,
        })
        .collect();
    assert_eq!(run_v(src, &v).unwrap(), expected);
    // No channel with its predicate set: the call is skipped.
    let big: Vec<u32> = (10..18).collect();
    let expected: Vec<u32> = big.iter().map(|x| x + 1).collect();
    assert_eq!(run_v(src, &big).unwrap(), expected);
}

#[test]
fn nested_calls_and_the_subroutine_mnemonic() {
    let src = "
.decl V v_type=G type=ud num_elts=8 align=GRF
call (M1_NM, 1) outer
ret (M1_NM, 1)
subroutine outer
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
call (M1_NM, 1) inner
call (M1_NM, 1) inner
ret (M1_NM, 1)
subroutine inner
mul (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x3:ud
ret (M1_NM, 1)
";
    let v: Vec<u32> = (0..8).collect();
    let expected: Vec<u32> = v.iter().map(|x| (x + 1) * 9).collect();
    assert_eq!(run_v(src, &v).unwrap(), expected);
}

#[test]
fn recursion_and_falling_into_a_subroutine_trap() {
    let recursive = "
.decl V v_type=G type=ud num_elts=8 align=GRF
call (M1_NM, 1) again
ret (M1_NM, 1)
.function \"again\"
again:
call (M1_NM, 1) again
ret (M1_NM, 1)
";
    assert_eq!(
        trap_kind(run_v(recursive, &[0; 8])),
        TrapKind::RecursiveCall { target: 2 }
    );
    let fall_through = "
.decl V v_type=G type=ud num_elts=8 align=GRF
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
.function \"body\"
body:
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
ret (M1_NM, 1)
";
    assert_eq!(
        trap_kind(run_v(fall_through, &[0; 8])),
        TrapKind::SubroutineWithoutCall { pc: 1 }
    );
    let jump_in = "
.decl V v_type=G type=ud num_elts=8 align=GRF
jmp (M1_NM, 1) body
.function \"body\"
body:
ret (M1_NM, 1)
";
    assert_eq!(
        trap_kind(run_v(jump_in, &[0; 8])),
        TrapKind::SubroutineWithoutCall { pc: 1 }
    );
}

#[test]
fn a_deep_call_chain_runs_without_host_recursion() {
    let mut src = String::from(".decl V v_type=G type=ud num_elts=8 align=GRF\n");
    src.push_str("call (M1_NM, 1) f0\nret (M1_NM, 1)\n");
    let depth = 200;
    for level in 0..depth {
        src.push_str(&format!(
            ".function \"f{level}\"\nf{level}:\nadd (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud\n"
        ));
        if level + 1 < depth {
            src.push_str(&format!("call (M1_NM, 1) f{}\n", level + 1));
        }
        src.push_str("ret (M1_NM, 1)\n");
    }
    assert_eq!(run_v(&src, &[5; 8]).unwrap(), [5 + depth; 8]);
}

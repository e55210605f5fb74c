//! Stack-call functions: `.global_function` objects entered by `fcall`, left by `fret`, with
//! arguments in `%arg` and results in `%retval` (FCALL.md, FRET.md). Expected values are
//! computed independently in Rust.

mod common;

use common::{run_v, run_v_interpreted, trap_kind};
use visa_runtime::{LoadOptions, Program, TrapKind};

/// The kernel passes V in `%arg`, the function returns `2 * arg + 1` in `%retval`. Both
/// objects declare `A` and `R`: each has its own name space. The kernel body has no `ret`: it
/// ends where the function starts.
const TWICE: &str = "
.kernel \"k\"
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=8 alias=<%retval, 0>
mov (M1, 8) A(0,0)<1> V(0,0)<1;1,0>
fcall (M1_NM, 1) twice 1 1
mov (M1, 8) V(0,0)<1> R(0,0)<1;1,0>
.global_function \"twice\"
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=8 alias=<%retval, 0>
.decl T v_type=G type=ud num_elts=8
add (M1, 8) T(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>
add (M1, 8) R(0,0)<1> T(0,0)<1;1,0> 0x1:ud
fret (M1_NM, 1)
";

#[test]
fn arguments_go_in_through_arg_and_results_come_back_through_retval() {
    let v: Vec<u32> = (0..8).map(|i| i * 7 + 3).collect();
    let expected: Vec<u32> = v.iter().map(|x| 2 * x + 1).collect();
    assert_eq!(run_v(TWICE, &v).unwrap(), expected);
}

#[test]
fn the_callers_passed_arguments_are_destroyed_by_the_call() {
    let src = TWICE.replace(
        "mov (M1, 8) V(0,0)<1> R(0,0)<1;1,0>",
        "mov (M1, 8) V(0,0)<1> A(0,0)<1;1,0>",
    );
    match trap_kind(run_v_interpreted(&src, &[1; 8])) {
        TrapKind::Uninitialized { var } => assert_eq!(var, "%arg"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn results_beyond_return_size_are_not_handed_back() {
    // Return_size 0: the callee's %retval is discarded, the caller's (never written) stays
    // undefined.
    let src = TWICE.replace("fcall (M1_NM, 1) twice 1 1", "fcall (M1_NM, 1) twice 1 0");
    match trap_kind(run_v_interpreted(&src, &[1; 8])) {
        TrapKind::Uninitialized { var } => assert_eq!(var, "%retval"),
        other => panic!("{other:?}"),
    }
}

/// sum(n) = n + sum(n - 1), sum(0) = 0, computed recursively on a scalar. `N` is the
/// function's own variable: each activation keeps its value across the recursive call.
const SUM: &str = "
.kernel \"k\"
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl A v_type=G type=ud num_elts=1 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=1 alias=<%retval, 0>
mov (M1_NM, 1) A(0,0)<1> V(0,0)<0;1,0>
fcall (M1_NM, 1) sum 1 1
mov (M1_NM, 1) V(0,0)<1> R(0,0)<0;1,0>
.global_function \"sum\"
.decl A v_type=G type=ud num_elts=1 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=1 alias=<%retval, 0>
.decl N v_type=G type=ud num_elts=1
.decl Z v_type=P num_elts=1
mov (M1_NM, 1) N(0,0)<1> A(0,0)<0;1,0>
cmp.eq (M1_NM, 1) Z N(0,0)<0;1,0> 0x0:ud
(Z) jmp (M1_NM, 1) base_case
add (M1_NM, 1) A(0,0)<1> N(0,0)<0;1,0> 0xffffffff:ud
fcall (M1_NM, 1) sum 1 1
add (M1_NM, 1) R(0,0)<1> R(0,0)<0;1,0> N(0,0)<0;1,0>
fret (M1_NM, 1)
base_case:
mov (M1_NM, 1) R(0,0)<1> 0x0:ud
fret (M1_NM, 1)
";

#[test]
fn recursive_functions_keep_their_own_variables_per_activation() {
    for n in [0u32, 1, 5, 40] {
        let mut v = vec![0u32; 8];
        v[0] = n;
        let result = run_v(SUM, &v).unwrap();
        assert_eq!(result[0], (1..=n).sum::<u32>(), "sum({n})");
    }
}

#[test]
fn wide_calls_enter_with_the_predicated_channels_and_return_when_all_have_left() {
    // Channels with V < 4 call; in the function, even ones return 100 + v at once, odd ones
    // return 200 + v after a nested call that adds 100. Channels not calling keep their V:
    // a callee leaves the %retval channels it does not write as the caller had them.
    let src = "
.kernel \"k\"
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=8 alias=<%retval, 0>
.decl P v_type=P num_elts=8
mov (M1, 8) A(0,0)<1> V(0,0)<1;1,0>
mov (M1, 8) R(0,0)<1> V(0,0)<1;1,0>
cmp.lt (M1, 8) P V(0,0)<1;1,0> 0x4:ud
(P) fcall (M1, 8) outer 1 1
mov (M1, 8) V(0,0)<1> R(0,0)<1;1,0>
.global_function \"outer\"
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=8 alias=<%retval, 0>
.decl B v_type=G type=ud num_elts=8
.decl E v_type=P num_elts=8
mov (M1, 8) B(0,0)<1> A(0,0)<1;1,0>
add (M1, 8) R(0,0)<1> B(0,0)<1;1,0> 0x64:ud
and (M1, 8) A(0,0)<1> B(0,0)<1;1,0> 0x1:ud
cmp.eq (M1, 8) E A(0,0)<1;1,0> 0x0:ud
(E) fret (M1, 8)
mov (M1, 8) A(0,0)<1> B(0,0)<1;1,0>
fcall (M1, 8) plus100 1 1
add (M1, 8) R(0,0)<1> R(0,0)<1;1,0> 0x64:ud
fret (M1, 8)
.global_function \"plus100\"
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
.decl R v_type=G type=ud num_elts=8 alias=<%retval, 0>
add (M1, 8) R(0,0)<1> A(0,0)<1;1,0> 0x64:ud
fret (M1, 8)
";
    let v: Vec<u32> = (0..8).collect();
    let expected: Vec<u32> = v
        .iter()
        .map(|&x| match x {
            x if x < 4 && x % 2 == 0 => x + 100,
            x if x < 4 => x + 200,
            x => x,
        })
        .collect();
    assert_eq!(run_v(src, &v).unwrap(), expected);
}

#[test]
fn misuse_traps_with_the_reason() {
    let fret_in_kernel = "
.decl V v_type=G type=ud num_elts=8 align=GRF
fret (M1_NM, 1)
";
    assert_eq!(
        trap_kind(run_v(fret_in_kernel, &[0; 8])),
        TrapKind::FretOutsideFunction
    );
    let ret_in_function = TWICE.replace("fret (M1_NM, 1)", "ret (M1_NM, 1)");
    assert_eq!(
        trap_kind(run_v(&ret_in_function, &[0; 8])),
        TrapKind::RetInFunction
    );
    let falls_off = TWICE.replace("fret (M1_NM, 1)", "");
    assert_eq!(
        trap_kind(run_v(&falls_off, &[0; 8])),
        TrapKind::FunctionWithoutFret {
            function: "twice".into()
        }
    );
    let declared = TWICE.replace(
        ".global_function \"twice\"",
        ".global_function \"twice\"\n.kernel_attr ArgSize=2",
    );
    assert_eq!(
        trap_kind(run_v(&declared, &[0; 8])),
        TrapKind::CallSizeMismatch {
            function: "twice".into(),
            what: "argument",
            given: 1,
            declared: 2
        }
    );
    let jumped_into = "
.decl V v_type=G type=ud num_elts=8 align=GRF
jmp (M1_NM, 1) inside
.global_function \"f\"
inside:
fret (M1_NM, 1)
";
    assert!(matches!(
        trap_kind(run_v(jumped_into, &[0; 8])),
        TrapKind::SubroutineWithoutCall { .. }
    ));
}

#[test]
fn bad_calls_are_load_errors() {
    let load = |src: &str| Program::from_text(src, &LoadOptions::default()).unwrap_err();
    let unknown = load("fcall (M1_NM, 1) nowhere 1 1\n");
    assert!(
        unknown
            .message
            .contains("`nowhere` in <func_id> is not declared"),
        "{unknown}"
    );
    let too_big = load("fcall (M1_NM, 1) f 33 1\n.global_function \"f\"\nfret (M1_NM, 1)\n");
    assert!(too_big.message.contains("Arg_size 33 exceeds"), "{too_big}");
    let twice = load(".global_function \"f\"\nfret (M1_NM, 1)\n.global_function \"f\"\n");
    assert!(twice.message.contains("defined twice"), "{twice}");
}

#[test]
fn arg_and_retval_are_sized_in_grfs_of_the_platform() {
    for grf in [32u32, 64] {
        let p = Program::from_text(
            ".decl A v_type=G type=ud num_elts=1 alias=<%arg, 0>\n\
             .decl R v_type=G type=ud num_elts=1 alias=<%retval, 0>\n\
             mov (M1_NM, 1) A(0,0)<1> 0x1:ud\nmov (M1_NM, 1) R(0,0)<1> 0x1:ud\n",
            &LoadOptions::default().grf_bytes(grf),
        )
        .unwrap();
        let size = |name: &str| {
            p.layout()
                .vars
                .iter()
                .find(|v| v.name == name)
                .map(|v| v.size)
                .unwrap()
        };
        assert_eq!(size("%arg"), 32 * grf);
        assert_eq!(size("%retval"), 12 * grf);
    }
}

//! `wait` (WAIT.md) and `yield` (YIELD.md): this machine has no thread-space dependencies and
//! no preemptive scheduler, so both do nothing but count as executed instructions. The wait
//! mask is still checked at load.

mod common;

use common::{program, run_v};
use visa_runtime::{Launch, LoadOptions, Program};

const BODY: &str = "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl M v_type=G type=ub num_elts=4
mov (M1_NM, 1) M(0,0)<1> 0x3:ub
wait 0x0:ub
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x5:ud
yield
wait M(0,0)<0;1,0>
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x10:ud
";

#[test]
fn wait_and_yield_leave_the_computation_unchanged() {
    let v: Vec<u32> = (0..8).map(|i| i * 3).collect();
    let expected: Vec<u32> = (0..8).map(|i| i * 3 + 0x15).collect();
    assert_eq!(run_v(BODY, &v).unwrap(), expected);
}

#[test]
fn wait_and_yield_count_as_executed_instructions() {
    let p = program(BODY);
    let r = Launch::new(&p)
        .simd(8)
        .groups(3)
        .bind_vector("V", &[0u32; 24])
        .run()
        .unwrap();
    // Six instructions per thread, one thread per group.
    assert_eq!(r.steps(), 18);
}

#[test]
fn the_wait_mask_is_checked_at_load() {
    let err = |body: &str| {
        Program::from_text(
            &format!(".decl W v_type=G type=ud num_elts=1\n{body}"),
            &LoadOptions::default(),
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        err("wait 0x0:ud\n"),
        "wait: the mask must have type UB, not ud at 2:6"
    );
    assert_eq!(
        err("wait W(0,0)<0;1,0>\n"),
        "wait: the mask must have type UB, not ud at 2:6"
    );
    assert_eq!(
        err("wait X(0,0)<0;1,0>\n"),
        "wait: `X` in <mask> is not declared at 2:6"
    );
}

//! `barrier`: the threads of a group advance in phases, so data one thread writes to SLM
//! before a barrier is seen by every thread of its group after it. Without the barrier the
//! reading thread 0 would run first and see zeros, so these results depend on it.

mod common;

use common::{program, whole};
use visa_runtime::{Launch, LaunchError, TrapKind};

const REDUCTION: &str = "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl OFF v_type=G type=ud num_elts=1 align=GRF
.decl ALL v_type=G type=ud num_elts=32 align=GRF
.decl SUM v_type=G type=ud num_elts=8 align=GRF
.decl TOTAL v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=1
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x3:uw
(P1) ret (M1, 1)
shl (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0> 0x1:ud
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
barrier
oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) SUM(0,0)<1> ALL(0,0)<1;1,0> ALL(1,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(3,0)<1;1,0>
barrier
oword_st (2) %slm OFF(0,0)<0;1,0> SUM.0
barrier
oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) TOTAL(0,0)<1> ALL(0,0)<1;1,0> ALL(1,0)<1;1,0>
add (M1, 8) TOTAL(0,0)<1> TOTAL(0,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) TOTAL(0,0)<1> TOTAL(0,0)<1;1,0> ALL(3,0)<1;1,0>
";

#[test]
fn slm_reduction_across_barriers_is_exact_at_any_group_count() {
    let p = program(REDUCTION);
    for groups in [1u32, 2, 64] {
        for threads in [1u32, 3, 4] {
            let launch = Launch::new(&p)
                .simd(8)
                .groups(groups)
                .threads_per_group(threads)
                .slm_size(128);
            let v: Vec<u32> = (0..launch.work_items() as u32)
                .map(|i| i * 7 % 1000 + 1)
                .collect();
            let r = launch
                .bind_vector("V", &v)
                .capture("SUM")
                .capture("TOTAL")
                .run()
                .unwrap();
            // Thread 3 of a group returns at once; threads 0..min(threads, 3) take part.
            let active = threads.min(3) as usize;
            for group in 0..groups as usize {
                let first = group * threads as usize;
                let mut sum = [0u32; 8];
                for t in 0..active {
                    for (lane, s) in sum.iter_mut().enumerate() {
                        *s += v[(first + t) * 8 + lane];
                    }
                }
                for t in 0..active {
                    let thread = first + t;
                    assert_eq!(
                        whole::<u32>(&r, "SUM", thread),
                        sum,
                        "groups {groups} threads {threads} thread {thread}"
                    );
                    // Second phase: every active thread stored the same SUM.
                    let total: Vec<u32> = sum.iter().map(|s| s * active as u32).collect();
                    assert_eq!(whole::<u32>(&r, "TOTAL", thread), total);
                }
            }
        }
    }
}

#[test]
fn barrier_in_divergent_control_flow_traps() {
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
cmp.lt (M1, 8) P1 V(0,0)<1;1,0> 0x4:ud
(P1) goto (M1, 8) SKIP
barrier
SKIP:
",
    );
    let err = Launch::new(&p)
        .simd(8)
        .threads_per_group(2)
        .bind_vector("V", &(0..16u32).collect::<Vec<_>>())
        .run()
        .unwrap_err();
    match err {
        LaunchError::Trap(trap) => {
            assert!(
                matches!(trap.kind, TrapKind::DivergentBarrier { mask: 0xf }),
                "{trap}"
            );
            assert_eq!(trap.instruction, "barrier");
        }
        other => panic!("expected a trap, got {other}"),
    }
}

#[test]
fn fuel_and_steps_count_every_phase() {
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
mov (M1, 8) V(0,0)<1> 0x1:ud
barrier
mov (M1, 8) V(0,0)<1> 0x2:ud
barrier
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> %tsc(0,0)<0;1,0>
",
    );
    let r = Launch::new(&p)
        .simd(8)
        .groups(3)
        .threads_per_group(2)
        .capture("V")
        .run()
        .unwrap();
    // Five instructions per thread; %tsc counts across phases (5 at the last instruction).
    assert_eq!(r.steps(), 5 * 6);
    assert_eq!(whole::<u32>(&r, "V", 5), [7; 8]);
    let err = Launch::new(&p)
        .simd(8)
        .threads_per_group(2)
        .fuel(7)
        .run()
        .unwrap_err();
    assert!(matches!(err, LaunchError::Trap(t) if matches!(t.kind, TrapKind::OutOfFuel(7))));
}

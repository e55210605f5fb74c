//! `nbarrier` (NBARRIER.md): producer/consumer synchronisation of some threads of a group.
//! Threads run in thread order until they block, so without the barrier the consumer
//! (thread 0) would read SLM before any producer wrote it and see zeros.

mod common;

use common::{program, trap_kind, whole};
use visa_runtime::{Launch, LaunchError, LaunchResult, TrapKind};

fn run(src: &str, threads: u32, v: &[u32]) -> Result<LaunchResult, LaunchError> {
    let p = program(src);
    Launch::new(&p)
        .simd(8)
        .threads_per_group(threads)
        .slm_size(128)
        .bind_vector("V", v)
        .capture("SUM")
        .run()
}

const DECLS: &str = "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl OFF v_type=G type=ud num_elts=1 align=GRF
.decl ALL v_type=G type=ud num_elts=32 align=GRF
.decl SUM v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=1
";

/// Thread 0 consumes (type 2), threads 1..=3 produce (type 1) their V into SLM slots.
fn producer_consumer(producers_announced: u32) -> String {
    format!(
        "{DECLS}
mov (M1, 8) SUM(0,0)<1> 0x0:ud
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(P1) jmp (M1_NM, 1) consumer
shl (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0> 0x1:ud
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
nbarrier.signal 0x5:ub 0x1:uw {producers_announced:#x}:ub 0x1:ub
ret (M1_NM, 1)
consumer:
nbarrier.signal 0x5:ub 0x2:uw {producers_announced:#x}:ub 0x1:ub
nbarrier.wait 0x5:ub
oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) SUM(0,0)<1> ALL(1,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(3,0)<1;1,0>
"
    )
}

#[test]
fn a_consumer_waits_until_every_producer_has_signalled() {
    let v: Vec<u32> = (0..32).map(|i| i * 13 % 97 + 1).collect();
    let r = run(&producer_consumer(3), 4, &v).unwrap();
    let expected: Vec<u32> = (0..8).map(|l| v[8 + l] + v[16 + l] + v[24 + l]).collect();
    assert_eq!(whole::<u32>(&r, "SUM", 0), expected);
}

#[test]
fn a_wait_that_no_producer_can_satisfy_is_a_deadlock() {
    // Four producers announced, three exist.
    let kind = trap_kind(run(&producer_consumer(4), 4, &[1; 32]));
    assert_eq!(kind, TrapKind::NamedBarrierDeadlock { waiting: 1 });
}

/// Baseline form, used twice: every thread is producer and consumer; the barrier is free
/// again after all four have waited, so the second round reuses it.
const ALL_TO_ALL: &str = "
mov (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0>
shl (M1_NM, 1) OFF(0,0)<1> OFF(0,0)<0;1,0> 0x1:ud
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
nbarrier.signal 0x0:ub 0x4:ub
nbarrier.wait 0x0:ub
oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) SUM(0,0)<1> ALL(0,0)<1;1,0> ALL(1,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(3,0)<1;1,0>
nbarrier.signal 0x0:ub 0x4:ub
nbarrier.wait 0x0:ub
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> SUM(0,0)<1;1,0>
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
nbarrier.signal 0x0:ub 0x4:ub
nbarrier.wait 0x0:ub
oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) SUM(0,0)<1> ALL(0,0)<1;1,0> ALL(1,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) SUM(0,0)<1> SUM(0,0)<1;1,0> ALL(3,0)<1;1,0>
";

#[test]
fn the_baseline_form_synchronises_all_participants_and_the_barrier_is_reused() {
    let src = format!("{DECLS}{ALL_TO_ALL}");
    let v: Vec<u32> = (0..32).map(|i| i * 31 % 101).collect();
    let r = run(&src, 4, &v).unwrap();
    // Round 1: every thread sums the four slots; round 2: each slot becomes V + that sum,
    // so the second sum is (sum of V) + 4 * (sum of V).
    let first: Vec<u32> = (0..8).map(|l| (0..4).map(|t| v[t * 8 + l]).sum()).collect();
    let expected: Vec<u32> = first.iter().map(|s| s * 5).collect();
    for thread in 0..4 {
        assert_eq!(whole::<u32>(&r, "SUM", thread), expected, "thread {thread}");
    }
}

#[test]
fn misuse_is_reported_with_the_barrier_and_the_reason() {
    let problem = |src: &str, threads: u32| match trap_kind(run(
        &format!("{DECLS}mov (M1, 8) SUM(0,0)<1> 0x0:ud\n{src}"),
        threads,
        &vec![0; threads as usize * 8],
    )) {
        TrapKind::NamedBarrier { id, problem } => (id, problem),
        other => panic!("{other:?}"),
    };
    let (id, p) = problem("nbarrier.wait 0x3:ub\n", 1);
    assert_eq!(id, 3);
    assert!(p.contains("not signalled"), "{p}");
    let (id, p) = problem("nbarrier.signal 0x20:ub 0x1:ub\n", 1);
    assert_eq!(id, 32);
    assert!(p.contains("below 32"), "{p}");
    // Threads disagree on the counts: thread 0 announces 2, thread 1 announces 3.
    let (_, p) = problem(
        "add (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0> 0x2:ud
nbarrier.signal 0x1:ub OFF(0,0)<0;1,0>\n",
        2,
    );
    assert!(p.contains("announces 3 producers"), "{p}");
    let (_, p) = problem("nbarrier.signal 0x1:ub 0x3:uw 0x1:ub 0x1:ub\n", 1);
    assert!(p.contains("type 3"), "{p}");
    let twice = "nbarrier.signal 0x1:ub 0x0:uw 0x2:ub 0x2:ub\n";
    let (_, p) = problem(&format!("{twice}{twice}"), 1);
    assert!(p.contains("consumer again before waiting"), "{p}");
    // Two consumer-only signals where one consumer was announced.
    let (_, p) = problem("nbarrier.signal 0x1:ub 0x2:uw 0x1:ub 0x1:ub\n", 2);
    assert!(p.contains("more consumer signals than the 1"), "{p}");
}

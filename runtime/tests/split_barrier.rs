//! `sbarrier` (SBARRIER.md): the group barrier in two halves. Threads run in thread order
//! until they block, so without the wait thread 0 would read SLM before the later threads had
//! written it and see zeros; these results depend on the barrier.

mod common;

use common::{program, trap_kind, whole};
use visa_runtime::{Launch, LaunchError, LaunchResult, Trap, TrapKind};

const DECLS: &str = "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl W v_type=G type=ud num_elts=8 align=GRF
.decl X v_type=G type=ud num_elts=8 align=GRF
.decl OFF v_type=G type=ud num_elts=1 align=GRF
.decl ALL v_type=G type=ud num_elts=32 align=GRF
.decl SUM v_type=G type=ud num_elts=8 align=GRF
.decl TOTAL v_type=G type=ud num_elts=8 align=GRF
.decl P1 v_type=P num_elts=1
";

/// `DST` = the sum of the four SLM slots of eight dwords.
fn sum_slots(dst: &str) -> String {
    format!(
        "oword_ld (8) %slm 0x0:ud ALL.0
add (M1, 8) {dst}(0,0)<1> ALL(0,0)<1;1,0> ALL(1,0)<1;1,0>
add (M1, 8) {dst}(0,0)<1> {dst}(0,0)<1;1,0> ALL(2,0)<1;1,0>
add (M1, 8) {dst}(0,0)<1> {dst}(0,0)<1;1,0> ALL(3,0)<1;1,0>
"
    )
}

/// Thread 3 of a group ends at once. The others store V in their slot, signal, compute
/// W = 3V while the others arrive, wait, and sum the slots (SUM). A second phase keeps the
/// slots until everyone has read them; then each stores SUM + W, and a plain `barrier` (the
/// same barrier, signal and wait in one) guards the final sum (TOTAL).
fn phases() -> String {
    format!(
        "{DECLS}
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x3:uw
(P1) ret (M1, 1)
shl (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0> 0x1:ud
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
sbarrier.signal
mul (M1, 8) W(0,0)<1> V(0,0)<1;1,0> 0x3:ud
sbarrier.wait
{}sbarrier.signal
sbarrier.wait
add (M1, 8) X(0,0)<1> SUM(0,0)<1;1,0> W(0,0)<1;1,0>
oword_st (2) %slm OFF(0,0)<0;1,0> X.0
barrier
{}",
        sum_slots("SUM"),
        sum_slots("TOTAL")
    )
}

#[test]
fn split_phases_order_slm_traffic_at_any_group_count() {
    let p = program(&phases());
    for groups in [1u32, 2, 64] {
        for threads in [1u32, 2, 4] {
            let launch = Launch::new(&p)
                .simd(8)
                .groups(groups)
                .threads_per_group(threads)
                .slm_size(128);
            let v: Vec<u32> = (0..launch.work_items() as u32)
                .map(|i| i * 11 % 1009 + 1)
                .collect();
            let r = launch
                .bind_vector("V", &v)
                .capture("SUM")
                .capture("TOTAL")
                .run()
                .unwrap();
            let active = threads.min(3) as usize;
            for group in 0..groups as usize {
                let first = group * threads as usize;
                let mut sum = [0u32; 8];
                for t in 0..active {
                    for (lane, s) in sum.iter_mut().enumerate() {
                        *s += v[(first + t) * 8 + lane];
                    }
                }
                // Each slot holds SUM + 3V: the total is active * SUM + 3 * SUM.
                let total: Vec<u32> = sum.iter().map(|s| s * (active as u32 + 3)).collect();
                for t in 0..active {
                    let thread = first + t;
                    let at = format!("groups {groups} threads {threads} thread {thread}");
                    assert_eq!(whole::<u32>(&r, "SUM", thread), sum, "{at}");
                    assert_eq!(whole::<u32>(&r, "TOTAL", thread), total, "{at}");
                }
            }
        }
    }
}

#[test]
fn barrier_and_split_halves_take_part_in_the_same_phase() {
    // Thread 0 uses a plain barrier, the others signal and wait; all see all slots.
    let src = format!(
        "{DECLS}
shl (M1_NM, 1) OFF(0,0)<1> %thread_x(0,0)<0;1,0> 0x1:ud
oword_st (2) %slm OFF(0,0)<0;1,0> V.0
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(P1) jmp (M1_NM, 1) plain
sbarrier.signal
sbarrier.wait
jmp (M1_NM, 1) read
plain:
barrier
read:
{}",
        sum_slots("SUM")
    );
    let v: Vec<u32> = (0..32).map(|i| i * 7 + 2).collect();
    let r = run(&src, 4, &v).unwrap();
    let sum: Vec<u32> = (0..8).map(|l| (0..4).map(|t| v[t * 8 + l]).sum()).collect();
    for thread in 0..4 {
        assert_eq!(whole::<u32>(&r, "SUM", thread), sum, "thread {thread}");
    }
}

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

#[test]
fn a_wait_whose_phase_completed_meanwhile_passes_at_once() {
    // Thread 0 signals, then blocks on a named barrier that thread 1 produces; thread 1 writes
    // its slot, signals both barriers and waits. The group phase completes while thread 0 is
    // still blocked on the named barrier; its sbarrier.wait then passes without blocking.
    let src = format!(
        "{DECLS}
cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(P1) jmp (M1_NM, 1) consumer
oword_st (2) %slm 0x2:ud V.0
sbarrier.signal
nbarrier.signal 0x4:ub 0x1:uw 0x1:ub 0x1:ub
sbarrier.wait
ret (M1_NM, 1)
consumer:
sbarrier.signal
nbarrier.signal 0x4:ub 0x2:uw 0x1:ub 0x1:ub
nbarrier.wait 0x4:ub
sbarrier.wait
{}",
        sum_slots("SUM")
    );
    let v: Vec<u32> = (0..16).map(|i| i + 100).collect();
    let r = run(&src, 2, &v).unwrap();
    // Only slot 1 was written (by thread 1).
    assert_eq!(whole::<u32>(&r, "SUM", 0), v[8..16]);
    // Thread 0 executes 11 instructions (the retried named wait twice, the group wait once),
    // thread 1 seven.
    assert_eq!(r.steps(), 18);
}

#[test]
fn a_blocked_wait_counts_as_one_instruction() {
    let src =
        format!("{DECLS}sbarrier.signal\nsbarrier.wait\nmov (M1, 8) SUM(0,0)<1> V(0,0)<1;1,0>\n");
    let r = run(&src, 3, &[5; 24]).unwrap();
    assert_eq!(r.steps(), 9);
    assert_eq!(r.vector::<u32>("SUM").unwrap(), vec![5; 24]);
}

fn trap(src: &str, threads: u32) -> Trap {
    match run(
        &format!("{DECLS}{src}"),
        threads,
        &vec![1; threads as usize * 8],
    ) {
        Err(LaunchError::Trap(t)) => *t,
        other => panic!("expected a trap, got {other:?}"),
    }
}

#[test]
fn misuse_traps_at_the_instruction() {
    let t = trap("sbarrier.wait\n", 2);
    assert_eq!(
        t.kind,
        TrapKind::SplitBarrier {
            problem: "wait without a preceding sbarrier.signal by this thread".into()
        }
    );
    assert_eq!(
        (t.thread, t.pc, t.instruction.as_str()),
        (0, 0, "sbarrier.wait")
    );
    assert!(
        t.to_string().ends_with(
            "at pc 0 (10:1: `sbarrier.wait`): group barrier: wait without a preceding \
             sbarrier.signal by this thread"
        ),
        "{t}"
    );
    let t = trap("sbarrier.signal\nsbarrier.signal\n", 1);
    assert_eq!((t.pc, t.instruction.as_str()), (1, "sbarrier.signal"));
    assert!(
        t.kind.to_string().contains("second signal before waiting"),
        "{t}"
    );
    let t = trap("sbarrier.signal\nbarrier\n", 2);
    assert_eq!((t.pc, t.instruction.as_str()), (1, "barrier"));
    assert!(
        t.kind.to_string().contains("has not been waited for"),
        "{t}"
    );
    // A wait after the phase it signalled completed still needs a fresh signal.
    let t = trap("sbarrier.signal\nsbarrier.wait\nsbarrier.wait\n", 2);
    assert_eq!(t.pc, 2);
    assert!(
        t.kind.to_string().contains("wait without a preceding"),
        "{t}"
    );
}

#[test]
fn split_halves_in_divergent_control_flow_trap() {
    let src = "
cmp.lt (M1, 8) P1 V(0,0)<1;1,0> 0x4:ud
(P1) goto (M1, 8) skip
sbarrier.signal
skip:
sbarrier.signal
";
    let p = program(&format!("{DECLS}{src}"));
    let v: Vec<u32> = (0..8).collect();
    let kind = trap_kind(Launch::new(&p).simd(8).bind_vector("V", &v).run());
    assert!(
        matches!(kind, TrapKind::DivergentBarrier { .. }),
        "{kind:?}"
    );
}

#[test]
fn a_phase_that_a_blocked_thread_never_signals_is_a_deadlock() {
    // Thread 1 waits as the only consumer of a named barrier without producers; thread 0
    // waits for it at the group barrier.
    let t = trap(
        "cmp.eq (M1_NM, 1) P1 %thread_x(0,0)<0;1,0> 0x0:uw
(P1) jmp (M1_NM, 1) split
nbarrier.signal 0x1:ub 0x2:uw 0x1:ub 0x1:ub
nbarrier.wait 0x1:ub
split:
sbarrier.signal
sbarrier.wait
",
        2,
    );
    assert_eq!(t.kind, TrapKind::NamedBarrierDeadlock { waiting: 1 });
    assert_eq!(
        (t.thread, t.instruction.as_str()),
        (1, "nbarrier.wait 0x1:ub")
    );
}

//! `Launch::cancel_flag` and `Launch::progress`: a cancelled launch starts no further group,
//! its running threads stop within a chunk of instructions, it returns
//! `LaunchError::Cancelled` saying where each stopped; the progress counter counts finished
//! groups.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use common::{FOREVER, program};
use visa_runtime::{Launch, LaunchError, TrapKind};

/// Each thread counts N up to 2000 (about 4,000 instructions per group).
const COUNT: &str = "\
.kernel \"count\"
.decl N v_type=G type=d num_elts=8 align=GRF
.decl P v_type=P num_elts=8
mov (M1, 8) N(0,0)<1> 0x0:d
TOP:
add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 8) P N(0,0)<1;1,0> 0x7d0:d
(P.any) jmp (M1, 1) TOP
";

#[test]
fn a_flag_set_before_the_launch_runs_no_group() {
    let p = program(COUNT);
    let cancel = Arc::new(AtomicBool::new(true));
    let done = Arc::new(AtomicU64::new(0));
    let result = Launch::new(&p)
        .simd(8)
        .groups(5)
        .cancel_flag(cancel)
        .progress(done.clone())
        .run();
    match result {
        Err(e @ LaunchError::Cancelled { .. }) => {
            assert_eq!(
                e,
                LaunchError::Cancelled {
                    groups_done: 0,
                    groups: 5,
                    stopped: Vec::new(),
                }
            );
            assert_eq!(
                e.to_string(),
                "the launch was cancelled (0 of 5 groups done)"
            );
        }
        other => panic!("expected Cancelled, got {:?}", other.map(|r| r.steps())),
    }
    assert_eq!(done.load(Ordering::Relaxed), 0);
}

#[test]
fn an_unset_flag_changes_nothing_and_progress_counts_every_group() {
    let p = program(COUNT);
    let done = Arc::new(AtomicU64::new(0));
    // A counter left over from elsewhere: the launch starts it from 0.
    let steps = Arc::new(AtomicU64::new(12345));
    let result = Launch::new(&p)
        .simd(8)
        .groups(7)
        .cancel_flag(Arc::new(AtomicBool::new(false)))
        .progress(done.clone())
        .steps_counter(steps.clone())
        .capture("N")
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done.load(Ordering::Relaxed), 7);
    // 1 mov + 2000 x (add, cmp, jmp) per thread.
    assert_eq!(result.steps(), 7 * (1 + 2000 * 3));
    assert_eq!(steps.load(Ordering::Relaxed), result.steps());
}

#[test]
fn a_flag_set_while_running_stops_the_launch_between_groups() {
    let p = program(COUNT);
    // Enough groups that the launch cannot end before the watcher thread has run, however
    // busy the machine (2,000 finished first on compiled code under a loaded test run).
    let groups = 200_000;
    let cancel = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    // Cancels as soon as the first group has finished.
    let watcher = {
        let (cancel, done) = (cancel.clone(), done.clone());
        std::thread::spawn(move || {
            while done.load(Ordering::Relaxed) == 0 {
                std::hint::spin_loop();
            }
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let result = Launch::new(&p)
        .simd(8)
        .groups(groups)
        .fuel(u64::MAX)
        .cancel_flag(cancel)
        .progress(done.clone())
        .run();
    watcher.join().unwrap();
    match result {
        Err(LaunchError::Cancelled {
            groups_done,
            groups: total,
            stopped,
        }) => {
            assert_eq!(total, groups);
            assert!(groups_done >= 1 && groups_done < groups, "{groups_done}");
            assert_eq!(u64::from(groups_done), done.load(Ordering::Relaxed));
            // Groups caught mid-way stopped at one of the kernel's four instructions (at the
            // first when the flag was set as the group started), one thread each.
            assert!(groups_done as usize + stopped.len() <= groups as usize);
            for trap in &stopped {
                assert_eq!(trap.kind, TrapKind::Cancelled);
                assert!(trap.pc <= 3, "{trap:?}");
            }
        }
        other => panic!("expected Cancelled, got {:?}", other.map(|r| r.steps())),
    }
}

/// A thread that would run for ever stops soon after the flag is set, and the error says where.
#[test]
fn a_flag_set_while_a_thread_runs_stops_it_inside_the_group() {
    let p = program(FOREVER);
    let cancel = Arc::new(AtomicBool::new(false));
    let steps = Arc::new(AtomicU64::new(0));
    // Cancels once the thread has run a while.
    let watcher = {
        let (cancel, steps) = (cancel.clone(), steps.clone());
        std::thread::spawn(move || {
            while steps.load(Ordering::Relaxed) < 100_000 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let result = Launch::new(&p)
        .simd(8)
        .fuel(u64::MAX)
        .cancel_flag(cancel)
        .steps_counter(steps)
        .run();
    watcher.join().unwrap();
    match result {
        Err(LaunchError::Cancelled {
            groups_done: 0,
            groups: 1,
            stopped,
        }) => {
            assert_eq!(stopped.len(), 1, "{stopped:?}");
            let trap = &stopped[0];
            assert_eq!((trap.group, trap.thread, trap.lane), (0, 0, None));
            assert_eq!(trap.kind, TrapKind::Cancelled);
            // In the loop: `add` (pc 1, line 5) or `jmp` (pc 2, line 6).
            let expected = [(1, "add", 5), (2, "jmp", 6)];
            assert!(
                expected.iter().any(|&(pc, word, line)| trap.pc == pc
                    && trap.instruction.starts_with(word)
                    && trap.span.line == line),
                "{trap:?}"
            );
        }
        other => panic!("expected Cancelled, got {:?}", other.map(|r| r.steps())),
    }
}

//! The entry mask (`Launch::active_lanes`): lanes that start with their execution-mask bit off
//! write nothing and touch no memory (ALU, SVM gather/scatter, surface scatter, atomics), NoMask
//! instructions still run them, `%sr0.2`/`%ce0` show the mask, threads without an active lane
//! do not run, and a flag list of the wrong length is a binding error. CI runs this file under
//! both engines (`VISA_ENGINE=interp` and the default JIT).

mod common;

use common::program;
use visa_runtime::{Buffer, Launch, LaunchError, Svm, TrapKind};

/// An address no allocation of a fresh [`Svm`] covers.
const UNMAPPED: u64 = 0x7fff_0000_0000;

/// Flags of `n` work-items: `on(i)` for work-item `i`.
fn flags(n: usize, on: impl Fn(usize) -> bool) -> Vec<bool> {
    (0..n).map(on).collect()
}

#[test]
fn disabled_lanes_keep_their_alu_results() {
    let p = program(
        "
.decl V v_type=G type=d num_elts=16 align=GRF
.decl W v_type=G type=d num_elts=16 align=GRF
mul (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x3:d
add (M1, 16) W(0,0)<1> V(0,0)<1;1,0> 0x1:d
",
    );
    // Two groups of one SIMD-16 thread; lanes 3, 7, 16 and 30 are off.
    let off = [3usize, 7, 16, 30];
    let active = flags(32, |i| !off.contains(&i));
    let v: Vec<i32> = (0..32).map(|i| 100 - 7 * i).collect();
    let w: Vec<i32> = (0..32).map(|i| -1000 - i).collect();
    let r = Launch::new(&p)
        .simd(16)
        .groups(2)
        .active_lanes(&active)
        .bind_vector("V", &v)
        .bind_vector("W", &w)
        .run()
        .unwrap();
    let expected_v: Vec<i32> = (0..32)
        .map(|i| if off.contains(&i) { v[i] } else { v[i] * 3 })
        .collect();
    let expected_w: Vec<i32> = (0..32)
        .map(|i| if off.contains(&i) { w[i] } else { v[i] * 3 + 1 })
        .collect();
    assert_eq!(r.vector::<i32>("V").unwrap(), expected_v);
    assert_eq!(r.vector::<i32>("W").unwrap(), expected_w);
}

#[test]
fn nomask_instructions_run_disabled_lanes_and_the_masks_are_visible() {
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl W v_type=G type=ud num_elts=8 align=GRF
.decl DM v_type=G type=ud num_elts=8 align=GRF
.decl CE v_type=G type=ud num_elts=8 align=GRF
mov (M1_NM, 8) V(0,0)<1> 0x5:ud
mov (M1, 8) W(0,0)<1> 0x9:ud
mov (M1_NM, 8) DM(0,0)<1> %sr0(0,2)<0;1,0>
mov (M1_NM, 8) CE(0,0)<1> %ce0(0,0)<0;1,0>
",
    );
    let active = [true, false, true, true, false, false, true, true];
    let mask = 0b1100_1101u32;
    let r = Launch::new(&p)
        .simd(8)
        .active_lanes(&active)
        .bind_vector("W", &[1u32; 8])
        .capture("V")
        .capture("DM")
        .capture("CE")
        .run()
        .unwrap();
    // NoMask ignores the execution mask (runtime-semantics §5), so V is written everywhere.
    assert_eq!(r.vector::<u32>("V").unwrap(), vec![5; 8]);
    let expected_w: Vec<u32> = active.iter().map(|on| if *on { 9 } else { 1 }).collect();
    assert_eq!(r.vector::<u32>("W").unwrap(), expected_w);
    assert_eq!(r.vector::<u32>("DM").unwrap(), vec![mask; 8]);
    assert_eq!(r.vector::<u32>("CE").unwrap(), vec![mask; 8]);
}

const SVM_COPY: &str = "
.decl V v_type=G type=d num_elts=16 align=GRF
.decl SRC v_type=G type=uq num_elts=16 align=GRF
.decl DST v_type=G type=uq num_elts=16 align=GRF
svm_gather.4.1 (M1, 16) SRC.0 V.0
add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x10:d
svm_scatter.4.1 (M1, 16) DST.0 V.0
";

/// Per-lane pointers into `base` (4-byte elements), with `UNMAPPED` for the lanes in `bad`.
fn pointers(base: u64, bad: &[usize]) -> Vec<u64> {
    (0..16u64)
        .map(|i| {
            if bad.contains(&(i as usize)) {
                UNMAPPED
            } else {
                base + 4 * i
            }
        })
        .collect()
}

#[test]
fn svm_gather_and_scatter_skip_disabled_lanes_with_unmapped_addresses() {
    let p = program(SVM_COPY);
    let mut svm = Svm::new();
    let src_data: Vec<i32> = (0..16).map(|i| i * i - 50).collect();
    let src = svm.alloc_from(&src_data);
    let dst = svm.alloc_from(&[-1i32; 16]);
    let bad = [2usize, 9];
    let active = flags(16, |i| !bad.contains(&i));
    Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .active_lanes(&active)
        .bind_vector("SRC", &pointers(src, &bad))
        .bind_vector("DST", &pointers(dst, &bad))
        .run()
        .unwrap();
    let expected: Vec<i32> = (0..16)
        .map(|i| {
            if bad.contains(&i) {
                -1
            } else {
                src_data[i] + 16
            }
        })
        .collect();
    assert_eq!(svm.read_vec::<i32>(dst, 16).unwrap(), expected);

    // The same launch with lane 9 active traps at the unmapped address: the mask is what
    // kept the lanes out of memory.
    let active = flags(16, |i| i != 2);
    let result = Launch::new(&p)
        .simd(16)
        .svm(&svm)
        .active_lanes(&active)
        .bind_vector("SRC", &pointers(src, &bad))
        .bind_vector("DST", &pointers(dst, &bad))
        .run();
    match result {
        Err(LaunchError::Trap(trap)) => {
            assert_eq!(trap.lane, Some(9), "{trap}");
            assert_eq!(trap.kind, TrapKind::SvmUnmapped { address: UNMAPPED });
        }
        other => panic!("expected an SVM trap, got {other:?}"),
    }
}

#[test]
fn surface_scatter_and_atomics_skip_disabled_lanes() {
    let p = program(
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
.decl Z v_type=G type=ud num_elts=8 align=GRF
scatter_scaled.4 (M1, 8) T6 0x0:ud OFF.0 V.0
mov (M1_NM, 8) Z(0,0)<1> 0x0:ud
dword_atomic.add (M1, 8) T7 Z.0 V.0 %null.0 OLD.0
",
    );
    // 3 threads of SIMD 8 in one group; every lane adds its value into counter 0 of T7.
    let n = 24;
    let active = flags(n, |i| i % 3 != 1 && i != 20);
    let v: Vec<u32> = (0..n as u32).map(|i| 1 << (i % 12) | i << 16).collect();
    let off: Vec<u32> = (0..n as u32).map(|i| 4 * i).collect();
    let out = Buffer::from_slice(&[0xdead_beefu32; 24]);
    let counter = Buffer::from_slice(&[7u32]);
    let r = Launch::new(&p)
        .simd(8)
        .threads_per_group(3)
        .active_lanes(&active)
        .bind_vector("OFF", &off)
        .bind_vector("V", &v)
        .bind_vector("OLD", &[0x5555_5555u32; 24])
        .bind_surface("T6", &out)
        .bind_surface("T7", &counter)
        .run()
        .unwrap();
    let expected_out: Vec<u32> = (0..n)
        .map(|i| if active[i] { v[i] } else { 0xdead_beef })
        .collect();
    assert_eq!(out.to_vec::<u32>(), expected_out);
    let sum = v
        .iter()
        .zip(&active)
        .filter(|(_, on)| **on)
        .fold(7u32, |acc, (x, _)| acc.wrapping_add(*x));
    assert_eq!(counter.to_vec::<u32>(), vec![sum]);
    // Threads run in order and lanes in lane order: each active lane got the running total
    // before its own addition; disabled lanes keep OLD's bound value.
    let mut running = 7u32;
    let expected_old: Vec<u32> = (0..n)
        .map(|i| {
            if active[i] {
                let old = running;
                running = running.wrapping_add(v[i]);
                old
            } else {
                0x5555_5555
            }
        })
        .collect();
    assert_eq!(r.vector::<u32>("OLD").unwrap(), expected_old);
}

#[test]
fn a_thread_without_active_lanes_does_not_run() {
    // Every lane of the second thread is off: it executes nothing, not even the NoMask write,
    // and the launch counts only the first thread's instructions.
    let p = program(
        "
.decl V v_type=G type=ud num_elts=8 align=GRF
mov (M1_NM, 8) V(0,0)<1> 0x1:ud
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
",
    );
    let active = flags(16, |i| i < 8);
    let r = Launch::new(&p)
        .simd(8)
        .groups(2)
        .active_lanes(&active)
        .bind_vector("V", &[9u32; 16])
        .run()
        .unwrap();
    let mut expected = vec![2u32; 8];
    expected.extend([9u32; 8]);
    assert_eq!(r.vector::<u32>("V").unwrap(), expected);
    assert_eq!(r.steps(), 2);
}

#[test]
fn undefined_outputs_of_disabled_lanes_can_be_read() {
    // `D` is never bound: the disabled lanes' elements are never written, and reading the
    // vector back does not fail on them (the interpreter tracks undefined bytes).
    let p = program(
        "
.decl D v_type=G type=ud num_elts=8 align=GRF
mov (M1, 8) D(0,0)<1> 0x2a:ud
",
    );
    let active = flags(8, |i| i < 5);
    let r = Launch::new(&p)
        .simd(8)
        .active_lanes(&active)
        .capture("D")
        .run()
        .unwrap();
    let d = r.vector::<u32>("D").unwrap();
    assert_eq!(d[..5], [42; 5]);
    // Never written: the register's initial zero.
    assert_eq!(d[5..], [0; 3]);
}

#[test]
fn the_flag_count_must_match_the_work_items() {
    let p =
        program(".decl V v_type=G type=ud num_elts=8 align=GRF\nmov (M1, 8) V(0,0)<1> 0x1:ud\n");
    let error = Launch::new(&p)
        .simd(8)
        .groups(2)
        .active_lanes(&[true; 8])
        .run()
        .unwrap_err();
    match &error {
        LaunchError::Binding { name, message } => {
            assert_eq!(name, "active_lanes");
            assert!(
                message.contains("8 flags") && message.contains("16 work-items"),
                "{message}"
            );
        }
        other => panic!("expected a binding error, got {other:?}"),
    }
}

#[test]
fn divergent_gotos_start_from_the_entry_mask() {
    // An if/else whose halves record `%ce0`: each half runs only the active lanes that chose it,
    // the join restores the entry mask (not all lanes), and disabled lanes keep `Y`.
    let p = program(
        "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
.decl MASKS v_type=G type=ud num_elts=4 align=GRF
.decl P1 v_type=P num_elts=16
cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 0x8:d
(!P1) goto (M1, 16) ELSE
mov (M1_NM, 1) MASKS(0,0)<1> %ce0(0,0)<0;1,0>
add (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x64:d
goto (M1, 1) ENDIF
ELSE:
mov (M1_NM, 1) MASKS(0,1)<1> %ce0(0,0)<0;1,0>
mul (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x2:d
ENDIF:
mov (M1_NM, 1) MASKS(0,2)<1> %ce0(0,0)<0;1,0>
add (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x1:d
",
    );
    let x: Vec<i32> = (0..16).map(|i| (i * 5) % 16).collect();
    let active = flags(16, |i| i % 4 != 0);
    let entry = (0..16).filter(|i| active[*i]).fold(0u32, |m, i| m | 1 << i);
    let r = Launch::new(&p)
        .simd(16)
        .active_lanes(&active)
        .bind_vector("X", &x)
        .bind_vector("Y", &[-7i32; 16])
        .capture("MASKS")
        .run()
        .unwrap();
    let expected: Vec<i32> = (0..16)
        .map(|i| match (active[i], x[i] < 8) {
            (false, _) => -7,
            (true, true) => x[i] + 100 + 1,
            (true, false) => x[i] * 2 + 1,
        })
        .collect();
    assert_eq!(r.vector::<i32>("Y").unwrap(), expected);
    let then_mask = (0..16)
        .filter(|i| active[*i] && x[*i] < 8)
        .fold(0u32, |m, i| m | 1 << i);
    let (bytes, _) = r.thread_bytes("MASKS", 0).unwrap();
    let masks = Buffer::from_bytes(bytes).to_vec::<u32>();
    assert_eq!(masks[..3], [then_mask, entry & !then_mask, entry]);
}

/// A per-lane binding named `input_only` is not read back (the memory the kernel wrote is the
/// same), unless it is also captured.
#[test]
fn an_input_only_binding_is_not_read_back() {
    let program = program(
        ".decl X v_type=G type=d num_elts=16 align=GRF
.decl PTR v_type=G type=uq num_elts=16 align=GRF
svm_scatter.4.1 (M1, 16) PTR.0 X.0
",
    );
    let mut svm = Svm::new();
    let out = svm.alloc(4 * 32);
    let values: Vec<i32> = (0..32).map(|i| 3 * i - 7).collect();
    let launch = |input_only: bool, capture: bool| {
        let mut launch = Launch::new(&program)
            .simd(16)
            .groups(2)
            .svm(&svm)
            .bind_vector("X", &values)
            .bind_svm_lanes("PTR", out, 4);
        if input_only {
            launch = launch.input_only("X");
        }
        if capture {
            launch = launch.capture("X");
        }
        let result = launch.run().expect("runs");
        let written: Vec<i32> = svm.read_vec(out, 32).expect("reads");
        assert_eq!(written, values);
        result.vector::<i32>("X")
    };
    assert_eq!(launch(false, false).expect("read back"), values);
    let error = launch(true, false).expect_err("not read back");
    assert!(error.to_string().contains("not read back"), "{error}");
    assert_eq!(launch(true, true).expect("captured"), values);
}

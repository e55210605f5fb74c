//! `visa run`: bindings from the command line, printed and JSON outputs, errors, and the corpus
//! kernels run through the binary. Expected values are computed here in plain Rust.

mod common;
use common::{gemm_job, ints, json, main_job, visa};

use std::path::PathBuf;

#[test]
fn the_example_kernel_gathers_computes_and_scatters() {
    let out = json(&main_job(
        "examples/gather_add_scatter.visaasm",
        &["--print-inputs"],
    ));
    let expected: Vec<i64> = (0..64i64)
        .map(|i| ((i - 32) * 5 + 100 + i).clamp(-50, 250))
        .collect();
    assert_eq!(ints(&out["OUT_PTR"]), expected);
    assert_eq!(ints(&out["A_PTR"]), (-32..32).collect::<Vec<i64>>());
}

/// The GEMM example (block loads, `dpas`, block store) prints C = A x B, computed here with
/// plain loops; the interpreter prints the same.
#[test]
fn the_gemm_example_prints_the_matrix_product() {
    let (m, n, k) = (20usize, 24usize, 40usize);
    let a: Vec<i64> = (0..m * k).map(|i| (i % 200) as i64 - 100).collect();
    let b: Vec<i64> = (0..k * n).map(|i| (i % 240) as i64 - 120).collect();
    let expected: Vec<i64> = (0..m * n)
        .map(|at| (0..k).map(|l| a[at / n * k + l] * b[l * n + at % n]).sum())
        .collect();
    let jit = json(&gemm_job(&[]));
    assert_eq!(ints(&jit["C_PTR"]), expected);
    assert_eq!(json(&gemm_job(&["--engine", "interp"])), jit);
}

/// `visa run examples/select_op.visaasm` with operation `op` over X = -16..16.
fn select_op_args(op: &str) -> Vec<String> {
    let op = format!("OP={op}");
    [
        "run",
        "examples/select_op.visaasm",
        "--simd",
        "16",
        "--groups",
        "2",
        "--arg",
        &op,
        "--svm",
        "X_PTR:d=[-16..16]",
        "--svm",
        "OUT_PTR:d=[0;32]",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn the_jump_table_example_applies_the_selected_operation() {
    let x: Vec<i64> = (-16..16).collect();
    let expected: [Vec<i64>; 4] = [
        x.iter().map(|v| -v).collect(),
        x.iter().map(|v| v * v).collect(),
        x.iter().map(|v| v + 100).collect(),
        x.iter()
            .map(|v| i64::from((*v as i32).count_ones()))
            .collect(),
    ];
    for (op, want) in expected.iter().enumerate() {
        let args = select_op_args(&op.to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(&ints(&json(&args)["OUT_PTR"]), want, "OP={op}");
    }
    // An index past the table traps (exit 3) with its line, the reason and the instruction.
    let args = select_op_args("4");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = visa(&args);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(
            "examples/select_op.visaasm:17:1: error: trap: switchjmp index 4 is outside its \
             table of 4 label(s) (kernel "
        ) && stderr.contains("group 0, thread 0; pc 1: `switchjmp"),
        "{stderr}"
    );
}

#[test]
fn text_output_prints_one_line_per_output() {
    let out = visa(&[
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "4",
        "--arg",
        "SCALE=2",
        "--arg",
        "LO=0",
        "--arg",
        "HI=100",
        "--svm",
        "A_PTR:d=[1, 2, 3, 4]",
        "--svm",
        "B_PTR:d=[10;4]",
        "--svm",
        "OUT_PTR:d=[0;4]",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("OUT_PTR = [12, 14, 16, 18]\n"), "{text}");
}

#[test]
fn errors_name_the_problem() {
    let out = visa(&[
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "16",
        "--svm",
        "A_PTR:d=[0;16]",
        "--engine",
        "interp",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // B_PTR is never bound: the first gather reads it.
    assert!(
        err.contains("read of uninitialized variable 'B_PTR'"),
        "{err}"
    );
    // Compiled code does not track undefined bytes: the unbound pointer reads as zero.
    let out = visa(&[
        "run",
        "examples/gather_add_scatter.visaasm",
        "--simd",
        "16",
        "--svm",
        "A_PTR:d=[0;16]",
        "--engine",
        "jit",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unmapped SVM address 0x0"), "{err}");
    let out = visa(&[
        "run",
        "examples/gather_add_scatter.visaasm",
        "--arg",
        "%9=[1]",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("give its type"), "{err}");
}

fn corpus(name: &str) -> Option<PathBuf> {
    visa_testutil::shared(&format!("asm-corpus/kernels/{name}"))
}

#[test]
fn corpus_kernels_run_through_the_command() {
    let Some(letter) = corpus("llvm_letter_example.visaasm") else {
        return;
    };
    let out = json(&[
        "run",
        letter.to_str().unwrap(),
        "--groups",
        "2",
        "--svm",
        "%0:d=[0..32]",
    ]);
    assert_eq!(ints(&out["%0"]), (1..33).collect::<Vec<i64>>());

    let Some(copy) = corpus("cs_single_basic_block.visaasm") else {
        return;
    };
    let out = json(&[
        "run",
        copy.to_str().unwrap(),
        "--svm",
        "%0:ud=[100..116]",
        "--svm",
        "%1:ud=[0;16]",
    ]);
    assert_eq!(ints(&out["%1"]), (100..116).collect::<Vec<i64>>());

    let Some(scope) = corpus("llvm_asm_decl_in_scope.visaasm") else {
        return;
    };
    let out = json(&[
        "run",
        scope.to_str().unwrap(),
        "--arg",
        "%0:d=[0;16]",
        "--arg",
        "%1:d=[0..16]",
        "--arg",
        "%2:d=2",
    ]);
    assert_eq!(
        ints(&out["%0"]),
        (0..16).map(|i| 2 * i).collect::<Vec<i64>>()
    );

    let Some(template) = corpus("cs_template_var_decl.visaasm") else {
        return;
    };
    let out = json(&[
        "run",
        template.to_str().unwrap(),
        "--arg",
        "%0:d=[50..66]",
        "--arg",
        "%1:d=[0..16]",
        "--arg",
        "%2:d=3",
    ]);
    // d = (d - s2 * s1) * (s2 - s1) with %1 = s2 = i, %2 = s1 = 3.
    let expected: Vec<i64> = (0..16).map(|i| (50 + i - i * 3) * (i - 3)).collect();
    assert_eq!(ints(&out["%0"]), expected);

    // LLVM-style `$N` operands: written without a region, they read and write lane i.
    let Some(dollar) = corpus("igc_inline_asm_2.visaasm") else {
        return;
    };
    let out = json(&[
        "run",
        dollar.to_str().unwrap(),
        "--simd",
        "8",
        "--arg",
        "$0:ud=[0;8]",
        "--arg",
        "$1:ud=[0..8]",
        "--arg",
        "$2:ud=[100..108]",
        "--arg",
        "$3:ud=[1, 1, 0, 1, 0, 0, 1, 0]",
    ]);
    // $0 = 1, then where P1 (from $3) is set: $0 = $1 + $2.
    let set = [1, 1, 0, 1, 0, 0, 1, 0];
    let expected: Vec<i64> = (0..8)
        .map(|i| {
            if set[i] == 1 {
                i as i64 + 100 + i as i64
            } else {
                1
            }
        })
        .collect();
    assert_eq!(ints(&out["$0"]), expected);
}

#[test]
fn surfaces_files_and_printed_variables() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("k.visaasm");
    std::fs::write(
        &kernel,
        "
.decl OFF v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=8 align=GRF
gather_scaled.4 (M1, 8) T6 0x0:ud OFF.0 D.0
add (M1, 8) D(0,0)<1> D(0,0)<1;1,0> 0x1:ud
scatter_scaled.4 (M1, 8) T7 0x0:ud OFF.0 D.0
",
    )
    .unwrap();
    let offsets = dir.path().join("offsets.txt");
    std::fs::write(&offsets, "28 24, 20\n16 12 8 4 0\n").unwrap();
    let out = json(&[
        "run",
        "--print-inputs",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--arg",
        &format!("OFF=@{}", offsets.display()),
        "--surface",
        "T6:ud=[10..18]",
        "--surface",
        "T7:ud=[0;9]",
        "--print",
        "D",
    ]);
    // D[i] = T6[7 - i] + 1; T7 gets them back at the same offsets; its 9th dword is untouched.
    let d: Vec<i64> = (0..8).map(|i| 10 + (7 - i) + 1).collect();
    assert_eq!(ints(&out["D"]), d);
    let mut t7: Vec<i64> = (0..8).map(|k| 10 + k + 1).collect();
    t7.push(0);
    assert_eq!(ints(&out["T7"]), t7);
    assert_eq!(ints(&out["OFF"]), vec![28, 24, 20, 16, 12, 8, 4, 0]);
}

/// A kernel in the style of the compiler's printed kernels: a surface input `T6` and general
/// inputs bound by name on the command line.
const PRINTED_SURFACE_INPUT: &str = r#".version 3.6
.kernel "scale_surface"
.decl T6 v_type=T num_elts=1
.decl OUT v_type=T num_elts=1
.decl SCALE v_type=G type=d num_elts=1 align=dword
.decl OFFSETS v_type=G type=ud num_elts=8 align=GRF
.decl V0 v_type=G type=d num_elts=8 align=GRF
.input T6 offset=64 size=4
.input OUT offset=68 size=4
.input SCALE offset=72 size=4
.input OFFSETS offset=96 size=32
.kernel_attr SimdSize=8
gather_scaled.4 (M1, 8) T6 0x0:ud OFFSETS.0 V0.0
mul (M1, 8) V0(0,0)<1> V0(0,0)<1;1,0> SCALE(0,0)<0;1,0>
scatter_scaled.4 (M1, 8) OUT 0x0:ud OFFSETS.0 V0.0
"#;

#[test]
fn surface_inputs_of_a_printed_kernel_are_bound_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("printed.visaasm");
    std::fs::write(&kernel, PRINTED_SURFACE_INPUT).unwrap();
    // Work-item i reads dword 15 - i and writes it times SCALE to dword i of OUT.
    let offsets: Vec<String> = (0..16).map(|i| (4 * (15 - i)).to_string()).collect();
    let out = json(&[
        "run",
        "--print-inputs",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--groups",
        "2",
        "--surface",
        "T6:d=[-8..8]",
        "--surface",
        "OUT:d=[0;16]",
        "--arg",
        "SCALE=7",
        "--arg",
        &format!("OFFSETS=[{}]", offsets.join(",")),
    ]);
    let input: Vec<i64> = (-8..8).collect();
    let expected: Vec<i64> = (0..16).map(|i| input[15 - i] * 7).collect();
    // Scattered to the offsets they were read from: OUT[15 - i] = 7 * T6[15 - i].
    let mut out_expected = vec![0; 16];
    for (i, v) in expected.iter().enumerate() {
        out_expected[15 - i] = *v;
    }
    assert_eq!(ints(&out["OUT"]), out_expected);
    assert_eq!(ints(&out["T6"]), input);
}

/// SIMD-8 kernel: `Y = X * 3` and `Y` scattered through per-lane SVM pointers.
const SCALE_SCATTER: &str = "
.decl X v_type=G type=d num_elts=8 align=GRF
.decl Y v_type=G type=d num_elts=8 align=GRF
.decl PTR v_type=G type=uq num_elts=8 align=GRF
mul (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x3:d
svm_scatter.4.1 (M1, 8) PTR.0 Y.0
";

#[test]
fn work_items_leave_the_rest_of_the_last_thread_inactive() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("k.visaasm");
    std::fs::write(&kernel, SCALE_SCATTER).unwrap();
    // 13 work-items: 2 threads of 8, lanes 13..16 inactive. The SVM buffer holds exactly 13
    // dwords, so an active lane 13 would write past it and trap.
    let out = json(&[
        "run",
        "--print-inputs",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--work-items",
        "13",
        "--arg",
        "X=[-6..7]",
        "--svm",
        "PTR:d=[100;13]",
        "--print",
        "Y",
    ]);
    let expected: Vec<i64> = (-6..7).map(|x| 3 * x).collect();
    assert_eq!(ints(&out["Y"]), expected);
    assert_eq!(ints(&out["PTR"]), expected);
    assert_eq!(ints(&out["X"]), (-6..7).collect::<Vec<i64>>());

    // Without --work-items, the 16 work-items of 2 groups include lanes past the buffer: an
    // error before the launch.
    let out = visa(&[
        "run",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--groups",
        "2",
        "--arg",
        "X=[0;16]",
        "--svm",
        "PTR:d=[100;13]",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--svm PTR: 13 values for 16 work-items"),
        "{err}"
    );
}

#[test]
fn active_lists_start_lanes_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("k.visaasm");
    std::fs::write(&kernel, SCALE_SCATTER).unwrap();
    let active = [1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1];
    let list: Vec<String> = active.iter().map(|f: &i64| f.to_string()).collect();
    let out = json(&[
        "run",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--groups",
        "2",
        "--active",
        &format!("[{}]", list.join(" ")),
        "--arg",
        "X=[1..17]",
        "--arg",
        "Y=[-1;16]",
        "--svm",
        "PTR:d=[0;16]",
    ]);
    let y: Vec<i64> = (0..16)
        .map(|i| {
            if active[i] == 1 {
                3 * (i as i64 + 1)
            } else {
                -1
            }
        })
        .collect();
    assert_eq!(ints(&out["Y"]), y);
    let ptr: Vec<i64> = y.iter().map(|v| if *v == -1 { 0 } else { *v }).collect();
    assert_eq!(ints(&out["PTR"]), ptr);

    // --active combines with --work-items (N flags), and its mistakes are named.
    let out = json(&[
        "run",
        kernel.to_str().unwrap(),
        "--simd",
        "8",
        "--work-items",
        "10",
        "--active",
        "[0;2, 1;8]",
        "--arg",
        "X=[1..11]",
        "--svm",
        "PTR:d=[0;10]",
    ]);
    let expected: Vec<i64> = (0..10)
        .map(|i| if i < 2 { 0 } else { 3 * (i + 1) })
        .collect();
    assert_eq!(ints(&out["PTR"]), expected);
    for (list, message) in [
        ("[1;15]", "15 flags given, the launch has 16 work-items"),
        ("[1;15, 2]", "flag 2 is not 0 or 1"),
        ("1", "expected a list"),
    ] {
        let out = visa(&[
            "run",
            kernel.to_str().unwrap(),
            "--simd",
            "8",
            "--groups",
            "2",
            "--active",
            list,
            "--arg",
            "X=[0;16]",
            "--svm",
            "PTR:d=[0;16]",
        ]);
        assert!(!out.status.success(), "{list}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{list}: {err}");
    }
}

/// `--jit-report` on the README's main job: by default its 4 threads are too few to repay
/// compiling, and the report says the interpreter ran them; with `--engine jit` compiled code
/// ran, every one of the kernel's instructions native.
#[test]
fn the_jit_report_says_how_the_main_job_ran() {
    let stderr = |extra: &[&str]| {
        let mut args = main_job("examples/gather_add_scatter.visaasm", &["--jit-report"]);
        args.extend_from_slice(extra);
        // (Without an engine named, `VISA_ENGINE` would choose: the default is what is tested.)
        let out = std::process::Command::new(common::VISA)
            .args(&args)
            .current_dir(common::repo_root())
            .env_remove("VISA_ENGINE")
            .output()
            .expect("runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).expect("UTF-8")
    };
    let cold = stderr(&[]);
    assert!(cold.contains("too small to repay compiling"), "{cold}");
    let compiled = stderr(&["--engine", "jit"]);
    assert!(
        compiled.starts_with("jit report: compiled code ran the launch:\n"),
        "{compiled}"
    );
    assert!(
        compiled.contains("6 of 6 instructions native"),
        "{compiled}"
    );
    let interpreted = stderr(&["--engine", "interp"]);
    assert!(
        interpreted.contains("the interpreter ran every instruction"),
        "{interpreted}"
    );
}

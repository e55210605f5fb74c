//! `visa launch` driven through its command line, exactly as the interface is written, on the
//! checked-in zebins and vISA dumps of corpus/opencl (no ocloc or PoCL needed).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use visa_runtime::compiled::npy::{self, NpyArray, NpyType};

fn corpus(device: &str, kernel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/opencl")
        .join(device)
        .join(kernel)
}

fn visa() -> Command {
    Command::cargo_bin("visa").expect("the visa binary")
}

fn saxpy(device: &str) -> (String, String) {
    let dir = corpus(device, "saxpy");
    (
        dir.join("program.bin").display().to_string(),
        dir.join("dump").display().to_string(),
    )
}

fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).expect("UTF-8")
}

#[test]
fn saxpy_with_list_arguments_prints_every_buffer() {
    for device in ["dg2", "pvc"] {
        let (program, dump) = saxpy(device);
        let assert = visa()
            .args(["launch", &program, "--kernel", "saxpy", "--visa", &dump])
            .args(["--global", "8", "--local", "8"])
            .args([
                "--arg",
                "x:float=[0..8]",
                "--arg",
                "y:float=[1;8]",
                "--arg",
                "a=2.5",
            ])
            .assert()
            .success();
        let expected_y: Vec<String> = (0..8)
            .map(|i| format!("{:?}", 2.5 * i as f32 + 1.0))
            .collect();
        assert_eq!(
            stdout_of(&assert),
            format!(
                "x: [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]\ny: [{}]\n",
                expected_y.join(", ")
            ),
            "{device}"
        );
    }
}

#[test]
fn a_visaasm_file_npy_inputs_and_out_dir() {
    let dir = tempfile::tempdir().expect("temp dir");
    let x: Vec<f32> = (0..96).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..96).map(|i| 100.0 - i as f32).collect();
    let write = |name: &str, values: &[f32]| {
        let path = dir.path().join(name);
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        npy::write(
            &path,
            &NpyArray {
                ty: NpyType::F32,
                bytes,
            },
        )
        .expect("write npy");
        path.display().to_string()
    };
    let (x_path, y_path) = (write("x.npy", &x), write("y.npy", &y));
    let (program, dump) = saxpy("dg2");
    let visa_file = std::fs::read_dir(&dump)
        .expect("dump")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .expect("a .visaasm");
    let out = dir.path().join("out");
    visa()
        .args(["launch", &program, "--kernel", "saxpy", "--visa"])
        .arg(&visa_file)
        .args(["--global", "96", "--arg", &format!("x=@{x_path}")])
        .args(["--arg", &format!("1=@{y_path}"), "--arg", "a=-3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let result = npy::read(&std::fs::read(out.join("y.npy")).expect("y.npy")).expect("npy");
    assert_eq!(result.ty, NpyType::F32);
    let got: Vec<f32> = result
        .bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let expected: Vec<f32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| (-3.0f32).mul_add(*x, *y))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn json_output_and_local_arguments() {
    let dir = corpus("dg2", "stencil_1d");
    let assert = visa()
        .args(["launch"])
        .arg(dir.join("program.bin"))
        .args(["--kernel", "stencil_1d", "--visa"])
        .arg(dir.join("dump"))
        .args(["--global", "8", "--local", "4", "--arg", "in:float=[4;8]"])
        .args([
            "--arg",
            "out:float=[0;8]",
            "--arg",
            "buf=local:24",
            "--arg",
            "n=8",
            "--json",
        ])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&assert)).expect("JSON");
    // 0.25 * left + 0.5 * self + 0.25 * right, with 0 outside the range.
    assert_eq!(
        json["out"],
        serde_json::json!([3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0])
    );
}

#[test]
fn a_read_past_a_buffer_traps_naming_the_argument_work_item_and_line() {
    for device in ["dg2", "pvc"] {
        let (program, dump) = saxpy(device);
        let assert = visa()
            .args(["launch", &program, "--kernel", "saxpy", "--visa", &dump])
            .args(["--global", "16", "--local", "16"])
            .args([
                "--arg",
                "x:float=[0..12]",
                "--arg",
                "y:float=[1;16]",
                "--arg",
                "a=2",
            ])
            .assert()
            .code(3);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).expect("UTF-8");
        assert!(
            stderr.contains("out-of-bounds access to argument 'x' (byte 48 of a 48-byte buffer)")
                && stderr.contains("by work-item (12, 0, 0)")
                && stderr.contains("at vISA line "),
            "{device}: {stderr}"
        );
    }
}

#[test]
fn missing_unknown_and_mistyped_arguments_are_errors() {
    let (program, dump) = saxpy("dg2");
    let run = |args: &[&str]| {
        let assert = visa()
            .args([
                "launch", &program, "--kernel", "saxpy", "--visa", &dump, "--global", "8",
            ])
            .args(args)
            .assert()
            .code(1);
        String::from_utf8(assert.get_output().stderr.clone()).expect("UTF-8")
    };
    let missing = run(&["--arg", "x:float=[0;8]", "--arg", "y:float=[0;8]"]);
    assert!(
        missing.contains("argument 'a' (float) is not given"),
        "{missing}"
    );
    let unknown = run(&["--arg", "z=1"]);
    assert!(
        unknown.contains("the kernel has no argument 'z' (arguments: x, y, a)"),
        "{unknown}"
    );
    let local = run(&[
        "--arg",
        "x=local:64",
        "--arg",
        "y:float=[0;8]",
        "--arg",
        "a=1",
    ]);
    assert!(
        local.contains("argument 'x' (float*) is a buffer"),
        "{local}"
    );
    let kernel = visa()
        .args([
            "launch", &program, "--kernel", "saxpi", "--visa", &dump, "--global", "8",
        ])
        .assert()
        .code(1);
    let stderr = String::from_utf8(kernel.get_output().stderr.clone()).expect("UTF-8");
    assert!(
        stderr.contains("no kernel 'saxpi' in the program (kernels: saxpy)"),
        "{stderr}"
    );
}
/// `--jit-report` says on standard error which instructions ran as native code: all of IGC's
/// `vec_add_int` (address arithmetic, the widening moves of the local ids, the `movs` before
/// each message, the final `ret`), and the buffers printed are those of a run without it; in
/// `matmul_naive`, the float immediate moves go through the interpreter's handler.
#[test]
fn the_jit_report_names_native_and_handled_instructions() {
    let run = |kernel: &str, args: &[&str], extra: &[&str]| {
        let dir = corpus("dg2", kernel);
        let program = dir.join("program.bin").display().to_string();
        let dump = dir.join("dump").display().to_string();
        visa()
            .args(["launch", &program, "--kernel", kernel, "--visa", &dump])
            .args(["--engine", "jit"])
            .args(args)
            .args(extra)
            .assert()
            .success()
    };
    let vec_add = [
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        "a:int=[0..64]",
        "--arg",
        "b:int=[100..164]",
        "--arg",
        "c:int=[0;64]",
    ];
    let plain = run("vec_add_int", &vec_add, &[]);
    let reported = run("vec_add_int", &vec_add, &["--jit-report"]);
    assert_eq!(stdout_of(&plain), stdout_of(&reported));
    assert!(!stdout_of(&reported).contains("jit report"));
    let report_of = |output: &assert_cmd::assert::Assert| {
        String::from_utf8(output.get_output().stderr.clone()).expect("UTF-8")
    };
    let line = |report: &str, needle: &str| {
        report
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in:\n{report}"))
            .to_string()
    };
    let report = report_of(&reported);
    assert!(
        report.starts_with("jit report: compiled code ran the launch:\n"),
        "{report}"
    );
    for needle in [
        "add3 (M1, 16)",
        "mov (M5, 16)",
        "movs (M1_NM, 1)",
        "ret (M1, 1)",
    ] {
        assert!(line(&report, needle).contains(" native "), "{report}");
    }
    let matmul = [
        "--global",
        "32,2",
        "--local",
        "32,1",
        "--arg",
        "A:float=[1;64]",
        "--arg",
        "B:float=[2;64]",
        "--arg",
        "C:float=[0;64]",
        "--arg",
        "K=1",
        "--arg",
        "N=32",
    ];
    let report = report_of(&run("matmul_naive", &matmul, &["--jit-report"]));
    assert!(line(&report, "0x0:f").contains(" handler "), "{report}");
    assert!(
        line(&report, "ret (M1, 1)").contains(" native "),
        "{report}"
    );
}

/// With no engine named, a launch large enough to compile compiles only the blocks its threads
/// entered (`math_trig`'s argument reduction for large inputs is never entered at 0.5): the
/// report marks the rest `later`, and the buffers are the interpreter's.
#[test]
fn the_default_engine_compiles_only_the_blocks_that_run() {
    let dir = corpus("dg2", "math_trig");
    let program = dir.join("program.bin").display().to_string();
    let dump = dir.join("dump").display().to_string();
    // 1,024 SIMD32 threads: the smallest launch the default compiles (`COLD_EXECUTIONS`).
    let items = 32 * 1024;
    let launch = |engine: Option<&str>| {
        let mut command = visa();
        command
            .env_remove("VISA_ENGINE")
            .args(["launch", &program, "--kernel", "math_trig", "--visa", &dump])
            .args(["--global", &items.to_string(), "--local", "64", "--json"])
            .arg("--jit-report")
            .args(["--arg", &format!("x:float=[0.5;{items}]")]);
        for out in ["s", "c", "t"] {
            command.args(["--arg", &format!("{out}:float=[0;{items}]")]);
        }
        if let Some(engine) = engine {
            command.args(["--engine", engine]);
        }
        let assert = command.assert().success();
        let report = String::from_utf8(assert.get_output().stderr.clone()).expect("UTF-8");
        (stdout_of(&assert), report)
    };
    let (lazy, report) = launch(None);
    let later = report.lines().filter(|l| l.contains(" later ")).count();
    assert!(
        report.contains("instructions in blocks no thread had entered are not compiled yet"),
        "{report}"
    );
    assert!(
        later > 100,
        "{later} instructions left for later:\n{report}"
    );
    assert_eq!(lazy, launch(Some("interp")).0);
    let sin: Vec<f32> = serde_json::from_str::<serde_json::Value>(&lazy).expect("JSON")["s"]
        .as_array()
        .expect("s")
        .iter()
        .map(|v| v.as_f64().expect("a number") as f32)
        .collect();
    assert_eq!(sin.len(), items);
    assert!(
        sin.iter().all(|s| (s - 0.5f32.sin()).abs() < 1e-6),
        "{:?}",
        &sin[..4]
    );
}

/// A launch of 2^31 work-items builds nothing per thread up front (its payload is written as
/// each thread starts): it runs until its first out-of-bounds read and reports it; one whose
/// work-groups leave lanes unused past the cap on the lane flags is refused before anything
/// is allocated.
#[test]
fn huge_launches_start_at_once_or_are_refused_by_size() {
    let (program, dump) = saxpy("dg2");
    let base = ["launch", &program, "--kernel", "saxpy", "--visa", &dump];
    let buffers = [
        "--arg",
        "x:float=[0;8]",
        "--arg",
        "y:float=[0;8]",
        "--arg",
        "a=1",
    ];
    let stderr_of = |global: &str, local: &str, code: i32| {
        let assert = visa()
            .args(base)
            .args(["--global", global, "--local", local])
            .args(buffers)
            .assert()
            .code(code);
        String::from_utf8(assert.get_output().stderr.clone()).expect("UTF-8")
    };
    let stderr = stderr_of("2147483648", "256", 3);
    assert!(
        stderr.contains("out-of-bounds access to argument 'x' (byte 32 of a 32-byte buffer)"),
        "{stderr}"
    );
    let stderr = stderr_of("4026531840", "15", 1);
    assert!(
        stderr.contains("8589934592 lanes: work-groups that are not a whole number of SIMD32")
            && stderr.contains("supported up to 1073741824 lanes"),
        "{stderr}"
    );
}

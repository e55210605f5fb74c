//! `visa run` data in and out: the kernel from standard input, outputs only by default (inputs
//! with --print-inputs), `--out DIR` writing outputs.json, JSON array files read back.

mod common;
use common::{main_job, repo_root, visa_with_input};

use std::path::Path;

use serde_json::{Value, json};

const EXAMPLE: &str = "examples/gather_add_scatter.visaasm";

fn ok(args: &[&str], stdin: &str) -> String {
    let out = visa_with_input(args, Some(stdin));
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// OUT[i] = clamp(A[i] * 5 + B[i], -50, 250) for A = -32..32, B = 100..164.
fn expected_out() -> Vec<i64> {
    (0..64)
        .map(|i| ((i - 32) * 5 + (100 + i)).clamp(-50, 250))
        .collect()
}

fn list(values: impl IntoIterator<Item = i64>) -> String {
    let items: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
    items.join(", ")
}

#[test]
fn only_outputs_print_by_default_and_inputs_on_request() {
    let text = ok(&main_job(EXAMPLE, &[]), "");
    assert_eq!(text, format!("OUT_PTR = [{}]\n", list(expected_out())));
    let text = ok(&main_job(EXAMPLE, &["--print-inputs"]), "");
    assert_eq!(
        text,
        format!(
            "A_PTR = [{}]\nB_PTR = [{}]\nOUT_PTR = [{}]\n",
            list(-32..32),
            list(100..164),
            list(expected_out())
        )
    );
}

#[test]
fn the_kernel_can_come_from_standard_input() {
    let source = std::fs::read_to_string(repo_root().join(EXAMPLE)).expect("example");
    let from_file = ok(&main_job(EXAMPLE, &[]), "");
    let from_stdin = ok(&main_job("-", &[]), &source);
    assert_eq!(from_stdin, from_file);
    // Errors name standard input.
    let out = visa_with_input(&["run", "-"], Some("mov (M1, 8) NOPE(0,0)<1> 0x1:d\n"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("<stdin>:1:"), "{err}");
}

#[test]
fn out_writes_outputs_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("results");
    let out_text = out_dir.to_str().expect("UTF-8 path");
    let text = ok(&main_job(EXAMPLE, &["--out", out_text]), "");
    let path = out_dir.join("outputs.json");
    assert_eq!(
        text,
        format!(
            "wrote 1 outputs to {} and NAME.npy beside it\n",
            path.display()
        )
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("outputs.json")).unwrap();
    assert_eq!(written, json!({ "OUT_PTR": expected_out() }));
    // With the inputs, every buffer.
    ok(
        &main_job(EXAMPLE, &["--out", out_text, "--print-inputs"]),
        "",
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("outputs.json")).unwrap();
    assert_eq!(written["A_PTR"], json!((-32..32).collect::<Vec<i64>>()));
    assert_eq!(written["OUT_PTR"], json!(expected_out()));
}

/// Y = X * 2 (f).
const DOUBLE: &str = "\
.decl X v_type=G type=f num_elts=8 align=GRF
.decl Y v_type=G type=f num_elts=8 align=GRF
mul (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x40000000:f
";

#[test]
fn infinities_and_nan_round_trip_through_out_and_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_text = dir.path().to_str().expect("UTF-8 path");
    let first = ok(
        &[
            "run",
            "-",
            "--simd",
            "8",
            "--arg",
            "X=[inf, -inf, nan, 0.1, 3e38, -0, 1, 2]",
            "--print",
            "Y",
            "--out",
            out_text,
        ],
        DOUBLE,
    );
    assert!(first.starts_with("wrote 1 outputs"), "{first}");
    let path = dir.path().join("outputs.json");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("outputs.json")).unwrap();
    // 3e38 * 2 overflows f to infinity.
    assert_eq!(
        written["Y"],
        json!(["inf", "-inf", "nan", 0.2, "inf", -0.0, 2.0, 4.0])
    );
    // Y back in as X, from the array in a file: doubled again.
    let file = dir.path().join("y.json");
    std::fs::write(&file, written["Y"].to_string()).expect("write");
    assert_doubled_again(&file);
}

/// `DOUBLE`'s output Y read back from `file` as its input X: every value doubled again, the
/// infinities and the NaN kept.
fn assert_doubled_again(file: &Path) {
    let arg = format!("X=@{}", file.display());
    let text = ok(
        &["run", "-", "--simd", "8", "--arg", &arg, "--print", "Y"],
        DOUBLE,
    );
    assert_eq!(text, "Y = [inf, -inf, NaN, 0.4, inf, -0.0, 4.0, 8.0]\n");
}

/// The header text and the data bytes of a version-1 `.npy` file, split by hand.
fn npy_parts(path: &Path) -> (String, Vec<u8>) {
    let bytes = std::fs::read(path).expect("read .npy");
    assert_eq!(&bytes[..6], b"\x93NUMPY", "magic");
    assert_eq!(bytes[6], 1, "version 1.0");
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = String::from_utf8(bytes[10..10 + len].to_vec()).expect("ASCII header");
    (header, bytes[10 + len..].to_vec())
}

#[test]
fn out_writes_npy_files_that_read_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_text = dir.path().to_str().expect("UTF-8 path");
    let text = ok(&main_job(EXAMPLE, &["--out", out_text]), "");
    assert!(text.contains("NAME.npy"), "{text}");
    let (header, data) = npy_parts(&dir.path().join("OUT_PTR.npy"));
    assert!(header.contains("'descr': '<i4'"), "{header}");
    assert!(header.contains("'shape': (64,)"), "{header}");
    let expected: Vec<u8> = expected_out()
        .iter()
        .flat_map(|v| (*v as i32).to_le_bytes())
        .collect();
    assert_eq!(data, expected);
    // Floats, infinities and NaN included, and back in through @FILE.npy.
    let first = ok(
        &[
            "run",
            "-",
            "--simd",
            "8",
            "--arg",
            "X=[inf, -inf, nan, 0.1, 3e38, -0, 1, 2]",
            "--print",
            "Y",
            "--out",
            out_text,
        ],
        DOUBLE,
    );
    assert!(first.starts_with("wrote 1 outputs"), "{first}");
    let y = dir.path().join("Y.npy");
    let (header, data) = npy_parts(&y);
    assert!(header.contains("'descr': '<f4'"), "{header}");
    let values: Vec<f32> = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(values[0], f32::INFINITY);
    assert_eq!(values[1], f32::NEG_INFINITY);
    assert!(values[2].is_nan());
    assert_eq!(&values[3..], &[0.2, f32::INFINITY, -0.0, 2.0, 4.0]);
    assert_doubled_again(&y);
    // An integer array binds an integer variable as well.
    let arg = format!("A_PTR:d=@{}", dir.path().join("OUT_PTR.npy").display());
    let svm_args = main_job(EXAMPLE, &[]);
    let mut args: Vec<&str> = svm_args.clone();
    let at = args.iter().position(|a| a.starts_with("A_PTR")).unwrap();
    args[at] = &arg;
    let text = ok(&args, "");
    let again: Vec<i64> = expected_out()
        .iter()
        .zip(100..)
        .map(|(a, b)| (a * 5 + b).clamp(-50, 250))
        .collect();
    assert_eq!(text, format!("OUT_PTR = [{}]\n", list(again)));
}

#[test]
fn an_out_directory_that_cannot_be_written_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").expect("write");
    let out = visa_with_input(
        &main_job(EXAMPLE, &["--out", file.to_str().unwrap()]),
        Some(""),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: --out "), "{err}");
}

/// A version-1 `.npy` file of little-endian f32 values.
fn write_f32_npy(path: &Path, values: &[u32]) {
    let mut header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    // Magic, version and length take 10 bytes; the header ends in a newline at a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write .npy");
}

/// An f32 array read with @FILE.npy keeps its exact bits: NaN payloads and signs, denormals
/// (a kernel moving it writes the same bits back out).
#[test]
fn npy_floats_keep_their_bits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("X.npy");
    let bits: [u32; 8] = [
        0x7fc1_2345, // quiet NaN with a payload
        0xffc0_0001, // negative quiet NaN with a payload
        0x0000_0003, // a denormal
        0x8000_0000, // -0
        0x3dcc_cccd, // 0.1
        0x7f7f_ffff, // the largest F
        0xff80_0000, // -inf
        0x3f80_0000, // 1
    ];
    write_f32_npy(&input, &bits);
    let out = dir.path().join("out");
    let kernel = "\
.decl X v_type=G type=f num_elts=8 align=GRF
.decl Y v_type=G type=f num_elts=8 align=GRF
or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x80:ud
mov (M1, 8) Y(0,0)<1> X(0,0)<1;1,0>
";
    let arg = format!("X=@{}", input.display());
    let out_text = out.to_str().expect("UTF-8 path");
    let args = [
        "run", "-", "--simd", "8", "--arg", &arg, "--print", "Y", "--out", out_text,
    ];
    ok(&args, kernel);
    let (_, data) = npy_parts(&out.join("Y.npy"));
    let got: Vec<u32> = (data.chunks_exact(4))
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, bits);
}

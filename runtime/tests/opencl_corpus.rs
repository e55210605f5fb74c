//! The OpenCL differential corpus (corpus/opencl, scripts/opencl-fixtures.py): each kernel
//! compiled by IGC for DG2 and PVC is launched here with the driver's ABI and its outputs are
//! compared with PoCL's (or, for sub-group kernels, numpy's): bit-exact where OpenCL requires
//! correct rounding, within the case's ULP allowance elsewhere. A launch that gives a different
//! answer fails; a launch this runtime refuses must be listed in `REFUSED` with its reason.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use visa_runtime::compiled::npy::{self, NpyType};
use visa_runtime::compiled::{ArgValue, CompiledProgram, find_visa_in_dump};

/// Cases refused with a named reason: (device, kernel, words of the refusal).
const REFUSED: &[(&str, &str, &str)] = &[
    // Its vISA declares more variables than this model's 64 KiB register file addresses.
    (
        "dg2",
        "math_pow",
        "variables exceed the 64 KiB register file of this model",
    ),
    (
        "pvc",
        "math_pow",
        "variables exceed the 64 KiB register file of this model",
    ),
    // PVC's integer division runs an fp64 `mad` under round-toward-zero, whose exact remainder
    // the runtime does not compute (it traps rather than risk a wrong last bit).
    (
        "pvc",
        "int_div_mod",
        "directed rounding (%cr0 bits 5:4) of mad on df",
    ),
];

/// Outputs where the compiled code itself computes something else than the OpenCL source says,
/// so PoCL disagrees with any faithful execution: (device, kernel, output).
/// - dg2 int_div_mod `uq = (uint)x / (uint)y + (uint)x % (uint)y`: IGC 1.0.12504's vISA adds the
///   *signed* quotient and remainder it computed for `q` and `r` (the LLVM IR it optimised still
///   has `udiv`/`urem`); the test checks that `uq` is exactly PoCL's `q + r`.
const COMPILER_DIFFERS: &[(&str, &str, &str)] = &[("dg2", "int_div_mod", "uq")];

#[derive(Deserialize)]
struct Case {
    kernel: String,
    global_size: Vec<u32>,
    local_size: Option<Vec<u32>>,
    args: Vec<CaseArg>,
    compare: std::collections::BTreeMap<String, Compare>,
}

#[derive(Deserialize)]
struct CaseArg {
    #[allow(dead_code)]
    name: String,
    buffer: Option<String>,
    #[serde(rename = "type")]
    ty: Option<String>,
    value: Option<serde_json::Value>,
    local: Option<u32>,
    bytes: Option<String>,
}

#[derive(Deserialize)]
struct Compare {
    file: String,
    ulp: u64,
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/opencl")
}

fn scalar_bytes(ty: &str, value: &serde_json::Value) -> Vec<u8> {
    let ty = NpyType::from_opencl(ty).unwrap_or_else(|| panic!("scalar type {ty}"));
    let number = value.as_f64().unwrap_or_else(|| panic!("value {value}"));
    match ty {
        NpyType::F32 => (number as f32).to_le_bytes().to_vec(),
        NpyType::F64 => number.to_le_bytes().to_vec(),
        other => (value.as_i64().unwrap_or_else(|| panic!("value {value}")) as i128).to_le_bytes()
            [..other.size()]
            .to_vec(),
    }
}

/// Runs one case; `Ok(None)` when it agrees, `Ok(Some(diff))` when it gives another answer,
/// `Err(reason)` when it is refused.
fn run_case(device: &str, name: &str) -> Result<Option<String>, String> {
    let root = corpus();
    let case_dir = root.join("cases").join(name);
    let case: Case = serde_json::from_str(
        &std::fs::read_to_string(case_dir.join("launch.json")).expect("launch.json"),
    )
    .expect("launch.json parses");
    let kernel_dir = root.join(device).join(name);
    let zebin = std::fs::read(kernel_dir.join("program.bin")).expect("program.bin");
    let program = CompiledProgram::from_zebin(&zebin).map_err(|e| e.to_string())?;
    let kernel = program.kernel(&case.kernel).map_err(|e| e.to_string())?;
    let (_, text) = find_visa_in_dump(&kernel_dir.join("dump"), &case.kernel, kernel.simd_size())
        .map_err(|e| e.to_string())?;
    let loaded = kernel.visa(&text).map_err(|e| e.to_string())?;
    let mut values = Vec::new();
    for arg in &case.args {
        values.push(if let Some(file) = &arg.buffer {
            let array =
                npy::read(&std::fs::read(case_dir.join(file)).expect("input")).expect("npy");
            ArgValue::Buffer(array.bytes)
        } else if let Some(bytes) = arg.local {
            ArgValue::Local(bytes)
        } else if let Some(hex) = &arg.bytes {
            ArgValue::Value(
                (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
                    .collect(),
            )
        } else {
            ArgValue::Value(scalar_bytes(
                arg.ty.as_deref().expect("type"),
                arg.value.as_ref().expect("value"),
            ))
        });
    }
    let out = loaded
        .launch(&case.global_size, case.local_size.as_deref(), &values)
        .map_err(|e| e.to_string())?;
    let mut diffs = Vec::new();
    let expected_of = |output: &str| {
        npy::read(&std::fs::read(case_dir.join(&case.compare[output].file)).expect("expected"))
            .expect("npy")
    };
    for (output, compare) in &case.compare {
        let got = out.buffer(output).expect("output buffer");
        if COMPILER_DIFFERS.contains(&(device, name, output.as_str())) {
            let words = |a: &npy::NpyArray| -> Vec<u32> {
                a.bytes
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            };
            let (q, r) = (words(&expected_of("q")), words(&expected_of("r")));
            let got = words(&npy::NpyArray {
                ty: NpyType::U32,
                bytes: got.to_vec(),
            });
            let signed_sum: Vec<u32> = q.iter().zip(&r).map(|(q, r)| q.wrapping_add(*r)).collect();
            if got != signed_sum {
                diffs.push(format!(
                    "{output}: not the compiled code's signed q + r either"
                ));
            }
            continue;
        }
        let expected = expected_of(output);
        let size = expected.ty.size();
        let mut bad = 0;
        let mut first = None;
        for (i, (e, g)) in expected
            .bytes
            .chunks(size)
            .zip(got.chunks(size))
            .enumerate()
        {
            let distance = npy::ulp_distance(expected.ty, e, g);
            if distance > compare.ulp {
                bad += 1;
                first.get_or_insert((i, e.to_vec(), g.to_vec(), distance));
            }
        }
        if let Some((i, e, g, d)) = first {
            diffs.push(format!(
                "{output}: {bad} elements differ, first [{i}] expected {e:02x?} got {g:02x?} ({d} ulp)"
            ));
        }
    }
    Ok((!diffs.is_empty()).then(|| diffs.join("; ")))
}

#[test]
fn compiled_kernels_agree_with_pocl() {
    let root = corpus();
    let mut names: Vec<String> = std::fs::read_dir(root.join("cases"))
        .expect("cases")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    if let Ok(only) = std::env::var("OPENCL_CASE") {
        names.retain(|n| *n == only);
    }
    let mut wrong = Vec::new();
    let mut unexpected = Vec::new();
    for device in ["dg2", "pvc"] {
        let (mut agree, mut refused) = (0, 0);
        for name in &names {
            let listed = REFUSED.iter().find(|(d, k, _)| *d == device && k == name);
            match run_case(device, name) {
                Ok(None) => {
                    agree += 1;
                    if listed.is_some() {
                        unexpected.push(format!(
                            "{device} {name}: agrees now; remove it from REFUSED"
                        ));
                    }
                }
                Ok(Some(diff)) => wrong.push(format!("{device} {name}: {diff}")),
                Err(reason) => {
                    refused += 1;
                    eprintln!("{device} {name}: refused: {reason}");
                    match listed {
                        Some((_, _, words)) if reason.contains(words) => {}
                        _ => unexpected.push(format!("{device} {name}: refused: {reason}")),
                    }
                }
            }
        }
        eprintln!(
            "{device}: {agree} of {} cases agree, {refused} refused",
            names.len()
        );
    }
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
    assert!(
        unexpected.is_empty(),
        "refusals not listed:\n{}",
        unexpected.join("\n")
    );
}

//! `visa spec dump`: JSON shape, default directory, human summary and error reporting.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const VISA: &str = env!("CARGO_BIN_EXE_visa");

/// A small document of our own.
const DOC: &str = "## Opcode\n\n  SVM = 0x4e\n  GATHER = 0x03\n\n## Format\n\n| | | | |\n| --- | --- | --- | --- |\n| 0x4e(SVM) | 0x03(GATHER) | Exec_size | Dst |\n\n## Semantics\n\n    dst = load(addr);\n\n## Description\n\n    Loads.\n\n- **Exec_size(ub):** size\n  - Bit[2..0]: elements\n    - 0b000:  one\n    - 0b011:  eight\n- **Dst(raw_operand):** out. Must have type UD\n\n#### Properties\n- **Out-of-bound Access:** zeros\n\n## Text\n```\n    [(<P>)] SVM_GATHER (<exec_size>) <dst>\n```\n";

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(VISA)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run visa")
}

fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn dumps_all_upstream_documents_and_seeds_as_json() {
    let root = repo_root();
    if !root.join("../shared").is_dir() {
        println!("skipped: ../shared not found");
        return;
    }
    let out = run(
        root,
        &[
            "spec",
            "dump",
            "--json",
            "../shared/visa-docs/instructions",
            "../shared/seeds",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let docs = json.as_array().expect("an array");
    assert_eq!(docs.len(), 111);
    // Files come in directory order, each directory sorted by file name.
    assert!(docs[0]["file"].as_str().unwrap().ends_with("3D_LOAD.md"));
    assert!(docs[110]["file"].as_str().unwrap().contains("004_"));

    let svm_gather = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().contains("003_"))
        .unwrap();
    assert_eq!(svm_gather["line"], 9);
    assert_eq!(
        svm_gather["opcodes"],
        serde_json::json!([{"name": "SVM", "value": 78}, {"name": "GATHER", "value": 3}])
    );
    let fields: Vec<(&str, &str)> = svm_gather["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fields,
        [
            ("Exec_size", "ub"),
            ("Pred", "uw"),
            ("Block_size", "ub"),
            ("Num_blocks", "ub"),
            ("Addresses", "raw_operand"),
            ("Dst", "raw_operand")
        ]
    );
    let block_size = &svm_gather["bitfields"][2];
    assert_eq!(block_size["field"], "Block_size");
    assert_eq!(
        (block_size["hi"].as_u64(), block_size["lo"].as_u64()),
        (Some(1), Some(0))
    );
    let codes: Vec<u64> = block_size["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["code"].as_u64().unwrap())
        .collect();
    assert_eq!(codes, [0, 1, 3]);
    assert_eq!(
        svm_gather["syntax"][0],
        "[(<P>)] SVM_GATHER.<block_size>.<num_blocks> (<exec_size>) <addresses> <dst>"
    );

    let add = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("/ADD.md"))
        .unwrap();
    assert_eq!(add["properties"]["Saturation"], "Yes");
    assert_eq!(add["properties"]["Source Modifier"], "arithmetic");
}

#[test]
fn default_directory_is_spec_and_human_summary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("spec")).unwrap();
    std::fs::write(dir.path().join("spec/SVM_GATHER.md"), DOC).unwrap();
    std::fs::write(dir.path().join("spec/README.md"), "# not a document").unwrap();
    let out = run(dir.path(), &["spec", "dump"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("SVM_GATHER (SVM = 0x4e, GATHER = 0x03)  spec/SVM_GATHER.md:1\n"),
        "{text}"
    );
    assert!(
        text.contains("  Exec_size: ub\n    Bit[2..0] elements: 2 code(s)\n"),
        "{text}"
    );
    assert!(text.contains("  Dst: raw_operand  types UD\n"), "{text}");
    assert!(text.contains("  Out-of-bound Access: zeros\n"), "{text}");
    assert!(
        text.contains("  syntax: [(<P>)] SVM_GATHER (<exec_size>) <dst>\n"),
        "{text}"
    );

    let out = run(dir.path(), &["spec", "dump", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(json[0]["name"], "SVM_GATHER");
    assert_eq!(
        json[0]["bitfields"][0]["values"][1],
        serde_json::json!({"code": 3, "label": "eight", "platforms": []})
    );
}

#[test]
fn errors_go_to_stderr_with_locations_and_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = DOC.replace("0b011:", "0b1011:").replace("= 0x03", "= 0x3z");
    std::fs::write(dir.path().join("BAD.md"), bad).unwrap();
    std::fs::write(dir.path().join("GOOD.md"), DOC).unwrap();
    let out = run(dir.path(), &["spec", "dump", "--json", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "./BAD.md:4:12: error: bad opcode value `0x3z`: expected a number such as 0x4e",
            "./BAD.md:23:7: error: code 11 does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide)",
            "visa spec dump: 2 error(s)",
        ]
    );
}

#[test]
fn missing_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["spec", "dump", "nowhere"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("nowhere:1:1: error: cannot read directory: "),
        "{stderr}"
    );
}

#[test]
fn help_documents_the_json_schema() {
    let out = run(repo_root(), &["spec", "dump", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for key in [
        "\"opcodes\"",
        "\"fields\"",
        "\"bitfields\"",
        "\"syntax\"",
        "\"properties\"",
        "--json",
    ] {
        assert!(help.contains(key), "{key} missing from:\n{help}");
    }
}

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
    let (Some(instructions), Some(seeds)) = (
        visa_testutil::shared("visa-docs/instructions"),
        visa_testutil::shared("seeds"),
    ) else {
        return;
    };
    let (instructions, seeds) = (
        instructions.display().to_string(),
        seeds.display().to_string(),
    );
    let out = run(root, &["spec", "dump", "--json", &instructions, &seeds]);
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
    assert_eq!(add["diagnostics"], serde_json::json!([]));

    // Each document carries its warnings; stderr has them too.
    let barrier = docs
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("/BARRIER.md"))
        .unwrap();
    let diagnostics = barrier["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0]["severity"], "warning");
    assert_eq!(diagnostics[0]["line"], 14);
    assert_eq!(diagnostics[0]["col"], 1);
    assert_eq!(
        diagnostics[0]["message"],
        "the Format section is empty: the instruction has no operand fields"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("BARRIER.md:14:1: warning: the Format section is empty"),
        "{stderr}"
    );
}

#[test]
fn a_broken_document_beside_the_shared_ones_is_left_out_with_its_warning() {
    let Some(shared) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(visa_testutil::copy_documents(&shared, dir.path()), 106);
    std::fs::write(dir.path().join("BROKEN.md"), visa_testutil::BROKEN_DOCUMENT).unwrap();
    let out = run(dir.path(), &["spec", "dump", "--json", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(json.as_array().unwrap().len(), 106);
    assert!(
        stderr.contains(
            "./BROKEN.md:7:1: warning: no Format table: the Format table has no rows (truncated table?): the document is left out\n"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("left out: ./BROKEN.md"), "{stderr}");
    // With --strict the same run fails.
    let strict = run(dir.path(), &["spec", "dump", "--strict", "--json", "."]);
    assert_eq!(strict.status.code(), Some(1));
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
fn warnings_go_to_stderr_with_locations_exit_0_and_1_with_strict() {
    let dir = tempfile::tempdir().unwrap();
    // A code that does not fit: kept as description text. A bad opcode value: no opcode, left out.
    std::fs::write(dir.path().join("ODD.md"), DOC.replace("0b011:", "0b1011:")).unwrap();
    std::fs::write(
        dir.path().join("LEFT.md"),
        DOC.replace("= 0x03", "= 0x3z").replace("SVM = 0x4e\n", ""),
    )
    .unwrap();
    let expected = [
        "./LEFT.md:3:14: warning: no opcode declared: bad opcode value `0x3z` (expected a number such as 0x4e): the document is left out",
        "./ODD.md:23:7: warning: code `0b1011` does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide): kept as description text",
        "visa spec dump: 1 document(s), 2 warning(s), 0 error(s); left out: ./LEFT.md",
    ];
    let out = run(dir.path(), &["spec", "dump", "--json", "."]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(
        json[0]["diagnostics"],
        serde_json::json!([{
            "file": "./ODD.md",
            "line": 23,
            "col": 7,
            "severity": "warning",
            "kind": "code-too-wide",
            "message": "code `0b1011` does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide): kept as description text"
        }])
    );
    // The model keeps the rest: one code left in the sub-field.
    assert_eq!(
        json[0]["bitfields"][0]["values"].as_array().unwrap().len(),
        1
    );

    let strict = run(dir.path(), &["spec", "dump", "--strict", "."]);
    assert_eq!(strict.status.code(), Some(1));
    let stderr = String::from_utf8(strict.stderr).unwrap();
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn a_document_that_cannot_be_read_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("GOOD.md"), DOC).unwrap();
    let huge = format!("{DOC}{}", " ".repeat(1 << 20));
    std::fs::write(dir.path().join("HUGE.md"), huge).unwrap();
    let out = run(dir.path(), &["spec", "dump", "."]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("./HUGE.md:1:1: error: the document is "),
        "{stderr}"
    );
    // The readable document is still dumped.
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("SVM_GATHER "));
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
        "\"diagnostics\"",
        "--json",
        "--strict",
    ] {
        assert!(help.contains(key), "{key} missing from:\n{help}");
    }
}

#[test]
fn lint_exits_1_with_findings_and_0_on_our_spec() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ODD.md"), DOC.replace("0b011:", "0b1011:")).unwrap();
    let out = run(dir.path(), &["spec", "lint", "."]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "./ODD.md:23:7: warning: code `0b1011` does not fit in `Bit[2..0]` of field `Exec_size` (3 bits wide): kept as description text [code-too-wide]",
            // (The test document's template writes a predicate its Format table does not have.)
            "./ODD.md:31:5: warning: syntax statement not generated: `[(<P>)]` is written but the Format table has no `Pred` field [syntax]",
            "visa spec lint: 1 document(s), 2 finding(s)",
        ]
    );
    let out = run(dir.path(), &["spec", "lint", "--json", "."]);
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["kind"], "code-too-wide");
    assert_eq!(json[0]["line"], 23);

    let out = run(repo_root(), &["spec", "lint"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.ends_with(" 0 finding(s)\n"), "{stdout}");
    let help = run(repo_root(), &["spec", "lint", "--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("[sibling-mismatch]") && help.contains("--json"),
        "{help}"
    );
}

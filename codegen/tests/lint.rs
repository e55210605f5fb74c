//! `visa_codegen::lint`: each check on small documents written for the test, our `spec/` clean,
//! and the upstream corpus's known inconsistency found.

use std::path::PathBuf;

use visa_codegen::ParsedDirs;
use visa_codegen::model::{Diagnostic, DiagnosticKind};

/// A document with the given opcode lines, Format row (after the opcode cells) and field bullets.
fn doc(opcodes: &str, cells: &str, bullets: &str, text: &str) -> String {
    let cell_count = cells.split('|').count() + opcodes.lines().count();
    let header = "| ".repeat(cell_count) + "|";
    let rule = "| --- ".repeat(cell_count) + "|";
    let opcode_cells: String = opcodes
        .lines()
        .map(|l| {
            let (name, value) = l.split_once('=').unwrap();
            format!("| {}({}) ", value.trim(), name.trim())
        })
        .collect();
    let opcode_lines: String = opcodes.lines().map(|l| format!("  {l}\n")).collect();
    format!(
        "## Opcode\n\n{opcode_lines}\n## Format\n\n{header}\n{rule}\n{opcode_cells}| {cells} |\n\n\
         ## Semantics\n\n    x\n\n## Description\n\n{bullets}\n\n## Text\n```\n{text}\n```\n"
    )
}

fn lint(files: &[(&str, String)]) -> Vec<Diagnostic> {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let parsed: ParsedDirs = visa_codegen::parse_dirs(&[dir.path().to_path_buf()]);
    // File names without the temporary directory, in locations and in messages.
    let prefix = format!("{}/", dir.path().display());
    visa_codegen::lint::lint(&parsed)
        .into_iter()
        .map(|mut d| {
            d.file = PathBuf::from(&d.file)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            d.message = d.message.replace(&prefix, "");
            d
        })
        .collect()
}

fn shown(findings: &[Diagnostic]) -> Vec<String> {
    findings.iter().map(ToString::to_string).collect()
}

const SIZE: &str = "- **Size(ub):** size\n  - Bit[1..0]: width\n    - 0b00: 1 byte\n    - 0b01: 4 bytes\n    - 0b11: 8 bytes";

#[test]
fn a_consistent_document_has_no_finding() {
    let findings = lint(&[("OK.md", doc("OK = 0x10", "Size", SIZE, "OK.<size>"))]);
    assert!(findings.is_empty(), "{:#?}", shown(&findings));
}

#[test]
fn parser_findings_keep_their_kind() {
    let text = doc(
        "ODD = 0x10",
        "Size | Dst",
        &format!("{SIZE}\n    - 0b11: twice\n    - 0b100: too wide\n- **Extra(ub):** in no table"),
        "ODD.<size> <dst>",
    );
    // (The Format field without a bullet leaves ODD out of the generated code: its syntax is
    // not bound.) A template naming no field, in a document that generates:
    let unbound = doc("UNB = 0x11", "Size", SIZE, "UNB.<size> <src9>");
    let findings = lint(&[("ODD.md", text), ("UNB.md", unbound)]);
    let kinds: Vec<DiagnosticKind> = findings.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            DiagnosticKind::FieldWithoutBullet,
            DiagnosticKind::DuplicateCode,
            DiagnosticKind::CodeTooWide,
            DiagnosticKind::BulletWithoutField,
            DiagnosticKind::Syntax,
        ],
        "{:#?}",
        shown(&findings)
    );
    assert_eq!(
        findings[4].to_string(),
        "UNB.md:25:1: warning: syntax statement not generated: operand `<src9>` names no field"
    );
}

#[test]
fn overlapping_bit_ranges_and_codes_inside_ranges() {
    let bullets = "- **Mode(ub):** mode\n  - Bit[3..0]: low\n    - 0x1: one\n    - 0x0-0x3: small\n  - {XEHP+}Bit[2..1]: middle\n  - {-XEHP}Bit[4..3]: old\n  - {XEHP+}Bit[7..4]: high";
    let findings = lint(&[("OVL.md", doc("OVL = 0x10", "Mode", bullets, "OVL"))]);
    assert_eq!(
        shown(&findings),
        [
            "OVL.md:19:7: warning: code 0x1 of `Bit[3..0]` of field `Mode` is inside the range 0x0-0x3 (at 20:7)",
            "OVL.md:21:12: warning: `Bit[2..1]` of field `Mode` overlaps `Bit[3..0]` (at 18:5)",
            "OVL.md:22:12: warning: `Bit[4..3]` of field `Mode` overlaps `Bit[3..0]` (at 18:5)",
        ]
    );
    // `{-XEHP}Bit[4..3]` and `{XEHP+}Bit[7..4]` never apply together: not reported.
}

#[test]
fn an_opcode_value_declared_twice_or_under_two_names() {
    let findings = lint(&[
        ("A.md", doc("AAA = 0x10", "Size", SIZE, "AAA.<size>")),
        ("B.md", doc("BBB = 0x10", "Size", SIZE, "BBB.<size>")),
        (
            "C.md",
            doc("AAA = 0x10\nSUB = 0x01", "Size", SIZE, "C.<size>"),
        ),
        (
            "D.md",
            doc("DDD = 0x10\nSUB = 0x02", "Size", SIZE, "D.<size>"),
        ),
    ]);
    let opcode: Vec<String> = findings
        .iter()
        .filter(|d| d.kind == DiagnosticKind::OpcodeReused)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        opcode,
        [
            "B.md:3:3: warning: opcode `BBB = 0x10` is also declared by A.md (`AAA = 0x10`)",
            "D.md:3:3: warning: opcode value 0x10 is `DDD` here but `AAA` in A.md",
        ],
        "{:#?}",
        shown(&findings)
    );
}

#[test]
fn siblings_that_disagree_on_a_field() {
    let scatter_size = SIZE.replace("0b11: 8 bytes", "0b10: 8 bytes");
    let findings = lint(&[
        (
            "X_GATHER.md",
            doc(
                "X = 0x40\nGATHER = 0x01",
                "Size | Off",
                &format!("{SIZE}\n- **Off(ud):** offset"),
                "X_GATHER.<size> <off>",
            ),
        ),
        (
            "X_SCATTER.md",
            doc(
                "X = 0x40\nSCATTER = 0x02",
                "Size | Off",
                &format!("{scatter_size}\n- **Off(uw):** offset"),
                "X_SCATTER.<size> <off>",
            ),
        ),
        // Not a sibling (different parent, names differ in every word): never compared.
        (
            "OTHER.md",
            doc(
                "OTHER = 0x41",
                "Size",
                &scatter_size.replace("0b10: 8", "0b00: 8"),
                "OTHER.<size>",
            ),
        ),
    ]);
    let siblings: Vec<String> = findings
        .iter()
        .filter(|d| d.kind == DiagnosticKind::SiblingMismatch)
        .map(|d| d.to_string().replace(&d.file, "F"))
        .collect();
    assert_eq!(siblings.len(), 2, "{:#?}", shown(&findings));
    assert!(
        siblings[0]
            .contains("`8` is code 0b10 of Bit[1..0] of field `Size` here but 0b11 in the sibling"),
        "{siblings:#?}"
    );
    assert!(
        siblings[1].contains("field `Off` is `uw` here but `ud` in the sibling"),
        "{siblings:#?}"
    );
}

#[test]
fn our_spec_lints_clean() {
    let spec = visa_testutil::repo_root().join("spec");
    let findings = visa_codegen::lint::lint(&visa_codegen::parse_dirs(&[spec]));
    assert!(findings.is_empty(), "{:#?}", shown(&findings));
}

#[test]
fn the_upstream_corpus_has_the_known_block_size_inconsistency() {
    let Some(dir) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let findings = visa_codegen::lint::lint(&visa_codegen::parse_dirs(&[dir]));
    let siblings: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.kind == DiagnosticKind::SiblingMismatch)
        .collect();
    // runtime-semantics.md §14 item 3: SVM_GATHER writes 8-byte blocks as 0b11, SVM_SCATTER 0b10.
    assert_eq!(siblings.len(), 1, "{findings:#?}");
    assert!(siblings[0].file.ends_with("SVM_SCATTER.md"));
    assert!(siblings[0].message.starts_with(
        "`8` is code 0b10 of Bit[1..0] of field `Block_size` here but 0b11 in the sibling"
    ));
    assert!(!findings.iter().any(|d| matches!(
        d.kind,
        DiagnosticKind::OpcodeReused
            | DiagnosticKind::OverlappingBits
            | DiagnosticKind::OverlappingCodes
            | DiagnosticKind::DuplicateCode
            | DiagnosticKind::CodeTooWide
    )));
}

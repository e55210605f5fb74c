//! Extensibility: a spec directory holding one of our documents plus invented opcodes (FROB,
//! `emit_fixtures/FROB.md`, and ZAP, whose composite operands `V:b16x3 @B-0x20` go through the
//! template notation of `spec/README.md`) generates with no generator change, and a throwaway
//! crate built against `visa-isa` with `VISA_SPEC_DIR` pointing there parses, formats, converts,
//! encodes and decodes the new instructions. The runtime, built on our documents plus FROB, does not compile:
//! its list of what it executes (`visa_runtime::execution`) has no verdict for the new opcode,
//! and the compiler's error names it.

use std::path::{Path, PathBuf};
use std::process::Command;

use visa_codegen::build::Options;
use visa_codegen::emit;

const FROB: &str = include_str!("emit_fixtures/FROB.md");
const ZAP: &str = include_str!("emit_fixtures/ZAP.md");

fn workspace() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A spec directory with our ADD document and the invented FROB and ZAP.
fn spec_dir(root: &Path) -> PathBuf {
    let spec = root.join("spec");
    std::fs::create_dir_all(&spec).unwrap();
    std::fs::copy(workspace().join("spec/ADD.md"), spec.join("ADD.md")).unwrap();
    std::fs::write(spec.join("FROB.md"), FROB).unwrap();
    std::fs::write(spec.join("ZAP.md"), ZAP).unwrap();
    spec
}

#[test]
fn an_invented_opcode_generates() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = spec_dir(tmp.path());
    let parsed = visa_codegen::parse_dirs(&[spec]);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let generated = emit::generate(&parsed.documents).expect("documents generate");
    assert!(generated.opcode.contains("Frob,"), "{}", generated.opcode);
    assert!(
        generated.opcode.contains("Self::Frob => 0xf0")
            || generated.opcode.contains("Self::Frob => 240")
    );
    assert!(generated.tables.contains("name: \"FROB\""));
    // `.<mode>` binds to the Mode field (index 2), `(<exec_size>)` to Exec_size (index 0).
    assert!(generated.tables.contains("mnemonic: \"frob\""));
    assert!(
        generated
            .tables
            .contains("crate::desc::SuffixDesc::Field(crate::desc::Binding {\n")
    );
    assert!(
        generated.fields.contains("pub enum Mode {"),
        "{}",
        generated.fields
    );
    assert!(generated.instrs.contains("pub struct Frob {"));
    assert!(generated.instrs.contains("pub mode: crate::fields::Mode,"));
    // ZAP's composite operands are a layout of pieces bound to its fields.
    assert!(generated.tables.contains("name: \"ZAP\""));
    assert!(
        generated
            .tables
            .contains("crate::desc::PieceDesc::Literal(\"@\")"),
        "{}",
        generated.tables
    );
    assert!(
        generated
            .tables
            .contains("style: crate::desc::NumberStyle::SignedHex")
    );

    // The generator writes the files and reports the inputs.
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let generation =
        visa_codegen::build::generate_with(&tmp.path().join("spec"), &out, Options::default())
            .unwrap();
    assert_eq!(generation.inputs.len(), 3);
    for name in ["opcode.rs", "tables.rs", "fields.rs", "instrs.rs"] {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(text.starts_with(emit::HEADER));
    }
}

#[test]
fn a_broken_template_is_a_warning_with_its_location_and_fatal_when_strict() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("spec");
    std::fs::create_dir_all(&spec).unwrap();
    let broken = FROB.replace("FROB.<mode>", "FROB.<strength>");
    std::fs::write(spec.join("FROB.md"), &broken).unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let line = broken
        .lines()
        .position(|l| l.contains("FROB.<strength>"))
        .unwrap()
        + 1;
    let expected_prefix = format!("{}:{line}:", spec.join("FROB.md").display());

    // By default the build keeps going: FROB is generated without that statement.
    let generation = visa_codegen::build::generate_with(&spec, &out, Options::default()).unwrap();
    assert_eq!(generation.instructions, 1);
    let shown: Vec<String> = generation
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].starts_with(&expected_prefix), "{shown:?}");
    assert!(
        shown[0].contains("warning: syntax statement not generated: suffix `.strength`"),
        "{shown:?}"
    );

    // Strict: the same diagnostic fails the generation.
    let errors =
        visa_codegen::build::generate_with(&spec, &out, Options { strict: true }).unwrap_err();
    let strict: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(strict, shown);
}

const MAIN_RS: &str = r#"
use visa_isa::{codec, fields, instrs, text, Opcode, INSTRUCTIONS};

fn main() {
    let op = Opcode::Frob;
    assert_eq!(op.value(), 0xf0);
    assert_eq!(op.name(), "FROB");
    assert_eq!(INSTRUCTIONS[op.index()].source, "FROB.md");

    let inst = text::parse_instruction("(!P1) frob.wild (M2_NM, 8) V40(0,0)<1> V41(0,0)<1;1,0>").unwrap();
    let typed = instrs::Frob::try_from(&inst).unwrap();
    assert_eq!(typed.mode, fields::Mode::decode(0b10).unwrap());
    assert_eq!(typed.mode.text(), "wild");
    assert_eq!(typed.exec_size.encode(), 0x93);
    let printed = text::format_instruction(&inst);

    let mut syms = codec::SymbolTable::new();
    let mut bytes = Vec::new();
    codec::encode(&inst, &mut syms, &mut bytes).unwrap();
    assert_eq!(&bytes[..6], &[0xf0, 0x93, 0x01, 0x80, 0x02, 0x00]);
    let (back, used) = codec::decode(&bytes, &syms).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(back.fields, inst.fields);
    println!("{printed}");

    // Composite operands: one count and no offset, then three elements, an offset and a bias.
    for line in ["zap (M1, 8) V:b16 @B", "zap (M1_NM, 1) V:b16wx3 @B-0x20^0x7"] {
        let inst = text::parse_instruction(line).unwrap();
        let typed = instrs::Zap::try_from(&inst).unwrap();
        let mut bytes = Vec::new();
        codec::encode(&inst, &mut syms, &mut bytes).unwrap();
        let (back, _) = codec::decode(&bytes, &syms).unwrap();
        assert_eq!(back.fields, inst.fields);
        println!("{} {} {}", text::format_instruction(&back), typed.count, typed.offset.unwrap_or_default());
    }
}
"#;

/// Builds and runs a throwaway crate whose `main.rs` is `main_rs`, against `visa-isa` generated
/// from `spec` (`VISA_SPEC_DIR`, not strict). The target directory is kept between runs so that
/// only the first run compiles the dependencies.
fn run_on_spec(spec: &Path, main_rs: &str) -> std::process::Output {
    cargo_on_spec(spec, "isa", "run", main_rs)
}

/// Runs `cargo <subcommand>` on a throwaway crate whose `main.rs` is `main_rs` and which depends
/// on the workspace crate in directory `crate_dir`, with `visa-isa` generated from `spec`.
fn cargo_on_spec(
    spec: &Path,
    crate_dir: &str,
    subcommand: &str,
    main_rs: &str,
) -> std::process::Output {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("spec-user");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let dependency = workspace().join(crate_dir);
    let manifest = std::fs::read_to_string(dependency.join("Cargo.toml")).unwrap();
    let package = manifest
        .lines()
        .find_map(|l| l.strip_prefix("name = "))
        .unwrap()
        .trim_matches('"');
    std::fs::write(
        project.join("Cargo.toml"),
        format!(
            "[package]\nname = \"spec-user\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\n{package} = {{ path = {:?} }}\n\n[workspace]\n",
            dependency.display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), project.join("Cargo.lock")).unwrap();
    std::fs::write(project.join("src/main.rs"), main_rs).unwrap();
    let target = std::env::temp_dir().join("visa-emit-extensibility-target");
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([subcommand, "--offline"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", &target)
        .env("VISA_SPEC_DIR", spec)
        .env_remove("VISA_SPEC_STRICT")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap()
}

#[test]
fn a_crate_built_on_the_new_spec_uses_the_new_instruction() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = spec_dir(tmp.path());
    let output = run_on_spec(&spec, MAIN_RS);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(
        stdout.trim(),
        "(!P1) frob.wild (M2_NM, 8) V40(0,0)<1> V41(0,0)<1;1,0>\n\
         zap (M1, 8) V:b16 @B 1 0\n\
         zap (M1_NM, 1) V:b16wx3 @B-0x20^0x7 3 -32"
    );
}

/// Prints the number of generated instructions and whether ADD is one of them.
const COUNT_RS: &str = r#"
fn main() {
    println!("{} {}", visa_isa::INSTRUCTIONS.len(), visa_isa::Opcode::from_name("ADD").is_some());
}
"#;

#[test]
fn the_isa_crate_builds_over_the_shared_documents_beside_a_broken_one() {
    let Some(shared) = visa_testutil::shared("visa-docs/instructions") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("spec");
    assert_eq!(visa_testutil::copy_documents(&shared, &spec), 106);
    std::fs::write(spec.join("BROKEN.md"), visa_testutil::BROKEN_DOCUMENT).unwrap();
    let output = run_on_spec(&spec, COUNT_RS);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(stdout.trim(), "106 true");
    let warning = format!(
        "{}:7:1: warning: no Format table: the Format table has no rows (truncated table?): the document is left out",
        spec.join("BROKEN.md").display()
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("warning: visa-isa@") && l.ends_with(&warning)),
        "{stderr}"
    );
}

/// Uses the runtime's execution list.
const RUNTIME_RS: &str = r#"
fn main() {
    let _ = visa_runtime::execution;
}
"#;

/// The generated `Opcode` is open: an instruction the runtime has no verdict for falls in its one
/// fallback arm (not executed, "no runtime semantics yet"; its unit tests check that), so a
/// document added to the build never breaks the runtime's build.
#[test]
fn the_runtime_builds_on_a_spec_with_an_instruction_it_has_no_verdict_for() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("spec");
    assert!(visa_testutil::copy_documents(&workspace().join("spec"), &spec) > 90);
    std::fs::write(spec.join("FROB.md"), FROB).unwrap();
    let output = cargo_on_spec(&spec, "runtime", "check", RUNTIME_RS);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the runtime did not build:\n{stderr}"
    );
}

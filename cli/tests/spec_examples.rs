//! The `## Examples` of the instruction documents in `spec/`: every document has at least one,
//! one of them uses the document's own instruction, and each is a snippet that the checker
//! (`visa check`: `visa_isa::text` parse + check, then the runtime loader's verdict) accepts
//! without an error or a warning; the loader may refuse only what the runtime names as not
//! executed.

use std::path::{Path, PathBuf};

use visa_codegen::model::Document;
use visa_isa::ast::StmtKind;
use visa_isa::text::CheckOptions;
use visa_runtime::{LoadOptions, Program};

/// What is wrong with the examples of the documents in `dir`, one line per problem, each
/// starting with `file:line:`.
fn problems(dir: &Path) -> (usize, usize, Vec<String>) {
    let parsed = visa_codegen::parse_dirs(&[dir.to_path_buf()]);
    let mut out: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    out.extend(
        parsed
            .left_out
            .iter()
            .map(|p| format!("{}: left out", p.display())),
    );
    let mut examples = 0;
    for doc in &parsed.documents {
        examples += doc.examples.len();
        out.extend(document_problems(doc));
    }
    (parsed.documents.len(), examples, out)
}

fn document_problems(doc: &Document) -> Vec<String> {
    let name = doc.full_name();
    if doc.examples.is_empty() {
        return vec![format!(
            "{}:{}: {name} has no example (expected an `## Examples` section with a ```visaasm block)",
            doc.file, doc.line
        )];
    }
    let mut out = Vec::new();
    let mut uses_itself = false;
    for example in &doc.examples {
        // A diagnostic's line in the snippet, as a line of the document.
        let at = |line: u32| {
            let line = example.loc.line.saturating_add(line.saturating_sub(1));
            format!("{}:{line}", doc.file)
        };
        let module = match visa_isa::text::parse(&example.code) {
            Ok(module) => module,
            Err(errors) => {
                for e in errors {
                    out.push(format!(
                        "{}: error: found {}, expected {}",
                        at(e.span.line),
                        e.found,
                        e.expected
                    ));
                }
                continue;
            }
        };
        let diagnostics = visa_isa::text::check_with_options(
            visa_isa::INSTRUCTIONS,
            &module,
            &CheckOptions::default(),
        );
        for d in &diagnostics {
            let severity = if d.is_error() { "error" } else { "warning" };
            out.push(format!("{}: {severity}: {}", at(d.span.line), d.message));
        }
        if diagnostics.is_empty()
            && let Err(e) = Program::load(&module, &LoadOptions::default())
            && !not_executed(&e)
        {
            out.push(format!(
                "{}: `visa run` stops here: {}",
                at(e.span.line),
                e.message
            ));
        }
        uses_itself |= module.stmts.iter().any(|s| match &s.kind {
            StmtKind::Instr(i) => visa_isa::INSTRUCTIONS
                .get(i.desc)
                .is_some_and(|d| d.name == name),
            _ => false,
        });
    }
    if !uses_itself {
        out.push(format!(
            "{}:{}: no example of {name} uses {name}",
            doc.file, doc.examples[0].loc.line
        ));
    }
    out
}

/// Whether `e` is the loader refusing valid vISA it does not execute (`NotExecuted`: an
/// instruction or form the runtime names as not executed): the example is still a good one, as
/// `visa check` accepts it. A rule the example breaks, or a field the decoder cannot find (a
/// renamed field), is another kind of error and fails the test.
fn not_executed(e: &visa_runtime::LoadError) -> bool {
    e.kind == visa_runtime::LoadErrorKind::NotExecuted
}

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

#[test]
fn every_instruction_document_has_examples_that_the_checker_accepts() {
    let (documents, examples, problems) = problems(&spec_dir());
    assert!(documents >= 94, "{documents} documents");
    assert!(examples >= documents, "{examples} examples");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The test above can fail: a copy of a document with a broken example, one whose example
/// does not use its instruction, and one without examples are each reported at their line.
#[test]
fn a_missing_a_broken_and_an_unrelated_example_are_reported() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let add = std::fs::read_to_string(spec_dir().join("ADD.md")).expect("spec/ADD.md");
    let (body, _) = add.split_once("## Examples").expect("ADD.md has examples");
    std::fs::write(dir.path().join("ADD.md"), body).unwrap();
    let broken = add.replace("0x5:d", "0x5:zz");
    std::fs::write(dir.path().join("ADD_BROKEN.md"), &broken).unwrap();
    let and = std::fs::read_to_string(spec_dir().join("AND.md")).expect("spec/AND.md");
    let (and_body, _) = and.split_once("## Examples").unwrap();
    let unrelated = format!(
        "{and_body}## Examples\n\n```visaasm\n.decl X v_type=G type=d num_elts=8 align=GRF\nnot (M1, 8) X(0,0)<1> X(0,0)<1;1,0>\n```\n"
    );
    std::fs::write(dir.path().join("AND.md"), &unrelated).unwrap();

    let (_, _, problems) = problems(dir.path());
    let file = |name: &str| dir.path().join(name).display().to_string();
    let broken_line = broken
        .lines()
        .position(|l| l.contains("0x5:zz"))
        .map(|i| i + 1)
        .unwrap();
    let add_line = body
        .lines()
        .position(|l| l.starts_with("## Opcode"))
        .unwrap()
        + 1;
    let and_line = unrelated
        .lines()
        .position(|l| l.starts_with(".decl X"))
        .unwrap()
        + 1;
    let expected = [
        format!("{}:{broken_line}: ", file("ADD_BROKEN.md")),
        format!("{}:{add_line}: ADD has no example", file("ADD.md")),
        format!("{}:{and_line}: no example of AND uses AND", file("AND.md")),
    ];
    for prefix in &expected {
        assert!(
            problems.iter().any(|p| p.starts_with(prefix.as_str())),
            "no problem starting with `{prefix}` in:\n{}",
            problems.join("\n")
        );
    }
    assert_eq!(problems.len(), 3, "{}", problems.join("\n"));
}

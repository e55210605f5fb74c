//! The examples of `docs/guide.md` run: each `visaasm` block is written to a file and run with
//! `visa run` and the arguments of its `// run:` line; every `// out:` line must be printed.

use std::process::Command;

/// A `visaasm` block of the guide: its text, its run arguments and the lines it must print.
struct Example {
    line: usize,
    text: String,
    args: Vec<String>,
    outputs: Vec<String>,
}

fn examples(guide: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut current: Option<Example> = None;
    for (index, line) in guide.lines().enumerate() {
        match (&mut current, line.trim()) {
            (None, "```visaasm") => {
                current = Some(Example {
                    line: index + 1,
                    text: String::new(),
                    args: Vec::new(),
                    outputs: Vec::new(),
                });
            }
            (Some(_), "```") => out.extend(current.take()),
            (Some(example), text) => {
                if let Some(args) = text.strip_prefix("// run:") {
                    example.args = args.split_whitespace().map(str::to_string).collect();
                } else if let Some(output) = text.strip_prefix("// out:") {
                    example.outputs.push(output.trim().to_string());
                }
                example.text.push_str(line);
                example.text.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[test]
fn every_example_of_the_guide_runs_and_prints_what_it_says() {
    let guide_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/guide.md");
    let guide = std::fs::read_to_string(guide_path).expect("docs/guide.md is readable");
    let examples = examples(&guide);
    assert!(examples.len() >= 4, "{} examples", examples.len());
    let dir = tempfile::tempdir().expect("a temporary directory");
    for example in examples {
        assert!(
            !example.args.is_empty() && !example.outputs.is_empty(),
            "guide.md:{}: an example needs `// run:` and `// out:` lines",
            example.line
        );
        let file = dir.path().join(format!("example{}.visaasm", example.line));
        std::fs::write(&file, &example.text).expect("written");
        let out = Command::new(env!("CARGO_BIN_EXE_visa"))
            .arg("run")
            .arg(&file)
            .args(&example.args)
            .output()
            .expect("visa runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "guide.md:{}: {}",
            example.line,
            String::from_utf8_lossy(&out.stderr)
        );
        for expected in &example.outputs {
            assert!(
                stdout.lines().any(|l| l.trim() == expected),
                "guide.md:{}: expected `{expected}` in:\n{stdout}",
                example.line
            );
        }
    }
}

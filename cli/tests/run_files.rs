//! Runtime tests as data, in the manner of Cranelift's `.clif` run tests: every
//! `cli/tests/run/*.visaasm` is a kernel with its own cases in comments.
//!
//! ```text
//! // run: --simd 8 --arg 'S:d=[0..8]' --arg 'D:d=[0;8]'
//! // expect: D = [0, 2, 4, 6, 8, 10, 12, 14]
//! // run: --simd 8 --arg 'S:d=[0;8]'
//! // trap: out of bounds
//! ```
//!
//! A `run:` line starts a case: `visa run FILE` with those arguments (shell words). The
//! `expect:` lines after it are the whole printed output, line for line in any order (a variable
//! printed that is not expected fails the case, as a missing one does); `trap: TEXT` expects the
//! kernel to trap (exit code 3) with TEXT in the message. Every case runs on both engines, which
//! must print the same. Expected values are written by hand or computed outside the runtime.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};

/// What a case expects.
#[derive(Debug, Default)]
struct Case {
    /// Line of its `run:` comment.
    line: usize,
    args: Vec<String>,
    expect: Vec<String>,
    trap: Option<String>,
}

const ENGINES: [&str; 2] = ["jit", "interp"];

fn cases_of(path: &Path, text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), index + 1);
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let comment = comment.trim();
        if let Some(args) = comment.strip_prefix("run:") {
            let args = shlex::split(args).ok_or_else(|| format!("{at}: unbalanced quotes"))?;
            cases.push(Case {
                line: index + 1,
                args,
                ..Case::default()
            });
        } else if let Some(expect) = comment.strip_prefix("expect:") {
            let case = cases
                .last_mut()
                .ok_or_else(|| format!("{at}: `expect:` before any `run:`"))?;
            case.expect.push(expect.trim().to_string());
        } else if let Some(trap) = comment.strip_prefix("trap:") {
            let case = cases
                .last_mut()
                .ok_or_else(|| format!("{at}: `trap:` before any `run:`"))?;
            case.trap = Some(trap.trim().to_string());
        }
    }
    if cases.is_empty() {
        return Err(format!("{}: no `// run:` line", path.display()));
    }
    for case in &cases {
        if case.expect.is_empty() == case.trap.is_none() {
            return Err(format!(
                "{}:{}: a case needs `expect:` lines or one `trap:` (not both, not neither)",
                path.display(),
                case.line
            ));
        }
    }
    Ok(cases)
}

fn sorted_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

fn run_case(path: &Path, case: &Case) -> Result<(), String> {
    let file = path.to_string_lossy();
    let mut outputs = Vec::new();
    for engine in ENGINES {
        let mut args = vec!["run", &*file, "--engine", engine];
        args.extend(case.args.iter().map(String::as_str));
        let out = common::visa(&args);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = common::stderr(&out);
        let at = format!("{file}:{} on {engine}", case.line);
        match &case.trap {
            Some(reason) => {
                if out.status.code() != Some(3) || !stderr.contains(reason.as_str()) {
                    return Err(format!(
                        "{at}: expected a trap mentioning `{reason}`, got exit {:?}\n{stderr}{stdout}",
                        out.status.code()
                    ));
                }
            }
            None => {
                if !out.status.success() {
                    return Err(format!("{at}: exit {:?}\n{stderr}", out.status.code()));
                }
                let mut expected = case.expect.clone();
                expected.sort();
                let printed = sorted_lines(&stdout);
                if printed != expected {
                    return Err(format!(
                        "{at}: printed\n  {}\nexpected\n  {}",
                        printed.join("\n  "),
                        expected.join("\n  ")
                    ));
                }
            }
        }
        outputs.push(stdout);
    }
    if outputs.windows(2).any(|pair| pair[0] != pair[1]) {
        return Err(format!(
            "{file}:{}: the engines print differently",
            case.line
        ));
    }
    Ok(())
}

fn run_file(path: &Path) -> Result<(), Failed> {
    let text = fs::read_to_string(common::repo_root().join(path))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut failures = Vec::new();
    for case in cases_of(path, &text)? {
        if let Err(e) = run_case(path, &case) {
            failures.push(e);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let dir = common::repo_root().join("cli/tests/run");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("cli/tests/run")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no run files in {}", dir.display());
    let mut trials = vec![Trial::test(
        "format_refuses_cases_that_expect_nothing",
        the_format_refuses_cases_that_expect_nothing,
    )];
    trials.extend(files.into_iter().map(|path| {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let relative = path
            .strip_prefix(common::repo_root())
            .map(Path::to_path_buf)
            .unwrap_or(path);
        Trial::test(name, move || run_file(&relative))
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// The harness's own format rules: a case must expect something.
fn the_format_refuses_cases_that_expect_nothing() -> Result<(), Failed> {
    let path = Path::new("sample.visaasm");
    let good = "// run: --simd 1\n// expect: D = [1]\n// run: --simd 2\n// trap: lane\n";
    let cases = cases_of(path, good)?;
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].args, ["--simd", "1"]);
    assert_eq!(cases[1].trap.as_deref(), Some("lane"));
    for bad in [
        "mov (M1, 1) D(0,0)<1> 0x1:d\n",
        "// run: --simd 1\n",
        "// expect: D = [1]\n",
        "// run: --simd 1\n// expect: D = [1]\n// trap: x\n",
        "// run: --arg 'D=[1]\n// expect: D = [1]\n",
    ] {
        if cases_of(path, bad).is_ok() {
            return Err(format!("accepted {bad:?}").into());
        }
    }
    Ok(())
}

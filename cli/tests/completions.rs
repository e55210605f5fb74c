//! `visa completions SHELL` prints a completion script naming the subcommands and options.

use std::process::Command;

const VISA: &str = env!("CARGO_BIN_EXE_visa");

#[test]
fn completion_scripts_name_the_subcommands_and_options() {
    for (shell, marker) in [
        ("bash", "complete -F _visa"),
        ("zsh", "#compdef visa"),
        ("fish", "complete -c visa"),
    ] {
        let out = Command::new(VISA)
            .args(["completions", shell])
            .output()
            .expect("run visa");
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(script.contains(marker), "{shell}: {script}");
        for word in ["run", "check", "fmt", "work-items", "max-memory"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = Command::new(VISA)
        .args(["completions", "tcsh"])
        .output()
        .expect("run visa");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'tcsh'"));
}

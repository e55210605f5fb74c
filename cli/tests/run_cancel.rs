//! Ctrl-C during `visa run`: the launch is cancelled (no new group starts, running threads
//! stop), the command says so and where the running threads stopped, and exits with 130.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every thread counts to 0x30000 (about 600,000 instructions); 1,000,000 groups take far longer
/// than the test waits.
const LONG: &str = "\
.decl N v_type=G type=d num_elts=8 align=GRF
.decl P v_type=P num_elts=8
mov (M1, 8) N(0,0)<1> 0x0:d
TOP:
add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 8) P N(0,0)<1;1,0> 0x30000:d
(P.any) jmp (M1, 1) TOP
";

/// Runs `visa run FILE ARGS`, sends SIGINT after 1.5 s, and returns its stderr (after checking
/// exit code 130 and an empty stdout) and the file's path.
fn interrupted(kernel: &str, args: &[&str]) -> (String, String) {
    let mut f = tempfile::Builder::new()
        .suffix(".visaasm")
        .tempfile()
        .unwrap();
    f.write_all(kernel.as_bytes()).unwrap();
    let path = f.path().to_str().unwrap().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_visa"))
        .args(["run", &path, "--color", "never"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run visa");
    // Time to load the kernel and install the handler.
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    if !sent.is_ok_and(|s| s.success()) {
        let _ = child.kill();
        panic!("could not send SIGINT");
    }
    let started = Instant::now();
    let out = loop {
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the launch did not stop after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(out.stdout.is_empty());
    (stderr, path)
}

/// One thread looping for ever: Ctrl-C stops it inside its group and shows where.
#[test]
fn ctrl_c_stops_a_running_thread_and_shows_where() {
    const FOREVER: &str = "\
.decl N v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) N(0,0)<1> 0x0:d
TOP:
add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
jmp (M1, 1) TOP
";
    let (stderr, path) = interrupted(FOREVER, &["--simd", "8", "--fuel", "18446744073709551615"]);
    assert!(
        stderr.contains(&format!(
            "{path}: the launch was cancelled (0 of 1 groups done)\n"
        )),
        "{stderr}"
    );
    let stopped_at_add = format!(
        "{path}:4:1: warning: stopped here by Ctrl-C (kernel 'kernel', group 0, thread 0; \
         pc 1: `add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d`)\n  |\n4 | add"
    );
    let stopped_at_jmp = format!(
        "{path}:5:1: warning: stopped here by Ctrl-C (kernel 'kernel', group 0, thread 0; \
         pc 2: `jmp (M1, 1) TOP`)\n  |\n5 | jmp"
    );
    assert!(
        stderr.contains(&stopped_at_add) || stderr.contains(&stopped_at_jmp),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_cancels_the_launch() {
    let (stderr, path) = interrupted(
        LONG,
        &[
            "--simd",
            "8",
            "--groups",
            "1000000",
            "--fuel",
            "18446744073709551615",
        ],
    );
    let prefix = format!("{path}: the launch was cancelled (");
    let summary = stderr
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or("");
    let counts = summary
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(" of 1000000 groups done)"))
        .unwrap_or_else(|| panic!("{stderr}"));
    let done: u32 = counts.parse().unwrap();
    assert!(done < 1_000_000, "{stderr}");
}

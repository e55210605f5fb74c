//! `visa run` refuses bad launch options with a message naming the option, before allocating
//! anything: never a crash (exit 134 from an abort, 101 from a panic).

mod common;
use common::visa_with_input;

/// A kernel writing one element per lane, enough for every launch shape.
const KERNEL: &str = ".decl X v_type=G type=d num_elts=32 align=GRF\nmov (M1, 8) X(0,0)<1> 0x1:d\n";

/// Runs `visa run - OPTIONS` on [`KERNEL`] and returns (exit code, stderr).
fn run_kernel(options: &[&str]) -> (i32, String) {
    let mut args = vec!["run", "-"];
    args.extend_from_slice(options);
    let out = visa_with_input(&args, Some(KERNEL));
    let code = out.status.code().expect("exited, not killed by a signal");
    (code, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The option is refused with exit 1 or 2 and a message starting `error:` that names `option`.
fn assert_refused(options: &[&str], option: &str, words: &str) {
    let (code, err) = run_kernel(options);
    assert!(code == 1 || code == 2, "{options:?}: exit {code}: {err}");
    assert!(err.starts_with("error:"), "{options:?}: {err}");
    assert!(
        err.contains(option),
        "{options:?} should name {option}: {err}"
    );
    assert!(
        err.contains(words),
        "{options:?} should say '{words}': {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn the_kernel_runs_with_good_options() {
    let (code, err) = run_kernel(&["--simd", "8", "--groups", "3", "--print", "X"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn bad_grid_options_are_refused() {
    assert_refused(&["--groups", "0"], "--groups", "0");
    assert_refused(&["--threads-per-group", "0"], "--threads-per-group", "0");
    assert_refused(&["--simd", "7"], "--simd", "1, 2, 4, 8, 16 or 32");
    assert_refused(&["--simd", "64"], "--simd", "1, 2, 4, 8, 16 or 32");
    assert_refused(&["--groups", "abc"], "--groups", "abc");
    // More than 2^32 threads in all.
    assert_refused(
        &["--groups", "65536", "--threads-per-group", "65536"],
        "--groups",
        "2^32 threads",
    );
}

#[test]
fn huge_launches_are_refused_before_allocating() {
    assert_refused(
        &["--groups", "4294967295"],
        "--max-memory",
        "more than its limit",
    );
    assert_refused(&["--slm", "99999999999"], "--slm", "limit of 1048576 bytes");
    assert_refused(&["--slm", "2000000000"], "--slm", "limit of 1048576 bytes");
    // A lower cap refuses what the default allows.
    let (code, err) = run_kernel(&["--simd", "8", "--slm", "65536"]);
    assert_eq!(code, 0, "{err}");
    assert_refused(
        &["--simd", "8", "--slm", "65536", "--max-memory", "60000"],
        "--max-memory",
        "SLM 65536 bytes",
    );
}

#[test]
fn huge_lists_are_refused() {
    assert_refused(
        &["--arg", "X=[0;99999999999]"],
        "--arg",
        "at most 16777216 values",
    );
    assert_refused(
        &["--arg", "X=[0..99999999999]"],
        "--arg",
        "at most 16777216 values",
    );
    assert_refused(
        &["--svm", "P:d=[0;99999999999]"],
        "--svm",
        "at most 16777216 values",
    );
}

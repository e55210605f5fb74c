//! Long launches: on a terminal, a progress bar (groups done of the total, instructions per
//! second) once a launch has run for about a second; Ctrl-C cancels the launch (no group
//! starts, running threads stop within a chunk of instructions, see `Launch::cancel_flag`), a
//! second Ctrl-C quits at once.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use visa_runtime::{Launch, LaunchError, LaunchResult};

/// How long a launch runs before the progress bar appears.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Exit code after Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_CANCELLED: u8 = 130;

/// Runs `launch` (of `groups` groups) with a cancel flag set by Ctrl-C and, when standard
/// error is a terminal, a progress bar.
pub fn run(launch: Launch<'_>, groups: u32) -> Result<LaunchResult, LaunchError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let steps = Arc::new(AtomicU64::new(0));
    let flag = cancel.clone();
    // Only one handler per process; `visa run` launches once.
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(i32::from(EXIT_CANCELLED));
        }
        eprintln!("cancelling: the running threads stop (Ctrl-C again to quit now)");
    });
    if let Err(e) = handler {
        eprintln!("warning: Ctrl-C will not cancel the launch: {e}");
    }
    let launch = launch
        .cancel_flag(cancel)
        .progress(done.clone())
        .steps_counter(steps.clone());
    if !std::io::stderr().is_terminal() {
        return launch.run();
    }
    let (finished, wait) = mpsc::channel::<()>();
    let display = std::thread::spawn(move || show_progress(&wait, &done, &steps, groups));
    let result = launch.run();
    drop(finished);
    let _ = display.join();
    result
}

/// Waits [`QUIET_FOR`], then draws the bar until `wait` is closed.
fn show_progress(wait: &mpsc::Receiver<()>, done: &AtomicU64, steps: &AtomicU64, groups: u32) {
    if wait.recv_timeout(QUIET_FOR) != Err(mpsc::RecvTimeoutError::Timeout) {
        return;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(u64::from(groups)),
        indicatif::ProgressDrawTarget::stderr(),
    )
    .with_elapsed(QUIET_FOR);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} groups, {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    // The rate over the last second or so (a window of ten 100 ms ticks).
    let mut window = std::collections::VecDeque::from([(std::time::Instant::now(), 0u64)]);
    loop {
        bar.set_position(done.load(Ordering::Relaxed));
        let now = (std::time::Instant::now(), steps.load(Ordering::Relaxed));
        window.push_back(now);
        if window.len() > 10 {
            window.pop_front();
        }
        if let Some(&(then, before)) = window.front() {
            let seconds = now.0.duration_since(then).as_secs_f64();
            if seconds > 0.0 {
                bar.set_message(rate(now.1.saturating_sub(before) as f64 / seconds));
            }
        }
        if wait.recv_timeout(Duration::from_millis(100)) != Err(mpsc::RecvTimeoutError::Timeout) {
            break;
        }
    }
    bar.finish_and_clear();
}

/// `12.3 M instr/s`.
fn rate(per_second: f64) -> String {
    let (value, unit) = if per_second >= 1e9 {
        (per_second / 1e9, " G")
    } else if per_second >= 1e6 {
        (per_second / 1e6, " M")
    } else if per_second >= 1e3 {
        (per_second / 1e3, " k")
    } else {
        (per_second, "")
    };
    format!("{value:.1}{unit} instr/s")
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_are_scaled() {
        assert_eq!(super::rate(950.0), "950.0 instr/s");
        assert_eq!(super::rate(12_345.0), "12.3 k instr/s");
        assert_eq!(super::rate(4.2e8), "420.0 M instr/s");
        assert_eq!(super::rate(2.5e9), "2.5 G instr/s");
    }
}

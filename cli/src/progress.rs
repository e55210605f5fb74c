//! Long launches: on a terminal, a progress bar (groups done of the total, time left)
//! once a launch has run for about a second; Ctrl-C cancels the launch (the runtime's workers
//! stop before their next group, see `Launch::cancel_flag`), a second Ctrl-C quits at once.

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
    let flag = cancel.clone();
    // Only one handler per process; `visa run` launches once.
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(i32::from(EXIT_CANCELLED));
        }
        eprintln!("cancelling: the running groups finish first (Ctrl-C again to quit now)");
    });
    if let Err(e) = handler {
        eprintln!("warning: Ctrl-C will not cancel the launch: {e}");
    }
    let launch = launch.cancel_flag(cancel).progress(done.clone());
    if !std::io::stderr().is_terminal() {
        return launch.run();
    }
    let (finished, wait) = mpsc::channel::<()>();
    let display = std::thread::spawn(move || show_progress(&wait, &done, groups));
    let result = launch.run();
    drop(finished);
    let _ = display.join();
    result
}

/// Waits [`QUIET_FOR`], then draws the bar until `wait` is closed.
fn show_progress(wait: &mpsc::Receiver<()>, done: &AtomicU64, groups: u32) {
    if wait.recv_timeout(QUIET_FOR) != Err(mpsc::RecvTimeoutError::Timeout) {
        return;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(u64::from(groups)),
        indicatif::ProgressDrawTarget::stderr(),
    )
    .with_elapsed(QUIET_FOR);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} groups")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    loop {
        bar.set_position(done.load(Ordering::Relaxed));
        if wait.recv_timeout(Duration::from_millis(100)) != Err(mpsc::RecvTimeoutError::Timeout) {
            break;
        }
    }
    bar.finish_and_clear();
}

//! Shared by the workspace's criterion benchmarks (each includes it with `#[path]`): records the
//! time per iteration of every sample criterion takes, so that a benchmark can print its own
//! summary (throughput, ratios between benchmarks of the same run, goals) after criterion's
//! report.
//!
//! Criterion's report stays the reference; the summary uses the median of the same samples (the
//! per-iteration time of each `iter_custom` call, the first call dropped as cold), which resists
//! the load spikes of a shared machine better than a mean.
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};

/// One criterion sample: iterations, wall time, and CPU time of the whole process.
#[derive(Debug, Clone, Copy)]
struct Sample {
    iters: u64,
    wall: Duration,
    cpu: Duration,
}

/// The samples of every benchmark, by `group/id`.
#[derive(Default)]
pub struct Figures {
    samples: RefCell<BTreeMap<String, Vec<Sample>>>,
}

/// A criterion benchmark group whose benchmarks record their samples in [`Figures`].
pub struct Group<'a> {
    /// The criterion group, for its settings (`sample_size`, `throughput`, ...).
    pub inner: BenchmarkGroup<'a, WallTime>,
    name: String,
    figures: &'a Figures,
}

impl Figures {
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens a benchmark group named `name`.
    pub fn group<'a>(&'a self, c: &'a mut Criterion, name: &str) -> Group<'a> {
        Group {
            inner: c.benchmark_group(name),
            name: name.to_string(),
            figures: self,
        }
    }

    /// Median time per iteration of benchmark `group/id` (`None` if it did not run, e.g. when a
    /// filter on the command line excluded it).
    pub fn median(&self, key: &str) -> Option<Duration> {
        let samples = self.samples.borrow();
        let mut sorted: Vec<Duration> = warm(samples.get(key)?)
            .iter()
            .map(|s| s.wall.div_f64(s.iters.max(1) as f64))
            .collect();
        sorted.sort();
        sorted.get(sorted.len() / 2).copied()
    }

    /// CPU time per iteration of benchmark `group/id`, all threads of the process, over all its
    /// samples (the process clock counts in 10 ms ticks, so only the total is precise). On a
    /// machine shared with other work this is what the code costs, whatever the wall clock says.
    pub fn cpu_per_iter(&self, key: &str) -> Option<Duration> {
        let samples = self.samples.borrow();
        let warm = warm(samples.get(key)?);
        let iters: u64 = warm.iter().map(|s| s.iters).sum();
        let cpu: Duration = warm.iter().map(|s| s.cpu).sum();
        (iters > 0).then(|| cpu.div_f64(iters as f64))
    }

    /// `wall <median>, CPU <per iteration>` for benchmark `group/id`.
    pub fn describe(&self, key: &str) -> Option<String> {
        let wall = self.median(key)?;
        let cpu = self.cpu_per_iter(key).map_or_else(|| "?".to_string(), show);
        Some(format!("wall {} (median), CPU {cpu}", show(wall)))
    }

    fn record(&self, key: &str, sample: Sample) {
        self.samples
            .borrow_mut()
            .entry(key.to_string())
            .or_default()
            .push(sample);
    }
}

impl Group<'_> {
    /// Benchmarks `routine` under `id`, recording every sample.
    pub fn bench<O>(&mut self, id: &str, mut routine: impl FnMut() -> O) {
        let key = format!("{}/{id}", self.name);
        let figures = self.figures;
        self.inner.bench_function(id, |b| {
            b.iter_custom(|iters| {
                let cpu_start = process_cpu_time();
                let start = Instant::now();
                for _ in 0..iters {
                    black_box(routine());
                }
                let wall = start.elapsed();
                let cpu = process_cpu_time().saturating_sub(cpu_start);
                figures.record(&key, Sample { iters, wall, cpu });
                wall
            })
        });
    }

    pub fn finish(self) {
        self.inner.finish();
    }
}

/// The samples without the first (cold) one.
fn warm(samples: &[Sample]) -> &[Sample] {
    samples
        .get(usize::from(samples.len() > 1)..)
        .unwrap_or(samples)
}

/// User + system CPU time of the whole process so far (`/proc/self/stat`, 100 ticks/s; zero when
/// unavailable).
pub fn process_cpu_time() -> Duration {
    const TICKS_PER_SECOND: u64 = 100;
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the `(comm)`: state is field 3, utime 14 and stime 15 (1-based).
    let after_comm = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after_comm
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND)
}

/// `1.234 ms`-style text for a duration.
pub fn show(d: Duration) -> String {
    let ns = d.as_secs_f64() * 1e9;
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// `met` / `NOT met` for a goal check.
pub fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

/// The machine's load averages (`/proc/loadavg`), to print beside the figures.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// `VISA_BENCH_ONLY=<group/id> VISA_BENCH_REPEAT=<n>`: run that one workload `n` times without
/// criterion, for a profiler (`valgrind --tool=callgrind --toggle-collect='*repeat*'`).
pub fn repeat_request() -> Option<(String, usize)> {
    let only = std::env::var("VISA_BENCH_ONLY").ok()?;
    let times = std::env::var("VISA_BENCH_REPEAT")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    Some((only, times))
}

/// Runs `work` `times` times (a separate function so a profiler can select it by name).
#[inline(never)]
pub fn repeat<O>(times: usize, mut work: impl FnMut() -> O) {
    for _ in 0..times {
        std::hint::black_box(work());
    }
}

//! Five kernels (their text and data in `workloads/`), each timed in the same run as a plain single-threaded Rust loop doing the same
//! work on the same data, and with the runtime on rayon pools of 1 and 2 threads:
//!
//! - `svm_add`: SIMD16 `svm_gather` x2 -> `add` -> `svm_scatter` over [`SVM_DWORDS`] dwords;
//! - `permute`: `gather_scaled` of a permutation table, `gather_scaled` of the source through it,
//!   `scatter_scaled` to the destination (surfaces), [`PERMUTE_DWORDS`] dwords;
//! - `alu`: a uniform loop of `mad`/`mul`/`cmp`/`sel`/`add` per work-item;
//! - `divergent`: a loop with per-lane trip counts and an if/else inside (divergent `goto`);
//! - `gather_add_scatter`: the README's main kernel (`examples/gather_add_scatter.visaasm`) over
//!   [`SVM_DWORDS`] work-items.
//!
//! Every kernel's output is checked against the native loop before timing. Goals: runtime within
//! 2x of native on the first three, and >= 1.8x speed-up from 1 to 2 threads.

#[path = "../../benches/support/mod.rs"]
mod support;
mod workloads;

use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use rayon::ThreadPool;
use support::{Figures, verdict};
use visa_runtime::{Buffer, LoadOptions, Program};
use workloads::*;

const NATIVE_GOAL: f64 = 2.0;
const SPEEDUP_GOAL: f64 = 1.8;

/// With `KERNELS_ONCE=<kernel>` set, the bench runs only that kernel's set-up, one launch on the
/// 1-thread pool and the output check, and times nothing: a fixed amount of work for
/// `valgrind --tool=callgrind` instruction counts. `KERNELS_LAUNCHES=<n>` adds `n - 1` more
/// launches after the check (for `perf stat`: the difference between two counts of launches
/// is the launches' own cost, without the set-up's), on the 2-thread pool with
/// `KERNELS_TWO_THREADS` set.
fn once() -> Option<String> {
    std::env::var("KERNELS_ONCE").ok()
}

fn once_launches() -> usize {
    match std::env::var("KERNELS_LAUNCHES") {
        Ok(n) => (n.parse().ok().filter(|&n| n >= 1))
            .unwrap_or_else(|| panic!("KERNELS_LAUNCHES={n}: not a count of at least 1")),
        Err(_) => 1,
    }
}

fn main() {
    let pools = [pool(1), pool(2)];
    let figures = Figures::new();
    let mut c = Criterion::default().configure_from_args();
    if let Some(name) = once() {
        type Kernel = fn(&Figures, &mut Criterion, &[ThreadPool; 2]) -> Summary;
        let kernels: [(&str, Kernel); 5] = [
            ("svm_add", svm_add),
            ("gather_add_scatter", gather_add_scatter),
            ("permute", permute),
            ("alu", alu),
            ("divergent", divergent),
        ];
        let Some((_, kernel)) = kernels.iter().find(|(n, _)| *n == name) else {
            panic!("KERNELS_ONCE={name}: no such kernel");
        };
        kernel(&figures, &mut c, &pools);
        println!(
            "{name}: {} launch(es), the first output checked",
            once_launches()
        );
        return;
    }
    let kernels = [
        svm_add(&figures, &mut c, &pools),
        gather_add_scatter(&figures, &mut c, &pools),
        permute(&figures, &mut c, &pools),
        alu(&figures, &mut c, &pools),
        divergent(&figures, &mut c, &pools),
    ];
    c.final_summary();

    println!(
        "\n== runtime kernels vs native Rust (load {}, {} CPUs) ==",
        support::load(),
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    if let (Some(one), Some(two)) = (
        figures.median("control/native_1_thread"),
        figures.median("control/native_2_threads"),
    ) {
        println!(
            "control: plain Rust ALU loop on rayon pools, speed-up 1 -> 2 threads: {:.2}x (wall) \
             (what this machine allows now)",
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
    if let (Some(one), Some(two)) = (
        figures.median("control/memory_native_1_thread"),
        figures.median("control/memory_native_2_threads"),
    ) {
        println!(
            "control: svm_add's native loop on rayon pools, speed-up 1 -> 2 threads: {:.2}x (wall) \
             (what this machine's memory allows now)",
            one.as_secs_f64() / two.as_secs_f64()
        );
    }
    for Summary {
        name,
        items,
        what,
        native_goal,
    } in kernels
    {
        println!("{name}: {} {what}", count(items));
        for id in ["native", "runtime_1_thread", "runtime_2_threads"] {
            if let Some(line) = figures.describe(&format!("{name}/{id}")) {
                println!("  {id:>17}: {line}");
            }
        }
        let median = |id: &str| figures.median(&format!("{name}/{id}"));
        let cpu = |id: &str| figures.cpu_per_iter(&format!("{name}/{id}"));
        if let (Some(native), Some(one)) = (median("native"), median("runtime_1_thread")) {
            let ratio = one.as_secs_f64() / native.as_secs_f64();
            let goal = if native_goal {
                format!(
                    "; goal <= {NATIVE_GOAL}x: {}",
                    verdict(ratio <= NATIVE_GOAL)
                )
            } else {
                String::new()
            };
            println!("  runtime (1 thread) / native: {ratio:.1}x (wall){goal}");
            if let (Some(n), Some(o)) = (cpu("native"), cpu("runtime_1_thread"))
                && !n.is_zero()
            {
                println!(
                    "  runtime (1 thread) / native: {:.1}x (CPU)",
                    o.as_secs_f64() / n.as_secs_f64()
                );
            }
        }
        if let (Some(one), Some(two)) = (median("runtime_1_thread"), median("runtime_2_threads")) {
            let speedup = one.as_secs_f64() / two.as_secs_f64();
            println!(
                "  speed-up 1 -> 2 threads: {speedup:.2}x (wall); goal >= {SPEEDUP_GOAL}x: {}",
                verdict(speedup >= SPEEDUP_GOAL)
            );
            if let (Some(o), Some(t)) = (cpu("runtime_1_thread"), cpu("runtime_2_threads"))
                && !o.is_zero()
            {
                println!(
                    "  CPU time 2 threads / 1 thread: {:.2} (1.00 = no parallel overhead)",
                    t.as_secs_f64() / o.as_secs_f64()
                );
            }
        }
    }
}

fn pool(threads: usize) -> ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("cannot build a {threads}-thread pool: {e}"))
}

/// Runs `launch` once and checks its output (`output_matches`: against the native result
/// computed apart), then times `native` and `launch` (on each pool) in group `name`.
fn compare<N, R>(
    figures: &Figures,
    c: &mut Criterion,
    name: &str,
    pools: &[ThreadPool; 2],
    mut native: impl FnMut() -> N,
    launch: impl Fn() -> R + Sync,
    output_matches: impl FnOnce() -> bool,
) where
    R: Send,
{
    pools[0].install(&launch);
    assert!(output_matches(), "{name}: runtime and native differ");
    if once().is_some() {
        let pool = &pools[usize::from(std::env::var_os("KERNELS_TWO_THREADS").is_some())];
        for _ in 1..once_launches() {
            pool.install(&launch);
        }
        return;
    }
    let mut group = figures.group(c, name);
    group.inner.sample_size(10);
    group.inner.sampling_mode(SamplingMode::Flat);
    group.inner.warm_up_time(Duration::from_millis(500));
    group.inner.measurement_time(Duration::from_secs(3));
    group.bench("native", &mut native);
    group.bench("runtime_1_thread", || pools[0].install(&launch));
    group.bench("runtime_2_threads", || pools[1].install(&launch));
    group.finish();
}

fn program(parts: &[&str]) -> Program {
    let src = parts.concat();
    // (The ALU kernel shifts a UD offset into a D variable: the compiler accepts it, the
    // documents' type maps do not.)
    Program::from_text(&src, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("load failed: {e}\n{src}"))
}

/// What a kernel's benchmark ran: `items` work-items (or dwords) and what was done to them, and
/// whether the 2x-of-native goal applies to it.
struct Summary {
    name: &'static str,
    items: usize,
    what: String,
    native_goal: bool,
}

/// A count as the summaries print it: `4 M`, `16 K`.
fn count(items: usize) -> String {
    if items >= 1 << 20 {
        format!("{} M", items >> 20)
    } else {
        format!("{} K", items >> 10)
    }
}

fn svm_add(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) -> Summary {
    let program = program(&[SVM_ADD]);
    let mut next = random(1);
    let a: Vec<i32> = (0..SVM_DWORDS).map(|_| next() as i32).collect();
    let b: Vec<i32> = (0..SVM_DWORDS).map(|_| next() as i32).collect();
    let arrays = SvmArrays::new(&a, &b);
    let launch = || (arrays.launch(&program).run()).unwrap_or_else(|e| panic!("svm_add: {e}"));
    let mut out = vec![0i32; SVM_DWORDS];
    let mut native = || {
        for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
            *o = x.wrapping_add(*y);
        }
    };
    native();
    // The native closure borrows `out` mutably: the reference is computed apart.
    let expected: Vec<i32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    let matches = || arrays.output() == Some(expected);
    compare(figures, c, "svm_add", pools, native, launch, matches);
    Summary {
        name: "svm_add",
        items: SVM_DWORDS,
        what: "dwords, SIMD16, out[i] = a[i] + b[i] through SVM".into(),
        native_goal: true,
    }
}

fn gather_add_scatter(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) -> Summary {
    let program = program(&[include_str!("../../examples/gather_add_scatter.visaasm")]);
    let mut next = random(4);
    let a: Vec<i32> = (0..SVM_DWORDS)
        .map(|_| (next() % 201) as i32 - 100)
        .collect();
    let b: Vec<i32> = (0..SVM_DWORDS)
        .map(|_| (next() % 201) as i32 - 100)
        .collect();
    let arrays = SvmArrays::new(&a, &b);
    let launch = || {
        (arrays.launch(&program))
            .bind_scalar("SCALE", 5i32)
            .bind_scalar("LO", -50i32)
            .bind_scalar("HI", 250i32)
            .run()
            .unwrap_or_else(|e| panic!("gather_add_scatter: {e}"))
    };
    let mut out = vec![0i32; SVM_DWORDS];
    let native = || {
        for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
            *o = gather_add_scatter_native(*x, *y);
        }
    };
    let expected: Vec<i32> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| gather_add_scatter_native(*x, *y))
        .collect();
    let matches = || arrays.output() == Some(expected);
    compare(
        figures,
        c,
        "gather_add_scatter",
        pools,
        native,
        launch,
        matches,
    );
    Summary {
        name: "gather_add_scatter",
        items: SVM_DWORDS,
        what: "work-items, SIMD16, the README main kernel (mad/max/min between SVM messages)"
            .into(),
        native_goal: true,
    }
}

fn permute(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) -> Summary {
    let program = program(&[OFFSETS, PERMUTE]);
    let (src, perm) = permute_inputs();
    let t6 = Buffer::from_slice(&src);
    let t7 = Buffer::zeroed(4 * PERMUTE_DWORDS);
    let t8 = Buffer::from_slice(&perm);
    let launch = || {
        surface_launch(
            &program,
            PERMUTE_DWORDS,
            &[("T6", &t6), ("T7", &t7), ("T8", &t8)],
        )
        .run()
        .unwrap_or_else(|e| panic!("permute: {e}"))
    };
    let expected: Vec<u32> = perm.iter().map(|&p| src[p as usize]).collect();
    let mut dst = vec![0u32; PERMUTE_DWORDS];
    let native = || {
        for (d, &p) in dst.iter_mut().zip(&perm) {
            *d = src.get(p as usize).copied().unwrap_or(0);
        }
    };
    let matches = || t7.to_vec::<u32>() == expected;
    compare(figures, c, "permute", pools, native, launch, matches);
    Summary {
        name: "permute",
        items: PERMUTE_DWORDS,
        what: "dwords, dst[i] = src[perm[i]] with gather_scaled/scatter_scaled on surfaces".into(),
        native_goal: true,
    }
}

fn alu(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) -> Summary {
    let program = program(&[OFFSETS, PREDICATES, ALU]);
    let t6 = Buffer::zeroed(4 * ALU_ITEMS);
    let launch = || {
        surface_launch(&program, ALU_ITEMS, &[("T6", &t6)])
            .bind_scalar("TRIPS", ALU_TRIPS)
            .run()
            .unwrap_or_else(|e| panic!("alu: {e}"))
    };
    let mut out = vec![0i32; ALU_ITEMS];
    let native = || {
        for (i, o) in out.iter_mut().enumerate() {
            *o = alu_native(std::hint::black_box(i as i32));
        }
    };
    let expected: Vec<i32> = (0..ALU_ITEMS as i32).map(alu_native).collect();
    let matches = || t6.to_vec::<i32>() == expected;
    compare(figures, c, "alu", pools, native, launch, matches);
    control(figures, c, pools);
    Summary {
        name: "alu",
        items: ALU_ITEMS,
        what: format!("work-items x {ALU_TRIPS} trips of mad/mul/cmp/sel/add/add/cmp/goto"),
        native_goal: true,
    }
}

/// How much faster the machine runs plain parallel Rust on 2 threads than on 1, in the same
/// run ([`alu_control`], [`memory_control`]).
fn control(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) {
    if once().is_some() {
        return;
    }
    let mut group = figures.group(c, "control");
    group.inner.sample_size(10);
    group.inner.warm_up_time(Duration::from_millis(500));
    group.inner.measurement_time(Duration::from_secs(2));
    let mut run = alu_control();
    group.bench("native_1_thread", || run(&pools[0]));
    group.bench("native_2_threads", || run(&pools[1]));
    let mut stream = memory_control();
    group.bench("memory_native_1_thread", || stream(&pools[0]));
    group.bench("memory_native_2_threads", || stream(&pools[1]));
    group.finish();
}

fn divergent(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) -> Summary {
    let program = program(&[OFFSETS, PREDICATES, DIVERGENT]);
    let mut next = random(3);
    let trips: Vec<i32> = (0..DIVERGENT_ITEMS)
        .map(|_| 1 + (next() % u64::from(DIVERGENT_MAX_TRIPS)) as i32)
        .collect();
    let t6 = Buffer::zeroed(4 * DIVERGENT_ITEMS);
    let t8 = Buffer::from_slice(&trips);
    let launch = || {
        surface_launch(&program, DIVERGENT_ITEMS, &[("T6", &t6), ("T8", &t8)])
            .run()
            .unwrap_or_else(|e| panic!("divergent: {e}"))
    };
    let mut out = vec![0i32; DIVERGENT_ITEMS];
    let native = || {
        for (o, &n) in out.iter_mut().zip(&trips) {
            *o = divergent_native(std::hint::black_box(n));
        }
    };
    let expected: Vec<i32> = trips.iter().map(|&n| divergent_native(n)).collect();
    let matches = || t6.to_vec::<i32>() == expected;
    compare(figures, c, "divergent", pools, native, launch, matches);
    Summary {
        name: "divergent",
        items: DIVERGENT_ITEMS,
        what: format!(
            "work-items, 1..={DIVERGENT_MAX_TRIPS} trips per lane, if/else inside the loop"
        ),
        native_goal: false,
    }
}

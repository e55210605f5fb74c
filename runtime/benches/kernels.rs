//! Four kernels, each timed in the same run as a plain single-threaded Rust loop doing the same
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

use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use rayon::ThreadPool;
use support::{Figures, verdict};
use visa_runtime::{Buffer, Launch, LoadOptions, Program, Svm};

/// Dwords of the SVM kernel. The brief asks for 16 M; the interpreter needs seconds for that on
/// this machine, so the benchmark uses 4 M to keep `cargo bench` under ten minutes.
const SVM_DWORDS: usize = 4 << 20;
const PERMUTE_DWORDS: usize = 1 << 20;
/// Work-items and loop trips of the ALU kernel.
const ALU_ITEMS: usize = 1 << 14;
const ALU_TRIPS: i32 = 64;
/// Work-items of the divergent kernel (trip counts 1..=DIVERGENT_MAX_TRIPS).
const DIVERGENT_ITEMS: usize = 1 << 14;
const DIVERGENT_MAX_TRIPS: u32 = 61;

const SIMD: usize = 16;
const NATIVE_GOAL: f64 = 2.0;
const SPEEDUP_GOAL: f64 = 1.8;

const SVM_ADD: &str = "
.decl A_PTR v_type=G type=uq num_elts=16 align=GRF
.decl B_PTR v_type=G type=uq num_elts=16 align=GRF
.decl OUT_PTR v_type=G type=uq num_elts=16 align=GRF
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
svm_gather.4.1 (M1, 16) A_PTR.0 A.0
svm_gather.4.1 (M1, 16) B_PTR.0 B.0
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
svm_scatter.4.1 (M1, 16) OUT_PTR.0 A.0
";

/// Computes each work-item's byte offset `OFF` (global index * 4) from the group id and `LANE`
/// (bound to 0, 4, ..., 60).
const OFFSETS: &str = "
.decl LANE v_type=G type=ud num_elts=16 align=GRF
.decl BASE v_type=G type=ud num_elts=1
.decl OFF v_type=G type=ud num_elts=16 align=GRF
mul (M1_NM, 1) BASE(0,0)<1> %group_id_x(0,0)<0;1,0> 0x40:ud
add (M1, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> BASE(0,0)<0;1,0>
";

/// `T7[i] = T6[T8[i]]` (T8 holds a permutation of the indices).
const PERMUTE: &str = "
.decl IDX v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
gather_scaled.4 (M1, 16) T8 0x0:ud OFF.0 IDX.0
shl (M1, 16) IDX(0,0)<1> IDX(0,0)<1;1,0> 0x2:ud
gather_scaled.4 (M1, 16) T6 0x0:ud IDX.0 D.0
scatter_scaled.4 (M1, 16) T7 0x0:ud OFF.0 D.0
";

/// The two predicates of the ALU and divergent kernels.
const PREDICATES: &str = "
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
";

/// Per work-item `x` (its global index): `ALU_TRIPS` times `y = y*3 + x; t = x*x; if t > y
/// { y = t }; x += 1`, then `T6[i] = y`. `TRIPS` is bound to [`ALU_TRIPS`].
const ALU: &str = "
.decl TRIPS v_type=G type=d num_elts=1
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl I v_type=G type=d num_elts=16 align=GRF
shr (M1, 16) X(0,0)<1> OFF(0,0)<1;1,0> 0x2:d
mov (M1, 16) Y(0,0)<1> 0x0:d
mov (M1, 16) I(0,0)<1> 0x0:d
LOOP:
mad (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x3:d X(0,0)<1;1,0>
mul (M1, 16) T(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>
cmp.gt (M1, 16) P2 T(0,0)<1;1,0> Y(0,0)<1;1,0>
(P2) sel (M1, 16) Y(0,0)<1> T(0,0)<1;1,0> Y(0,0)<1;1,0>
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x1:d
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 I(0,0)<1;1,0> TRIPS(0,0)<0;1,0>
(P1) goto (M1, 16) LOOP
scatter_scaled.4 (M1, 16) T6 0x0:ud OFF.0 Y.0
";

/// Per work-item `n = T8[i]` trips (at least one) of: `acc += k` for even `k`, `acc += 1000` for
/// odd `k`; then `T6[i] = acc`.
const DIVERGENT: &str = "
.decl N v_type=G type=d num_elts=16 align=GRF
.decl K v_type=G type=d num_elts=16 align=GRF
.decl PAR v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
gather_scaled.4 (M1, 16) T8 0x0:ud OFF.0 N.0
mov (M1, 16) K(0,0)<1> 0x0:d
mov (M1, 16) ACC(0,0)<1> 0x0:d
LOOP:
and (M1, 16) PAR(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.eq (M1, 16) P2 PAR(0,0)<1;1,0> 0x0:d
(!P2) goto (M1, 16) ODD
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
goto (M1, 16) NEXT
ODD:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3e8:d
NEXT:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
scatter_scaled.4 (M1, 16) T6 0x0:ud OFF.0 ACC.0
";

/// With `KERNELS_ONCE=<kernel>` set, the bench runs only that kernel's set-up, one launch on the
/// 1-thread pool and the output check, and times nothing: a fixed amount of work for
/// `valgrind --tool=callgrind` instruction counts.
fn once() -> Option<String> {
    std::env::var("KERNELS_ONCE").ok()
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
        println!("{name}: one launch, output checked");
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

/// 0, 4, ..., 60: the byte offset of each lane's dword.
fn lane_offsets() -> [u32; SIMD] {
    std::array::from_fn(|lane| lane as u32 * 4)
}

fn groups(items: usize) -> u32 {
    u32::try_from(items / SIMD).unwrap_or(u32::MAX)
}

/// A SIMD16 launch of `program` over `items` work-items, each lane given its byte offset in
/// `LANE` (the [`OFFSETS`] prologue) and the surfaces bound.
fn surface_launch<'a>(
    program: &'a Program,
    items: usize,
    surfaces: &[(&str, &'a Buffer)],
) -> Launch<'a> {
    let lanes = lane_offsets();
    let launch = Launch::new(program)
        .simd(SIMD as u32)
        .groups(groups(items))
        .bind_elements("LANE", &lanes);
    surfaces.iter().fold(launch, |launch, (name, buffer)| {
        launch.bind_surface(name, buffer)
    })
}

/// Deterministic pseudo-random numbers (xorshift64*).
fn random(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
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

/// The SVM kernels' arrays: inputs `a` and `b` and an output of as many dwords.
struct SvmArrays {
    svm: Svm,
    a_ptr: u64,
    b_ptr: u64,
    out_ptr: u64,
}

impl SvmArrays {
    fn new(a: &[i32], b: &[i32]) -> SvmArrays {
        let mut svm = Svm::new();
        let a_ptr = svm.alloc_from(a);
        let b_ptr = svm.alloc_from(b);
        let out_ptr = svm.alloc(4 * a.len());
        SvmArrays {
            svm,
            a_ptr,
            b_ptr,
            out_ptr,
        }
    }

    /// A SIMD16 launch of `program` over [`SVM_DWORDS`] work-items, each lane's `A_PTR`,
    /// `B_PTR` and `OUT_PTR` pointing at its dword of the arrays.
    fn launch<'a>(&'a self, program: &'a Program) -> Launch<'a> {
        Launch::new(program)
            .simd(SIMD as u32)
            .groups(groups(SVM_DWORDS))
            .svm(&self.svm)
            .bind_svm_lanes("A_PTR", self.a_ptr, 4)
            .bind_svm_lanes("B_PTR", self.b_ptr, 4)
            .bind_svm_lanes("OUT_PTR", self.out_ptr, 4)
    }

    fn output(&self) -> Option<Vec<i32>> {
        self.svm.read_vec(self.out_ptr, SVM_DWORDS).ok()
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

/// The README main job's arithmetic for one work-item (`SCALE` 5, `LO` -50, `HI` 250).
fn gather_add_scatter_native(a: i32, b: i32) -> i32 {
    a.wrapping_mul(5).wrapping_add(b).clamp(-50, 250)
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
    let mut next = random(2);
    let src: Vec<u32> = (0..PERMUTE_DWORDS).map(|_| next() as u32).collect();
    // Fisher-Yates shuffle of the indices.
    let mut perm: Vec<u32> = (0..PERMUTE_DWORDS as u32).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, (next() % (i as u64 + 1)) as usize);
    }
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

/// The ALU kernel's result for work-item `x`.
fn alu_native(mut x: i32) -> i32 {
    let mut y = 0i32;
    for _ in 0..ALU_TRIPS {
        y = y.wrapping_mul(3).wrapping_add(x);
        let t = x.wrapping_mul(x);
        if t > y {
            y = t;
        }
        x = x.wrapping_add(1);
    }
    y
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
/// run: the ALU kernel's native loop over 16x its work-items, split across each pool. On a
/// machine shared with other work this bounds the speed-up any launch can show.
fn control(figures: &Figures, c: &mut Criterion, pools: &[ThreadPool; 2]) {
    use rayon::prelude::*;
    if once().is_some() {
        return;
    }
    let mut out = vec![0i32; ALU_ITEMS * 16];
    let mut run = |pool: &ThreadPool| {
        pool.install(|| {
            out.par_chunks_mut(1024)
                .enumerate()
                .for_each(|(chunk, values)| {
                    for (i, o) in values.iter_mut().enumerate() {
                        *o = alu_native(std::hint::black_box((chunk * 1024 + i) as i32));
                    }
                });
        })
    };
    let mut group = figures.group(c, "control");
    group.inner.sample_size(10);
    group.inner.warm_up_time(Duration::from_millis(500));
    group.inner.measurement_time(Duration::from_secs(2));
    group.bench("native_1_thread", || run(&pools[0]));
    group.bench("native_2_threads", || run(&pools[1]));
    group.finish();
}

/// The divergent kernel's result for `n` trips.
fn divergent_native(n: i32) -> i32 {
    let mut acc = 0i32;
    let mut k = 0i32;
    loop {
        acc = acc.wrapping_add(if k % 2 == 0 { k } else { 1000 });
        k += 1;
        if k >= n {
            return acc;
        }
    }
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

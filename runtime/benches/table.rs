//! Issue 29's one table: every kernel timed in one run as a plain single-threaded Rust loop
//! (native), on the interpreter (1 thread), on the compiled tier (JIT, rayon pools of 1 and 2
//! threads) and, for the OpenCL kernels, on PoCL (1 and 2 threads), over the same inputs.
//!
//! - the shared kernels of `workloads/` (`svm_add`, `permute`, `alu`, `divergent`) and the README
//!   main job (`gather_add_scatter`), launched through `Launch` as in `kernels.rs`;
//! - the GEMM example (`examples/gemm_tile.visaasm`: 2D block loads, `dpas`, block stores);
//! - OpenCL kernels of `corpus/opencl/` compiled by IGC for DG2 (zebin + vISA dump), launched
//!   through `visa_runtime::compiled` (the library path of `visa launch`, so a launch includes
//!   its set-up: buffers copied into SVM, the thread payloads, the outputs read back), and the
//!   same `.cl` sources on PoCL through `pocl_table.py` (`/usr/bin/python3` with pyopencl; a
//!   line says why when it is not there). PoCL's time is the wall time around
//!   `enqueue_nd_range_kernel` + `finish`, the program built beforehand; its thread count is
//!   `POCL_MAX_PTHREAD_COUNT` (the variable PoCL 3.1's pthread device reads).
//!
//! Every result is checked against the native loop before timing (each engine's, and PoCL's
//! outputs). The summary at the end is a markdown table of criterion's medians, with the machine
//! load before and after, the CPU-time ratios and two controls (plain Rust loops split over the
//! same pools, one compute-bound and one memory-bound: what speed-up from 1 to 2 threads the
//! machine allows during the run). The speed-up from 1 to 2 threads is also measured in pairs
//! ([`paired`]): criterion times the two pools one after the other, seconds apart, while a
//! shared host's memory bandwidth drifts.
//!
//! `TABLE_KERNELS=svm_add,saxpy` runs only those rows; `VISA_PYTHON` names the Python.

#[path = "../../benches/support/mod.rs"]
mod support;
mod workloads;

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use rayon::ThreadPool;
use support::{Figures, show};
use visa_runtime::compiled::npy::{self, NpyArray, NpyType};
use visa_runtime::compiled::{ArgValue, CompiledProgram, LoadedKernel, find_visa_in_dump};
use visa_runtime::{Buffer, Element, Engine, Launch, LoadOptions, Program, Svm};
use workloads::*;

/// Criterion's ids of the timed variants, in table order.
const NATIVE: &str = "native";
const INTERP_1: &str = "interp_1_thread";
const JIT_1: &str = "jit_1_thread";
const JIT_2: &str = "jit_2_threads";

/// GEMM sizes (`examples/gemm_tile.visaasm`: signed bytes, int32 accumulators).
const GEMM_M: usize = 256;
const GEMM_N: usize = 256;
const GEMM_K: usize = 256;

fn main() {
    let load_before = support::load();
    let mut table = Table {
        figures: Figures::new(),
        c: Criterion::default().configure_from_args(),
        pools: [pool(1), pool(2)],
        rows: Vec::new(),
        pocl: Vec::new(),
        controls_paired: [None, None],
        only: std::env::var("TABLE_KERNELS")
            .ok()
            .map(|list| list.split(',').map(|s| s.trim().to_string()).collect()),
    };
    svm_add(&mut table);
    gather_add_scatter(&mut table);
    permute(&mut table);
    alu(&mut table);
    divergent(&mut table);
    gemm(&mut table);
    for case in opencl_cases() {
        table.opencl(case);
    }
    control(&mut table);
    let pocl = run_pocl(&table.pocl);
    table.c.final_summary();
    table.print(&pocl, &load_before);
}

/// The run: criterion, the figures, the pools and what each row needs for the summary.
struct Table {
    figures: Figures,
    c: Criterion,
    pools: [ThreadPool; 2],
    rows: Vec<Row>,
    /// The OpenCL kernels to time on PoCL, with their expected outputs.
    pocl: Vec<PoclCase>,
    /// The controls' speed-ups from 1 to 2 threads measured in pairs: ALU, memory.
    controls_paired: [Option<f64>; 2],
    only: Option<Vec<String>>,
}

/// One row of the summary.
struct Row {
    name: String,
    what: String,
    /// An OpenCL kernel of the corpus (its description is listed apart).
    opencl: bool,
    /// The JIT's speed-up from 1 to 2 threads measured in pairs ([`paired`]).
    paired: Option<f64>,
}

impl Table {
    fn wanted(&self, name: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|list| list.iter().any(|n| n == name))
    }

    /// Checks `verify` on both engines (it launches on the pool it is given and compares the
    /// output with the native result), then times `native`, the interpreter on 1 thread and the
    /// JIT on 1 and 2 threads; the row notes how many of `jit_program`'s instructions are native.
    fn row<R: Send>(
        &mut self,
        name: &str,
        what: String,
        mut native: impl FnMut(),
        launch: &(impl Fn(Engine) -> R + Sync),
        verify: impl Fn(&ThreadPool, Engine) -> Result<(), String>,
        jit_program: &Program,
    ) {
        for engine in [Engine::Interpreter, Engine::Jit] {
            if let Err(e) = verify(&self.pools[0], engine) {
                panic!("{name} on {engine:?}: {e}");
            }
        }
        let mut group = self.figures.group(&mut self.c, name);
        group.inner.sample_size(10);
        group.inner.sampling_mode(SamplingMode::Flat);
        group.inner.warm_up_time(Duration::from_millis(300));
        group.inner.measurement_time(Duration::from_secs(2));
        group.bench(NATIVE, &mut native);
        let [one, two] = &self.pools;
        group.bench(INTERP_1, || one.install(|| launch(Engine::Interpreter)));
        group.bench(JIT_1, || one.install(|| launch(Engine::Jit)));
        group.bench(JIT_2, || two.install(|| launch(Engine::Jit)));
        group.finish();
        let paired = self.median(name, JIT_1).map(|one_launch| {
            let launches = block_launches(one_launch);
            paired(&self.pools, launches, |pool| {
                pool.install(|| launch(Engine::Jit));
            })
        });
        let report = jit_program.jit_report();
        let native = match &report.declined {
            Some(reason) => format!("interpreted: {reason}"),
            None => format!(
                "{} of {} instructions native",
                report.native(),
                report.instructions.len()
            ),
        };
        self.rows.push(Row {
            name: name.to_string(),
            what: format!("{what}; JIT: {native}"),
            opencl: false,
            paired,
        });
    }

    /// An OpenCL kernel of the corpus: loaded on both engines, checked, timed, and queued for
    /// PoCL.
    fn opencl(&mut self, case: ClCase) {
        if !self.wanted(case.kernel) {
            return;
        }
        let dir = corpus().join("dg2").join(case.kernel);
        let zebin = std::fs::read(dir.join("program.bin"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let program =
            CompiledProgram::from_zebin(&zebin).unwrap_or_else(|e| panic!("{}: {e}", case.kernel));
        let simd = program
            .kernel(case.kernel)
            .unwrap_or_else(|e| panic!("{}: {e}", case.kernel))
            .simd_size();
        let (_, text) = find_visa_in_dump(&dir.join("dump"), case.kernel, simd)
            .unwrap_or_else(|e| panic!("{}: {e}", case.kernel));
        let load = |engine| -> LoadedKernel<'_> {
            program
                .kernel(case.kernel)
                .unwrap_or_else(|e| panic!("{}: {e}", case.kernel))
                .visa_with_engine(&text, engine)
                .unwrap_or_else(|e| panic!("{}: {e}", case.kernel))
        };
        let kernels = [load(Engine::Jit), load(Engine::Interpreter)];
        let kernel_on = |engine: Engine| &kernels[usize::from(engine == Engine::Interpreter)];
        let args: Vec<ArgValue> = case.args.iter().map(|(_, v)| v.arg_value()).collect();
        let local = case.local.as_deref();
        let launch = |engine: Engine| {
            kernel_on(engine)
                .launch(&case.global, local, &args)
                .unwrap_or_else(|e| panic!("{}: {e}", case.kernel))
        };
        let verify = |pool: &ThreadPool, engine: Engine| {
            let output = pool.install(|| launch(engine));
            for (name, expected, ulp) in &case.expected {
                let got = output
                    .buffer(name)
                    .ok_or_else(|| format!("no output buffer '{name}'"))?;
                compare_output(name, expected, got, *ulp)?;
            }
            Ok(())
        };
        let dims = |d: &[u32]| d.iter().map(u32::to_string).collect::<Vec<_>>().join(" x ");
        let what = format!(
            "{} (SIMD {simd}, global {}, local {})",
            case.what,
            dims(&case.global),
            case.local
                .as_deref()
                .map_or("the driver's".to_string(), dims)
        );
        let native = case.native;
        let jit_program = kernels[0].program();
        self.row(case.kernel, what, native, &launch, verify, jit_program);
        if let Some(row) = self.rows.last_mut() {
            row.opencl = true;
        }
        self.pocl.push(PoclCase {
            kernel: case.kernel,
            global: case.global,
            local: case.local,
            args: case.args,
            expected: case.expected,
        });
    }

    fn median(&self, row: &str, id: &str) -> Option<f64> {
        self.figures
            .median(&format!("{row}/{id}"))
            .map(|d| d.as_secs_f64())
    }

    fn cpu(&self, row: &str, id: &str) -> Option<f64> {
        self.figures
            .cpu_per_iter(&format!("{row}/{id}"))
            .filter(|d| !d.is_zero())
            .map(|d| d.as_secs_f64())
    }

    fn print(&self, pocl: &PoclRun, load_before: &str) {
        let cpus = std::thread::available_parallelism().map_or(0, usize::from);
        println!("\n== issue 29: one table (wall time per launch, criterion medians) ==");
        println!(
            "load (1/5/15 min) before: {load_before}; after: {}; {cpus} CPUs",
            support::load()
        );
        let controls = [("", "the ALU kernel's"), ("memory_", "svm_add's")];
        for ((kind, what), paired) in controls.into_iter().zip(self.controls_paired) {
            if let (Some(one), Some(two)) = (
                self.median("control", &format!("{kind}native_1_thread")),
                self.median("control", &format!("{kind}native_2_threads")),
            ) {
                println!(
                    "control: {what} plain Rust loop on the same pools, 1 -> 2 threads {:.2}x, \
                     paired {} (what the machine allowed during the run)",
                    one / two,
                    ratio(paired, Some(1.0))
                );
            }
        }
        match &pocl.skipped {
            Some(reason) => println!("PoCL: skipped: {reason}"),
            None => println!("PoCL: {}", pocl.device),
        }
        for note in &pocl.notes {
            println!("PoCL: {note}");
        }
        println!();
        println!(
            "| Kernel | Native | Interp 1t | JIT 1t | JIT 2t | PoCL 1t | PoCL 2t | JIT / native \
             | JIT 1 -> 2 | paired | JIT / PoCL |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for row in &self.rows {
            let name = row.name.as_str();
            let time = |id: &str| self.median(name, id);
            let pocl_time = |threads: usize| pocl.median(name, threads);
            let cells = [
                cell(time(NATIVE)),
                cell(time(INTERP_1)),
                cell(time(JIT_1)),
                cell(time(JIT_2)),
                cell(pocl_time(1)),
                cell(pocl_time(2)),
                ratio(time(JIT_1), time(NATIVE)),
                ratio(time(JIT_1), time(JIT_2)),
                ratio(row.paired, Some(1.0)),
                ratio(time(JIT_1), pocl_time(1)),
            ];
            println!("| `{name}` | {} |", cells.join(" | "));
        }
        println!();
        println!("CPU time per launch (whole process, all threads; the better figure under load):");
        println!();
        println!("| Kernel | Native | Interp 1t | JIT 1t | JIT 2t | JIT / native | Interp / JIT |");
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for row in &self.rows {
            let name = row.name.as_str();
            let cpu = |id: &str| self.cpu(name, id);
            let cells = [
                cell(cpu(NATIVE)),
                cell(cpu(INTERP_1)),
                cell(cpu(JIT_1)),
                cell(cpu(JIT_2)),
                ratio(cpu(JIT_1), cpu(NATIVE)),
                ratio(cpu(INTERP_1), cpu(JIT_1)),
            ];
            println!("| `{name}` | {} |", cells.join(" | "));
        }
        println!();
        for opencl in [false, true] {
            if opencl && self.rows.iter().any(|row| row.opencl) {
                println!(
                    "OpenCL kernels: corpus/opencl/kernels/<name>.cl, compiled by IGC for DG2:"
                );
            }
            for row in self.rows.iter().filter(|row| row.opencl == opencl) {
                println!("- `{}`: {}", row.name, row.what);
            }
        }
    }
}

fn cell(seconds: Option<f64>) -> String {
    seconds.map_or_else(|| "-".to_string(), |s| show(Duration::from_secs_f64(s)))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => {
            let r = a / b;
            if r >= 10.0 {
                format!("{r:.0}x")
            } else {
                format!("{r:.2}x")
            }
        }
        _ => "-".to_string(),
    }
}

fn pool(threads: usize) -> ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| panic!("cannot build a {threads}-thread pool: {e}"))
}

/// The kernel text of `parts` loaded on both engines: `[jit, interpreter]`.
fn programs(parts: &[&str], options: &LoadOptions) -> [Program; 2] {
    let src = parts.concat();
    [Engine::Jit, Engine::Interpreter].map(|engine| {
        Program::from_text(&src, &options.clone().engine(engine))
            .unwrap_or_else(|e| panic!("load failed: {e}\n{src}"))
    })
}

fn on(programs: &[Program; 2], engine: Engine) -> &Program {
    &programs[usize::from(engine == Engine::Interpreter)]
}

/// A byte pattern no kernel's expected output holds, written over an output before a checked
/// launch so that an engine that writes nothing cannot pass on the previous engine's result.
const POISON: u8 = 0xA5;

fn equal<T: PartialEq + std::fmt::Debug>(got: &[T], expected: &[T]) -> Result<(), String> {
    if got.len() != expected.len() {
        return Err(format!("{} values, {} expected", got.len(), expected.len()));
    }
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        None => Ok(()),
        Some(i) => Err(format!(
            "element {i}: {:?}, expected {:?}",
            got[i], expected[i]
        )),
    }
}

fn svm_add(table: &mut Table) {
    if !table.wanted("svm_add") {
        return;
    }
    let programs = programs(&[SVM_ADD], &LoadOptions::default());
    let mut next = random(1);
    let a: Vec<i32> = (0..SVM_DWORDS).map(|_| next() as i32).collect();
    let b: Vec<i32> = (0..SVM_DWORDS).map(|_| next() as i32).collect();
    let arrays = SvmArrays::new(&a, &b);
    let launch = |engine| {
        (arrays.launch(on(&programs, engine)).run()).unwrap_or_else(|e| panic!("svm_add: {e}"))
    };
    let expected: Vec<i32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    let verify = |pool: &ThreadPool, engine| {
        poison_svm(&arrays.svm, arrays.out_ptr, SVM_DWORDS * 4);
        pool.install(|| launch(engine));
        equal(&arrays.output().unwrap_or_default(), &expected)
    };
    let mut out = vec![0i32; SVM_DWORDS];
    let native = || {
        for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
            *o = x.wrapping_add(*y);
        }
    };
    let what = format!(
        "{} dwords, SIMD16, out[i] = a[i] + b[i] through SVM",
        count(SVM_DWORDS)
    );
    table.row("svm_add", what, native, &launch, verify, &programs[0]);
}

fn poison_svm(svm: &Svm, address: u64, bytes: usize) {
    svm.write(address, &vec![POISON; bytes])
        .unwrap_or_else(|e| panic!("poisoning the output: {e}"));
}

fn poison_buffer(buffer: &Buffer) {
    assert!(buffer.write(0, &vec![POISON; buffer.len()]));
}

fn gather_add_scatter(table: &mut Table) {
    if !table.wanted("gather_add_scatter") {
        return;
    }
    let src = include_str!("../../examples/gather_add_scatter.visaasm");
    let programs = programs(&[src], &LoadOptions::default());
    let mut next = random(4);
    let mut values = || -> Vec<i32> {
        (0..SVM_DWORDS)
            .map(|_| (next() % 201) as i32 - 100)
            .collect()
    };
    let (a, b) = (values(), values());
    let arrays = SvmArrays::new(&a, &b);
    let launch = |engine| {
        (arrays.launch(on(&programs, engine)))
            .bind_scalar("SCALE", 5i32)
            .bind_scalar("LO", -50i32)
            .bind_scalar("HI", 250i32)
            .run()
            .unwrap_or_else(|e| panic!("gather_add_scatter: {e}"))
    };
    let expected: Vec<i32> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| gather_add_scatter_native(*x, *y))
        .collect();
    let verify = |pool: &ThreadPool, engine| {
        poison_svm(&arrays.svm, arrays.out_ptr, SVM_DWORDS * 4);
        pool.install(|| launch(engine));
        equal(&arrays.output().unwrap_or_default(), &expected)
    };
    let mut out = vec![0i32; SVM_DWORDS];
    let native = || {
        for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
            *o = gather_add_scatter_native(*x, *y);
        }
    };
    let what = format!(
        "{} work-items, SIMD16, the README main kernel (SVM gathers, mad/max/min, SVM scatter)",
        count(SVM_DWORDS)
    );
    table.row(
        "gather_add_scatter",
        what,
        native,
        &launch,
        verify,
        &programs[0],
    );
}

fn permute(table: &mut Table) {
    if !table.wanted("permute") {
        return;
    }
    let programs = programs(&[OFFSETS, PERMUTE], &LoadOptions::default());
    let (src, perm) = permute_inputs();
    let t6 = Buffer::from_slice(&src);
    let t7 = Buffer::zeroed(4 * PERMUTE_DWORDS);
    let t8 = Buffer::from_slice(&perm);
    let launch = |engine| {
        surface_launch(
            on(&programs, engine),
            PERMUTE_DWORDS,
            &[("T6", &t6), ("T7", &t7), ("T8", &t8)],
        )
        .run()
        .unwrap_or_else(|e| panic!("permute: {e}"))
    };
    let expected: Vec<u32> = perm.iter().map(|&p| src[p as usize]).collect();
    let verify = |pool: &ThreadPool, engine| {
        poison_buffer(&t7);
        pool.install(|| launch(engine));
        equal(&t7.to_vec::<u32>(), &expected)
    };
    let mut dst = vec![0u32; PERMUTE_DWORDS];
    let native = || {
        for (d, &p) in dst.iter_mut().zip(&perm) {
            *d = src.get(p as usize).copied().unwrap_or(0);
        }
    };
    let what = format!(
        "{} dwords, dst[i] = src[perm[i]], gather_scaled/scatter_scaled on surfaces",
        count(PERMUTE_DWORDS)
    );
    table.row("permute", what, native, &launch, verify, &programs[0]);
}

fn alu(table: &mut Table) {
    if !table.wanted("alu") {
        return;
    }
    let programs = programs(&[OFFSETS, PREDICATES, ALU], &LoadOptions::default());
    let t6 = Buffer::zeroed(4 * ALU_ITEMS);
    let launch = |engine| {
        surface_launch(on(&programs, engine), ALU_ITEMS, &[("T6", &t6)])
            .bind_scalar("TRIPS", ALU_TRIPS)
            .run()
            .unwrap_or_else(|e| panic!("alu: {e}"))
    };
    let expected: Vec<i32> = (0..ALU_ITEMS as i32).map(alu_native).collect();
    let verify = |pool: &ThreadPool, engine| {
        poison_buffer(&t6);
        pool.install(|| launch(engine));
        equal(&t6.to_vec::<i32>(), &expected)
    };
    let mut out = vec![0i32; ALU_ITEMS];
    let native = || {
        for (i, o) in out.iter_mut().enumerate() {
            *o = alu_native(std::hint::black_box(i as i32));
        }
    };
    let what = format!(
        "{} work-items x {ALU_TRIPS} trips of mad/mul/cmp/sel/add/add/cmp/goto",
        count(ALU_ITEMS)
    );
    table.row("alu", what, native, &launch, verify, &programs[0]);
}

fn divergent(table: &mut Table) {
    if !table.wanted("divergent") {
        return;
    }
    let programs = programs(&[OFFSETS, PREDICATES, DIVERGENT], &LoadOptions::default());
    let mut next = random(3);
    let trips: Vec<i32> = (0..DIVERGENT_ITEMS)
        .map(|_| 1 + (next() % u64::from(DIVERGENT_MAX_TRIPS)) as i32)
        .collect();
    let t6 = Buffer::zeroed(4 * DIVERGENT_ITEMS);
    let t8 = Buffer::from_slice(&trips);
    let launch = |engine| {
        surface_launch(
            on(&programs, engine),
            DIVERGENT_ITEMS,
            &[("T6", &t6), ("T8", &t8)],
        )
        .run()
        .unwrap_or_else(|e| panic!("divergent: {e}"))
    };
    let expected: Vec<i32> = trips.iter().map(|&n| divergent_native(n)).collect();
    let verify = |pool: &ThreadPool, engine| {
        poison_buffer(&t6);
        pool.install(|| launch(engine));
        equal(&t6.to_vec::<i32>(), &expected)
    };
    let mut out = vec![0i32; DIVERGENT_ITEMS];
    let native = || {
        for (o, &n) in out.iter_mut().zip(&trips) {
            *o = divergent_native(std::hint::black_box(n));
        }
    };
    let what = format!(
        "{} work-items, 1..={DIVERGENT_MAX_TRIPS} trips per lane, if/else in the loop",
        count(DIVERGENT_ITEMS)
    );
    table.row("divergent", what, native, &launch, verify, &programs[0]);
}

/// `C = A x B` in signed bytes with int32 sums, row-major.
fn gemm_native(a: &[i8], b: &[i8], c: &mut [i32]) {
    for (i, row) in c.chunks_exact_mut(GEMM_N).enumerate() {
        row.fill(0);
        for l in 0..GEMM_K {
            let x = i32::from(a[i * GEMM_K + l]);
            for (out, y) in row.iter_mut().zip(&b[l * GEMM_N..(l + 1) * GEMM_N]) {
                *out += x * i32::from(*y);
            }
        }
    }
}

fn gemm(table: &mut Table) {
    if !table.wanted("gemm_tile") {
        return;
    }
    let src = include_str!("../../examples/gemm_tile.visaasm");
    let programs = programs(&[src], &LoadOptions::default().grf_bytes(64));
    let mut next = random(5);
    let a: Vec<i8> = (0..GEMM_M * GEMM_K).map(|_| next() as i8).collect();
    let b: Vec<i8> = (0..GEMM_K * GEMM_N).map(|_| next() as i8).collect();
    let mut svm = Svm::new();
    let a_ptr = svm.alloc_from(&a);
    let b_ptr = svm.alloc_from(&b);
    let c_ptr = svm.alloc(4 * GEMM_M * GEMM_N);
    let groups = GEMM_M.div_ceil(8) * GEMM_N.div_ceil(16);
    let launch = |engine| {
        Launch::new(on(&programs, engine))
            .simd(16)
            .groups(groups as u32)
            .svm(&svm)
            .bind_svm_lanes("A_PTR", a_ptr, 1)
            .bind_svm_lanes("B_PTR", b_ptr, 1)
            .bind_svm_lanes("C_PTR", c_ptr, 4)
            .bind_scalar("M", GEMM_M as u32)
            .bind_scalar("N", GEMM_N as u32)
            .bind_scalar("K", GEMM_K as u32)
            .run()
            .unwrap_or_else(|e| panic!("gemm_tile: {e}"))
    };
    let mut expected = vec![0i32; GEMM_M * GEMM_N];
    gemm_native(&a, &b, &mut expected);
    let verify = |pool: &ThreadPool, engine| {
        poison_svm(&svm, c_ptr, 4 * GEMM_M * GEMM_N);
        pool.install(|| launch(engine));
        let got = svm
            .read_vec::<i32>(c_ptr, GEMM_M * GEMM_N)
            .map_err(|e| e.to_string())?;
        equal(&got, &expected)
    };
    let mut c = vec![0i32; GEMM_M * GEMM_N];
    let native = || gemm_native(&a, &b, &mut c);
    let what = format!(
        "M x N x K = {GEMM_M} x {GEMM_N} x {GEMM_K} signed bytes, an 8 x 16 tile of C per thread \
         ({groups}): block loads, dpas"
    );
    table.row("gemm_tile", what, native, &launch, verify, &programs[0]);
}

/// The plain-Rust controls on the same pools ([`alu_control`], [`memory_control`]): on a shared
/// machine they bound the speed-up from 1 to 2 threads a compute-bound or a memory-bound launch
/// can show.
fn control(table: &mut Table) {
    let mut group = table.figures.group(&mut table.c, "control");
    group.inner.sample_size(10);
    group.inner.warm_up_time(Duration::from_millis(300));
    group.inner.measurement_time(Duration::from_secs(2));
    let [one, two] = &table.pools;
    let mut run = alu_control();
    group.bench("native_1_thread", || run(one));
    group.bench("native_2_threads", || run(two));
    let mut stream = memory_control();
    group.bench("memory_native_1_thread", || stream(one));
    group.bench("memory_native_2_threads", || stream(two));
    group.finish();
    let (alu_run, memory_run) = (
        table.median("control", "native_1_thread"),
        table.median("control", "memory_native_1_thread"),
    );
    let pools = &table.pools;
    table.controls_paired = [
        alu_run.map(|one_run| paired(pools, block_launches(one_run), &mut run)),
        memory_run.map(|one_run| paired(pools, block_launches(one_run), &mut stream)),
    ];
}

/// Rounds of a paired measurement ([`paired`]).
const PAIRED_ROUNDS: usize = 15;

/// How many launches of `seconds` each make a block of a paired measurement (about 30 ms).
fn block_launches(seconds: f64) -> usize {
    ((0.03 / seconds.max(1e-9)) as usize).clamp(2, 1000)
}

/// The speed-up from the 1-thread to the 2-thread pool of `pools` measured in pairs: in each
/// of [`PAIRED_ROUNDS`] rounds, `launches` runs of `run` on each pool (after one not timed),
/// the pools' order alternating from round to round; the median of the rounds' ratios. The
/// two blocks of a round are tens of milliseconds apart, so a drift of the host's load or
/// memory bandwidth between them is small, where criterion measures one pool seconds after
/// the other.
fn paired(pools: &[ThreadPool; 2], launches: usize, mut run: impl FnMut(&ThreadPool)) -> f64 {
    let mut block = |pool: &ThreadPool| {
        run(pool);
        let start = std::time::Instant::now();
        for _ in 0..launches {
            run(pool);
        }
        start.elapsed().as_secs_f64()
    };
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|round| {
            let (one, two) = if round % 2 == 0 {
                let one = block(&pools[0]);
                (one, block(&pools[1]))
            } else {
                let two = block(&pools[1]);
                (block(&pools[0]), two)
            };
            one / two
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

// ---- OpenCL kernels ----

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/opencl")
}

/// An argument's value, typed so that PoCL gets the same one.
enum ClValue {
    Buffer(NpyArray),
    Scalar(NpyType, Vec<u8>),
}

impl ClValue {
    fn buffer<T: Element>(ty: NpyType, values: &[T]) -> ClValue {
        ClValue::Buffer(NpyArray {
            ty,
            bytes: to_bytes(values),
        })
    }

    fn scalar<T: Element>(ty: NpyType, value: T) -> ClValue {
        ClValue::Scalar(ty, to_bytes(&[value]))
    }

    fn arg_value(&self) -> ArgValue {
        match self {
            ClValue::Buffer(array) => ArgValue::Buffer(array.bytes.clone()),
            ClValue::Scalar(_, bytes) => ArgValue::Value(bytes.clone()),
        }
    }
}

fn to_bytes<T: Element>(values: &[T]) -> Vec<u8> {
    Buffer::from_slice(values).to_bytes()
}

/// An output buffer that must equal the native loop's `values` bit for bit.
fn exact<T: Element>(
    name: &'static str,
    ty: NpyType,
    values: &[T],
) -> (&'static str, NpyArray, u64) {
    let bytes = to_bytes(values);
    (name, NpyArray { ty, bytes }, 0)
}

/// A kernel of `corpus/opencl/kernels/<kernel>.cl` at a benchmark's size.
struct ClCase {
    kernel: &'static str,
    what: String,
    global: Vec<u32>,
    local: Option<Vec<u32>>,
    args: Vec<(&'static str, ClValue)>,
    /// Output buffers: name, the native loop's result, the ULPs allowed (0: bit-exact).
    expected: Vec<(&'static str, NpyArray, u64)>,
    native: Box<dyn FnMut()>,
}

/// What PoCL runs: the same kernel, sizes and inputs.
struct PoclCase {
    kernel: &'static str,
    global: Vec<u32>,
    local: Option<Vec<u32>>,
    args: Vec<(&'static str, ClValue)>,
    expected: Vec<(&'static str, NpyArray, u64)>,
}

fn compare_output(name: &str, expected: &NpyArray, got: &[u8], ulp: u64) -> Result<(), String> {
    let size = expected.ty.size();
    if got.len() != expected.bytes.len() {
        return Err(format!(
            "'{name}': {} bytes, {} expected",
            got.len(),
            expected.bytes.len()
        ));
    }
    let far = got
        .chunks_exact(size)
        .zip(expected.bytes.chunks_exact(size))
        .position(|(g, e)| npy::ulp_distance(expected.ty, g, e) > ulp);
    match far {
        None => Ok(()),
        Some(i) => Err(format!(
            "'{name}' element {i}: bytes {:02x?}, expected {:02x?} (within {ulp} ULP)",
            &got[i * size..(i + 1) * size],
            &expected.bytes[i * size..(i + 1) * size]
        )),
    }
}

fn opencl_cases() -> Vec<ClCase> {
    vec![
        saxpy(),
        vec_add_int(),
        xorshift_hash(),
        collatz_divergent(),
        matmul_naive(),
        conv3x3_int(),
    ]
}

fn random_f32(next: &mut impl FnMut() -> u64) -> f32 {
    // 24 random bits in [-1, 1).
    ((next() >> 40) as f32 / (1u64 << 23) as f32) - 1.0
}

fn saxpy() -> ClCase {
    const N: usize = 1 << 18;
    const A: f32 = 1.75;
    let mut next = random(11);
    let x: Vec<f32> = (0..N).map(|_| random_f32(&mut next)).collect();
    let y: Vec<f32> = (0..N).map(|_| random_f32(&mut next)).collect();
    // IGC contracts `a * x + y` into one `mad` (one rounding).
    let expected: Vec<f32> = x.iter().zip(&y).map(|(x, y)| A.mul_add(*x, *y)).collect();
    let (nx, mut ny) = (x.clone(), y.clone());
    ClCase {
        kernel: "saxpy",
        what: format!("{} floats, y = a * x + y", count(N)),
        global: vec![N as u32],
        local: Some(vec![256]),
        args: vec![
            ("x", ClValue::buffer(NpyType::F32, &x)),
            ("y", ClValue::buffer(NpyType::F32, &y)),
            ("a", ClValue::scalar(NpyType::F32, A)),
        ],
        expected: vec![exact("y", NpyType::F32, &expected)],
        native: Box::new(move || {
            for (y, x) in ny.iter_mut().zip(&nx) {
                *y = A.mul_add(*x, *y);
            }
        }),
    }
}

fn vec_add_int() -> ClCase {
    const N: usize = 1 << 18;
    let mut next = random(12);
    let a: Vec<i32> = (0..N).map(|_| next() as i32).collect();
    let b: Vec<i32> = (0..N).map(|_| next() as i32).collect();
    let expected: Vec<i32> = a.iter().zip(&b).map(|(a, b)| a.wrapping_add(*b)).collect();
    let (na, nb, mut nc) = (a.clone(), b.clone(), vec![0i32; N]);
    ClCase {
        kernel: "vec_add_int",
        what: format!("{} ints, c = a + b", count(N)),
        global: vec![N as u32],
        local: Some(vec![256]),
        args: vec![
            ("a", ClValue::buffer(NpyType::I32, &a)),
            ("b", ClValue::buffer(NpyType::I32, &b)),
            ("c", ClValue::buffer(NpyType::I32, &vec![0i32; N])),
        ],
        expected: vec![exact("c", NpyType::I32, &expected)],
        native: Box::new(move || {
            for ((c, a), b) in nc.iter_mut().zip(&na).zip(&nb) {
                *c = a.wrapping_add(*b);
            }
        }),
    }
}

fn xorshift_native(seed: u32, i: u32, rounds: i32) -> u32 {
    let mut x = seed ^ i.wrapping_mul(0x9E37_79B9);
    for _ in 0..rounds {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x = x.wrapping_mul(0x85eb_ca6b).wrapping_add(x >> 16);
    }
    x
}

fn xorshift_hash() -> ClCase {
    const N: usize = 1 << 14;
    const ROUNDS: i32 = 16;
    let mut next = random(13);
    let seed: Vec<u32> = (0..N).map(|_| next() as u32).collect();
    let expected: Vec<u32> = (0..N)
        .map(|i| xorshift_native(seed[i], i as u32, ROUNDS))
        .collect();
    let (ns, mut no) = (seed.clone(), vec![0u32; N]);
    ClCase {
        kernel: "xorshift_hash",
        what: format!(
            "{} uints x {ROUNDS} rounds of xorshift and multiply",
            count(N)
        ),
        global: vec![N as u32],
        local: Some(vec![256]),
        args: vec![
            ("seed", ClValue::buffer(NpyType::U32, &seed)),
            ("out", ClValue::buffer(NpyType::U32, &vec![0u32; N])),
            ("rounds", ClValue::scalar(NpyType::I32, ROUNDS)),
        ],
        expected: vec![exact("out", NpyType::U32, &expected)],
        native: Box::new(move || {
            for (i, (o, s)) in no.iter_mut().zip(&ns).enumerate() {
                *o = xorshift_native(*s, std::hint::black_box(i as u32), ROUNDS);
            }
        }),
    }
}

fn collatz_native(start: u32) -> u32 {
    let (mut n, mut c) = (start, 0u32);
    while n != 1 && c < 1000 {
        n = if n & 1 != 0 {
            n.wrapping_mul(3).wrapping_add(1)
        } else {
            n >> 1
        };
        c += 1;
    }
    c
}

fn collatz_divergent() -> ClCase {
    const N: usize = 1 << 12;
    let mut next = random(14);
    let start: Vec<u32> = (0..N).map(|_| 1 + (next() % 100_000) as u32).collect();
    let expected: Vec<u32> = start.iter().map(|&s| collatz_native(s)).collect();
    let (ns, mut no) = (start.clone(), vec![0u32; N]);
    ClCase {
        kernel: "collatz_divergent",
        what: format!("{} starts in 1..=100000, per-lane trip counts", count(N)),
        global: vec![N as u32],
        local: Some(vec![256]),
        args: vec![
            ("start", ClValue::buffer(NpyType::U32, &start)),
            ("steps", ClValue::buffer(NpyType::U32, &vec![0u32; N])),
        ],
        expected: vec![exact("steps", NpyType::U32, &expected)],
        native: Box::new(move || {
            for (o, s) in no.iter_mut().zip(&ns) {
                *o = collatz_native(std::hint::black_box(*s));
            }
        }),
    }
}

fn matmul_native(a: &[f32], b: &[f32], c: &mut [f32], k: usize, n: usize) {
    for (row, out) in c.chunks_exact_mut(n).enumerate() {
        for (col, o) in out.iter_mut().enumerate() {
            let mut acc = 0.0f32;
            for l in 0..k {
                acc = a[row * k + l].mul_add(b[l * n + col], acc);
            }
            *o = acc;
        }
    }
}

fn matmul_naive() -> ClCase {
    const M: usize = 64;
    const N: usize = 64;
    const K: usize = 128;
    let mut next = random(15);
    let a: Vec<f32> = (0..M * K).map(|_| random_f32(&mut next)).collect();
    let b: Vec<f32> = (0..K * N).map(|_| random_f32(&mut next)).collect();
    let mut expected = vec![0f32; M * N];
    matmul_native(&a, &b, &mut expected, K, N);
    let (na, nb, mut nc) = (a.clone(), b.clone(), vec![0f32; M * N]);
    ClCase {
        kernel: "matmul_naive",
        what: format!("{M} x {K} by {K} x {N} floats, one fma loop per element"),
        global: vec![N as u32, M as u32],
        local: Some(vec![16, 4]),
        args: vec![
            ("A", ClValue::buffer(NpyType::F32, &a)),
            ("B", ClValue::buffer(NpyType::F32, &b)),
            ("C", ClValue::buffer(NpyType::F32, &vec![0f32; M * N])),
            ("K", ClValue::scalar(NpyType::I32, K as i32)),
            ("N", ClValue::scalar(NpyType::I32, N as i32)),
        ],
        expected: vec![exact("C", NpyType::F32, &expected)],
        native: Box::new(move || matmul_native(&na, &nb, &mut nc, K, N)),
    }
}

const CONV_WEIGHTS: [i32; 9] = [1, 2, 1, 2, 4, 2, 1, 2, 1];

fn conv_native(img: &[u8], out: &mut [u16], w: usize, h: usize) {
    for y in 0..h {
        for x in 0..w {
            let mut acc = 0i32;
            for dy in 0..3 {
                for dx in 0..3 {
                    let xx = (x + dx).saturating_sub(1).min(w - 1);
                    let yy = (y + dy).saturating_sub(1).min(h - 1);
                    acc += CONV_WEIGHTS[dy * 3 + dx] * i32::from(img[yy * w + xx]);
                }
            }
            out[y * w + x] = acc as u16;
        }
    }
}

fn conv3x3_int() -> ClCase {
    const W: usize = 256;
    const H: usize = 128;
    let mut next = random(16);
    let img: Vec<u8> = (0..W * H).map(|_| next() as u8).collect();
    let mut expected = vec![0u16; W * H];
    conv_native(&img, &mut expected, W, H);
    let (ni, mut no) = (img.clone(), vec![0u16; W * H]);
    ClCase {
        kernel: "conv3x3_int",
        what: format!("{W} x {H} bytes, 3x3 weights in __constant data, edges clamped"),
        global: vec![W as u32, H as u32],
        local: Some(vec![16, 1]),
        args: vec![
            ("img", ClValue::buffer(NpyType::U8, &img)),
            ("out", ClValue::buffer(NpyType::U16, &vec![0u16; W * H])),
            ("w", ClValue::scalar(NpyType::I32, W as i32)),
            ("h", ClValue::scalar(NpyType::I32, H as i32)),
        ],
        expected: vec![exact("out", NpyType::U16, &expected)],
        native: Box::new(move || conv_native(&ni, &mut no, W, H)),
    }
}

// ---- PoCL ----

/// PoCL's figures: seconds per launch by (kernel, threads).
#[derive(Default)]
struct PoclRun {
    times: Vec<(String, usize, f64)>,
    device: String,
    skipped: Option<String>,
    notes: Vec<String>,
}

impl PoclRun {
    fn median(&self, kernel: &str, threads: usize) -> Option<f64> {
        self.times
            .iter()
            .find(|(k, t, _)| k == kernel && *t == threads)
            .map(|(_, _, s)| *s)
    }
}

fn python() -> PathBuf {
    match std::env::var_os("VISA_PYTHON") {
        Some(p) => PathBuf::from(p),
        None if Path::new("/usr/bin/python3").exists() => PathBuf::from("/usr/bin/python3"),
        None => PathBuf::from("python3"),
    }
}

/// Writes the inputs and a JSON description for `pocl_table.py`, runs it with 1 and 2 PoCL
/// threads, and checks PoCL's outputs against the native results.
fn run_pocl(cases: &[PoclCase]) -> PoclRun {
    let mut run = PoclRun::default();
    if cases.is_empty() {
        run.skipped = Some("no OpenCL kernel selected".into());
        return run;
    }
    let dir = std::env::temp_dir().join(format!("visa-table-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        run.skipped = Some(format!("{}: {e}", dir.display()));
        return run;
    }
    let mut kernels = Vec::new();
    for case in cases {
        let mut args = Vec::new();
        for (name, value) in &case.args {
            args.push(match value {
                ClValue::Buffer(array) => {
                    let path = dir.join(format!("{}_{name}.npy", case.kernel));
                    npy::write(&path, array).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    serde_json::json!({ "name": name, "buffer": path })
                }
                ClValue::Scalar(ty, bytes) => {
                    serde_json::json!({ "name": name, "type": ty.opencl_name(), "bytes": bytes })
                }
            });
        }
        let outputs: Vec<&str> = case.expected.iter().map(|(name, _, _)| *name).collect();
        kernels.push(serde_json::json!({
            "kernel": case.kernel,
            "source": corpus().join("kernels").join(format!("{}.cl", case.kernel)),
            "global": case.global,
            "local": case.local,
            "args": args,
            "outputs": outputs,
        }));
    }
    let spec = dir.join("spec.json");
    let text = serde_json::json!({ "out_dir": dir, "kernels": kernels }).to_string();
    if let Err(e) = std::fs::write(&spec, text) {
        run.skipped = Some(format!("{}: {e}", spec.display()));
        return run;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/pocl_table.py");
    for threads in [1usize, 2] {
        let output = std::process::Command::new(python())
            .arg(&script)
            .arg(&spec)
            .env("POCL_MAX_PTHREAD_COUNT", threads.to_string())
            .output();
        let output = match output {
            Ok(o) => o,
            Err(e) => {
                run.skipped = Some(format!("{}: {e}", python().display()));
                break;
            }
        };
        if !output.status.success() {
            run.skipped = Some(format!(
                "{} failed: {}",
                script.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
            break;
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        for line in stdout.lines() {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let Some(reason) = value.get("skip").and_then(|v| v.as_str()) {
                run.skipped = Some(reason.to_string());
                break;
            }
            if let Some(device) = value.get("device").and_then(|v| v.as_str()) {
                run.device = device.to_string();
                let units = value.get("compute_units").and_then(|v| v.as_u64());
                if units != Some(threads as u64) {
                    run.notes.push(format!(
                        "asked for {threads} threads, the device reports {units:?} compute units"
                    ));
                }
                continue;
            }
            let (Some(kernel), Some(seconds)) = (
                value.get("kernel").and_then(|v| v.as_str()),
                value.get("median_s").and_then(|v| v.as_f64()),
            ) else {
                continue;
            };
            let Some(case) = cases.iter().find(|c| c.kernel == kernel) else {
                continue;
            };
            for (name, expected, ulp) in &case.expected {
                let path = dir.join(format!("{kernel}_{name}_out{threads}.npy"));
                let checked = std::fs::read(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))
                    .and_then(|bytes| npy::read(&bytes))
                    .and_then(|array| compare_output(name, expected, &array.bytes, *ulp));
                if let Err(e) = checked {
                    run.notes.push(format!(
                        "{kernel} on {threads} thread(s): output differs from the native loop: {e}"
                    ));
                }
            }
            run.times.push((kernel.to_string(), threads, seconds));
        }
        if run.skipped.is_some() {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    run
}

fn count(items: usize) -> String {
    if items >= 1 << 20 {
        format!("{} M", items >> 20)
    } else {
        format!("{} K", items >> 10)
    }
}

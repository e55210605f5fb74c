//! The compiled tier against the interpreter: random kernels (straight-line ALU code on every
//! region kind the fast forms take and several they do not, with predicates, masks and source
//! modifiers; if/else, loops with per-lane trip counts and uniform jumps) run on both engines
//! must leave every variable and predicate bit for bit the same, or end in the same trap.

use proptest::prelude::*;
use visa_runtime::{Engine, JitTier, Launch, LaunchError, LoadOptions, Program};

/// Variables of the generated kernels: (name, type). All hold 16 elements and are bound, so
/// the interpreter never sees an undefined byte.
const VARS: [(&str, &str); 7] = [
    ("V0", "d"),
    ("V1", "d"),
    ("V2", "ud"),
    ("V3", "ud"),
    ("V4", "d"),
    ("W", "w"),
    // The loop counter, which no generated instruction writes.
    ("C", "ud"),
];
const SIMD: usize = 16;

fn decls() -> String {
    let mut out = String::new();
    for (name, ty) in VARS {
        out += &format!(".decl {name} v_type=G type={ty} num_elts=16 align=GRF\n");
    }
    out += ".decl PV v_type=G type=ud num_elts=16 align=GRF\n";
    out += ".decl P1 v_type=P num_elts=16\n.decl P2 v_type=P num_elts=16\n";
    out
}

/// One execution-size / mask choice: `(M1, 16)`, `(M3, 8)`, `(M1_NM, 4)` ...
fn exec() -> impl Strategy<Value = (String, u32)> {
    prop_oneof![
        4 => Just(("M1".to_string(), 16)),
        2 => Just(("M1".to_string(), 8)),
        1 => Just(("M3".to_string(), 8)),
        1 => Just(("M1".to_string(), 4)),
        1 => Just(("M1".to_string(), 2)),
        1 => Just(("M1".to_string(), 1)),
        1 => Just(("M1_NM".to_string(), 16)),
        1 => Just(("M3_NM".to_string(), 4)),
    ]
    .prop_map(|(mask, size)| (format!("({mask}, {size})"), size))
}

fn predicate() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(String::new()),
        1 => Just("(P1) ".to_string()),
        1 => Just("(!P2) ".to_string()),
    ]
}

/// A 32-bit source: a contiguous, scalar or strided region, or an immediate.
fn source(size: u32) -> BoxedStrategy<String> {
    let var = prop::sample::select(vec!["V0", "V1", "V2", "V3", "V4"]);
    let modifier = prop_oneof![6 => Just(""), 1 => Just("(-)"), 1 => Just("(abs)")];
    let contiguous = (var.clone(), modifier.clone(), 0..=(16 - size))
        .prop_map(|(v, m, at)| format!("{m}{v}(0,{at})<1;1,0>"));
    let scalar = (var.clone(), modifier.clone(), 0u32..16)
        .prop_map(|(v, m, at)| format!("{m}{v}(0,{at})<0;1,0>"));
    let immediate = (any::<u32>(), prop::bool::ANY).prop_map(|(v, signed)| {
        let ty = if signed { "d" } else { "ud" };
        format!("{v:#x}:{ty}")
    });
    let small = (0u32..40).prop_map(|v| format!("{v:#x}:d"));
    if size <= 8 {
        // `<2;1,0>` reads elements at, at + 2, ...: not a fast form.
        let strided = (var, modifier, 0..=(15 - 2 * (size - 1)))
            .prop_map(|(v, m, at)| format!("{m}{v}(0,{at})<2;1,0>"));
        prop_oneof![4 => contiguous, 2 => scalar, 1 => strided, 2 => immediate, 1 => small].boxed()
    } else {
        prop_oneof![4 => contiguous, 2 => scalar, 2 => immediate, 1 => small].boxed()
    }
}

fn alu() -> impl Strategy<Value = String> {
    (exec(), predicate()).prop_flat_map(|((exec, size), pred)| {
        // Predicate bits past lane 15 are never written: masks beyond them go unpredicated.
        let pred = if exec.contains("M3_NM") {
            String::new()
        } else {
            pred
        };
        let dst = (
            prop::sample::select(vec!["V0", "V1", "V2", "V3", "V4"]),
            0..=(16 - size),
        )
            .prop_map(|(v, at)| format!("{v}(0,{at})<1>"));
        let op = prop::sample::select(vec![
            ("add", 2),
            ("mul", 2),
            ("mad", 3),
            ("and", 2),
            ("or", 2),
            ("xor", 2),
            ("shl", 2),
            ("shr", 2),
            ("asr", 2),
            ("min", 2),
            ("max", 2),
            ("mov", 1),
            ("sel", 2),
            ("avg", 2),
            ("mulh", 2),
        ]);
        (
            op,
            dst,
            source(size),
            source(size),
            source(size),
            Just(exec),
            Just(pred),
        )
            .prop_map(|((op, arity), dst, a, b, c, exec, pred)| {
                // Bit operations take no arithmetic modifiers.
                let plain = |s: String| s.replace("(-)", "").replace("(abs)", "");
                let (a, b, c) = if matches!(op, "and" | "or" | "xor" | "shl" | "shr" | "asr") {
                    (plain(a), plain(b), plain(c))
                } else {
                    (a, b, c)
                };
                let srcs = [a, b, c][..arity].join(" ");
                // min/max take no predicate.
                let pred = if matches!(op, "min" | "max") {
                    ""
                } else {
                    pred.as_str()
                };
                format!("{pred}{op} {exec} {dst} {srcs}")
            })
    })
}

/// A comparison into a predicate: mostly 16 lanes (whose bits compiled code gathers sixteen
/// at a time), some 8 or 4 (a chunk at a time), some at a mask offset; or into a D or UD
/// register (all ones or zero per lane).
fn compare() -> impl Strategy<Value = String> {
    let rel = prop::sample::select(vec!["eq", "ne", "lt", "le", "gt", "ge"]);
    let pred = prop::sample::select(vec!["P1", "P2", "V4(0,0)<1>", "V3(0,0)<1>"]);
    let exec = prop_oneof![
        4 => Just(("M1", 16)),
        1 => Just(("M1", 8)),
        1 => Just(("M3", 8)),
        1 => Just(("M1", 4)),
    ];
    (rel, pred, exec).prop_flat_map(|(rel, p, (mask, size))| {
        (source(size), source(size))
            .prop_map(move |(a, b)| format!("cmp.{rel} ({mask}, {size}) {p} {a} {b}"))
    })
}

/// Predicate logic: `and`/`or`/`xor` of two predicates or `not` of one, into either (in place
/// too), on 16 lanes or fewer, at a mask offset, NoMask.
fn pred_logic() -> impl Strategy<Value = String> {
    let pred = || prop::sample::select(vec!["P1", "P2"]);
    let op = prop::sample::select(vec!["and", "or", "xor", "not"]);
    let exec = prop::sample::select(vec![
        "(M1, 16)",
        "(M1, 8)",
        "(M3, 8)",
        "(M1_NM, 16)",
        "(M1, 4)",
    ]);
    (op, exec, pred(), pred(), pred()).prop_map(|(op, exec, dst, a, b)| match op {
        "not" => format!("not {exec} {dst} {a}"),
        _ => format!("{op} {exec} {dst} {a} {b}"),
    })
}

/// A mixed-type instruction, always through the interpreter's handler.
fn mixed() -> impl Strategy<Value = String> {
    (0u32..8, source(8)).prop_map(|(at, a)| format!("add (M1, 8) W(0,{at})<1> {a} 0x3:w"))
}

fn straight() -> impl Strategy<Value = Vec<String>> {
    let part = prop_oneof![6 => alu(), 2 => compare(), 1 => pred_logic(), 1 => mixed()];
    prop::collection::vec(part, 1..6)
}

/// A kernel: straight-line segments, if/else blocks and per-lane loops, given unique labels.
fn kernel() -> impl Strategy<Value = String> {
    #[derive(Debug, Clone)]
    enum Part {
        Straight(Vec<String>),
        IfElse(String, Vec<String>, Vec<String>),
        Loop(Vec<String>),
        Jump(Option<String>, Vec<String>),
    }
    let part = prop_oneof![
        3 => straight().prop_map(Part::Straight),
        2 => (compare(), straight(), straight()).prop_map(|(c, a, b)| Part::IfElse(c, a, b)),
        2 => straight().prop_map(Part::Loop),
        1 => (
            prop::option::of(prop::sample::select(vec!["(P1) ", "(!P2) "]).prop_map(String::from)),
            straight()
        )
            .prop_map(|(p, s)| Part::Jump(p, s)),
    ];
    prop::collection::vec(part, 1..5).prop_map(|parts| {
        let mut out = decls();
        // Every predicate bit a predicated instruction can read is written first.
        out += "cmp.lt (M1_NM, 16) P1 V0(0,0)<1;1,0> V1(0,0)<1;1,0>\n";
        out += "cmp.gt (M1_NM, 16) P2 V2(0,0)<1;1,0> 0x80000000:ud\n";
        for (k, part) in parts.into_iter().enumerate() {
            match part {
                Part::Straight(lines) => out += &(lines.join("\n") + "\n"),
                Part::IfElse(cmp, then, other) => {
                    out += &format!("{cmp}\n(!P1) goto (M1, 16) ELSE{k}\n");
                    out += &(then.join("\n") + "\n");
                    out += &format!("goto (M1, 16) END{k}\nELSE{k}:\n");
                    out += &(other.join("\n") + "\n");
                    out += &format!("END{k}:\n");
                }
                Part::Loop(body) => {
                    // Lane i runs (V4[i] & 3) + 1 trips, counted down in C.
                    out += "and (M1, 16) C(0,0)<1> V4(0,0)<1;1,0> 0x3:ud\n";
                    out += &format!("LOOP{k}:\n");
                    out += &(body.join("\n") + "\n");
                    out += "add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0xffffffff:ud\n";
                    out += "cmp.lt (M1, 16) P2 C(0,0)<1;1,0> 0x80000000:ud\n";
                    out += &format!("(P2) goto (M1, 16) LOOP{k}\n");
                }
                Part::Jump(pred, skipped) => {
                    let pred = pred.unwrap_or_default();
                    out += &format!("{pred}jmp (M1, 1) SKIP{k}\n");
                    out += &(skipped.join("\n") + "\n");
                    out += &format!("SKIP{k}:\n");
                }
            }
        }
        out += "mov (M1_NM, 1) PV(0,0)<1> P1\nmov (M1_NM, 1) PV(0,1)<1> P2\n";
        out
    })
}

type Outcome = Result<Vec<(String, Vec<u8>)>, String>;

fn run(src: &str, engine: Engine, tier: JitTier, data: &[Vec<i32>]) -> Outcome {
    launch(&load(src, engine, tier)?, data)
}

fn load(src: &str, engine: Engine, tier: JitTier) -> Result<Program, String> {
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    Program::from_text(src, &options).map_err(|e| format!("load: {e}"))
}

/// [`run`] on lazily built code ([`JitTier::Lazy`]): a first launch on `profile` (interpreted:
/// too small to compile) notes the blocks its threads enter, the code is built from them
/// (`jit_report` builds it), and the launch on `data` runs on that code, which leaves the
/// blocks `profile` never entered to the interpreter.
fn run_lazy(src: &str, profile: &[Vec<i32>], data: &[Vec<i32>]) -> Outcome {
    let program = load(src, Engine::Jit, JitTier::Lazy)?;
    launch(&program, profile)?;
    if program.has_compiled_code() {
        return Err("the profiling launch compiled".into());
    }
    program.jit_report();
    launch(&program, data)
}

fn launch(program: &Program, data: &[Vec<i32>]) -> Outcome {
    let (groups, threads) = (2u32, 2u32);
    let items = SIMD * (groups * threads) as usize;
    let mut launch = Launch::new(program)
        .simd(SIMD as u32)
        .groups(groups)
        .threads_per_group(threads)
        .fuel(1 << 20);
    for ((name, ty), values) in VARS.iter().zip(data) {
        launch = match *ty {
            "w" => launch.bind_vector(
                name,
                &values[..items]
                    .iter()
                    .map(|v| *v as i16)
                    .collect::<Vec<_>>(),
            ),
            _ => launch.bind_vector(name, &values[..items]),
        };
    }
    let result = launch.capture("PV").run();
    let result = match result {
        Ok(r) => r,
        Err(LaunchError::Trap(t)) => return Err(format!("trap: {t}")),
        Err(e) => return Err(format!("launch: {e}")),
    };
    let mut out = Vec::new();
    for thread in 0..result.threads() {
        for name in VARS.iter().map(|(n, _)| *n).chain(["PV"]) {
            let (bytes, _) = result.thread_bytes(name, thread).ok_or("not captured")?;
            out.push((format!("{name}@{thread}"), bytes.to_vec()));
        }
    }
    Ok(out)
}

proptest! {
    // 96 cases by default; `PROPTEST_CASES` sets more for a longer search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn both_engines_agree(
        src in kernel(),
        data in prop::collection::vec(prop::collection::vec(any::<i32>(), SIMD * 4), VARS.len()),
        profile in prop::collection::vec(prop::collection::vec(any::<i32>(), SIMD * 4), VARS.len()),
    ) {
        let interpreted = run(&src, Engine::Interpreter, JitTier::Adaptive, &data);
        // Every generated kernel loads and runs to its end (a load error or a trap on both
        // sides would compare equal and test nothing).
        prop_assert!(interpreted.is_ok(), "{:?}\nkernel:\n{}", interpreted, src);
        // Both code generators of the compiled tier.
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let compiled = run(&src, Engine::Jit, tier, &data);
            prop_assert_eq!(&interpreted, &compiled, "{:?} code, kernel:\n{}", tier, src);
        }
        // Code built from what other data ran, the rest left to the interpreter.
        let lazy = run_lazy(&src, &profile, &data);
        prop_assert_eq!(&interpreted, &lazy, "lazy blocks, kernel:\n{}", src);
        // The comparison is only as good as what ran natively.
        let options = LoadOptions::default().engine(Engine::Jit);
        if let Ok(program) = Program::from_text(&src, &options) {
            let report = program.jit_report();
            prop_assert!(report.declined.is_none(), "{}", report);
        }
    }
}

#[test]
fn the_generated_kernels_mostly_compile_natively() {
    // A fixed kernel of the generator's shapes: every fast-form instruction is native.
    let src = format!(
        "{}cmp.lt (M1_NM, 16) P1 V0(0,0)<1;1,0> V1(0,0)<1;1,0>\n\
         add (M1, 16) V0(0,0)<1> V0(0,0)<1;1,0> V1(0,0)<0;1,0>\n\
         (P1) sel (M1, 16) V2(0,0)<1> V2(0,0)<1;1,0> 0x5:ud\n\
         add (M1, 8) W(0,0)<1> V0(0,0)<2;1,0> 0x3:w\n\
         (!P1) goto (M1, 16) DONE\n\
         mul (M1, 8) V4(0,8)<1> V1(0,8)<1;1,0> 0x7:d\n\
         DONE:\n",
        decls()
    );
    let options = LoadOptions::default().engine(Engine::Jit);
    let program = Program::from_text(&src, &options).unwrap();
    let report = program.jit_report();
    let native: Vec<bool> = report.instructions.iter().map(|(_, n)| *n).collect();
    // cmp, add, sel native; the mixed-type add through its handler; goto and mul native.
    assert_eq!(native, [true, true, true, false, true, true], "{report}");
}

#[test]
fn the_adaptive_tier_optimises_large_launches_and_hot_programs() {
    let jit = LoadOptions::default().engine(Engine::Jit);
    // Straight-line: optimised once a launch has HOT_EXECUTIONS threads.
    let src = ".decl V v_type=G type=d num_elts=16 align=GRF\n\
               add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x1:d\n";
    let program = Program::from_text(src, &jit).unwrap();
    let launch = |groups: u32| {
        Launch::new(&program)
            .simd(16)
            .groups(groups)
            .bind_vector("V", &vec![7i32; 16 * groups as usize])
            .run()
            .unwrap()
            .vector::<i32>("V")
            .unwrap()
    };
    assert_eq!(launch(2), vec![8; 32]);
    assert!(
        !program.jit_report().optimized,
        "a 2-thread launch gets quick code"
    );
    let groups = visa_runtime::HOT_EXECUTIONS as u32;
    assert_eq!(launch(groups), vec![8; 16 * groups as usize]);
    assert!(
        program.jit_report().optimized,
        "a large launch gets optimised code"
    );

    // A loop of 3 x 16,384 instructions in one thread: the next launch is optimised.
    let src = ".decl I v_type=G type=d num_elts=1\n\
               .decl P1 v_type=P num_elts=1\n\
               mov (M1_NM, 1) I(0,0)<1> 0x0:d\n\
               LOOP:\n\
               add (M1_NM, 1) I(0,0)<1> I(0,0)<0;1,0> 0x1:d\n\
               cmp.lt (M1_NM, 1) P1 I(0,0)<0;1,0> 0x4000:d\n\
               (P1) jmp (M1_NM, 1) LOOP\n";
    let program = Program::from_text(src, &jit).unwrap();
    let run = || {
        let result = Launch::new(&program).simd(1).capture("I").run().unwrap();
        let (bytes, _) = result.thread_bytes("I", 0).unwrap();
        i32::from_le_bytes(bytes[..4].try_into().unwrap())
    };
    assert_eq!(run(), 0x4000);
    assert!(
        !program.jit_report().optimized,
        "the first launch gets quick code"
    );
    assert_eq!(run(), 0x4000);
    assert!(
        program.jit_report().optimized,
        "a hot program gets optimised code"
    );
    // Chosen explicitly: quick code for good.
    let quick = jit.clone().jit_tier(JitTier::Quick);
    let program = Program::from_text(src, &quick).unwrap();
    for _ in 0..2 {
        Launch::new(&program).simd(1).run().unwrap();
    }
    assert!(!program.jit_report().optimized);
}

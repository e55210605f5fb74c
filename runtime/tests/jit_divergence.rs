//! Divergent control flow on the compiled tier against the interpreter: random structured
//! kernels of nested if/else blocks (forward gotos, with or without an else), loops with
//! per-lane trip counts (backward gotos), breaks out of loops, kernel-level `ret` retiring
//! channels, subroutine calls with gotos inside, and uniform jumps out of a branch (which trap
//! when they skip parked channels), in SIMD8, 16 and 32 launches of several threads with
//! partial entry masks. Gotos take whole, partial and offset windows, uniform forms and
//! predicates with `.any`/`.all` and inversion. Every thread's registers (a per-lane hash of
//! the path it took, the loop counters, execution masks recorded through `%ce0`) and any trap
//! must be identical on the interpreter and on quick and optimised compiled code.

mod common;

use proptest::prelude::*;
use visa_runtime::{Engine, JitTier, Launch, LaunchError, LoadOptions, Program};

/// A condition: `cmp.<rel> P<pred> <var> <imm>`, then the goto's predicate form.
#[derive(Debug, Clone)]
struct Cond {
    rel: &'static str,
    var: &'static str,
    imm: i32,
    /// `!` or nothing, then `.any`, `.all` or nothing.
    inverse: bool,
    control: &'static str,
}

#[derive(Debug, Clone)]
enum Node {
    /// `ACC = ACC * 3 + k` (or `+ X` when `k` is 0): the path each lane takes.
    Work(i32),
    /// `%ce0` into `MASKS[slot]`.
    Mask(u32),
    /// If (and else): the goto's window form, the closing goto's, and a uniform jump from the
    /// end of the then-branch to after the else.
    If {
        cond: Cond,
        form: usize,
        close: usize,
        then: Vec<Node>,
        other: Option<Vec<Node>>,
        jump_out: bool,
    },
    /// A loop of `(X & mask) + 1` trips per lane, its backward goto's window, and a predicated
    /// forward goto out of it at the end of the body.
    Loop {
        mask: u32,
        form: usize,
        body: Vec<Node>,
        brk: Option<Cond>,
    },
    /// Kernel-level `ret` of the channels the condition selects; scalar (`ret (M1, 1)`, which
    /// ends the thread when the condition holds in the first channel) when set.
    Ret(Cond, bool),
    /// A call of a subroutine made of `body`; with `leak`, channels parked inside it when a
    /// scalar `ret` leaves (a trap).
    Call {
        cond: Option<Cond>,
        body: Vec<Node>,
        leak: Option<Cond>,
    },
}

/// Goto windows for a launch of `simd` lanes: index 0 is the whole thread; later ones are
/// uniform, partial or offset.
fn forms(simd: u32) -> Vec<String> {
    let mut forms = vec![format!("(M1, {simd})"), "(M1, 1)".to_string()];
    match simd {
        8 => forms.push("(M1, 4)".into()),
        16 => forms.extend(["(M1, 8)".into(), "(M3, 8)".into()]),
        _ => forms.extend(["(M1, 16)".into(), "(M5, 16)".into(), "(M3, 8)".into()]),
    }
    forms
}

fn cond() -> impl Strategy<Value = Cond> {
    (
        prop::sample::select(vec!["lt", "gt", "eq", "ne", "ge"]),
        prop::sample::select(vec!["X", "ACC", "C0", "C1"]),
        -6i32..6,
        prop::bool::ANY,
        prop::sample::select(vec!["", "", "", ".any", ".all"]),
    )
        .prop_map(|(rel, var, imm, inverse, control)| Cond {
            rel,
            var,
            imm,
            inverse,
            control,
        })
}

/// A window form index: mostly the whole thread.
fn form() -> impl Strategy<Value = usize> {
    prop_oneof![6 => Just(0usize), 1 => Just(1usize), 2 => 2usize..5]
}

fn nodes(depth: u32) -> BoxedStrategy<Vec<Node>> {
    let leaf = prop_oneof![
        4 => (-5i32..6).prop_map(Node::Work),
        1 => (0u32..8).prop_map(Node::Mask),
    ];
    if depth == 0 {
        return prop::collection::vec(leaf, 1..3).boxed();
    }
    let inner = nodes(depth - 1);
    let node = prop_oneof![
        4 => leaf,
        3 => (
            cond(),
            form(),
            prop_oneof![3 => Just(0usize), 1 => Just(1usize)],
            inner.clone(),
            prop::option::of(inner.clone()),
            prop::bool::weighted(0.1),
        )
            .prop_map(|(cond, form, close, then, other, jump_out)| Node::If {
                cond,
                form,
                close,
                then,
                other,
                jump_out,
            }),
        2 => (
            prop::sample::select(vec![1u32, 3, 7]),
            prop_oneof![4 => Just(0usize), 1 => 2usize..5],
            inner.clone(),
            prop::option::weighted(0.3, cond()),
        )
            .prop_map(|(mask, form, body, brk)| Node::Loop {
                mask,
                form,
                body,
                brk,
            }),
        1 => (cond(), any::<bool>()).prop_map(|(cond, scalar)| Node::Ret(cond, scalar)),
        1 => (
            prop::option::of(cond()),
            inner,
            prop::option::weighted(0.2, cond()),
        )
            .prop_map(|(cond, body, leak)| Node::Call { cond, body, leak }),
    ];
    prop::collection::vec(node, 1..4).boxed()
}

/// Emits kernels from the tree: labels numbered in emission order, subroutines after the
/// kernel body.
struct Writer {
    simd: u32,
    forms: Vec<String>,
    labels: u32,
    subroutines: Vec<String>,
}

impl Writer {
    /// Window form `i` (the last partial one when this launch has fewer).
    fn form(&self, i: usize) -> &str {
        &self.forms[i.min(self.forms.len() - 1)]
    }

    fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}{}", self.labels)
    }

    /// `cmp` into `pred`, and the goto predicate prefix.
    fn condition(&self, cond: &Cond, pred: &str, out: &mut String) -> String {
        let s = self.simd;
        out.push_str(&format!(
            "cmp.{} (M1, {s}) {pred} {}(0,0)<1;1,0> {}:d\n",
            cond.rel, cond.var, cond.imm
        ));
        let not = if cond.inverse { "!" } else { "" };
        format!("({not}{pred}{}) ", cond.control)
    }

    /// `depth`: loop nesting (the counter and predicate of a loop at that depth); `sub`:
    /// inside a subroutine (no kernel-level `ret` there).
    fn emit(&mut self, nodes: &[Node], depth: usize, sub: bool, out: &mut String) {
        let s = self.simd;
        for node in nodes {
            match node {
                Node::Work(0) => {
                    out.push_str(&format!(
                        "mul (M1, {s}) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3:d\n\
                         add (M1, {s}) ACC(0,0)<1> ACC(0,0)<1;1,0> X(0,0)<1;1,0>\n"
                    ));
                }
                Node::Work(k) => {
                    out.push_str(&format!(
                        "mul (M1, {s}) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3:d\n\
                         add (M1, {s}) ACC(0,0)<1> ACC(0,0)<1;1,0> {k}:d\n"
                    ));
                }
                Node::Mask(slot) => {
                    out.push_str(&format!(
                        "mov (M1_NM, 1) MASKS(0,{slot})<1> %ce0(0,0)<0;1,0>\n"
                    ));
                }
                Node::If {
                    cond,
                    form,
                    close,
                    then,
                    other,
                    jump_out,
                } => {
                    let pred = self.condition(cond, "P1", out);
                    let (else_label, end) = (self.label("ELSE"), self.label("END"));
                    let first = if other.is_some() { &else_label } else { &end };
                    out.push_str(&format!("{pred}goto {} {first}\n", self.form(*form)));
                    self.emit(then, depth, sub, out);
                    if *jump_out {
                        out.push_str(&format!("(P2) jmp (M1, 1) {end}\n"));
                    }
                    if let Some(other) = other {
                        out.push_str(&format!(
                            "goto {} {end}\n{else_label}:\n",
                            self.form(*close)
                        ));
                        self.emit(other, depth, sub, out);
                    }
                    out.push_str(&format!("{end}:\n"));
                }
                Node::Loop {
                    mask,
                    form,
                    body,
                    brk,
                } => {
                    // A counter and a loop predicate per nesting depth.
                    let level = depth;
                    let (start, exit) = (self.label("LOOP"), self.label("EXIT"));
                    out.push_str(&format!(
                        "and (M1, {s}) C{level}(0,0)<1> X(0,0)<1;1,0> {mask:#x}:d\n{start}:\n"
                    ));
                    self.emit(body, depth + 1, sub, out);
                    if let Some(brk) = brk {
                        let pred = self.condition(brk, "P2", out);
                        out.push_str(&format!("{pred}goto (M1, {s}) {exit}\n"));
                    }
                    out.push_str(&format!(
                        "add (M1, {s}) C{level}(0,0)<1> C{level}(0,0)<1;1,0> -1:d\n\
                         cmp.ge (M1, {s}) L{level} C{level}(0,0)<1;1,0> 0x0:d\n\
                         (L{level}) goto {} {start}\n{exit}:\n",
                        self.form(*form)
                    ));
                }
                Node::Ret(cond, scalar) if !sub => {
                    let pred = self.condition(cond, "P1", out);
                    let width = if *scalar { 1 } else { s };
                    out.push_str(&format!("{pred}ret (M1, {width})\n"));
                }
                Node::Ret(..) => {}
                Node::Call { cond, body, leak } => {
                    let name = self.label("sub_");
                    let pred = match cond {
                        Some(cond) => self.condition(cond, "P3", out),
                        None => String::new(),
                    };
                    out.push_str(&format!("{pred}call (M1, {s}) {name}\n"));
                    let mut text = format!(".function \"{name}\"\n{name}:\n");
                    self.emit(body, depth, true, &mut text);
                    match leak {
                        Some(leak) => {
                            let late = self.label("LATE");
                            let pred = self.condition(leak, "P3", &mut text);
                            text.push_str(&format!(
                                "{pred}goto (M1, {s}) {late}\nret (M1, 1)\n{late}:\nret (M1, {s})\n"
                            ));
                        }
                        None => text.push_str(&format!("ret (M1, {s})\n")),
                    }
                    self.subroutines.push(text);
                }
            }
        }
    }
}

fn kernel(simd: u32, tree: &[Node]) -> String {
    let mut out = String::new();
    for name in ["X", "ACC", "C0", "C1", "C2"] {
        out += &format!(".decl {name} v_type=G type=d num_elts={simd} align=GRF\n");
    }
    out += ".decl MASKS v_type=G type=ud num_elts=8 align=GRF\n";
    for name in ["P1", "P2", "P3", "L0", "L1", "L2"] {
        out += &format!(".decl {name} v_type=P num_elts={simd}\n");
        // Every predicate bit defined (uniform forms read lanes that may be off).
        out += &format!(
            "cmp.lt (M1_NM, {simd}) {name} X(0,0)<1;1,0> {}:d\n",
            name.len() as i32 - 3
        );
    }
    let mut writer = Writer {
        simd,
        forms: forms(simd),
        labels: 0,
        subroutines: Vec::new(),
    };
    writer.emit(tree, 0, false, &mut out);
    if !writer.subroutines.is_empty() {
        out += "ret (M1, 1)\n";
        out += &writer.subroutines.concat();
    }
    out
}

#[derive(Debug, Clone)]
struct Case {
    simd: u32,
    tree: Vec<Node>,
    /// Per work-item: its `X`.
    x: Vec<i32>,
    /// Per work-item: whether it is active at entry (empty: all).
    active: Vec<bool>,
}

const GROUPS: u32 = 2;
const THREADS: u32 = 2;

fn case() -> impl Strategy<Value = Case> {
    let items = (GROUPS * THREADS * 32) as usize;
    (
        prop::sample::select(vec![8u32, 16, 16, 32]),
        nodes(3),
        prop::collection::vec(-8i32..8, items),
        prop_oneof![
            3 => Just(Vec::new()),
            1 => prop::collection::vec(prop::bool::weighted(0.75), items),
        ],
    )
        .prop_map(|(simd, tree, x, active)| Case {
            simd,
            tree,
            x,
            active,
        })
}

/// Every thread's variables, or the trap.
type Outcome = Result<Vec<(String, Vec<u8>)>, String>;

fn run(src: &str, case: &Case, engine: Engine, tier: JitTier) -> Outcome {
    let options = LoadOptions::default().engine(engine).jit_tier(tier);
    let program = Program::from_text(src, &options).map_err(|e| format!("load: {e}"))?;
    let items = (GROUPS * THREADS * case.simd) as usize;
    let zeros = vec![0i32; items];
    let mut launch = Launch::new(&program)
        .simd(case.simd)
        .groups(GROUPS)
        .threads_per_group(THREADS)
        .fuel(1 << 18)
        .bind_vector("X", &case.x[..items])
        .bind_vector("ACC", &zeros)
        .bind_vector("C0", &zeros)
        .bind_vector("C1", &zeros)
        .bind_vector("C2", &zeros)
        .bind_elements("MASKS", &[0u32; 8]);
    if !case.active.is_empty() {
        launch = launch.active_lanes(&case.active[..items]);
    }
    let names = ["ACC", "C0", "C1", "C2", "MASKS"];
    for name in names {
        launch = launch.capture(name);
    }
    let result = match launch.run() {
        Ok(r) => r,
        Err(LaunchError::Trap(t)) => return Err(format!("trap: {t}")),
        Err(e) => return Err(format!("launch: {e}")),
    };
    let mut out = Vec::new();
    for thread in 0..result.threads() {
        for name in names {
            let (bytes, _) = result.thread_bytes(name, thread).ok_or("not captured")?;
            out.push((format!("{name}@{thread}"), bytes.to_vec()));
        }
    }
    Ok(out)
}

/// Whether the tree holds a construct that may trap on purpose.
fn may_trap(nodes: &[Node]) -> bool {
    nodes.iter().any(|node| match node {
        Node::If {
            jump_out,
            then,
            other,
            ..
        } => *jump_out || may_trap(then) || other.as_deref().is_some_and(may_trap),
        Node::Loop { body, .. } => may_trap(body),
        Node::Call { leak, body, .. } => leak.is_some() || may_trap(body),
        _ => false,
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn divergent_control_flow_matches_the_interpreter(case in case()) {
        let src = kernel(case.simd, &case.tree);
        let interpreted = run(&src, &case, Engine::Interpreter, JitTier::Adaptive);
        // Every generated kernel loads.
        let loads = !matches!(&interpreted, Err(e) if e.starts_with("load"));
        prop_assert!(loads, "{:?}\nkernel:\n{}", interpreted, src);
        // Kernels without a construct that traps on purpose run to their end (a trap on both
        // sides would compare equal and test less).
        if !may_trap(&case.tree) {
            prop_assert!(interpreted.is_ok(), "{:?}\nkernel:\n{}", interpreted, src);
        }
        for tier in [JitTier::Quick, JitTier::Optimized] {
            let compiled = run(&src, &case, Engine::Jit, tier);
            prop_assert_eq!(&interpreted, &compiled, "{:?} code, kernel:\n{}", tier, src);
        }
    }
}

/// A loop of `X` trips per lane (at least one) with an if/else on the parity of `X` inside:
/// `ACC` sums `K` over the trips of an even `X`, 1000 per trip of an odd one, plus 1.
const DIVERGENT_LOOP: &str = "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl K v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
mov (M1, 16) K(0,0)<1> 0x0:d
mov (M1, 16) ACC(0,0)<1> 0x0:d
LOOP:
and (M1, 16) T(0,0)<1> X(0,0)<1;1,0> 0x1:d
cmp.eq (M1, 16) P2 T(0,0)<1;1,0> 0x0:d
(P2) goto (M1, 16) EVEN
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3e8:d
goto (M1, 16) NEXT
EVEN:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
NEXT:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> X(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x1:d
";

/// Independently computed: an if/else on the parity of each lane's `X` (divergent) inside a
/// loop of `X` trips per lane, whose lanes leave one by one (parked after the loop).
#[test]
fn a_divergent_loop_computes_each_lane_on_every_engine() {
    let src = DIVERGENT_LOOP;
    let x: Vec<i32> = (0..16).map(|i| (i * 7) % 13 + 1).collect();
    let expected: Vec<i32> = x
        .iter()
        .map(|&n| {
            let trips = n.max(1);
            let per_trip = |k: i32| if n % 2 == 0 { k } else { 1000 };
            (0..trips).map(per_trip).sum::<i32>() + 1
        })
        .collect();
    for (engine, compiled, program) in common::on_every_engine(src) {
        let result = Launch::new(&program)
            .simd(16)
            .bind_vector("X", &x)
            .capture("ACC")
            .run()
            .unwrap();
        assert_eq!(result.vector::<i32>("ACC").unwrap(), expected, "{engine}");
        if compiled {
            let report = program.jit_report();
            let gotos: Vec<bool> = report
                .instructions
                .iter()
                .filter(|(text, _)| text.contains("goto"))
                .map(|(_, native)| *native)
                .collect();
            assert_eq!(gotos, [true; 3], "{report}");
        }
    }
}

#[test]
fn a_scalar_ret_ends_the_thread_on_every_engine() {
    // The first `ret` ends a thread whose lane 0 has a negative X (the others' X does not
    // matter); the second ends every other thread before the last add.
    let src = "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
mov (M1, 16) ACC(0,0)<1> 0x1:d
cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 0x0:d
(P1) ret (M1, 1)
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x10:d
ret (M1, 1)
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x100:d
";
    // Thread 0: lane 0 negative; thread 1: lane 0 positive, the others negative.
    let x: Vec<i32> = (0..32)
        .map(|item| match item {
            0 => -5,
            16 => 5,
            _ => -1,
        })
        .collect();
    let expected: Vec<i32> = (0..32).map(|item| if item < 16 { 1 } else { 17 }).collect();
    for (engine, compiled, program) in common::on_every_engine(src) {
        let result = Launch::new(&program)
            .simd(16)
            .groups(2)
            .bind_vector("X", &x)
            .capture("ACC")
            .run()
            .unwrap();
        assert_eq!(result.vector::<i32>("ACC").unwrap(), expected, "{engine}");
        if compiled {
            let report = program.jit_report();
            assert!(report.instructions.iter().all(|(_, n)| *n), "{report}");
        }
    }
}

/// Compiled code checks the fuel where loops close and on entry, for the longest run of
/// blocks to the next check: with any amount of fuel, a launch of a loop with an if/else
/// inside ends where the interpreter's does (the same trap, instruction and thread, or the
/// same results after the same number of steps).
#[test]
fn the_fuel_runs_out_where_the_interpreter_says_in_a_divergent_loop() {
    let src = DIVERGENT_LOOP;
    // Two threads; lanes run 1 to 6 trips.
    let x: Vec<i32> = (0..32).map(|item| 1 + (item * 7 % 6)).collect();
    // (One worker: with more, which thread the shared fuel runs out in depends on timing.)
    let one_worker = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let launch = |program: &Program, fuel: u64| {
        let launch = Launch::new(program)
            .simd(16)
            .groups(2)
            .fuel(fuel)
            .bind_vector("X", &x)
            .capture("ACC");
        one_worker.install(|| launch.run())
    };
    let outcome = |program: &Program, fuel: u64| match launch(program, fuel) {
        Ok(result) => Ok((result.steps(), result.vector::<i32>("ACC").unwrap())),
        Err(LaunchError::Trap(trap)) => Err((trap.group, trap.thread, trap.pc, trap.kind)),
        Err(other) => panic!("fuel {fuel}: {other}"),
    };
    let reference = common::interpreted(src);
    let engines = common::on_every_engine(src);
    let mut finished = 0;
    for fuel in 1..=140 {
        let expected = outcome(&reference, fuel);
        finished += usize::from(expected.is_ok());
        for (engine, _, program) in &engines {
            assert_eq!(outcome(program, fuel), expected, "{engine}, fuel {fuel}");
        }
    }
    // (The last amounts are enough for both threads.)
    assert!(finished > 0 && finished < 140, "{finished}");
}

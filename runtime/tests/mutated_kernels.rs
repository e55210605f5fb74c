//! Valid kernels with random damage either fail to load with an error or run to completion or
//! a trap under a small fuel budget; nothing panics.

use proptest::prelude::*;
use visa_isa::ast::ElemType;
use visa_runtime::{Buffer, Launch, LaunchError, LoadOptions, Program, Svm, TrapKind};

/// Kernels of our own that load and run as they are (checked below).
const OWN: &[&str] = &[
    "\
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=f num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
svm_gather.4.1 (M1, 16) %0.0 X.0
cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 0x8:d
(P1) add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> %2(0,0)<0;1,0>
mov (M1, 16) Y(0,0)<1> X(0,0)<1;1,0>
mul (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x40000000:f
mov (M1, 16) X(0,0)<1> Y(0,0)<1;1,0>
svm_scatter.4.1 (M1, 16) %1.0 X.0
",
    "\
.decl N v_type=G type=d num_elts=16 align=GRF
.decl A0 v_type=A num_elts=1
.decl P1 v_type=P num_elts=16
mov (M1, 16) N(0,0)<1> 0x0:d
LOOP:
add (M1, 16) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 N(0,0)<1;1,0> 0x5:d
(P1) jmp (M1, 1) LOOP
addr_add (M1_NM, 1) A0(0)<1> &N[0] 0x0:uw
mov (M1, 8) N(0,0)<1> r[A0(0), 0]<8;8,1>:d
oword_st (2) T6 0x0:ud N.0
",
];

fn kernels() -> Vec<String> {
    let dir = visa_testutil::shared_or("asm-corpus/kernels", "mutating the built-in kernels only");
    let mut texts: Vec<String> = dir
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        })
        .unwrap_or_default();
    texts.extend(OWN.iter().map(|s| s.to_string()));
    texts
}

fn options() -> LoadOptions {
    LoadOptions::default()
        .param("%0", ElemType::Uq, 16)
        .param("%1", ElemType::Uq, 16)
        .param("%2", ElemType::D, 16)
}

/// Loads and runs `src` (2 groups of SIMD16) with pointers into two 32-element arrays and a
/// bound T6.
fn run(src: &str, fuel: u64) -> Option<Result<(), LaunchError>> {
    let program = Program::from_text(src, &options()).ok()?;
    let mut svm = Svm::new();
    let input = svm.alloc_from(&(0..32i32).collect::<Vec<_>>());
    let output = svm.alloc(128);
    let surface = Buffer::zeroed(64);
    let mut launch = Launch::new(&program)
        .simd(16)
        .groups(2)
        .fuel(fuel)
        .svm(&svm)
        .bind_svm_lanes("%0", input, 4)
        .bind_svm_lanes("%1", output, 4)
        .bind_scalar("%2", 3i32);
    for name in program.layout().surfaces() {
        launch = launch.bind_surface(name, &surface);
    }
    Some(launch.run().map(|_| ()))
}

#[test]
fn the_undamaged_kernels_run() {
    for src in OWN {
        assert_eq!(
            run(src, 10_000).map(|r| r.map_err(|e| e.to_string())),
            Some(Ok(())),
            "{src}"
        );
    }
    // The budget is enforced on the looping kernel.
    match run(OWN[1], 8) {
        Some(Err(LaunchError::Trap(t))) => assert_eq!(t.kind, TrapKind::OutOfFuel(8)),
        other => panic!("{other:?}"),
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    FlipByte {
        at: usize,
        value: u8,
    },
    Truncate {
        at: usize,
    },
    SwapLines {
        a: usize,
        b: usize,
    },
    DeleteLine {
        at: usize,
    },
    DuplicateLine {
        at: usize,
    },
    /// Replaces one decimal digit, changing a count, size, offset or immediate.
    ChangeDigit {
        at: usize,
        digit: u8,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Mutation::FlipByte { at, value }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        1 => any::<usize>().prop_map(|at| Mutation::DeleteLine { at }),
        1 => any::<usize>().prop_map(|at| Mutation::DuplicateLine { at }),
        3 => (any::<usize>(), 0u8..10).prop_map(|(at, digit)| Mutation::ChangeDigit { at, digit }),
    ]
}

fn apply(src: &str, mutation: &Mutation) -> String {
    let mut bytes = src.as_bytes().to_vec();
    let mut lines: Vec<&str> = src.split('\n').collect();
    let n = lines.len();
    match *mutation {
        Mutation::FlipByte { at, value } => {
            if let Some(b) = bytes.get_mut(at % src.len().max(1)) {
                *b = value;
            }
        }
        Mutation::Truncate { at } => bytes.truncate(at % (bytes.len() + 1)),
        Mutation::ChangeDigit { at, digit } => {
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i].is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                bytes[digits[at % digits.len()]] = b'0' + digit;
            }
        }
        Mutation::SwapLines { a, b } => {
            lines.swap(a % n, b % n);
            return lines.join("\n");
        }
        Mutation::DeleteLine { at } => {
            lines.remove(at % n);
            return lines.join("\n");
        }
        Mutation::DuplicateLine { at } => {
            lines.insert(at % n, lines[at % n]);
            return lines.join("\n");
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn damaged_kernels_load_or_fail_and_run_or_trap(
        seed in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let texts = kernels();
        let mut src = texts[seed % texts.len()].clone();
        for m in &mutations {
            src = apply(&src, m);
            // Any outcome but a panic is acceptable.
            let _ = run(&src, 2_000);
        }
    }
}

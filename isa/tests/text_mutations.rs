//! Whole assembly texts with damage (byte flips, truncation, line shuffles, lost indentation,
//! deleted and duplicated lines) never make the parser, checker or printer panic; what parses
//! prints to text that parses again and prints identically.

use proptest::prelude::*;
use visa_isa::text;

/// A kernel of our own, used with the shared ones (and alone when ../shared is absent).
const OWN_KERNEL: &str = "\
.version 3.6
.kernel \"own\"
.decl X v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl A0 v_type=A num_elts=1
{
    .decl T v_type=G type=f num_elts=8 align=hword
    mov (M1, 16) X(0,0)<1> 0x1:d
    cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 0x4:d
    (P1) add.sat (M1, 16) X(0,0)<1> (-)X(0,0)<16;16,1> 0x2:w
    addr_add (M1_NM, 1) A0(0)<1> &X[4] 0x10:uw
    mov (M1, 8) T(0,0)<1> r[A0(0), 0]<8;8,1>:f
}
LOOP:
    (!P1.any) jmp (M1, 1) LOOP
    svm_gather.4.1 (M1, 16) %0.0 X.0
";

fn kernels() -> Vec<String> {
    let dir = visa_testutil::shared_or("asm-corpus/kernels", "mutating the built-in kernel only");
    let mut texts: Vec<String> = dir
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        })
        .unwrap_or_default();
    texts.push(OWN_KERNEL.to_string());
    texts
}

fn exercise(src: &str) -> Result<(), TestCaseError> {
    if let Ok(m) = text::parse(src) {
        let _ = text::check(&m);
        let printed = text::format_module(&m);
        match text::parse(&printed) {
            Ok(again) => prop_assert_eq!(text::format_module(&again), printed),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "printed form does not parse: {}\n{printed}",
                    e[0]
                )));
            }
        }
    }
    for line in src.lines() {
        let _ = text::parse_instruction(line);
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Mutation {
    FlipByte { at: usize, value: u8 },
    Truncate { at: usize },
    SwapLines { a: usize, b: usize },
    RemoveIndentation,
    JoinLines { at: usize },
    DeleteLine { at: usize },
    DuplicateLine { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Mutation::FlipByte { at, value }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        Just(Mutation::RemoveIndentation),
        any::<usize>().prop_map(|at| Mutation::JoinLines { at }),
        any::<usize>().prop_map(|at| Mutation::DeleteLine { at }),
        any::<usize>().prop_map(|at| Mutation::DuplicateLine { at }),
    ]
}

fn apply(src: &str, mutation: &Mutation) -> String {
    let mut bytes = src.as_bytes().to_vec();
    let mut lines: Vec<String> = src.split('\n').map(str::to_string).collect();
    let n = lines.len();
    match *mutation {
        Mutation::FlipByte { at, value } => {
            if let Some(b) = bytes.get_mut(at % src.len().max(1)) {
                *b = value;
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Mutation::Truncate { at } => {
            bytes.truncate(at % (bytes.len() + 1));
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Mutation::SwapLines { a, b } => lines.swap(a % n, b % n),
        Mutation::RemoveIndentation => {
            for line in &mut lines {
                *line = line.trim_start().to_string();
            }
        }
        Mutation::JoinLines { at } if n > 1 => {
            let next = lines.remove(at % (n - 1) + 1);
            lines[at % (n - 1)].push_str(&next);
        }
        Mutation::DeleteLine { at } => {
            lines.remove(at % n);
        }
        Mutation::DuplicateLine { at } => {
            let line = lines[at % n].clone();
            lines.insert(at % n, line);
        }
        Mutation::JoinLines { .. } => {}
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn damaged_kernels_never_panic(
        seed in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let texts = kernels();
        let mut src = texts[seed % texts.len()].clone();
        exercise(&src)?;
        for m in &mutations {
            src = apply(&src, m);
            exercise(&src)?;
        }
    }
}

#[test]
fn the_undamaged_kernels_parse() {
    for src in kernels() {
        if let Err(e) = text::parse(&src) {
            panic!("{}\n{src}", e[0]);
        }
    }
}

//! Property test: mutated seed documents (byte flips, truncation, line shuffles, indentation
//! removal) never make the parser panic, and every diagnostic points inside the file.

use proptest::prelude::*;
use visa_codegen::parse_document;

/// A document of our own, used when ../shared is absent.
const FALLBACK: &str = "## Opcode\n\n  SVM = 0x4e\n  GATHER = 0x03\n\n## Format\n\n| | | |\n| --- | --- | --- |\n| 0x4e(SVM) | 0x03(GATHER) | Exec_size | Dst\\* |\n\n## Semantics\n```\n    dst = *addr;\n```\n## Description\n\n    Loads.\n\n- **Exec_size(ub):** size\n  - Bit[2..0]: size\n    - 0b000:  1 element\n    - {XEHP+}0b001:  2 elements\n- **Dst(raw_operand):** out. Must have type UD,D.{PVC+}Q\n\n#### Properties\n- **Supported Types:** D,UD.{XEHP+}BF\n\n## Text\n```\n    [(<P>)] SVM_GATHER.<block_size>[.sat] (<exec_size>) <dst> [<src>]\n```\n";

fn seeds() -> Vec<String> {
    let dir = visa_testutil::shared_or("seeds", "mutating the built-in document only");
    let mut texts: Vec<String> = dir
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter_map(|p| std::fs::read(p).ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .collect()
        })
        .unwrap_or_default();
    texts.push(FALLBACK.to_string());
    texts
}

/// Parses and checks that every diagnostic is located inside the text.
fn check(text: &str) {
    let parsed = parse_document("m.md", text);
    let line_count = text.split('\n').count().max(1) as u32;
    for d in &parsed.diagnostics {
        assert!(
            d.loc.line >= 1 && d.loc.line <= line_count,
            "{d} (of {line_count} lines)"
        );
        assert!(d.loc.col >= 1, "{d}");
        assert!(d.to_string().starts_with("m.md:"), "{d}");
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    FlipByte { at: usize, value: u8 },
    Truncate { at: usize },
    SwapLines { a: usize, b: usize },
    RemoveIndentation { every: usize },
    DeleteLine { at: usize },
    DuplicateLine { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Mutation::FlipByte { at, value }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        (1usize..4).prop_map(|every| Mutation::RemoveIndentation { every }),
        any::<usize>().prop_map(|at| Mutation::DeleteLine { at }),
        any::<usize>().prop_map(|at| Mutation::DuplicateLine { at }),
    ]
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len().max(1);
    match *mutation {
        Mutation::FlipByte { at, value } => {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] = value;
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Mutation::Truncate { at } => {
            bytes.truncate(at % (bytes.len() + 1));
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Mutation::SwapLines { a, b } => lines.swap(a % n, b % n),
        Mutation::RemoveIndentation { every } => {
            for (i, line) in lines.iter_mut().enumerate() {
                if i % every == 0 {
                    *line = line.trim_start();
                }
            }
        }
        Mutation::DeleteLine { at } => {
            lines.remove(at % n);
        }
        Mutation::DuplicateLine { at } => {
            let line = lines[at % n];
            lines.insert(at % n, line);
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn mutated_seeds_never_panic(
        seed in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let texts = seeds();
        let mut text = texts[seed % texts.len()].clone();
        for m in &mutations {
            text = apply(&text, m);
            check(&text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(?s)[#|\\-*`{}<>\\[\\]().:0-9a-zA-Z \n\t\r\u{feff}\u{fffd}]{0,400}") {
        check(&text);
        check(&format!("## Opcode\nX = 0x1\n## Format\n{text}"));
        check(&format!("## Opcode\nX = 0x1\n## Description\n- **A(ub):** a\n{text}"));
        check(&format!("## Opcode\nX = 0x1\n## Text\n{text}"));
    }
}

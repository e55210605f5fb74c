//! No input makes the parser, formatter or checker panic: random text, and corpus lines with
//! random edits.

use proptest::prelude::*;
use visa_isa::text;

const SEEDS: &[&str] = &[
    "(!P1.any) add.sat (M1_NM, 16) V1(0,0)<1> (-abs)V2(0, 0)<1; 1, 0> 0x1:w",
    "mov (M1, 16) r[A0(0), 8]<8;8,1>:f r[A0(0), 0]<4,1>:d",
    "addr_add (M1_NM, 1) A1(0)<1> &V3[4] 0x10:uw",
    "cmp.lt (M1, 16) P1 V1(0,0)<1;1,0> 1.5e+3:f",
    ".decl V1 v_type=G type=d num_elts=16 align=GRF alias=<V0, 4> attrs={A, B=1}",
    "svm_gather.4.1 (M1, 16) %0.0 tmp.0",
    "{\n.decl P1 v_type=P num_elts=8\n(P1) jmp (M1, 1) L0\n}\nL0:\n/* c */ // d",
    "// run: visa run k\n\n\n{ /* a\n b */ L1: /* c */ mov (M1, 1) V1(0,0)<1> 0x1:d // d\n\n} // e\n",
    ".version 3.6\n.kernel \"k\"\n.input T6 offset=32 size=4\n.kernel_attr SimdSize=16",
];

/// Characters the edits insert: the syntax's punctuation, digits and a few letters.
const ALPHABET: &[u8] = b" ()<>;,:.[]&!-~{}=\"%$0123456789xabefAMPVr_/*\n";

fn exercise(src: &str) {
    if let Ok(m) = text::parse(src) {
        let printed = text::format_module(&m);
        let _ = text::check(&m);
        match text::parse(&printed) {
            Ok(again) => assert_eq!(
                text::format_module(&again),
                printed,
                "printing is not stable"
            ),
            Err(e) => panic!("printed form does not parse: {printed}: {}", e[0]),
        }
        // Printing with comments and blank lines: the same statements, the same comments in
        // the same order, and stable.
        let kept = text::format_source(src)
            .unwrap_or_else(|e| panic!("parses but does not format: {src:?}: {}", e[0]));
        let again = text::parse(&kept)
            .unwrap_or_else(|e| panic!("formatted form does not parse: {kept:?}: {}", e[0]));
        assert_eq!(text::format_module(&again), printed, "{src:?} -> {kept:?}");
        let texts = |s: &str| -> Vec<String> {
            text::parse_comments(s)
                .unwrap_or_else(|e| panic!("{s:?}: {e}"))
                .into_iter()
                .map(|c| c.text)
                .collect()
        };
        assert_eq!(texts(&kept), texts(src), "{src:?} -> {kept:?}");
        assert_eq!(
            text::format_source(&kept).ok().as_deref(),
            Some(kept.as_str()),
            "formatting is not stable: {src:?}"
        );
    }
    let _ = text::parse_instruction(src);
    let _ = text::parse_operand(src);
}

fn mutated() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(SEEDS),
        proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    )
        .prop_map(|(seed, edits)| {
            let mut chars: Vec<char> = seed.chars().collect();
            for (at, byte, op) in edits {
                let i = at.index(chars.len() + 1);
                let c = char::from(ALPHABET[usize::from(byte) % ALPHABET.len()]);
                match op {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ if i < chars.len() => chars[i] = c,
                    _ => chars.push(c),
                }
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_text_never_panics(src in "\\PC{0,80}") {
        exercise(&src);
    }

    #[test]
    fn edited_lines_never_panic(src in mutated()) {
        exercise(&src);
    }
}

//! `text::format_source`: canonical statements with the text's comments and blank lines kept.

use visa_isa::text;

const INPUT: &str = "\u{feff}// Run: visa run this
// second line


.decl V1 v_type=G type=d num_elts=16 align=GRF // a comment
.decl P1 v_type=P num_elts=16
{
/* block */ (P1.ANY) ADD(16) V1(0, 0)<1> V1(0, 0)<1; 1, 0> 1:w


   // before close
}
LOOP: /* after label */ mov (M1, 16) V1(0,0)<1> 0x0:d /* multi
   line */ cmp.LT (M1_NM, 16) P1 V1(0,0)<1;1,0> -1:d
/* own */ /* two */

// end   
";

/// Written by hand from the rules: standalone comments on lines of their own indented as the
/// next statement, trailing ones kept on their line, runs of blank lines as one, no BOM.
const EXPECTED: &str = "// Run: visa run this
// second line

.decl V1 v_type=G type=d num_elts=16 align=GRF // a comment
.decl P1 v_type=P num_elts=16
{
        /* block */
        (P1.any) add (M1, 16) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:w

        // before close
}
LOOP: /* after label */
    mov (M1, 16) V1(0,0)<1> 0x0:d /* multi
   line */
    cmp.lt (M1_NM, 16) P1 V1(0,0)<1;1,0> 0xffffffff:d
/* own */ /* two */

// end
";

#[test]
fn comments_and_blank_lines_are_kept_in_place() {
    let formatted = text::format_source(INPUT).unwrap_or_else(|e| panic!("{}", e[0]));
    assert_eq!(formatted, EXPECTED);
    // Stable, and the statements are those `format_module` prints.
    assert_eq!(
        text::format_source(EXPECTED).ok().as_deref(),
        Some(EXPECTED)
    );
    let module = text::parse(INPUT).unwrap_or_else(|e| panic!("{}", e[0]));
    let stripped: String = EXPECTED
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        text::format_module(&text::parse(&stripped).unwrap_or_else(|e| panic!("{}", e[0]))),
        text::format_module(&module)
    );
}

#[test]
fn comments_have_their_positions() {
    let comments = text::parse_comments("\u{feff}a /* x\ny */ b // é\n\"//\" /**/").unwrap();
    let got: Vec<(u32, u32, u32, &str)> = comments
        .iter()
        .map(|c| (c.span.line, c.span.col, c.end_line, c.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (1, 3, 2, "/* x\ny */"),
            (2, 8, 2, "// é"),
            (3, 6, 3, "/**/")
        ]
    );
}

#[test]
fn examples_keep_their_run_instructions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "visaasm") {
            continue;
        }
        seen += 1;
        let src = std::fs::read_to_string(&path).unwrap();
        let formatted = text::format_source(&src).unwrap_or_else(|e| panic!("{}", e[0]));
        let texts = |s: &str| -> Vec<String> {
            text::parse_comments(s)
                .unwrap()
                .into_iter()
                .map(|c| c.text)
                .collect()
        };
        let comments = texts(&src);
        assert!(
            comments.iter().any(|c| c.contains("visa run")),
            "{}",
            path.display()
        );
        assert_eq!(texts(&formatted), comments, "{}", path.display());
        // The first lines (the run instructions) are printed as written.
        let first = src.lines().next().unwrap();
        assert_eq!(formatted.lines().next(), Some(first), "{}", path.display());
    }
    assert!(seen >= 2, "examples/ has kernels");
}

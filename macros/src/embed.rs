//! The checked module as data: its canonical assembly text (one statement per line, printed by
//! the one formatter of `visa_isa::text`) and a source map putting back what that text does not
//! keep of the macro input (spans, execution masks left out), which `visa::Kernel` decodes once
//! at run time.
//!
//! A string literal and an integer array cost rustc almost nothing to compile, unlike a Rust
//! expression that rebuilds every AST node.

use visa_isa::ast::Module;

/// A module as `visa::KernelText` stores it.
pub struct Embedded {
    /// The canonical text: statement `i` is on line `i + 1`.
    pub text: String,
    /// What the text does not keep (`visa_isa::text::source_map`): the positions of the macro
    /// input (statements, operands, declaration parts) and the execution masks left out. The
    /// parsed text has the positions of the canonical text; these put back the macro input's,
    /// so runtime errors name the line the user wrote and the module is exactly the one
    /// checked.
    pub source_map: Vec<u8>,
}

/// The module as text and source map, if parsing that text and applying the map gives back
/// exactly `module` (checked here so that the run-time decoding reproduces what was checked).
pub fn embed(module: &Module) -> Option<Embedded> {
    let text = visa_isa::text::format_module(module);
    let mut reparsed = visa_isa::text::parse(&text).ok()?;
    let source_map = visa_isa::text::source_map(module)?;
    visa_isa::text::apply_source_map(&mut reparsed, &source_map)?;
    (reparsed == *module).then_some(Embedded { text, source_map })
}

#[cfg(test)]
mod tests {
    use super::*;
    use visa_isa::ast::{FieldValue, Span, StmtKind};
    use visa_isa::text::{apply_source_map, source_map_numbers};

    fn numbers(embedded: &Embedded) -> Vec<u32> {
        source_map_numbers(&embedded.source_map).expect("a well-formed map")
    }

    fn parsed(src: &str) -> Module {
        visa_isa::text::parse(src).unwrap_or_else(|e| panic!("test source does not parse: {e:?}"))
    }

    #[test]
    fn text_and_spans_reproduce_the_module() {
        // Two statements on one line, a predicate (the instruction span differs from the
        // statement span) and indentation the formatter does not keep.
        let module = parsed(
            ".decl A v_type=G type=d num_elts=8 align=GRF\n\
             .decl P1 v_type=P num_elts=8\n\
             \n\
             L0:   add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n\
             \x20     (P1) sel (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x2:d\n",
        );
        let embedded = embed(&module).expect("the formatter reproduces this module");
        assert_eq!(embedded.text.lines().count(), module.stmts.len());
        let mut back = parsed(&embedded.text);
        assert_ne!(back, module, "the canonical text has other spans");
        apply_source_map(&mut back, &embedded.source_map).expect("the map fits");
        assert_eq!(back, module);
        // The declarations: statement span, then the name, `type=`, `num_elts=` and `alias=`
        // positions (line 0: not written).
        assert_eq!(
            &numbers(&embedded)[..20],
            &[
                1, 1, 1, 7, 1, 18, 1, 25, 0, 0, 2, 1, 2, 7, 0, 0, 2, 19, 0, 0
            ]
        );
        // The label and the `add` on line 4: statement spans, then the `add`'s own span, no
        // unwritten mask, and where each of its fields (execution size, predicate, dst, src0,
        // src1) is written.
        assert_eq!(&numbers(&embedded)[20..22], &[4, 1]);
        assert_eq!(&numbers(&embedded)[22..27], &[4, 7, 4, 7, 0]);
        assert_eq!(
            &numbers(&embedded)[27..37],
            &[4, 11, 0, 0, 4, 19, 4, 29, 4, 43]
        );
        let sel = module.stmts.last().map(|s| s.span);
        assert_eq!(sel, Some(Span::new(5, 7)));
    }

    #[test]
    fn execution_masks_left_out_are_kept() {
        let module = parsed("cmp.gt (8) P2 V2(0,0)<8;8,1> 1:ud\n");
        let embedded = embed(&module).expect("reproduced");
        assert_eq!(
            embedded.text.trim(),
            "cmp.gt (M1, 8) P2 V2(0,0)<8;8,1> 0x1:ud"
        );
        // Statement and instruction spans, the unwritten mask, then the fields: `(8)` at
        // column 8, no predicate, `P2` at 12, `V2...` at 15, `1:ud` at 30.
        assert_eq!(
            numbers(&embedded),
            [1, 1, 1, 1, 1, 1, 8, 0, 0, 1, 12, 1, 15, 1, 30]
        );
    }

    #[test]
    fn source_maps_that_do_not_fit_are_refused() {
        let mut module = parsed("mov (M1, 8) A(0,0)<1> 0x1:d\n");
        assert_eq!(apply_source_map(&mut module, &[1, 1, 1, 1]), None);
        assert_eq!(apply_source_map(&mut module, &[1, 1, 1, 1, 0, 2]), None);
        // One execution-size field: a second bit has nothing to mark.
        assert_eq!(apply_source_map(&mut module, &[1, 1, 1, 1, 2]), None);
        // Four fields: four positions each, no more, no fewer.
        let fields = [3, 10, 0, 0, 3, 17, 3, 27];
        let map = [&[3, 4, 3, 9, 1][..], &fields].concat();
        assert_eq!(apply_source_map(&mut module, &map[..map.len() - 2]), None);
        assert_eq!(
            apply_source_map(&mut module, &[&map[..], &[0]].concat()),
            None
        );
        assert_eq!(apply_source_map(&mut module, &map), Some(()));
        assert_eq!(module.stmts[0].span, Span::new(3, 4));
        let StmtKind::Instr(instr) = &module.stmts[0].kind else {
            panic!("not an instruction: {:?}", module.stmts[0]);
        };
        assert_eq!(instr.span, Span::new(3, 9));
        assert_eq!(instr.field_span(0), Some(Span::new(3, 10)));
        assert_eq!(instr.field_span(1), None);
        assert_eq!(instr.field_span(3), Some(Span::new(3, 27)));
        assert!(
            matches!(instr.fields[0], FieldValue::Exec(e) if !e.mask_written),
            "{instr:?}"
        );
    }

    /// Every corpus line and kernel that parses is stored as text (a module the formatter could
    /// not reproduce would be a compile error of `isa!`).
    #[test]
    fn corpus_modules_are_stored_as_text() {
        let Some(corpus) = visa_testutil::shared("asm-corpus") else {
            return;
        };
        let mut sources: Vec<(String, String)> = Vec::new();
        for name in [
            "igc-printed.txt",
            "doc-examples.txt",
            "appendix-examples.txt",
        ] {
            let text = std::fs::read_to_string(corpus.join(name))
                .unwrap_or_else(|e| panic!("reading {name}: {e}"));
            sources.extend(
                text.lines()
                    .filter(|l| !l.trim_start().starts_with('#'))
                    .enumerate()
                    .map(|(i, l)| (format!("{name}:{}", i + 1), l.to_string())),
            );
        }
        let kernels = std::fs::read_dir(corpus.join("kernels"))
            .unwrap_or_else(|e| panic!("listing kernels: {e}"));
        for entry in kernels.flatten() {
            let path = entry.path();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            sources.push((path.display().to_string(), text));
        }
        let mut parsed_count = 0;
        let mut failures = Vec::new();
        for (origin, text) in &sources {
            let Ok(module) = visa_isa::text::parse(text) else {
                continue;
            };
            parsed_count += 1;
            if embed(&module).is_none() {
                failures.push(origin.clone());
            }
        }
        assert!(
            parsed_count > 500,
            "only {parsed_count} corpus sources parse"
        );
        assert!(failures.is_empty(), "not stored as text: {failures:?}");
    }
}

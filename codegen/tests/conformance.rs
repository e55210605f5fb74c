//! Conformance over the 106 upstream opcode documents in ../shared/visa-docs/instructions.
//!
//! Every document must give a model, with only the warnings listed here, and facts are checked
//! against the raw text with independent, simple string scans.

use std::path::PathBuf;

use visa_codegen::model::Document;
use visa_codegen::parse_document;

/// The upstream documents that give warnings, with how many: constructs the parser keeps as
/// text (templates outside the syntax grammar, an unknown type token) and sections they lack.
const EXPECTED_WARNINGS: &[(&str, usize)] = &[
    ("BARRIER.md", 1),     // empty Format section
    ("CACHE_FLUSH.md", 1), // empty Format section
    ("FENCE.md", 1),       // a template with `.{E?I?S?C?R?L1?}`
    ("LSC_UNTYPED.md", 8), // templates with `[.CachingL1 [ .CachingL3]` and `. `
    ("SVM.md", 2),         // the umbrella document: type `unknown`, no Text section
    ("SWITCHJMP.md", 1),   // `Label(Num_labels-1)(unknown)`
];

fn instructions_dir() -> Option<PathBuf> {
    visa_testutil::shared("visa-docs/instructions")
}

fn corpus() -> Option<Vec<(String, String, Document)>> {
    let dir = instructions_dir()?;
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    paths.sort();
    for path in paths {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let parsed = parse_document(&name, &text);
        let expected = EXPECTED_WARNINGS
            .iter()
            .find(|(file, _)| *file == name)
            .map_or(0, |(_, n)| *n);
        let shown: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), expected, "{name}: {shown:#?}");
        assert!(!parsed.has_errors(), "{name}: {shown:#?}");
        out.push((name, text, parsed.document.expect("a document")));
    }
    Some(out)
}

#[test]
fn all_documents_parse_without_errors() {
    let Some(docs) = corpus() else { return };
    assert_eq!(docs.len(), 106);
}

/// `NAME = 0x..` lines of the Opcode section, read with plain string operations.
fn declared_opcodes(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let mut in_opcode = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') {
            in_opcode = t == "## Opcode";
            continue;
        }
        if let Some((name, value)) = t.split_once(" = 0x").filter(|_| in_opcode) {
            out.push((
                name.to_string(),
                u32::from_str_radix(value.trim(), 16).unwrap(),
            ));
        }
    }
    out
}

#[test]
fn opcode_values_match_the_declarations() {
    let Some(docs) = corpus() else { return };
    for (name, text, doc) in &docs {
        let parsed: Vec<(String, u32)> = doc
            .opcodes
            .iter()
            .map(|o| (o.name.clone(), o.value))
            .collect();
        let declared = declared_opcodes(text);
        assert!(!declared.is_empty(), "{name}");
        assert_eq!(parsed, declared, "{name}");
        for table in &doc.formats {
            let cells: Vec<(String, u32)> = table
                .opcodes
                .iter()
                .map(|o| (o.name.clone(), o.value))
                .collect();
            assert_eq!(cells, declared, "{name}: Format table opcode cells");
        }
    }
    // Spot checks of well-known values.
    let value = |file: &str| {
        docs.iter()
            .find(|d| d.0 == file)
            .map(|d| d.2.opcodes.last().unwrap().value)
    };
    assert_eq!(value("ADD.md"), Some(0x01));
    assert_eq!(value("SVM_GATHER.md"), Some(0x03));
    assert_eq!(value("LSC_UNTYPED.md"), Some(0x89));
}

#[test]
fn every_bit_line_becomes_a_bitfield() {
    let Some(docs) = corpus() else { return };
    let mut total = 0;
    for (name, text, doc) in &docs {
        let bit_lines = text.lines().filter(|l| l.contains("Bit[")).count();
        let parsed: usize = doc.fields.iter().map(|f| f.bitfields.len()).sum();
        assert_eq!(parsed, bit_lines, "{name}");
        total += parsed;
    }
    assert_eq!(total, 239);
}

#[test]
fn every_format_field_has_a_typed_bullet() {
    let Some(docs) = corpus() else { return };
    for (name, text, doc) in &docs {
        for table in &doc.formats {
            for cell in &table.fields {
                let field = doc
                    .fields
                    .iter()
                    .find(|f| f.name == cell.name)
                    .unwrap_or_else(|| panic!("{name}: no field {}", cell.name));
                assert!(!field.ty.token().is_empty(), "{name}: {}", cell.name);
                // A list field (`Label0 | LabelN | Label(Num_labels-1)`) is described by the
                // bullet of its first element.
                let written = match cell.repeat {
                    Some(_) => format!("{}0", field.name),
                    None => field.name.clone(),
                };
                let bullet = format!("**{written}({}):**", field.ty.token());
                assert!(text.contains(&bullet), "{name}: {bullet} not in the text");
            }
        }
    }
}

#[test]
fn fields_follow_the_table_order() {
    let Some(docs) = corpus() else { return };
    let doc = |file: &str| &docs.iter().find(|d| d.0 == file).unwrap().2;
    let names = |d: &Document| d.fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(doc("ADD.md")),
        ["Exec_size", "Pred", "Dst", "Src0", "Src1"]
    );
    let lsc = doc("LSC_UNTYPED.md");
    assert_eq!(lsc.formats.len(), 4);
    assert!(lsc.formats.iter().all(|t| {
        t.condition
            .as_deref()
            .is_some_and(|c| c.starts_with("LscSubOp="))
    }));
    // Union in first-seen order: the second table adds AddrScale after Src0Data.
    let lsc_names = names(lsc);
    let pos = |n: &str| lsc_names.iter().position(|x| x == n).unwrap();
    assert!(pos("Src0Data") < pos("AddrScale"));
    assert!(pos("Src2Data") < pos("Blocks"));
    assert_eq!(
        names(doc("OWORD_LD_UNALIGNED.md")),
        ["Size", "Is_modified", "Surface", "Offset", "Dst"]
    );
}

#[test]
fn supported_types_and_type_maps() {
    let Some(docs) = corpus() else { return };
    let add = &docs.iter().find(|d| d.0 == "ADD.md").unwrap().2;
    let types = &add
        .properties
        .iter()
        .find(|p| p.key == "Supported Types")
        .unwrap()
        .types;
    assert_eq!(types.len(), 12);
    assert_eq!(types[11].name, "BF");
    assert_eq!(types[11].platforms[0].name, "XEHP");
    assert_eq!(add.type_maps.len(), 5);
    assert_eq!(add.type_maps[4].entries[0].1.len(), 2);
    let maps: usize = docs.iter().map(|d| d.2.type_maps.len()).sum();
    let written = docs
        .iter()
        .map(|d| d.1.matches("**Type map").count())
        .sum::<usize>();
    assert_eq!(maps, written);
}

#[test]
fn most_syntax_lines_parse_into_templates() {
    let Some(docs) = corpus() else { return };
    let mut parsed = 0;
    let mut total = 0;
    for (name, _, doc) in &docs {
        for line in &doc.syntax {
            total += 1;
            if let Some(t) = &line.template {
                parsed += 1;
                assert!(!t.mnemonic.is_empty(), "{name}");
            }
        }
    }
    // Only LSC_UNTYPED's eight block statements and FENCE's pattern suffix are kept as text.
    assert_eq!(total - parsed, 9, "{parsed}/{total}");
    let switchjmp = &docs.iter().find(|d| d.0 == "SWITCHJMP.md").unwrap().2;
    let labels = switchjmp.syntax[0]
        .template
        .as_ref()
        .unwrap()
        .operands
        .last();
    assert_eq!(
        labels,
        Some(&visa_codegen::model::SyntaxOperand {
            name: "Label".into(),
            optional: false,
            list: true,
            pattern: Vec::new(),
        })
    );
    let cmp = &docs.iter().find(|d| d.0 == "CMP.md").unwrap().2;
    let t = cmp.syntax[0].template.as_ref().unwrap();
    assert_eq!(
        t.suffixes,
        [visa_codegen::model::SyntaxSuffix::Field {
            name: "rel_op".into()
        }]
    );
}

//! The generated reference site matches the model: for every document of `spec/` and of the
//! upstream corpus in `../shared`, the instruction page shows each field, each code (binary
//! and label), each syntax line and the fixed byte offsets, in HTML and in markdown.

mod docs_support;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use docs_support::{binary, html_text, markdown_text, size_of};
use visa_codegen::docs::{self, Format, OutputFile};
use visa_codegen::model::{Document, FormatTable};

fn files_by_path(files: Vec<OutputFile>) -> HashMap<String, String> {
    files.into_iter().map(|f| (f.path, f.contents)).collect()
}

/// The page of each document: `NAME.ext` when the name is file-safe and unique, which the
/// corpora satisfy (asserted here).
fn page_names(documents: &[Document], ext: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    documents
        .iter()
        .map(|doc| {
            let name = doc.full_name();
            assert!(
                name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{}: unexpected characters in {name}",
                doc.file
            );
            assert!(
                seen.insert(name.to_ascii_lowercase()),
                "duplicate name {name}"
            );
            format!("{name}.{ext}")
        })
        .collect()
}

/// Fixed-size prefix of a Format table: (field name, byte offset as shown) up to and including
/// the first variable-size field. Offsets after an optional field carry a `*`.
fn fixed_offsets(doc: &Document, table: &FormatTable) -> Vec<(String, String)> {
    let mut offset = u32::try_from(table.opcodes.len()).unwrap_or(u32::MAX);
    let mut after_optional = false;
    let mut out = Vec::new();
    for cell in &table.fields {
        let mark = if after_optional { "*" } else { "" };
        out.push((cell.name.clone(), format!("{offset}{mark}")));
        after_optional |= cell.optional;
        let size = doc.field(&cell.name).and_then(|f| size_of(f.ty.token()));
        match size {
            Some(bytes) => offset += bytes,
            None => break,
        }
    }
    out
}

fn check_html_page(doc: &Document, page: &str) {
    let name = doc.full_name();
    let text = html_text(page);
    assert!(
        page.contains(&format!("<h1 id=\"top\">{name}</h1>")),
        "{name}: heading"
    );
    for op in &doc.opcodes {
        assert!(
            text.contains(&format!("0x{:02x}", op.value)),
            "{name}: opcode"
        );
    }
    for table in &doc.formats {
        for (field, offset) in fixed_offsets(doc, table) {
            let row = format!(
                "<tr><td class=\"num\">{offset}</td><td><a href=\"#{}\">",
                docs::field_id(&field)
            );
            assert!(page.contains(&row), "{name}: offset {offset} of {field}");
        }
    }
    for field in &doc.fields {
        let id = format!("id=\"{}\"", docs::field_id(&field.name));
        let section = docs_support::between(page, &id, "</section>")
            .unwrap_or_else(|| panic!("{name}: no section for field {}", field.name));
        let section_text = html_text(section);
        assert!(
            section.contains(&format!(">{}", field.name)),
            "{name}.{}",
            field.name
        );
        for bits in &field.bitfields {
            let width = bits.hi - bits.lo + 1;
            for value in &bits.values {
                let code = format!("<code>{}</code>", binary(value.code, width));
                assert!(
                    section.contains(&code),
                    "{name}.{}: code {code}",
                    field.name
                );
                // Backtick code spans become <code> elements: compare without the backticks.
                let label = docs_support::collapse(&value.label.replace('`', ""));
                assert!(
                    section_text.contains(&label),
                    "{name}.{}: label {label:?}",
                    field.name
                );
            }
        }
        for value in &field.values {
            let hex = format!("<code>0x{:x}</code>", value.code);
            assert!(section.contains(&hex), "{name}.{}: value {hex}", field.name);
            let label = docs_support::collapse(&value.label.replace('`', ""));
            assert!(
                section_text.contains(&label),
                "{name}.{}: {label:?}",
                field.name
            );
        }
    }
    let syntax = docs_support::between(page, "<pre class=\"syntax\">", "</pre>");
    for line in &doc.syntax {
        let syntax = syntax.unwrap_or_else(|| panic!("{name}: no syntax block"));
        let expected = docs_support::collapse(&line.text);
        assert!(
            html_text(syntax).contains(&expected),
            "{name}: syntax {expected:?}"
        );
    }
}

fn check_markdown_page(doc: &Document, page: &str) {
    let name = doc.full_name();
    let text = markdown_text(page);
    assert!(text.contains(&format!("# {name}")), "{name}: heading");
    for field in &doc.fields {
        let anchor = format!("<a id=\"{}\"></a>", docs::field_id(&field.name));
        let section = docs_support::between(page, &anchor, "<a id=\"field-")
            .unwrap_or_else(|| panic!("{name}: no anchor for field {}", field.name));
        let section_text = markdown_text(section);
        assert!(
            section_text.contains(&format!("### {} (", field.name)),
            "{name}.{}",
            field.name
        );
        for bits in &field.bitfields {
            let width = bits.hi - bits.lo + 1;
            for value in &bits.values {
                let row = format!("| `{}` |", binary(value.code, width));
                assert!(section.contains(&row), "{name}.{}: code {row}", field.name);
                let label = docs_support::collapse(&value.label);
                assert!(section_text.contains(&label), "{name}: label {label:?}");
            }
        }
        for value in &field.values {
            let hex = format!("`0x{:x}`", value.code);
            assert!(section.contains(&hex), "{name}.{}: value {hex}", field.name);
        }
    }
    for line in &doc.syntax {
        // Syntax statements sit verbatim (one or more whole lines) in a fenced block.
        assert!(
            page.contains(&format!("\n{}\n", line.text)),
            "{name}: syntax line {:?}",
            line.text
        );
    }
}

fn check_site(dir: PathBuf) {
    let documents = docs_support::load(&dir);
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    let index = html.get("index.html").expect("index.html");
    assert!(html.contains_key("style.css"));
    assert_eq!(html.len(), documents.len() + 2, "one page per document");
    for (doc, page_name) in documents.iter().zip(page_names(&documents, "html")) {
        let page = html
            .get(&page_name)
            .unwrap_or_else(|| panic!("{} has no page {page_name}", doc.file));
        check_html_page(doc, page);
        // Listed three times in the index: by category, by value, by name.
        let link = format!("<a href=\"{page_name}\">");
        assert_eq!(index.matches(&link).count(), 3, "{page_name} in index");
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "offline"
        );
    }

    let md = files_by_path(docs::render_site(&documents, Format::Markdown));
    let md_index = md.get("index.md").expect("index.md");
    assert_eq!(md.len(), documents.len() + 1);
    for (doc, page_name) in documents.iter().zip(page_names(&documents, "md")) {
        let page = md
            .get(&page_name)
            .unwrap_or_else(|| panic!("{} has no page {page_name}", doc.file));
        check_markdown_page(doc, page);
        assert_eq!(md_index.matches(&format!("]({page_name})")).count(), 3);
    }
}

#[test]
fn spec_site_matches_the_model() {
    check_site(docs_support::spec_dir());
}

#[test]
fn upstream_site_matches_the_model() {
    let Some(dir) = docs_support::shared_instructions() else {
        return;
    };
    check_site(dir);
}

#[test]
fn gather_scaled_page_shows_the_byte_layout_and_codes() {
    // Independent expectations for one well-known instruction of the upstream corpus.
    let Some(dir) = docs_support::shared_instructions() else {
        return;
    };
    let documents = docs_support::load(&dir);
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    let page = html.get("GATHER_SCALED.html").expect("GATHER_SCALED page");
    for (offset, field, ty) in [
        ("1", "Exec_size", "ub"),
        ("2", "Pred", "uw"),
        ("4", "Block_size", "ub"),
        ("5", "Num_blocks", "ub"),
        ("6", "Scale", "uw"),
        ("8", "Surface", "ub"),
        ("9", "Offset", "scalar"),
        ("9+var", "Element_offset", "raw_operand"),
        ("9+var", "Dst", "raw_operand"),
    ] {
        let row = format!(
            "<tr><td class=\"num\">{offset}</td><td><a href=\"#field-{field}\">{field}</a></td><td><code>{ty}</code></td>"
        );
        assert!(page.contains(&row), "row {row}");
    }
    let num_blocks = docs_support::between(page, "id=\"field-Num_blocks\"", "</section>").unwrap();
    for (code, label) in [
        ("0b00", "1 block"),
        ("0b01", "2 blocks"),
        ("0b10", "4 blocks"),
    ] {
        assert!(num_blocks.contains(&format!("<td><code>{code}</code></td>")));
        assert!(num_blocks.contains(&format!("<td>{label}</td>")));
    }
    assert!(!num_blocks.contains("0b11"));
    // Placeholders link to their fields; `<P>` resolves to the only field starting with P.
    for (placeholder, field) in [
        ("&lt;num_blocks&gt;", "Num_blocks"),
        ("&lt;P&gt;", "Pred"),
        ("&lt;element_offset&gt;", "Element_offset"),
    ] {
        let link = format!("href=\"#field-{field}\" title=\"{field}\">{placeholder}</a>");
        assert!(page.contains(&link), "{link}");
    }
    // The opcode value 0x78 = 120.
    assert!(page.contains("<td><code>0x78</code></td><td>120</td>"));
}

#[test]
fn a_list_field_shows_its_element_size_and_count_and_its_placeholders_link_to_it() {
    // SWITCHJMP of our spec/: `Label0 | LabelN | Label(Num_labels-1)` is one list field.
    let documents = docs_support::load(&docs_support::spec_dir());
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    let page = html.get("SWITCHJMP.html").expect("SWITCHJMP page");
    let row = "<tr><td class=\"num\">3+var</td><td><a href=\"#field-Label\">Label</a></td>\
               <td><code>uw</code></td><td class=\"num\">2 × Num_labels</td></tr>";
    assert!(page.contains(row), "{row}");
    for placeholder in ["&lt;Label0&gt;", "&lt;Label1&gt;", "&lt;LabelN-1&gt;"] {
        let link = format!("href=\"#field-Label\" title=\"Label\">{placeholder}</a>");
        assert!(page.contains(&link), "{link}");
    }
    let markdown = files_by_path(docs::render_site(&documents, Format::Markdown));
    let page = markdown
        .get("SWITCHJMP.md")
        .expect("SWITCHJMP markdown page");
    assert!(
        page.contains("| 3+var | [Label](#field-Label) | uw | 2 × Num\\_labels |"),
        "{page}"
    );
}

#[test]
fn sub_operation_pages_link_their_family() {
    let Some(dir) = docs_support::shared_instructions() else {
        return;
    };
    let documents = docs_support::load(&dir);
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    // Every pair of documents sharing a parent opcode with sub-operations links each other.
    let families: Vec<&Document> = documents.iter().filter(|d| d.opcodes.len() >= 2).collect();
    assert!(families.len() >= 2, "the corpus has sub-operations");
    // A document for the parent opcode alone lists its sub-operations, and they link back.
    let mut parents = 0;
    for parent in documents.iter().filter(|d| d.opcodes.len() == 1) {
        let children: Vec<&&Document> = families
            .iter()
            .filter(|f| f.opcodes[0].value == parent.opcodes[0].value)
            .collect();
        if children.is_empty() {
            continue;
        }
        parents += 1;
        let page = html.get(&format!("{}.html", parent.full_name())).unwrap();
        let subs = docs_support::between(page, "<h3>Sub-operations</h3>", "</ul>").unwrap();
        for child in children {
            assert!(subs.contains(&format!("href=\"{}.html\"", child.full_name())));
            let child_page = html.get(&format!("{}.html", child.full_name())).unwrap();
            let up = docs_support::between(child_page, "<h3>Parent opcode</h3>", "</ul>").unwrap();
            assert!(up.contains(&format!("href=\"{}.html\"", parent.full_name())));
        }
    }
    assert!(parents >= 1, "the corpus documents a parent opcode");
    for a in &families {
        let page = html.get(&format!("{}.html", a.full_name())).unwrap();
        let siblings = families
            .iter()
            .filter(|b| b.opcodes[0].value == a.opcodes[0].value && b.full_name() != a.full_name());
        for b in siblings {
            let related =
                docs_support::between(page, "<h3>Same sub-operation family</h3>", "</ul>")
                    .unwrap_or_else(|| panic!("{} has no family links", a.full_name()));
            assert!(related.contains(&format!("href=\"{}.html\"", b.full_name())));
        }
    }
}

/// What the parser kept without a place, code ranges and text nested under a code reach the page.
#[test]
fn kept_text_ranges_and_code_notes_are_shown() {
    let source = "## Opcode\n\n  ZAP = 0x7e\n\n## Format\n\n| | |\n| --- | --- |\n| 0x7e(ZAP) | Mode |\n\n\
                  ## Semantics\n\n    x\n\n## Description\n\n- **Mode(ub):** How.\n  - 0x0: slow\n    - Note: the default\n  - 0x4-0xf: reserved\n\n\
                  ## Text\n```\nZAP.<mode>\n```\n\n## Restrictions\n\n    Only on Tuesdays.\n";
    let parsed = visa_codegen::parse_document("ZAP.md", source);
    let doc = parsed.document.expect("a model");
    let documents = [doc];
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    let page = html_text(&html["ZAP.html"]);
    // (Table cells run together once the tags are removed.)
    assert!(page.contains("0b00000x0slowNote: the default"), "{page}");
    assert!(page.contains("0b0100–0b11110x4–0xfreserved"), "{page}");
    assert!(page.contains("Restrictions Only on Tuesdays."), "{page}");
    let md = files_by_path(docs::render_site(&documents, Format::Markdown));
    let page = markdown_text(&md["ZAP.md"]);
    assert!(page.contains("| slow — Note: the default |"), "{page}");
    assert!(
        page.contains("| `0b0100`–`0b1111` | `0x4`–`0xf` | reserved |"),
        "{page}"
    );
    assert!(page.contains("## Restrictions Only on Tuesdays."), "{page}");
}

/// Where `needle` first occurs in `page`, which must hold it.
fn position(page: &str, needle: &str, name: &str) -> usize {
    page.find(needle)
        .unwrap_or_else(|| panic!("{name}: no `{needle}`"))
}

/// Every instruction page of `spec/` shows its syntax, then its examples, then the description
/// and semantics, and only then the encoding (opcode table, byte layout, bit fields), in HTML
/// and in markdown; the examples' code is on the page, and the first example's first
/// instruction links its mnemonic to a page of the site.
#[test]
fn instruction_pages_show_syntax_and_examples_before_the_encoding() {
    let parsed = visa_codegen::parse_dirs(&[docs_support::spec_dir()]);
    let documents = parsed.documents;
    assert!(documents.len() >= 94);
    let html = files_by_path(docs::render_site(&documents, Format::Html));
    let md = files_by_path(docs::render_site(&documents, Format::Markdown));
    for (doc, page_name) in documents.iter().zip(page_names(&documents, "html")) {
        let name = doc.full_name();
        let page = &html[&page_name];
        let order = [
            "<section id=\"syntax\">",
            "<section id=\"examples\">",
            "<section id=\"semantics\">",
            "<section id=\"opcode\">",
            "<section id=\"encoding\">",
        ];
        let at: Vec<usize> = order.iter().map(|n| position(page, n, &name)).collect();
        assert!(at.is_sorted(), "{name}: sections out of order: {at:?}");
        if let Some(fields) = page.find("<section id=\"fields\">") {
            assert!(fields > at[4], "{name}: the fields come with the encoding");
        }
        let summary = position(page, "<p class=\"summary\">", &name);
        assert!(summary < at[0], "{name}: the summary comes first");
        if page.contains("<section id=\"description\">") {
            let description = position(page, "<section id=\"description\">", &name);
            assert!(at[1] < description && description < at[3], "{name}");
        }
        let examples = &page[at[1]..at[2]];
        assert_eq!(
            examples.matches("<pre class=\"example\">").count(),
            doc.examples.len(),
            "{name}"
        );
        for example in &doc.examples {
            let last = example.code.lines().last().unwrap();
            let shown = html_text(examples);
            assert!(shown.contains(last), "{name}: `{last}` not shown");
        }
        assert!(
            examples.contains("<a class=\"mnemonic\" href=\""),
            "{name}: no linked mnemonic in {examples}"
        );

        let md_page = &md[&page_name.replace(".html", ".md")];
        let order = [
            "\n## Assembly syntax\n",
            "\n## Examples\n",
            "\n## Semantics\n",
            "\n## Opcode\n",
            "\n## Encoding\n",
        ];
        let at: Vec<usize> = order.iter().map(|n| position(md_page, n, &name)).collect();
        assert!(
            at.is_sorted(),
            "{name}: markdown sections out of order: {at:?}"
        );
        assert_eq!(
            md_page[at[1]..at[2]].matches("```visaasm\n").count(),
            doc.examples.len(),
            "{name}"
        );
    }
}

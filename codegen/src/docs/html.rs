//! HTML rendering of one instruction page. Every piece of document text goes through
//! [`text::html`]; only the markup written here is emitted unescaped.

use super::code;
use super::layout::{self, RowKind};
use super::site::{Entry, Site};
use super::text::{self, Paragraph, SyntaxPiece};
use crate::model::{CodeRange, CodeValue, Document, Field, Platform};

/// The head and opening of every page.
pub fn page_start(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — vISA reference</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n\
         </head>\n<body>\n",
        text::html(title)
    )
}

pub const PAGE_END: &str = "</body>\n</html>\n";

/// The full page of `site.entries[index]`; `None` if the index is out of range.
pub fn instruction_page(site: &Site<'_>, index: usize) -> Option<String> {
    let entry = site.entries.get(index)?;
    let doc = entry.doc;
    let mut out = page_start(&entry.name);
    let guide = if site.guide.is_some() {
        " · <a href=\"guide.html\">Guide</a>"
    } else {
        ""
    };
    out.push_str(&format!(
        "<nav class=\"crumbs\"><a href=\"index.html\">vISA reference</a> › {} › {}{guide}</nav>\n<main>\n",
        text::html(&entry.category),
        text::html(&entry.name)
    ));
    out.push_str(&format!(
        "<h1 id=\"top\">{}</h1>\n<p class=\"source\">Category: <strong>{}</strong> · \
         opcode <code>{}</code> · generated from <code>{}</code></p>\n",
        text::html(&entry.name),
        text::html(&entry.category),
        text::html(&entry.opcode_text()),
        text::html(&doc.file)
    ));
    // How to write it and use it first: the summary, the syntax, the examples; then what it
    // does; the encoding after.
    let (summary, description) = text::split_summary(doc.description.as_ref());
    if let Some(summary) = &summary {
        out.push_str(&format!(
            "<p class=\"summary\">{}</p>\n",
            text::html_prose(summary)
        ));
    }
    syntax_section(&mut out, doc);
    examples_section(&mut out, site, doc);
    text_section(&mut out, "description", "Description", description.as_ref());
    if let Some(block) = &doc.semantics {
        out.push_str("<section id=\"semantics\">\n<h2>Semantics</h2>\n");
        out.push_str(&format!(
            "<pre class=\"semantics\">{}</pre>\n</section>\n",
            text::html(block.text.trim_matches('\n'))
        ));
    }
    properties_section(&mut out, doc);
    type_maps_section(&mut out, doc);
    platforms_section(&mut out, doc);
    opcode_section(&mut out, entry);
    encoding_section(&mut out, doc);
    fields_section(&mut out, doc);
    text_section(&mut out, "notes", "Notes", doc.notes.as_ref());
    for (i, extra) in doc.extra.iter().enumerate() {
        // Text the parser kept without a place: under its own section's title.
        let block = crate::model::TextBlock {
            text: extra.text.clone(),
            loc: extra.loc,
        };
        text_section(
            &mut out,
            &format!("extra-{}", i + 1),
            &text::html(&extra.section),
            Some(&block),
        );
    }
    related_section(&mut out, site, entry);
    out.push_str("</main>\n");
    out.push_str(PAGE_END);
    Some(out)
}

fn opcode_section(out: &mut String, entry: &Entry<'_>) {
    out.push_str("<section id=\"opcode\">\n<h2>Opcode</h2>\n<table class=\"opcodes\">\n");
    out.push_str("<tr><th>Role</th><th>Name</th><th>Hex</th><th>Decimal</th></tr>\n");
    for (i, op) in entry.doc.opcodes.iter().enumerate() {
        let role = if i == 0 { "opcode" } else { "sub-operation" };
        out.push_str(&format!(
            "<tr><td>{role}</td><td><code>{}</code></td><td><code>0x{:02x}</code></td><td>{}</td></tr>\n",
            text::html(&op.name),
            op.value,
            op.value
        ));
    }
    out.push_str("</table>\n</section>\n");
}

fn platforms_section(out: &mut String, doc: &Document) {
    let platforms = text::all_platforms(doc);
    out.push_str("<section id=\"platforms\">\n<h2>Platforms</h2>\n");
    if platforms.is_empty() {
        out.push_str(
            "<p>No platform restrictions are stated; everything applies to all platforms.</p>\n",
        );
    } else {
        out.push_str("<p>Parts of this instruction are restricted by platform: ");
        out.push_str(&tags(&platforms));
        out.push_str("</p>\n");
    }
    out.push_str("</section>\n");
}

fn encoding_section(out: &mut String, doc: &Document) {
    out.push_str("<section id=\"encoding\">\n<h2>Encoding</h2>\n");
    if doc.formats.is_empty() {
        out.push_str("<p>The document gives no format table.</p>\n");
    }
    for table in &doc.formats {
        if let Some(condition) = &table.condition {
            out.push_str(&format!(
                "<h3 class=\"condition\">Condition: <code>{}</code></h3>\n",
                text::html(condition)
            ));
        }
        out.push_str("<table class=\"encoding\">\n<tr><th>Byte offset</th><th>Field</th><th>Type</th><th>Size</th></tr>\n");
        let rows = layout::layout(doc, table);
        for row in &rows {
            let size = text::html(&row.size_text());
            let (name, ty) = match &row.kind {
                RowKind::Opcode { value } => (
                    format!("<code>{}</code>", text::html(&row.name)),
                    format!("opcode <code>0x{value:02x}</code>"),
                ),
                RowKind::Field { ty, optional } => {
                    let mut name = field_link(&row.name);
                    if *optional {
                        name.push_str(" <span class=\"optional\" title=\"present only under a condition\">optional</span>");
                    }
                    let ty = ty
                        .as_ref()
                        .map_or("<em>undocumented</em>".to_string(), |t| {
                            format!("<code>{}</code>", text::html(t.token()))
                        });
                    (name, ty)
                }
            };
            out.push_str(&format!(
                "<tr><td class=\"num\">{}</td><td>{name}</td><td>{ty}</td><td class=\"num\">{size}</td></tr>\n",
                row.offset
            ));
        }
        out.push_str("</table>\n");
        if rows.iter().any(|r| r.offset.after_optional) {
            out.push_str(OPTIONAL_LEGEND_HTML);
        }
    }
    out.push_str("</section>\n");
}

const OPTIONAL_LEGEND_HTML: &str = "<p class=\"legend\">* The offset assumes that the optional \
     fields before it are present.</p>\n";

fn field_link(name: &str) -> String {
    format!(
        "<a href=\"#{}\">{}</a>",
        text::html(&text::field_id(name)),
        text::html(name)
    )
}

fn syntax_section(out: &mut String, doc: &Document) {
    if doc.syntax.is_empty() && doc.syntax_comments.is_empty() {
        return;
    }
    out.push_str("<section id=\"syntax\">\n<h2>Assembly syntax</h2>\n<pre class=\"syntax\">");
    for line in &doc.syntax {
        for piece in text::syntax_pieces(&line.text, doc) {
            match piece {
                SyntaxPiece::Text(t) => out.push_str(&text::html(t)),
                SyntaxPiece::Field { text: t, field } => out.push_str(&format!(
                    "<a class=\"placeholder\" href=\"#{}\" title=\"{}\">{}</a>",
                    text::html(&text::field_id(&field.name)),
                    text::html(&field.name),
                    text::html(t)
                )),
            }
        }
        out.push('\n');
    }
    out.push_str("</pre>\n");
    for comment in &doc.syntax_comments {
        out.push_str(&format!(
            "<p class=\"syntax-comment\">{}</p>\n",
            text::html_prose(comment)
        ));
    }
    out.push_str("</section>\n");
}

fn examples_section(out: &mut String, site: &Site<'_>, doc: &Document) {
    if doc.examples.is_empty() {
        return;
    }
    out.push_str("<section id=\"examples\">\n<h2>Examples</h2>\n");
    for (i, example) in doc.examples.iter().enumerate() {
        out.push_str(&format!(
            "<div class=\"example\" id=\"example-{}\">\n",
            i + 1
        ));
        for paragraph in example
            .caption
            .split("\n\n")
            .filter(|p| !p.trim().is_empty())
        {
            out.push_str(&format!("<p>{}</p>\n", text::html_prose(paragraph)));
        }
        out.push_str(&format!(
            "<pre class=\"example\">{}</pre>\n</div>\n",
            code::code_html(&example.code, site)
        ));
    }
    out.push_str("</section>\n");
}

fn fields_section(out: &mut String, doc: &Document) {
    if doc.fields.is_empty() {
        return;
    }
    out.push_str("<section id=\"fields\">\n<h2>Fields</h2>\n");
    for field in &doc.fields {
        field_block(out, field);
    }
    out.push_str("</section>\n");
}

fn field_block(out: &mut String, field: &Field) {
    out.push_str(&format!(
        "<section class=\"field\" id=\"{}\">\n<h3>{} <code class=\"type\">{}</code></h3>\n",
        text::html(&text::field_id(&field.name)),
        text::html(&field.name),
        text::html(field.ty.token())
    ));
    if !field.description.trim().is_empty() {
        out.push_str(&format!(
            "<p>{}</p>\n",
            text::html_prose(field.description.trim())
        ));
    }
    let mut facts = Vec::new();
    if !field.allowed_types.is_empty() {
        facts.push(format!(
            "Allowed types: <code>{}</code>",
            text::html(&text::type_list(&field.allowed_types))
        ));
    }
    if !field.operand_classes.is_empty() {
        facts.push(format!(
            "Operand classes: {}",
            text::html(&field.operand_classes.join(", "))
        ));
    }
    if let Some((lo, hi)) = field.range {
        facts.push(format!("Valid range: {lo} to {hi}"));
    }
    if !facts.is_empty() {
        out.push_str("<ul class=\"facts\">\n");
        for fact in facts {
            out.push_str(&format!("<li>{fact}</li>\n"));
        }
        out.push_str("</ul>\n");
    }
    for bits in &field.bitfields {
        let range = if bits.hi == bits.lo {
            format!("Bit [{}]", bits.hi)
        } else {
            format!("Bits [{}..{}]", bits.hi, bits.lo)
        };
        out.push_str(&format!(
            "<h4>{range}{}</h4>\n",
            if bits.platforms.is_empty() {
                String::new()
            } else {
                format!(" {}", tags(&bits.platforms))
            }
        ));
        if !bits.description.trim().is_empty() {
            out.push_str(&format!(
                "<p>{}</p>\n",
                text::html_prose(bits.description.trim())
            ));
        }
        let width = bits.hi.saturating_sub(bits.lo).saturating_add(1);
        codes_table(out, &bits.values, &bits.ranges, width);
    }
    if !field.values.is_empty() || !field.ranges.is_empty() {
        out.push_str("<h4>Values</h4>\n");
        let codes = field.values.iter().map(|v| v.code);
        let width = text::value_width(codes.chain(field.ranges.iter().map(|r| r.last)));
        codes_table(out, &field.values, &field.ranges, width);
    }
    out.push_str("</section>\n");
}

fn codes_table(out: &mut String, values: &[CodeValue], ranges: &[CodeRange], width: u32) {
    if values.is_empty() && ranges.is_empty() {
        return;
    }
    // The platform column only appears when some code is restricted.
    let with_platforms = values.iter().any(|v| !v.platforms.is_empty())
        || ranges.iter().any(|r| !r.platforms.is_empty());
    out.push_str("<table class=\"codes\">\n<tr><th>Binary</th><th>Hex</th><th>Meaning</th>");
    out.push_str(if with_platforms {
        "<th>Platforms</th></tr>\n"
    } else {
        "</tr>\n"
    });
    for value in values {
        let mut meaning = text::html_prose(&value.label);
        if !value.description.is_empty() {
            // The text nested under the code, one line each.
            for line in value.description.lines() {
                meaning.push_str(&format!(
                    "<div class=\"note\">{}</div>",
                    text::html_prose(line)
                ));
            }
        }
        out.push_str(&format!(
            "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{meaning}</td>",
            text::binary(value.code, width),
            text::hex(value.code),
        ));
        if with_platforms {
            out.push_str(&format!("<td>{}</td>", tags(&value.platforms)));
        }
        out.push_str("</tr>\n");
    }
    for range in ranges {
        out.push_str(&format!(
            "<tr><td><code>{}</code>–<code>{}</code></td><td><code>{}</code>–<code>{}</code></td><td>{}</td>",
            text::binary(range.first, width),
            text::binary(range.last, width),
            text::hex(range.first),
            text::hex(range.last),
            text::html_prose(&range.label),
        ));
        if with_platforms {
            out.push_str(&format!("<td>{}</td>", tags(&range.platforms)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn tags(platforms: &[Platform]) -> String {
    platforms
        .iter()
        .map(|p| {
            format!(
                "<span class=\"platform\" title=\"{}\">{}</span>",
                text::html(&text::platform_meaning(p)),
                text::html(&text::platform_tag(p))
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn properties_section(out: &mut String, doc: &Document) {
    if doc.properties.is_empty() {
        return;
    }
    out.push_str(
        "<section id=\"properties\">\n<h2>Properties</h2>\n<table class=\"properties\">\n",
    );
    for prop in &doc.properties {
        let value = if prop.types.is_empty() {
            text::html_prose(prop.value.trim())
        } else {
            format!("<code>{}</code>", text::html(&text::type_list(&prop.types)))
        };
        out.push_str(&format!(
            "<tr><th>{}</th><td>{value}</td></tr>\n",
            text::html(&prop.key)
        ));
    }
    out.push_str("</table>\n</section>\n");
}

fn type_maps_section(out: &mut String, doc: &Document) {
    if doc.type_maps.is_empty() {
        return;
    }
    out.push_str(
        "<section id=\"type-maps\">\n<h2>Operand type maps</h2>\n<table class=\"type-maps\">\n",
    );
    out.push_str("<tr><th>#</th><th>Platforms</th><th>Operand</th><th>Types</th></tr>\n");
    for (i, map) in doc.type_maps.iter().enumerate() {
        let span = map.entries.len().max(1);
        let platforms = if map.platforms.is_empty() {
            "all".to_string()
        } else {
            tags(&map.platforms)
        };
        let head = format!(
            "<td rowspan=\"{span}\" class=\"num\">{}</td><td rowspan=\"{span}\">{platforms}</td>",
            i + 1
        );
        if map.entries.is_empty() {
            out.push_str(&format!("<tr>{head}<td></td><td></td></tr>\n"));
        }
        for (j, (role, types)) in map.entries.iter().enumerate() {
            out.push_str(&format!(
                "<tr>{}<td>{}</td><td><code>{}</code></td></tr>\n",
                if j == 0 { head.as_str() } else { "" },
                text::html(role),
                text::html(&text::type_list(types))
            ));
        }
    }
    out.push_str("</table>\n</section>\n");
}

fn text_section(out: &mut String, id: &str, title: &str, block: Option<&crate::model::TextBlock>) {
    let Some(block) = block.filter(|b| !b.text.trim().is_empty()) else {
        return;
    };
    out.push_str(&format!("<section id=\"{id}\">\n<h2>{title}</h2>\n"));
    for paragraph in text::paragraphs(&block.text) {
        match paragraph {
            Paragraph::Prose(p) => out.push_str(&format!("<p>{}</p>\n", text::html_prose(&p))),
            Paragraph::Preformatted(p) => out.push_str(&format!("<pre>{}</pre>\n", text::html(&p))),
        }
    }
    out.push_str("</section>\n");
}

fn related_section(out: &mut String, site: &Site<'_>, entry: &Entry<'_>) {
    if entry.related.is_empty() {
        return;
    }
    out.push_str("<section id=\"related\">\n<h2>Related instructions</h2>\n");
    let mut kinds: Vec<_> = entry.related.iter().map(|r| r.kind).collect();
    kinds.dedup();
    for kind in kinds {
        out.push_str(&format!(
            "<h3>{}</h3>\n<ul class=\"related\">\n",
            kind.heading()
        ));
        for relation in entry.related.iter().filter(|r| r.kind == kind) {
            if let Some(other) = site.entries.get(relation.target) {
                out.push_str(&format!(
                    "<li><a href=\"{}.html\">{}</a> <span class=\"opcode\">{}</span></li>\n",
                    text::html(&other.page),
                    text::html(&other.name),
                    text::html(&other.opcode_text())
                ));
            }
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

//! Markdown rendering of the index and the instruction pages: the same content as the HTML
//! pages. Document text is escaped with [`text::markdown_inline`] or fenced verbatim with
//! [`text::markdown_fence`]; the only raw HTML emitted are `<a id="...">` anchors with slug ids.

use super::layout::{self, RowKind};
use super::site::{Entry, Site};
use super::text::{self, Paragraph, SyntaxPiece};
use crate::model::{CodeRange, CodeValue, Document, Field, Platform, TextBlock};

use text::markdown_inline as md;

pub fn index_page(site: &Site<'_>) -> String {
    let mut out = format!(
        "# vISA instruction reference\n\n{} instructions, generated from the opcode documents.\n\n",
        site.entries.len()
    );
    if let Some(markdown) = site.guide {
        out.push_str(&format!(
            "New to vISA assembly? Start with the guide: [{}](guide.md).\n\n",
            md(&super::guide::title(markdown))
        ));
    }
    if !site.articles.is_empty() {
        let links: Vec<String> = site
            .articles
            .iter()
            .map(|(page, title)| format!("[{}]({page}.md)", md(title)))
            .collect();
        out.push_str(&format!("Also: {}.\n\n", links.join(" · ")));
    }
    out.push_str("## By category\n\n");
    for (category, members) in site.categories() {
        out.push_str(&format!("### {} ({})\n\n", md(category), members.len()));
        for entry in members.iter().filter_map(|&i| site.entries.get(i)) {
            out.push_str(&format!("- {}\n", link(entry)));
        }
        out.push('\n');
    }
    out.push_str("## By opcode value\n\n| Opcode | Sub-operation | Name | Category |\n| --- | --- | --- | --- |\n");
    for entry in site
        .by_value()
        .into_iter()
        .filter_map(|i| site.entries.get(i))
    {
        let hex = |v: Option<u32>| v.map_or(String::new(), |v| format!("`0x{v:02x}`"));
        out.push_str(&format!(
            "| {} | {} | [{}]({}.md) | {} |\n",
            hex(entry.opcode()),
            hex(entry.sub_op()),
            md(&entry.name),
            entry.page,
            md(&entry.category)
        ));
    }
    out.push_str("\n## By name\n\n");
    for entry in &site.entries {
        out.push_str(&format!("- {}\n", link(entry)));
    }
    out
}

fn link(entry: &Entry<'_>) -> String {
    format!(
        "[{}]({}.md) `{}`",
        md(&entry.name),
        entry.page,
        entry.opcode_text()
    )
}

pub fn instruction_page(site: &Site<'_>, index: usize) -> Option<String> {
    let entry = site.entries.get(index)?;
    let doc = entry.doc;
    let guide = if site.guide.is_some() {
        " · [Guide](guide.md)"
    } else {
        ""
    };
    let mut out = format!(
        "[vISA reference](index.md) › {} › {}{guide}\n\n# {}\n\nCategory: **{}** · opcode `{}` · generated from `{}`\n\n",
        md(&entry.category),
        md(&entry.name),
        md(&entry.name),
        md(&entry.category),
        entry.opcode_text(),
        doc.file.replace('`', "'")
    );
    // As in HTML: summary, syntax and examples first, the encoding after.
    let (summary, description) = text::split_summary(doc.description.as_ref());
    if let Some(summary) = &summary {
        let lines: Vec<String> = summary
            .lines()
            .map(|l| text::markdown_prose(l, false))
            .collect();
        out.push_str(&lines.join("\n"));
        out.push('\n');
    }
    syntax(&mut out, doc);
    examples(&mut out, doc);
    text_section(&mut out, "Description", description.as_ref());
    if let Some(block) = &doc.semantics {
        out.push_str("\n## Semantics\n\n");
        out.push_str(&text::markdown_fence(block.text.trim_matches('\n'), "text"));
    }
    properties(&mut out, doc);
    type_maps(&mut out, doc);
    let platforms = text::all_platforms(doc);
    out.push_str("\n## Platforms\n\n");
    if platforms.is_empty() {
        out.push_str("No platform restrictions are stated; everything applies to all platforms.\n");
    } else {
        out.push_str(&format!(
            "Parts of this instruction are restricted by platform: {}\n",
            tags(&platforms)
        ));
    }
    out.push_str("\n## Opcode\n\n| Role | Name | Hex | Decimal |\n| --- | --- | --- | --- |\n");
    for (i, op) in doc.opcodes.iter().enumerate() {
        let role = if i == 0 { "opcode" } else { "sub-operation" };
        out.push_str(&format!(
            "| {role} | {} | `0x{:02x}` | {} |\n",
            md(&op.name),
            op.value,
            op.value
        ));
    }
    encoding(&mut out, doc);
    if !doc.fields.is_empty() {
        out.push_str("\n## Fields\n");
        for field in &doc.fields {
            field_block(&mut out, field);
        }
    }
    text_section(&mut out, "Notes", doc.notes.as_ref());
    for extra in &doc.extra {
        // Text the parser kept without a place: under its own section's title.
        let block = TextBlock {
            text: extra.text.clone(),
            loc: extra.loc,
        };
        text_section(&mut out, &md(&extra.section), Some(&block));
    }
    related(&mut out, site, entry);
    Some(out)
}

fn encoding(out: &mut String, doc: &Document) {
    out.push_str("\n## Encoding\n");
    if doc.formats.is_empty() {
        out.push_str("\nThe document gives no format table.\n");
    }
    for table in &doc.formats {
        if let Some(condition) = &table.condition {
            out.push_str(&format!("\n### Condition: {}\n", md(condition)));
        }
        out.push_str("\n| Byte offset | Field | Type | Size |\n| ---: | --- | --- | ---: |\n");
        let rows = layout::layout(doc, table);
        for row in &rows {
            let size = md(&row.size_text());
            let (name, ty) = match &row.kind {
                RowKind::Opcode { value } => (md(&row.name), format!("opcode `0x{value:02x}`")),
                RowKind::Field { ty, optional } => {
                    let mut name = field_link(&row.name);
                    if *optional {
                        name.push_str(" *(optional)*");
                    }
                    let ty = ty
                        .as_ref()
                        .map_or("*undocumented*".to_string(), |t| md(t.token()));
                    (name, ty)
                }
            };
            out.push_str(&format!("| {} | {name} | {ty} | {size} |\n", row.offset));
        }
        if rows.iter().any(|r| r.offset.after_optional) {
            out.push_str(
                "\n\\* The offset assumes that the optional fields before it are present.\n",
            );
        }
    }
}

fn field_link(name: &str) -> String {
    format!("[{}](#{})", md(name), text::field_id(name))
}

fn syntax(out: &mut String, doc: &Document) {
    if doc.syntax.is_empty() && doc.syntax_comments.is_empty() {
        return;
    }
    out.push_str("\n## Assembly syntax\n\n");
    let lines: Vec<&str> = doc.syntax.iter().map(|l| l.text.as_str()).collect();
    if !lines.is_empty() {
        out.push_str(&text::markdown_fence(&lines.join("\n"), "text"));
    }
    let mut placeholders: Vec<String> = Vec::new();
    for line in &doc.syntax {
        for piece in text::syntax_pieces(&line.text, doc) {
            if let SyntaxPiece::Field { text: t, field } = piece {
                let item = format!("`{}`: {}", t.replace('`', "'"), field_link(&field.name));
                if !placeholders.contains(&item) {
                    placeholders.push(item);
                }
            }
        }
    }
    if !placeholders.is_empty() {
        out.push_str("\nPlaceholders:\n\n");
        for item in placeholders {
            out.push_str(&format!("- {item}\n"));
        }
    }
    for comment in &doc.syntax_comments {
        out.push_str(&format!("\n*{}*\n", text::markdown_prose(comment, false)));
    }
}

fn examples(out: &mut String, doc: &Document) {
    if doc.examples.is_empty() {
        return;
    }
    out.push_str("\n## Examples\n");
    for example in &doc.examples {
        for paragraph in example
            .caption
            .split("\n\n")
            .filter(|p| !p.trim().is_empty())
        {
            out.push_str(&format!("\n{}\n", text::markdown_prose(paragraph, false)));
        }
        out.push('\n');
        out.push_str(&text::markdown_fence(&example.code, "visaasm"));
    }
}

fn field_block(out: &mut String, field: &Field) {
    out.push_str(&format!(
        "\n<a id=\"{}\"></a>\n### {} ({})\n",
        text::field_id(&field.name),
        md(&field.name),
        md(field.ty.token())
    ));
    if !field.description.trim().is_empty() {
        out.push_str(&format!(
            "\n{}\n",
            text::markdown_prose(field.description.trim(), false)
        ));
    }
    let mut facts = Vec::new();
    if !field.allowed_types.is_empty() {
        facts.push(format!(
            "Allowed types: {}",
            md(&text::type_list(&field.allowed_types))
        ));
    }
    if !field.operand_classes.is_empty() {
        facts.push(format!(
            "Operand classes: {}",
            md(&field.operand_classes.join(", "))
        ));
    }
    if let Some((lo, hi)) = field.range {
        facts.push(format!("Valid range: {} to {}", md(&lo.to_string()), hi));
    }
    if !facts.is_empty() {
        out.push('\n');
        for fact in facts {
            out.push_str(&format!("- {fact}\n"));
        }
    }
    for bits in &field.bitfields {
        let range = if bits.hi == bits.lo {
            format!("Bit \\[{}\\]", bits.hi)
        } else {
            format!("Bits \\[{}..{}\\]", bits.hi, bits.lo)
        };
        out.push_str(&format!("\n#### {range}"));
        if !bits.platforms.is_empty() {
            out.push_str(&format!(" {}", tags(&bits.platforms)));
        }
        out.push_str("\n\n");
        if !bits.description.trim().is_empty() {
            out.push_str(&format!(
                "{}\n\n",
                text::markdown_prose(bits.description.trim(), false)
            ));
        }
        let width = bits.hi.saturating_sub(bits.lo).saturating_add(1);
        codes_table(out, &bits.values, &bits.ranges, width);
    }
    if !field.values.is_empty() || !field.ranges.is_empty() {
        out.push_str("\n#### Values\n\n");
        let codes = field.values.iter().map(|v| v.code);
        let width = text::value_width(codes.chain(field.ranges.iter().map(|r| r.last)));
        codes_table(out, &field.values, &field.ranges, width);
    }
}

fn codes_table(out: &mut String, values: &[CodeValue], ranges: &[CodeRange], width: u32) {
    if values.is_empty() && ranges.is_empty() {
        return;
    }
    // As in HTML, the platform column only appears when some code is restricted.
    let with_platforms = values.iter().any(|v| !v.platforms.is_empty())
        || ranges.iter().any(|r| !r.platforms.is_empty());
    out.push_str(if with_platforms {
        "| Binary | Hex | Meaning | Platforms |\n| --- | --- | --- | --- |\n"
    } else {
        "| Binary | Hex | Meaning |\n| --- | --- | --- |\n"
    });
    for value in values {
        let mut meaning = text::markdown_prose(&value.label, true);
        if !value.description.is_empty() {
            // The text nested under the code, after a dash (a table cell is one line).
            for line in value.description.lines() {
                meaning.push_str(&format!(" — {}", text::markdown_prose(line, true)));
            }
        }
        out.push_str(&format!(
            "| `{}` | `{}` | {meaning} |",
            text::binary(value.code, width),
            text::hex(value.code),
        ));
        if with_platforms {
            out.push_str(&format!(" {} |", tags(&value.platforms)));
        }
        out.push('\n');
    }
    for range in ranges {
        out.push_str(&format!(
            "| `{}`–`{}` | `{}`–`{}` | {} |",
            text::binary(range.first, width),
            text::binary(range.last, width),
            text::hex(range.first),
            text::hex(range.last),
            text::markdown_prose(&range.label, true),
        ));
        if with_platforms {
            out.push_str(&format!(" {} |", tags(&range.platforms)));
        }
        out.push('\n');
    }
}

fn tags(platforms: &[Platform]) -> String {
    platforms
        .iter()
        .map(|p| format!("`{}`", text::platform_tag(p).replace('`', "'")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn properties(out: &mut String, doc: &Document) {
    if doc.properties.is_empty() {
        return;
    }
    out.push_str("\n## Properties\n\n| Property | Value |\n| --- | --- |\n");
    for prop in &doc.properties {
        let value = if prop.types.is_empty() {
            text::markdown_prose(prop.value.trim(), true)
        } else {
            md(&text::type_list(&prop.types))
        };
        out.push_str(&format!("| {} | {value} |\n", md(&prop.key)));
    }
}

fn type_maps(out: &mut String, doc: &Document) {
    if doc.type_maps.is_empty() {
        return;
    }
    out.push_str("\n## Operand type maps\n\n| # | Platforms | Operand | Types |\n| ---: | --- | --- | --- |\n");
    for (i, map) in doc.type_maps.iter().enumerate() {
        let platforms = if map.platforms.is_empty() {
            "all".to_string()
        } else {
            tags(&map.platforms)
        };
        for (role, types) in &map.entries {
            out.push_str(&format!(
                "| {} | {platforms} | {} | {} |\n",
                i + 1,
                md(role),
                md(&text::type_list(types))
            ));
        }
    }
}

fn text_section(out: &mut String, title: &str, block: Option<&TextBlock>) {
    let Some(block) = block.filter(|b| !b.text.trim().is_empty()) else {
        return;
    };
    out.push_str(&format!("\n## {title}\n"));
    for paragraph in text::paragraphs(&block.text) {
        out.push('\n');
        match paragraph {
            Paragraph::Prose(p) => {
                let lines: Vec<String> =
                    p.lines().map(|l| text::markdown_prose(l, false)).collect();
                out.push_str(&lines.join("\n"));
                out.push('\n');
            }
            Paragraph::Preformatted(p) => out.push_str(&text::markdown_fence(&p, "text")),
        }
    }
}

fn related(out: &mut String, site: &Site<'_>, entry: &Entry<'_>) {
    if entry.related.is_empty() {
        return;
    }
    out.push_str("\n## Related instructions\n");
    let mut kinds: Vec<_> = entry.related.iter().map(|r| r.kind).collect();
    kinds.dedup();
    for kind in kinds {
        out.push_str(&format!("\n### {}\n\n", kind.heading()));
        for relation in entry.related.iter().filter(|r| r.kind == kind) {
            if let Some(other) = site.entries.get(relation.target) {
                out.push_str(&format!("- {}\n", link(other)));
            }
        }
    }
}

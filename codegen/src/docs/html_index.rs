//! The HTML index page (with its filter box) and the shared stylesheet.

use super::html::{PAGE_END, page_start};
use super::site::{Entry, Site};
use super::text;

/// The stylesheet every page links to (`style.css`).
pub const STYLE_CSS: &str = include_str!("style.css");

/// The filter script, inlined into `index.html`. It filters on every keystroke, applies an
/// initial filter from the `?filter=` query parameter exactly as if it had been typed, and opens
/// the first match on Enter.
const FILTER_JS: &str = include_str!("filter.js");

pub fn index_page(site: &Site<'_>) -> String {
    let total = site.entries.len();
    let mut out = page_start("Index");
    let (guide_intro, mut guide_nav) = match site.guide {
        Some(markdown) => (
            format!(
                " New to vISA assembly? Start with the guide: <a href=\"guide.html\">{}</a>.",
                text::html(&super::guide::title(markdown))
            ),
            "<a href=\"guide.html\">Guide</a> · ".to_string(),
        ),
        None => (String::new(), String::new()),
    };
    for (page, title) in &site.articles {
        guide_nav.push_str(&format!(
            "<a href=\"{}.html\">{}</a> · ",
            text::html(page),
            text::html(title)
        ));
    }
    out.push_str(&format!(
        "<header class=\"index\">\n<h1>vISA instruction reference</h1>\n\
         <p>{total} instructions, generated from the opcode documents.{guide_intro}</p>\n\
         <div class=\"filter\"><label for=\"filter\">Filter</label> \
         <input id=\"filter\" type=\"search\" placeholder=\"name, opcode (0x4e) or category\" \
         autocomplete=\"off\" autofocus> <span id=\"filter-count\">{total} of {total} shown</span></div>\n\
         <nav class=\"sections\">{guide_nav}<a href=\"#by-category\">By category</a> · \
         <a href=\"#by-value\">By opcode value</a> · <a href=\"#by-name\">By name</a></nav>\n\
         </header>\n<main>\n"
    ));

    out.push_str("<section id=\"by-category\">\n<h2>By category</h2>\n");
    for (category, members) in site.categories() {
        out.push_str(&format!(
            "<section class=\"group\" data-group=\"\">\n<h3>{} <span class=\"count\">({})</span></h3>\n<ul class=\"entries\">\n",
            text::html(category),
            members.len()
        ));
        for entry in members.iter().filter_map(|&i| site.entries.get(i)) {
            out.push_str(&format!("<li {}>{}</li>\n", key_attr(entry), link(entry)));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str("</section>\n");

    out.push_str(
        "<section id=\"by-value\">\n<h2>By opcode value</h2>\n<table class=\"by-value\">\n\
         <tr><th>Opcode</th><th>Sub-operation</th><th>Name</th><th>Category</th></tr>\n",
    );
    for entry in site
        .by_value()
        .into_iter()
        .filter_map(|i| site.entries.get(i))
    {
        let hex = |v: Option<u32>| v.map_or(String::new(), |v| format!("<code>0x{v:02x}</code>"));
        out.push_str(&format!(
            "<tr {}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            key_attr(entry),
            hex(entry.opcode()),
            hex(entry.sub_op()),
            name_link(entry),
            text::html(&entry.category)
        ));
    }
    out.push_str("</table>\n</section>\n");

    out.push_str("<section id=\"by-name\">\n<h2>By name</h2>\n<ul class=\"entries columns\">\n");
    for entry in &site.entries {
        out.push_str(&format!("<li {}>{}</li>\n", key_attr(entry), link(entry)));
    }
    out.push_str("</ul>\n</section>\n</main>\n");
    out.push_str(&format!("<script>\n{FILTER_JS}</script>\n"));
    out.push_str(PAGE_END);
    out
}

/// The text the filter matches against: name, opcode values and category, lower-case.
fn key_attr(entry: &Entry<'_>) -> String {
    let key = format!("{} {} {}", entry.name, entry.opcode_text(), entry.category).to_lowercase();
    format!("data-key=\"{}\"", text::html(&key))
}

fn name_link(entry: &Entry<'_>) -> String {
    format!(
        "<a href=\"{}.html\">{}</a>",
        text::html(&entry.page),
        text::html(&entry.name)
    )
}

fn link(entry: &Entry<'_>) -> String {
    format!(
        "<a href=\"{}.html\">{}</a> <span class=\"opcode\">{}</span>",
        text::html(&entry.page),
        text::html(&entry.name),
        text::html(&entry.opcode_text())
    )
}

//! The guide page: a markdown document of the repository (`docs/guide.md`) rendered into the
//! site with pulldown-cmark, like the instruction pages' text. Everything it holds is escaped:
//! raw HTML shows as text, and links keep only relative, `#` and http(s) targets. Headings get
//! ids (and the second-level ones a table of contents); `visaasm` code blocks link each
//! instruction's mnemonic to its page.

use std::collections::HashSet;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::code;
use super::html::{PAGE_END, page_start};
use super::site::Site;
use super::text::{self, title};

/// The HTML page of the guide.
pub fn html_page(site: &Site<'_>, markdown: &str) -> String {
    let title = title(markdown);
    let mut out = page_start(&title);
    out.push_str(&format!(
        "<nav class=\"crumbs\"><a href=\"index.html\">vISA reference</a> › {}</nav>\n<main class=\"guide\">\n",
        text::html(&title)
    ));
    let (body, contents) = render(site, markdown);
    // The table of contents goes after the first heading (the title) when there is one.
    let toc = toc(&contents);
    match body.find("</h1>\n") {
        Some(end) if !toc.is_empty() => {
            out.push_str(&body[..end + 6]);
            out.push_str(&toc);
            out.push_str(&body[end + 6..]);
        }
        _ => {
            out.push_str(&toc);
            out.push_str(&body);
        }
    }
    out.push_str("</main>\n");
    out.push_str(PAGE_END);
    out
}

/// The markdown page of the guide: the document as written, after a link back to the index.
pub fn markdown_page(markdown: &str) -> String {
    format!(
        "[vISA reference](index.md) › {}\n\n{}\n",
        text::markdown_inline(&title(markdown)),
        markdown.trim_end()
    )
}

fn toc(contents: &[(String, String)]) -> String {
    if contents.len() < 2 {
        return String::new();
    }
    let mut out = String::from("<nav class=\"toc\">\n<ul>\n");
    for (id, title) in contents {
        out.push_str(&format!("<li><a href=\"#{id}\">{title}</a></li>\n"));
    }
    out.push_str("</ul>\n</nav>\n");
    out
}

/// The body's HTML and its second-level headings (id, title HTML).
fn render(site: &Site<'_>, markdown: &str) -> (String, Vec<(String, String)>) {
    let mut r = Renderer {
        site,
        out: String::new(),
        heading: None,
        code: None,
        links: Vec::new(),
        in_table_head: false,
        ids: HashSet::new(),
        contents: Vec::new(),
    };
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        r.event(event);
    }
    (r.out, r.contents)
}

struct Renderer<'s, 'a> {
    site: &'s Site<'a>,
    out: String,
    /// The heading being read: its level, inner HTML and plain text.
    heading: Option<(HeadingLevel, String, String)>,
    /// The code block being read: its info string and text.
    code: Option<(String, String)>,
    /// For each open link, whether an `<a>` was written for it.
    links: Vec<bool>,
    in_table_head: bool,
    ids: HashSet<String>,
    contents: Vec<(String, String)>,
}

impl Renderer<'_, '_> {
    /// Where inline HTML goes: the heading being read, or the page.
    fn sink(&mut self) -> &mut String {
        match &mut self.heading {
            Some((_, inner, _)) => inner,
            None => &mut self.out,
        }
    }

    fn event(&mut self, event: Event<'_>) {
        if let Some((_, code)) = &mut self.code {
            match event {
                Event::Text(t) => code.push_str(&t),
                Event::End(TagEnd::CodeBlock) => self.end_code(),
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some((_, _, plain)) = &mut self.heading {
                    plain.push_str(&t);
                }
                let escaped = text::html(&t);
                self.sink().push_str(&escaped);
            }
            Event::Code(t) => {
                if let Some((_, _, plain)) = &mut self.heading {
                    plain.push_str(&t);
                }
                let code = format!("<code>{}</code>", text::html(&t));
                self.sink().push_str(&code);
            }
            // Raw HTML in the document is shown, not interpreted.
            Event::Html(t) | Event::InlineHtml(t) => {
                let escaped = text::html(&t);
                self.sink().push_str(&escaped);
            }
            Event::SoftBreak => self.sink().push('\n'),
            Event::HardBreak => self.sink().push_str("<br>\n"),
            Event::Rule => self.out.push_str("<hr>\n"),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let open = match tag {
            Tag::Paragraph => "<p>".to_string(),
            Tag::Heading { level, .. } => {
                self.heading = Some((level, String::new(), String::new()));
                return;
            }
            Tag::BlockQuote(_) => "<blockquote>\n".to_string(),
            Tag::CodeBlock(kind) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => {
                        info.split_whitespace().next().unwrap_or("").to_string()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((info, String::new()));
                return;
            }
            Tag::List(Some(1)) => "<ol>\n".to_string(),
            Tag::List(Some(start)) => format!("<ol start=\"{start}\">\n"),
            Tag::List(None) => "<ul>\n".to_string(),
            Tag::Item => "<li>".to_string(),
            Tag::Emphasis => "<em>".to_string(),
            Tag::Strong => "<strong>".to_string(),
            Tag::Link { dest_url, .. } => {
                let safe = is_safe_link(&dest_url);
                self.links.push(safe);
                if !safe {
                    return;
                }
                format!("<a href=\"{}\">", text::html(&dest_url))
            }
            Tag::Table(_) => "<table>\n".to_string(),
            Tag::TableHead => {
                self.in_table_head = true;
                "<tr>".to_string()
            }
            Tag::TableRow => "<tr>".to_string(),
            Tag::TableCell if self.in_table_head => "<th>".to_string(),
            Tag::TableCell => "<td>".to_string(),
            // Images show their alt text (the text events inside); other tags are not used.
            _ => return,
        };
        self.sink().push_str(&open);
    }

    fn end(&mut self, tag: TagEnd) {
        let close = match tag {
            TagEnd::Paragraph => "</p>\n",
            TagEnd::Heading(_) => {
                self.end_heading();
                return;
            }
            TagEnd::BlockQuote(_) => "</blockquote>\n",
            TagEnd::List(true) => "</ol>\n",
            TagEnd::List(false) => "</ul>\n",
            TagEnd::Item => "</li>\n",
            TagEnd::Emphasis => "</em>",
            TagEnd::Strong => "</strong>",
            TagEnd::Link => {
                if self.links.pop() != Some(true) {
                    return;
                }
                "</a>"
            }
            TagEnd::Table => "</table>\n",
            TagEnd::TableHead => {
                self.in_table_head = false;
                "</tr>\n"
            }
            TagEnd::TableRow => "</tr>\n",
            TagEnd::TableCell if self.in_table_head => "</th>",
            TagEnd::TableCell => "</td>",
            _ => return,
        };
        self.sink().push_str(close);
    }

    fn end_heading(&mut self) {
        let Some((level, inner, plain)) = self.heading.take() else {
            return;
        };
        let n = match level {
            HeadingLevel::H1 => 1,
            HeadingLevel::H2 => 2,
            HeadingLevel::H3 => 3,
            _ => 4,
        };
        let id = self.unique_id(&heading_id(&plain));
        if n == 2 {
            self.contents.push((id.clone(), inner.clone()));
        }
        self.out
            .push_str(&format!("<h{n} id=\"{id}\">{inner}</h{n}>\n"));
    }

    fn end_code(&mut self) {
        let Some((info, code)) = self.code.take() else {
            return;
        };
        let body = if info.is_empty() || info == "visaasm" {
            code::code_html(code.trim_end_matches('\n'), self.site)
        } else {
            text::html(code.trim_end_matches('\n'))
        };
        self.out
            .push_str(&format!("<pre class=\"example\">{body}</pre>\n"));
    }

    fn unique_id(&mut self, base: &str) -> String {
        let mut id = base.to_string();
        let mut n = 2;
        while !self.ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
}

/// A heading's id: the lower-case ASCII words of its text, joined by `-`.
pub fn heading_id(plain: &str) -> String {
    let words: Vec<String> = plain
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        "section".to_string()
    } else {
        words.join("-")
    }
}

/// Links kept as links: within the page, relative to the site, or to an http(s) address. A
/// link with another scheme (`javascript:`) is shown as its text.
fn is_safe_link(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return true;
    }
    !lower.contains(':') && !lower.starts_with("//")
}

//! Document text cannot inject markup into the generated site: every text slot of a hand-built
//! document carries HTML/markdown payloads, and the output may only contain the generator's own
//! tags (HTML) or escaped text outside code blocks (markdown).

mod docs_support;

use visa_codegen::docs::{self, Format};
use visa_codegen::model::*;

const PAYLOAD: &str = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&amp;";
const MD_PAYLOAD: &str = "*em* _u_ [link](javascript:alert(3)) `code` <b>x</b> | pipe # h";

fn text(tag: &str) -> String {
    format!("{tag} {PAYLOAD} {MD_PAYLOAD}")
}

fn platform() -> Platform {
    Platform {
        name: text("plat"),
        bound: PlatformBound::Since,
    }
}

fn type_name() -> TypeName {
    TypeName {
        name: text("type"),
        platforms: vec![platform()],
    }
}

fn hostile_document(opcode_name: &str) -> Document {
    let loc = Loc::new(1, 1);
    let code = CodeValue {
        code: 2,
        label: text("label"),
        platforms: vec![platform()],
        description: text("code description"),
        loc,
    };
    let range = CodeRange {
        first: 0,
        last: 1,
        label: text("range"),
        platforms: vec![platform()],
        loc,
    };
    let field = Field {
        name: text("field"),
        ty: FieldType::Other(text("ty")),
        description: text("description\n- list\n# heading"),
        allowed_types: vec![type_name()],
        operand_classes: vec![text("class")],
        unwritten: None,
        bitfields: vec![BitField {
            hi: 1,
            lo: 0,
            description: text("bits"),
            platforms: vec![platform()],
            values: vec![code.clone()],
            ranges: vec![range.clone()],
            loc,
        }],
        values: vec![code],
        ranges: vec![range],
        range: Some((-1, 5)),
        loc,
    };
    let opcode = OpcodeDef {
        name: opcode_name.to_string(),
        value: 0x7f,
        loc,
    };
    Document {
        file: text("file").replace('\n', " "),
        line: 1,
        opcodes: vec![opcode.clone()],
        formats: vec![FormatTable {
            condition: Some(text("condition")),
            opcodes: vec![opcode],
            fields: vec![FormatField {
                name: field.name.clone(),
                optional: true,
                repeat: None,
                loc,
            }],
            unread_cells: vec![],
            loc,
        }],
        fields: vec![field.clone()],
        properties: vec![
            Property {
                key: text("key"),
                value: text("value"),
                types: vec![],
                loc,
                words: vec![],
            },
            Property {
                key: "Supported Types".into(),
                value: String::new(),
                types: vec![type_name()],
                loc,
                words: vec![],
            },
            Property {
                key: "Category".into(),
                value: text("category"),
                types: vec![],
                loc,
                words: vec![],
            },
        ],
        compiler_checks: Default::default(),
        type_maps: vec![TypeMap {
            platforms: vec![platform()],
            entries: vec![(text("role"), vec![type_name()])],
            loc,
        }],
        semantics: Some(TextBlock {
            text: text("semantics ``` ````"),
            loc,
        }),
        description: Some(TextBlock {
            text: format!("{}\n\n    {}\n", text("prose"), text("indented ```")),
            loc,
        }),
        syntax: vec![SyntaxLine {
            text: format!("OP.<{}> <x> {PAYLOAD}", field.name),
            template: None,
            loc,
        }],
        syntax_comments: vec![text("comment")],
        notes: Some(TextBlock {
            text: text("notes"),
            loc,
        }),
        examples: vec![Example {
            caption: text("caption"),
            code: text("code"),
            language: text("language"),
            loc,
        }],
        extra: vec![ExtraText {
            section: text("section"),
            text: text("extra"),
            loc,
        }],
    }
}

fn documents() -> Vec<Document> {
    vec![
        hostile_document("../../etc/passwd<script>"),
        hostile_document("index"),
        hostile_document("INDEX"),
        hostile_document(&text("name")),
    ]
}

/// The tags the HTML generator writes; anything else would come from a document.
const ALLOWED_TAGS: &[&str] = &[
    "!DOCTYPE",
    "html",
    "head",
    "meta",
    "title",
    "link",
    "body",
    "nav",
    "main",
    "header",
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "strong",
    "code",
    "section",
    "table",
    "tr",
    "th",
    "td",
    "a",
    "span",
    "em",
    "pre",
    "ul",
    "li",
    "div",
    "label",
    "input",
    "script",
    "ol",
    "blockquote",
    "hr",
    "br",
];

/// A guide whose every construct carries the payloads: raw HTML blocks and inline HTML, a
/// `javascript:` link, a heading, a code block, a table.
fn hostile_guide() -> String {
    let t = text("guide");
    format!(
        "# {t}\n\n<script>alert(4)</script>\n\n## {t}\n\n{t} <img src=x onerror=alert(5)> [x](javascript:alert(6)) [y](\"onmouseover=alert(7))\n\n```visaasm\n{t}\n```\n\n> {t}\n\n1. {t}\n2. two\n\n| a | b |\n| --- | --- |\n| {t} | `{PAYLOAD}` |\n\n---\n"
    )
}

#[test]
fn html_output_contains_only_generated_tags() {
    let guide = hostile_guide();
    let options = docs::SiteOptions {
        guide: Some(&guide),
        articles: &[],
    };
    let files = docs::render_site_with(&documents(), Format::Html, &options);
    assert_eq!(files.len(), 7, "index, style, guide and four pages");
    for file in &files {
        assert!(
            file.path
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)),
            "unsafe file name {}",
            file.path
        );
        assert!(!file.path.contains(".."), "{}", file.path);
        let mut rest = file.contents.as_str();
        while let Some(start) = rest.find('<') {
            let tag = &rest[start + 1..];
            let end = tag.find('>').expect("unclosed tag");
            let tag = &tag[..end];
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
                .collect();
            let name = if name.eq_ignore_ascii_case("!doctype") {
                "!DOCTYPE".to_string()
            } else {
                name
            };
            assert!(
                ALLOWED_TAGS.contains(&name.as_str()),
                "{}: tag <{tag}>",
                file.path
            );
            for (attribute, value) in attributes(tag) {
                assert!(
                    !attribute.to_ascii_lowercase().starts_with("on"),
                    "{}: event handler in <{tag}>",
                    file.path
                );
                if attribute == "href" || attribute == "src" {
                    assert!(!value.contains(':'), "{}: URL scheme in <{tag}>", file.path);
                }
            }
            rest = &rest[start + 1 + end..];
        }
        let expected_scripts = usize::from(file.path == "index.html");
        if file.path == "guide.html" {
            assert!(
                file.contents
                    .contains("&lt;script&gt;alert(4)&lt;/script&gt;")
            );
            assert!(
                !file.contents.contains("href=\"javascript"),
                "the link is text only"
            );
        }
        assert_eq!(
            file.contents.matches("<script").count(),
            expected_scripts,
            "{}",
            file.path
        );
    }
    // The payload is shown, as text.
    let page = files
        .iter()
        .find(|f| f.path.starts_with("___"))
        .map(|f| &f.contents);
    let page = page.or(files.get(2).map(|f| &f.contents)).unwrap();
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(docs_support::html_text(page).contains(PAYLOAD));
}

/// The attributes of a tag body (`name attr="value" ...`), honouring quotes.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = tag.chars().skip_while(|c| !c.is_whitespace()).peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let name: String =
            std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace() && *c != '=')).collect();
        if name.is_empty() {
            return out;
        }
        let mut value = String::new();
        if chars.next_if_eq(&'=').is_some() {
            let quote = chars.next().expect("attribute value");
            assert!(
                quote == '"' || quote == '\'',
                "unquoted attribute {name} in <{tag}>"
            );
            value = std::iter::from_fn(|| chars.next_if(|c| *c != quote)).collect();
            assert_eq!(
                chars.next(),
                Some(quote),
                "unterminated attribute in <{tag}>"
            );
        }
        out.push((name, value));
    }
}

#[test]
fn page_names_are_unique_and_never_index() {
    let pages = docs::pages(&documents(), Format::Html);
    let mut names: Vec<String> = pages.iter().map(|p| p.file.to_ascii_lowercase()).collect();
    assert!(!names.contains(&"index.html".to_string()));
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 4);
    let traversal = pages.iter().find(|p| p.name.starts_with("../")).unwrap();
    assert_eq!(traversal.file, "______etc_passwd_script_.html");
}

#[test]
fn markdown_output_escapes_text_outside_code() {
    let files = docs::render_site(&documents(), Format::Markdown);
    for file in &files {
        let mut fence: Option<String> = None;
        for line in file.contents.lines() {
            let ticks: String = line.chars().take_while(|c| *c == '`').collect();
            match &fence {
                Some(open)
                    if ticks.len() >= open.len() && line.trim_start_matches('`').is_empty() =>
                {
                    fence = None;
                    continue;
                }
                Some(_) => continue,
                None if ticks.len() >= 3 => {
                    fence = Some(ticks);
                    continue;
                }
                None => {}
            }
            check_markdown_line(&file.path, line);
        }
        assert!(fence.is_none(), "{}: unclosed fence", file.path);
    }
    let page = files.iter().find(|f| f.path != "index.md").unwrap();
    assert!(docs_support::markdown_text(&page.contents).contains(PAYLOAD));
}

/// Outside code, `<`, `[`, `*`, `_` and `` ` `` from documents are backslash-escaped; the
/// generator's own anchors, links and code spans are recognised and skipped.
fn check_markdown_line(path: &str, line: &str) {
    let mut rest = line;
    if let Some(anchor) = rest.strip_prefix("<a id=\"field-") {
        let end = anchor.find("\"></a>").expect("anchor end");
        let id = &anchor[..end];
        assert!(
            id.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c)),
            "{path}: {line}"
        );
        return;
    }
    let mut escaped = false;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '<' => panic!("{path}: raw `<` in {line:?}"),
            '`' => {
                // A code span written by the generator: contents are literal up to the next `.
                let end = rest
                    .find('`')
                    .unwrap_or_else(|| panic!("{path}: open code span in {line:?}"));
                assert!(!rest[..end].contains('\n'));
                rest = &rest[end + 1..];
            }
            '[' => {
                // A generator link: [text](target) with a local target.
                let close = unescaped_find(rest, "](")
                    .unwrap_or_else(|| panic!("{path}: raw `[` in {line:?}"));
                let target_end = rest[close..].find(')').unwrap() + close;
                let target = &rest[close + 2..target_end];
                assert!(
                    target.ends_with(".md") || target.starts_with("#field-"),
                    "{path}: link target {target:?}"
                );
                assert!(!target.contains(':'), "{path}: {target}");
                rest = &rest[target_end + 1..];
            }
            _ => {}
        }
    }
}

/// The first occurrence of `needle` in `text` that is not backslash-escaped.
fn unescaped_find(text: &str, needle: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if !escaped && text[i..].starts_with(needle) {
            return Some(i);
        }
        escaped = !escaped && c == '\\';
    }
    None
}

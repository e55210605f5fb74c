//! Identifier and text helpers shared by the emitters: Rust names from document names and labels,
//! the text token of a code (syntax convention 2), and doc-comment escaping.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::TokenStream;

/// Rust keywords and prelude names a generated identifier must not take.
const RESERVED: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
    "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
    "try", "type", "unsafe", "use", "where", "while", "yield", "abstract", "become", "do", "final",
    "macro", "override", "priv", "typeof", "unsized", "virtual",
];

const RESERVED_TYPES: &[&str] = &[
    "Self", "Option", "Result", "Some", "None", "Ok", "Err", "String", "Vec", "Box", "Default",
    "Copy", "Clone", "Debug", "Display",
];

fn ascii_alnum_only(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}

/// An UpperCamelCase type or variant name; prefixed with `prefix` when it would start with a
/// digit, `fallback` when nothing usable is left.
pub fn type_ident(name: &str, prefix: &str, fallback: &str) -> String {
    let camel = ascii_alnum_only(name).to_upper_camel_case();
    let mut ident = if camel.is_empty() {
        fallback.to_string()
    } else if camel.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{prefix}{camel}")
    } else {
        camel
    };
    if RESERVED_TYPES.contains(&ident.as_str()) {
        ident.push_str("Value");
    }
    ident
}

/// A snake_case member name; keywords get a trailing `_value`.
pub fn member_ident(name: &str, fallback: &str) -> String {
    let snake = ascii_alnum_only(name).to_snake_case();
    let mut ident = if snake.is_empty() {
        fallback.to_string()
    } else if snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("f{snake}")
    } else {
        snake
    };
    if RESERVED.contains(&ident.as_str()) {
        ident.push_str("_value");
    }
    ident
}

/// The Rust name of an instruction (`SVM_GATHER` -> `SvmGather`, `3D_LOAD` -> `Op3dLoad`).
pub fn instr_ident(full_name: &str) -> String {
    let ident = type_ident(full_name, "Op", "Unnamed");
    // `Instr` is the generated enum over all instructions.
    if ident == "Instr" {
        "InstrInstruction".to_string()
    } else {
        ident
    }
}

/// The variant name for a code: the label up to its first punctuation, at most four words
/// (`1 element (scalar)` -> `N1Element`, `EQ - equal to` -> `Eq`).
pub fn variant_ident(label: &str, code: u64) -> String {
    // A first word `a|b|c` lists further spellings of the token (see `text_spellings`): the
    // variant is named after the printed one, `a`.
    let first = label.split_whitespace().next().unwrap_or_default();
    let label = match first.split_once('|') {
        Some((printed, _)) => label.replacen(first, printed, 1),
        None => label.to_string(),
    };
    let head = label
        .split(['.', ',', '(', ';', ':', '-', '/', '='])
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = head.split_whitespace().take(4).collect();
    type_ident(&words.join(" "), "N", &format!("Code{code}"))
}

/// The text token of a code label (syntax convention 2): its first word, lower-cased, without
/// trailing `:` `,` `-` `.`.
pub fn text_token(label: &str) -> String {
    text_spellings(label).into_iter().next().unwrap_or_default()
}

/// Every spelling of a code label's token: a first word `a|b|c` is read as any of them and
/// printed as `a` (the compiler's lexer takes several spellings of some codes).
pub fn text_spellings(label: &str) -> Vec<String> {
    let word = label
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches([':', ',', '-', '.'])
        .to_ascii_lowercase();
    word.split('|').map(str::to_string).collect()
}

/// The name a `Bit[..]` description gives its sub-field: the word before a leading `name:`, or
/// the first word of its first line (text nested under the item does not name it).
pub fn subfield_name(description: &str) -> String {
    let first_line = description.lines().next().unwrap_or_default();
    let first = first_line.split_whitespace().next().unwrap_or_default();
    first
        .trim_end_matches([':', ',', '-', '.', ';'])
        .to_ascii_lowercase()
}

/// Whether a sub-field description starts with `name:` (syntax convention 1). Only its first
/// line counts: text nested under the item does not rename it.
pub fn description_names(description: &str, name: &str) -> bool {
    let first = description.trim_start().lines().next().unwrap_or_default();
    match first.split_once(':') {
        Some((head, _)) => head.trim().eq_ignore_ascii_case(name),
        None => false,
    }
}

/// A doc-comment attribute per line.
pub fn doc_lines<I, S>(lines: I) -> TokenStream
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    lines
        .into_iter()
        .map(|line| {
            let text = format!(" {}", line.as_ref());
            let text = text.trim_end();
            quote::quote! { #[doc = #text] }
        })
        .collect()
}

/// Escapes document prose for a doc comment: angle brackets would read as HTML, square
/// brackets as links, and stars/underscores/backticks as emphasis.
pub fn doc_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
            continue;
        }
        if in_code {
            out.push(c);
            continue;
        }
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '[' | ']' | '*' | '#' | '|' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Document prose as one doc paragraph: lines trimmed, blank lines kept as paragraph breaks,
/// code fences dropped.
pub fn doc_paragraphs(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    // Width of the marker of the list item the paragraph is in (`- `: 2), if any: its
    // continuation lines are indented by that much, as markdown expects.
    let mut item: Option<usize> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("```") {
            continue;
        }
        if line.is_empty() {
            item = None;
            if lines.last().is_some_and(|l: &String| !l.is_empty()) {
                lines.push(String::new());
            }
        } else if let Some(width) = list_marker(line) {
            item = Some(width);
            lines.push(doc_escape(line));
        } else {
            let indent = " ".repeat(item.unwrap_or(0));
            lines.push(format!("{indent}{}", doc_escape(line)));
        }
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// The width of a list-item marker that starts `line` (`- `, `* `, `12. `), if any.
fn list_marker(line: &str) -> Option<usize> {
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return Some(2);
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(". ")).then_some(digits + 2)
}

/// Makes `names` unique by appending `2`, `3`, ... to later duplicates.
pub fn dedupe(names: &mut [String]) {
    let originals: std::collections::HashSet<String> = names.iter().cloned().collect();
    let mut used = std::collections::HashSet::new();
    for name in names.iter_mut() {
        if !used.insert(name.clone()) {
            let mut n = 2;
            let mut candidate = format!("{name}{n}");
            while used.contains(&candidate) || originals.contains(&candidate) {
                n += 1;
                candidate = format!("{name}{n}");
            }
            *name = candidate;
            used.insert(name.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_convention_two() {
        assert_eq!(text_token("4 byte"), "4");
        assert_eq!(text_token("EQ - equal to"), "eq");
        assert_eq!(text_token("M1_NM"), "m1_nm");
        assert_eq!(
            text_token("unaligned: address may be dword aligned"),
            "unaligned"
        );
        assert_eq!(text_token(""), "");
        assert_eq!(text_token("d8u32|d8c32 - widened"), "d8u32");
        assert_eq!(text_spellings("d8u32|d8c32 - widened"), ["d8u32", "d8c32"]);
        assert_eq!(variant_ident("d8u32|d8c32|u8c32 - widened", 5), "D8u32");
    }

    #[test]
    fn identifiers_are_valid_rust() {
        assert_eq!(instr_ident("SVM_GATHER"), "SvmGather");
        assert_eq!(instr_ident("3D_LOAD"), "Op3dLoad");
        assert_eq!(variant_ident("1 element (scalar)", 0), "N1Element");
        assert_eq!(variant_ident("EQ - equal to", 0), "Eq");
        assert_eq!(variant_ident("M1_NM", 8), "M1Nm");
        assert_eq!(variant_ident("", 3), "Code3");
        assert_eq!(member_ident("Exec_size", "x"), "exec_size");
        assert_eq!(member_ident("Type", "x"), "type_value");
        assert_eq!(type_ident("Result", "N", "X"), "ResultValue");
    }

    #[test]
    fn subfield_names() {
        assert!(description_names("size: number of owords", "size"));
        assert!(!description_names("number of owords: size", "size"));
        // Text nested under the item (a later line) does not name the sub-field.
        assert!(!description_names(
            "the mode\nNote: as on every platform",
            "note"
        ));
        assert!(description_names("mode: which one\nNote: x", "mode"));
        assert_eq!(subfield_name("\nNote: nested"), "");
        assert_eq!(subfield_name("size of the region"), "size");
    }

    #[test]
    fn list_items_keep_their_continuation_lines_indented() {
        let text = "Intro line\nwraps here.\n\n- first item\n  goes on\n- second\n\n10. tenth\n    more\n\nafter";
        assert_eq!(
            doc_paragraphs(text),
            [
                "Intro line",
                "wraps here.",
                "",
                "- first item",
                "  goes on",
                "- second",
                "",
                "10. tenth",
                "    more",
                "",
                "after",
            ]
        );
    }

    #[test]
    fn dedupe_appends_numbers() {
        let mut names = vec!["A".to_string(), "A".to_string(), "A2".to_string()];
        dedupe(&mut names);
        assert_eq!(names, ["A", "A3", "A2"]);
    }
}

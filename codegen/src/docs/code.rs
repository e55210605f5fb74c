//! Assembly in the reference: code blocks as HTML, escaped, with each instruction's mnemonic
//! linked to its page (found through the syntax templates of the documents, so the generator
//! knows no instruction by name).

use super::site::Site;
use super::text;

/// `code` as the content of a `<pre>`: escaped, each statement's mnemonic a link to its page.
pub fn code_html(code: &str, site: &Site<'_>) -> String {
    let mut out = String::with_capacity(code.len() + 64);
    for (i, line) in code.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let linked = mnemonic_range(line).and_then(|(start, end)| {
            let entry = site.by_mnemonic(&line[start..end])?;
            Some((start, end, entry))
        });
        match linked {
            Some((start, end, entry)) => {
                out.push_str(&text::html(&line[..start]));
                out.push_str(&format!(
                    "<a class=\"mnemonic\" href=\"{}.html\" title=\"{}\">{}</a>",
                    text::html(&entry.page),
                    text::html(&entry.name),
                    text::html(&line[start..end])
                ));
                out.push_str(&text::html(&line[end..]));
            }
            None => out.push_str(&text::html(line)),
        }
    }
    out
}

/// Where the mnemonic of an instruction line is (byte range): the first word, after an
/// optional `(P1)` predicate, up to its first `.` suffix. Directives (`.decl`), labels
/// (`NAME:`), comments and braces have none.
fn mnemonic_range(line: &str) -> Option<(usize, usize)> {
    let mut at = line.len() - line.trim_start().len();
    if line[at..].starts_with('(') {
        at += line[at..].find(')')? + 1;
        at += line[at..].len() - line[at..].trim_start().len();
    }
    let word = &line[at..];
    let end = word
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(word.len());
    let is_label = word[end..].trim_start().starts_with(':');
    (end > 0 && !is_label).then_some((at, at + end))
}

#[cfg(test)]
mod tests {
    use super::mnemonic_range;

    fn word(line: &str) -> Option<&str> {
        mnemonic_range(line).map(|(s, e)| &line[s..e])
    }

    #[test]
    fn the_mnemonic_is_the_first_word_after_a_predicate() {
        assert_eq!(word("add (M1, 8) V(0,0)<1> 0x1:d"), Some("add"));
        assert_eq!(word("  (!P1) goto (M1, 8) L"), Some("goto"));
        assert_eq!(
            word("svm_gather4scaled.rgba (M1, 16) A B C"),
            Some("svm_gather4scaled")
        );
        assert_eq!(word("fence_local.E"), Some("fence_local"));
        assert_eq!(word(".decl V v_type=G"), None);
        assert_eq!(word("done:"), None);
        assert_eq!(word("LOOP :"), None);
        assert_eq!(word("// run: --simd 8"), None);
        assert_eq!(word("(P1"), None);
        assert_eq!(word(""), None);
    }
}

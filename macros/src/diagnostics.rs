//! Where and how the macro reports the assembler's and the checker's findings.

use crate::source::Source;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote_spanned};
use visa_isa::ast::{Module, StmtKind};
use visa_isa::text::{Diagnostic, TextError};

/// The message of a parse error, with the nearest known mnemonic suggested for unknown ones.
pub fn parse_error_message(e: &TextError) -> String {
    let mut message = format!("found {}, expected {}", e.found, e.expected);
    if e.expected.contains("mnemonic") {
        let found = e.found.trim_matches('`').to_ascii_lowercase();
        if let Some(best) = nearest_mnemonic(&found) {
            message.push_str(&format!("; did you mean `{best}`?"));
        }
    }
    message
}

/// The known mnemonic closest to `word` by edit distance, if it is close enough to be a typo.
fn nearest_mnemonic(word: &str) -> Option<&'static str> {
    visa_isa::INSTRUCTIONS
        .iter()
        .flat_map(|d| d.syntax.iter().map(|s| s.mnemonic))
        .map(|m| (edit_distance(word, m), m))
        .filter(|(d, m)| *d <= (m.len() / 3).max(1))
        .min()
        .map(|(_, m)| m)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The span a checker diagnostic points at: the token naming the variable or label it is about
/// (the first `` `name` `` of the message found on its line), else the operand it names
/// (`<src1>`), else the statement's first token.
pub fn span_of(d: &Diagnostic, module: &Module, src: &Source, fallback: Span) -> Span {
    if d.span.line == 0 {
        return fallback;
    }
    let named = d
        .message
        .split('`')
        .skip(1)
        .step_by(2)
        .find_map(|name| src.span_of_name(d.span.line, name));
    if let Some(span) = named {
        return span;
    }
    let operand_col = placeholder(&d.message)
        .and_then(|name| operand_index(module, d.span.line, name))
        .and_then(|k| operand_column(src.line_text(d.span.line), k));
    match operand_col {
        Some(col) => src.span_at(d.span.line, col),
        None => src.span_at(d.span.line, d.span.col),
    }
}

/// A checker message without positions in the rebuilt text, which mean nothing to the user.
pub fn clean_message(message: &str) -> String {
    match message.find(" (at ") {
        Some(at) if message.ends_with(')') => message[..at].to_string(),
        _ => message.to_string(),
    }
}

/// The first `<name>` placeholder of a message.
fn placeholder(message: &str) -> Option<&str> {
    let start = message.find('<')? + 1;
    let len = message[start..].find('>')?;
    Some(&message[start..start + len])
}

/// Position among the written operands of the operand slot `name` of the instruction on `line`.
fn operand_index(module: &Module, line: u32, name: &str) -> Option<usize> {
    let instr = module.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Instr(i) if s.span.line == line => Some(i),
        _ => None,
    })?;
    let desc = visa_isa::INSTRUCTIONS.get(instr.desc)?;
    desc.syntax.iter().find_map(|syntax| {
        syntax.operands.iter().position(|(field, _)| {
            desc.fields
                .get(*field)
                .is_some_and(|f| f.name.eq_ignore_ascii_case(name))
        })
    })
}

/// Column of the `k`-th operand of an instruction line: after the optional predicate, the
/// mnemonic and the parenthesised execution size, operands are separated by blanks outside
/// brackets.
fn operand_column(line: &str, k: usize) -> Option<u32> {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let skip_blanks = |i: &mut usize| {
        while chars.get(*i).is_some_and(|c| c.is_whitespace()) {
            *i += 1;
        }
    };
    let skip_group = |i: &mut usize| {
        let mut depth = 0;
        while let Some(c) = chars.get(*i) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        *i += 1;
                        return;
                    }
                }
                _ => {}
            }
            *i += 1;
        }
    };
    skip_blanks(&mut i);
    if chars.get(i) == Some(&'(') {
        skip_group(&mut i);
        skip_blanks(&mut i);
    }
    while chars
        .get(i)
        .is_some_and(|c| !c.is_whitespace() && *c != '(')
    {
        i += 1;
    }
    skip_blanks(&mut i);
    if chars.get(i) == Some(&'(') {
        skip_group(&mut i);
    }
    let mut index = 0;
    loop {
        skip_blanks(&mut i);
        if i >= chars.len() {
            return None;
        }
        if index == k {
            return u32::try_from(i + 1).ok();
        }
        let mut depth = 0i32;
        while let Some(c) = chars.get(i) {
            match c {
                '(' | '[' | '<' => depth += 1,
                ')' | ']' | '>' => depth -= 1,
                c if c.is_whitespace() && depth <= 0 => break,
                _ => {}
            }
            i += 1;
        }
        index += 1;
    }
}

/// A compiler warning at `span`. Stable Rust has no warning API for procedural macros, so the
/// warning is a call of a deprecated function whose note is the message.
pub fn warning(span: Span, message: &str) -> TokenStream {
    let name = format_ident!("visa_warning", span = span);
    let note = format!("vISA: {message}");
    quote_spanned! {span=>
        {
            #[deprecated(note = #note)]
            #[allow(non_snake_case)]
            fn #name() {}
            #name();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_columns_skip_predicate_mnemonic_and_exec_size() {
        let line = "(!P1) add (M1, 16) V1(0,0)<1> (-)V2(0, 0)<1;1,0> 0x1:d";
        assert_eq!(operand_column(line, 0), Some(20));
        assert_eq!(operand_column(line, 1), Some(31));
        assert_eq!(operand_column(line, 2), Some(50));
        assert_eq!(operand_column(line, 3), None);
        assert_eq!(operand_column("jmp (M1, 1) target", 0), Some(13));
    }

    #[test]
    fn nearest_mnemonic_suggests_typos_only() {
        assert_eq!(nearest_mnemonic("ad"), Some("add"));
        assert_eq!(nearest_mnemonic("svm_gahter"), Some("svm_gather"));
        assert_eq!(nearest_mnemonic("frobnicate"), None);
    }

    #[test]
    fn messages_lose_rebuilt_positions() {
        assert_eq!(
            clean_message("`t` is already declared in this scope (at 1:1)"),
            "`t` is already declared in this scope"
        );
        assert_eq!(clean_message("no position"), "no position");
    }
}

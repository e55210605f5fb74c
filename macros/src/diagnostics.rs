//! Where and how the macro reports the assembler's and the checker's findings.

use crate::source::Source;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote_spanned};
use visa_isa::text::{Diagnostic, TextError};

/// The message of a parse error, with the mnemonic it probably meant (`visa_isa::text::suggest`,
/// as `visa check` shows it).
pub fn parse_error_message(e: &TextError) -> String {
    let message = format!("found {}, expected {}", e.found, e.expected);
    with_suggestion(message, e.suggestion.as_deref())
}

/// The message of a checker diagnostic, with the name it probably meant.
pub fn check_message(d: &Diagnostic) -> String {
    with_suggestion(d.message.clone(), d.suggestion.as_deref())
}

fn with_suggestion(mut message: String, meant: Option<&str>) -> String {
    if let Some(meant) = meant {
        message.push_str(&format!("; did you mean `{meant}`?"));
    }
    message
}

/// The span a checker diagnostic points at: the macro input's token at the diagnostic's
/// position in the assembled text (its operand, the declaration part it is about, else its
/// statement), or `fallback` for what the user did not write (the declarations made for the
/// kernel's parameters).
pub fn span_of(d: &Diagnostic, src: &Source, fallback: Span) -> Span {
    if d.span.line == 0 {
        return fallback;
    }
    src.span_at(d.span.line, d.span.col)
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

    /// The token a checker diagnostic points at comes from the diagnostic's structure (its
    /// subject and position), not from its wording: a reworded message points at the same
    /// operand, and one naming nothing at all does too.
    #[test]
    fn diagnostics_point_at_their_operand_whatever_their_words() {
        let input = "
            .decl A v_type=G type=d num_elts=16
            add (M1, 16) A(0,0)<1> NOPE(0,0)<1;1,0> A(0,0)<3;3,1>
        ";
        let tokens: proc_macro2::TokenStream = input.parse().expect("tokens");
        let mut rebuilder = crate::source::Rebuilder::new(&[], Span::call_site());
        rebuilder.push_stream(tokens);
        let src = rebuilder.finish();
        let module = visa_isa::text::parse(&src.text).expect("the rebuilt text parses");
        let found = visa_isa::text::check(&module);
        let column_in_input = |word: &str| {
            let line = input.lines().nth(2).expect("line 3");
            line.find(word).expect("written")
        };
        // `NOPE` is undeclared (<src0>); `<3;3,1>` has vertical stride and width 3 (<src1>).
        let expected = [
            ("NOPE", column_in_input("NOPE(")),
            ("vertical stride", column_in_input("A(0,0)<3")),
            ("width", column_in_input("A(0,0)<3")),
        ];
        assert_eq!(found.len(), expected.len(), "{found:?}");
        for (d, (topic, column)) in found.iter().zip(expected) {
            assert!(d.message.contains(topic), "{}", d.message);
            let start = span_of(d, &src, Span::call_site()).start();
            assert_eq!((start.line, start.column), (3, column), "{}", d.message);
            let mut reworded = d.clone();
            reworded.message = "something else entirely".to_string();
            let again = span_of(&reworded, &src, Span::call_site()).start();
            assert_eq!((again.line, again.column), (3, column));
        }
    }
}

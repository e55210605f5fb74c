//! Emits `enum OperandClass` (into `opcode.rs`): one variant per operand class word of the
//! documents' `Operand class:` lists, together with the words the tools read (spec/README.md:
//! `number`, `string`, `symbol`, `hex`, and the classes of the operand forms), and an open
//! fallback `Other` for a word that makes no Rust name (or a hand-built table's own word).

use std::collections::BTreeMap;

use heck::ToUpperCamelCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{FieldModel, Lowered};

/// The classes the tools interpret, present whatever the documents say: the operand forms
/// (5_operands.md) and the words spec/README.md gives a meaning.
const KNOWN: [&str; 13] = [
    "general",
    "indirect",
    "immediate",
    "predicate",
    "address",
    "state",
    "raw",
    "label",
    "name",
    "number",
    "hex",
    "string",
    "symbol",
];

/// A class word as the tables write it: trimmed, lower-case.
pub(crate) fn word(class: &str) -> String {
    class.trim().to_ascii_lowercase()
}

/// The variant of a word, when it makes a Rust name (`immediate16` -> `Immediate16`).
fn variant(word: &str) -> Option<String> {
    let clean = word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let ident = word.to_upper_camel_case();
    (clean && ident != "Other" && !ident.is_empty()).then_some(ident)
}

/// Every word with its variant, in alphabetical order.
pub(crate) fn vocabulary(lowered: &Lowered<'_>) -> BTreeMap<String, String> {
    let fields = lowered.instrs.iter().flat_map(|i| &i.fields);
    let documented = fields
        .filter_map(|f: &FieldModel<'_>| f.bullet)
        .flat_map(|b| &b.operand_classes)
        .map(|c| word(c));
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for word in KNOWN.iter().map(|w| w.to_string()).chain(documented) {
        let Some(ident) = variant(&word) else {
            continue;
        };
        // Two words spelling one name: the first keeps it, the other is `Other`.
        if !out.values().any(|v| *v == ident) {
            out.entry(word).or_insert(ident);
        }
    }
    out
}

/// The Rust path of a class word in the tables: its variant, or `Other("word")`.
pub(crate) fn path(vocabulary: &BTreeMap<String, String>, class: &str) -> Result<String, String> {
    let word = word(class);
    match vocabulary.get(&word) {
        Some(ident) => Ok(format!("crate::OperandClass::{ident}")),
        None => Err(word),
    }
}

pub fn emit(lowered: &Lowered<'_>) -> TokenStream {
    let vocabulary = vocabulary(lowered);
    let words: Vec<&str> = vocabulary.keys().map(String::as_str).collect();
    let idents: Vec<_> = vocabulary.values().map(|v| format_ident!("{v}")).collect();
    let docs: Vec<String> = words.iter().map(|w| format!(" `{w}`")).collect();
    quote! {
        /// An operand class a field accepts (`Operand class: general,indirect,immediate`): one
        /// variant per word of the documents' vocabulary and of the words the tools read
        /// (spec/README.md). Open: a word with no variant is [`OperandClass::Other`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum OperandClass {
            #(
                #[doc = #docs]
                #idents,
            )*
            /// A word without a variant, lower-case.
            Other(&'static str),
        }

        impl OperandClass {
            /// The word the documents write.
            pub const fn word(self) -> &'static str {
                match self {
                    #( Self::#idents => #words, )*
                    Self::Other(word) => word,
                }
            }

            /// The class a word names (any case, surrounding spaces ignored), `None` for a
            /// word without a variant.
            pub fn from_word(word: &str) -> Option<Self> {
                let word = word.trim();
                #(
                    if word.eq_ignore_ascii_case(#words) {
                        return Some(Self::#idents);
                    }
                )*
                None
            }
        }
    }
}

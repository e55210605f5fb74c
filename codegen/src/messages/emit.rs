//! [`MessageDoc`]s -> `messages.rs` of `visa-isa`: per document a module with its shared
//! functions, its field table (`FIELDS`), an open enum per coded field, a `Descriptor` (`desc`,
//! `ex_desc`) with a getter and a setter per descriptor field, and a `Payload` view with a getter
//! per payload field. The support types (`FieldInfo`, `Word`, the bit helpers) are hand-written
//! in `visa_isa::messages`.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{MessageDoc, MessageField, Word};

fn variant_name(token: &str, taken: &[String]) -> String {
    let cleaned: String = token
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut name = cleaned.to_upper_camel_case();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("N{name}");
    }
    if name == "Other" || name == "Self_" || name == "Self" {
        name.push('_');
    }
    while taken.contains(&name) {
        name.push('_');
    }
    name
}

fn word_tokens(word: Word) -> TokenStream {
    match word {
        Word::Desc => quote!(super::Word::Desc),
        Word::ExDesc => quote!(super::Word::ExDesc),
        Word::Payload => quote!(super::Word::Payload),
    }
}

fn field_info(field: &MessageField) -> TokenStream {
    let name = &field.name;
    let word = word_tokens(field.word);
    let (hi, lo) = (field.hi, field.lo);
    let description = &field.description;
    let codes = field.codes.iter().map(|c| {
        let value = Literal::u64_unsuffixed(c.value);
        let (token, label) = (&c.token, &c.label);
        quote!(super::CodeInfo { value: #value, token: #token, label: #label })
    });
    let used_by = &field.used_by;
    let when = match &field.when {
        Some((other, tokens)) => quote!(Some((#other, &[#(#tokens),*]))),
        None => quote!(None),
    };
    let on = &field.on;
    let visa = match &field.visa {
        Some(t) => quote!(Some(#t)),
        None => quote!(None),
    };
    quote! {
        super::FieldInfo {
            name: #name, word: #word, hi: #hi, lo: #lo, description: #description,
            codes: &[#(#codes),*], used_by: &[#(#used_by),*], when: #when, visa: #visa,
            on: &[#(#on),*],
        }
    }
}

/// The open enum of a coded field, with `from_code`, `code` and `token`.
fn code_enum(field: &MessageField) -> TokenStream {
    let ty = format_ident!("{}", field.name.to_upper_camel_case());
    let mut taken = Vec::new();
    let names: Vec<_> = field
        .codes
        .iter()
        .map(|c| {
            let n = variant_name(&c.token, &taken);
            taken.push(n.clone());
            format_ident!("{}", n)
        })
        .collect();
    let values: Vec<_> = field
        .codes
        .iter()
        .map(|c| Literal::u64_unsuffixed(c.value))
        .collect();
    let tokens: Vec<_> = field.codes.iter().map(|c| c.token.as_str()).collect();
    let docs: Vec<_> = field
        .codes
        .iter()
        .map(|c| format!("`{}`: {}", c.token, c.label))
        .collect();
    let doc = format!("`{}`: {}", field.name, field.description);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #ty {
            #( #[doc = #docs] #names, )*
            /// A value the document gives no code.
            Other(u64),
        }
        impl #ty {
            /// The code of `value`.
            pub const fn from_code(value: u64) -> Self {
                match value { #( #values => Self::#names, )* other => Self::Other(other) }
            }
            /// Its value.
            pub const fn code(self) -> u64 {
                match self { #( Self::#names => #values, )* Self::Other(v) => v }
            }
            /// Its token (the first word of its label), `None` for a value without a code.
            pub const fn token(self) -> Option<&'static str> {
                match self { #( Self::#names => Some(#tokens), )* Self::Other(_) => None }
            }
        }
    }
}

fn module(doc: &MessageDoc) -> TokenStream {
    let module = format_ident!("{}", doc.module.to_snake_case());
    let module_doc = format!("{} (`{}`).", doc.title, doc.file);
    let sfids = doc
        .shared_functions
        .iter()
        .map(|(name, code)| quote!((#name, #code)));
    let infos = doc.fields.iter().map(field_info);
    let enums = doc
        .fields
        .iter()
        .filter(|f| !f.codes.is_empty())
        .map(code_enum);
    let infos_by_name = doc.fields.iter().enumerate().map(|(i, f)| {
        let name = format_ident!("{}", f.name.to_shouty_snake_case());
        let doc = format!("The field `{}`.", f.name);
        quote!(#[doc = #doc] pub const #name: &super::FieldInfo = &FIELDS[#i];)
    });
    let mut desc_methods = Vec::new();
    let mut payload_methods = Vec::new();
    for field in &doc.fields {
        let getter = format_ident!("{}", field.name.to_snake_case());
        let setter = format_ident!("set_{}", field.name.to_snake_case());
        let (hi, lo) = (field.hi, field.lo);
        let doc = format!(
            "`{}` (bits {}..{}): {}",
            field.name, hi, lo, field.description
        );
        let coded = !field.codes.is_empty();
        let ty = format_ident!("{}", field.name.to_upper_camel_case());
        match field.word {
            Word::Desc | Word::ExDesc => {
                let word = if field.word == Word::Desc {
                    format_ident!("desc")
                } else {
                    format_ident!("ex_desc")
                };
                let read = quote!(super::bits(u64::from(self.#word), #hi, #lo));
                let (ret, read, unwrap) = if coded {
                    (
                        quote!(#ty),
                        quote!(#ty::from_code(#read)),
                        quote!(value.code()),
                    )
                } else {
                    (quote!(u64), read, quote!(value))
                };
                desc_methods.push(quote! {
                    #[doc = #doc]
                    pub fn #getter(&self) -> #ret { #read }
                    #[doc = #doc]
                    pub fn #setter(&mut self, value: #ret) {
                        self.#word = super::with_bits(u64::from(self.#word), #hi, #lo, #unwrap) as u32;
                    }
                });
            }
            Word::Payload => {
                let (ret, wrap) = if coded {
                    (quote!(#ty), quote!(.map(#ty::from_code)))
                } else {
                    (quote!(u64), quote!())
                };
                payload_methods.push(quote! {
                    #[doc = #doc]
                    /// `None` when the payload is too short.
                    pub fn #getter(&self) -> Option<#ret> { super::payload_bits(self.0, #hi, #lo) #wrap }
                });
            }
        }
    }
    quote! {
        #[doc = #module_doc]
        pub mod #module {
            /// The shared functions (name, SFID) this document describes.
            pub const SHARED_FUNCTIONS: &[(&str, u8)] = &[#(#sfids),*];
            /// Every field, in the document's order.
            pub const FIELDS: &[super::FieldInfo] = &[#(#infos),*];
            #(#infos_by_name)*
            #(#enums)*
            /// A message's two descriptors, read and written field by field.
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
            pub struct Descriptor {
                /// The message descriptor.
                pub desc: u32,
                /// The extended message descriptor.
                pub ex_desc: u32,
            }
            impl Descriptor {
                #(#desc_methods)*
            }
            /// The bytes of a message's first payload register, read field by field.
            #[derive(Debug, Clone, Copy)]
            pub struct Payload<'a>(pub &'a [u8]);
            impl Payload<'_> {
                #(#payload_methods)*
            }
        }
    }
}

/// The generated `messages.rs`, formatted.
pub fn emit(docs: &[MessageDoc]) -> String {
    let modules = docs.iter().map(module);
    let all = docs.iter().map(|d| {
        let m = format_ident!("{}", d.module.to_snake_case());
        quote!((#m::SHARED_FUNCTIONS, #m::FIELDS))
    });
    let tokens = quote! {
        #(#modules)*
        /// Every document's shared functions and fields.
        pub const DOCUMENTS: &[Document] = &[#(#all),*];
    };
    let file: syn::File = match syn::parse2(tokens) {
        Ok(file) => file,
        Err(e) => return format!("compile_error!({:?});\n", e.to_string()),
    };
    format!("{}\n{}", crate::emit::HEADER, prettyplease::unparse(&file))
}

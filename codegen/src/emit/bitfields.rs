//! Emits one enum per distinct documented bitfield (its codes as variants, decode/encode,
//! `Display` printing the label) and one struct per field with several sub-fields.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::{CodeValue, Platform, PlatformBound};

use super::ir::{CodeType, Composite, Lowered, MemberType};
use super::names;

/// The `&[CodeDesc]` list of a field type's `CODES` constant (as in the instruction table).
fn codes(list: &[CodeValue]) -> TokenStream {
    let items = list.iter().map(|c| {
        let code = Literal::u64_unsuffixed(c.code);
        let label = &c.label;
        let text = names::text_token(&c.label);
        let also = names::text_spellings(&c.label).into_iter().skip(1);
        let platforms = list_platforms(&c.platforms);
        quote!(crate::desc::CodeDesc {
            code: #code, label: #label, text: #text, also: &[ #( #also ),* ], platforms: #platforms
        })
    });
    quote!(&[ #( #items ),* ])
}

fn list_platforms(list: &[Platform]) -> TokenStream {
    let items = list.iter().map(|p| {
        let name = &p.name;
        let bound = match p.bound {
            PlatformBound::Since => quote!(Since),
            PlatformBound::Before => quote!(Before),
            PlatformBound::Only => quote!(Only),
        };
        quote!(crate::desc::PlatformDesc { name: #name, bound: crate::desc::PlatformBound::#bound })
    });
    quote!(&[ #( #items ),* ])
}

fn platform_text(list: &[Platform]) -> String {
    list.iter()
        .map(|p| match p.bound {
            PlatformBound::Since => format!(" {{{}+}}", p.name),
            PlatformBound::Before => format!(" {{-{}}}", p.name),
            PlatformBound::Only => format!(" {{{}}}", p.name),
        })
        .collect()
}

fn bit_range(hi: u32, lo: u32) -> String {
    if hi == lo {
        format!("`Bit[{lo}]`")
    } else {
        format!("`Bit[{hi}..{lo}]`")
    }
}

fn users_line(users: &[String]) -> String {
    let mut unique: Vec<&String> = Vec::new();
    for user in users {
        if !unique.contains(&user) {
            unique.push(user);
        }
    }
    let list: Vec<String> = unique.iter().map(|u| format!("`{u}`")).collect();
    format!("Used by {}.", list.join(", "))
}

fn mask(hi: u32, lo: u32) -> u64 {
    let width = hi.saturating_sub(lo) + 1;
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn code_type(t: &CodeType) -> TokenStream {
    let ident = format_ident!("{}", t.ident);
    let name = &t.ident;
    let width = t.hi.saturating_sub(t.lo) + 1;
    let what = if t.whole {
        format!("Codes of the `{}` field", t.field_name)
    } else {
        format!("Codes of `{}` {}", t.field_name, bit_range(t.hi, t.lo))
    };
    let description = names::doc_escape(t.description.trim());
    let mut lines = vec![format!("{what}{}.", platform_text(&t.platforms))];
    if !description.is_empty() {
        lines.push(String::new());
        lines.push(description);
    }
    lines.push(String::new());
    lines.push(users_line(&t.users));
    let doc = names::doc_lines(lines);
    let variants: Vec<_> = t.variants.iter().map(|v| format_ident!("{}", v)).collect();
    let variant_docs = t.codes.iter().map(|c| {
        let digits = width as usize;
        names::doc_lines([format!(
            "`{:#0w$b}`: {}{}",
            c.code,
            names::doc_escape(&c.label),
            platform_text(&c.platforms),
            w = digits + 2
        )])
    });
    let values: Vec<_> = t
        .codes
        .iter()
        .map(|c| {
            let text = format!("{:#0w$b}", c.code, w = width as usize + 2);
            syn::LitInt::new(&text, proc_macro2::Span::call_site())
        })
        .collect();
    let labels: Vec<_> = t.codes.iter().map(|c| c.label.as_str()).collect();
    let texts: Vec<_> = t
        .codes
        .iter()
        .map(|c| names::text_token(&c.label))
        .collect();
    let platforms = t.codes.iter().map(|c| {
        let list = c.platforms.iter().map(|p| {
            let pname = &p.name;
            let bound = match p.bound {
                PlatformBound::Since => quote!(Since),
                PlatformBound::Before => quote!(Before),
                PlatformBound::Only => quote!(Only),
            };
            quote!(crate::desc::PlatformDesc { name: #pname, bound: crate::desc::PlatformBound::#bound })
        });
        quote!(&[ #( #list ),* ])
    });
    let count = Literal::usize_unsuffixed(t.codes.len());
    let hi = Literal::u32_unsuffixed(t.hi);
    let lo = Literal::u32_unsuffixed(t.lo);
    let code_list = codes(&t.codes);
    quote! {
        #doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #ident {
            #( #variant_docs #variants, )*
        }

        impl #ident {
            /// Every documented code, in document order.
            pub const ALL: [Self; #count] = [ #( Self::#variants ),* ];
            /// The documented codes as table data.
            pub const CODES: &'static [crate::desc::CodeDesc] = #code_list;
            /// Highest bit of the sub-field in its field.
            pub const HI: u32 = #hi;
            /// Lowest bit of the sub-field in its field.
            pub const LO: u32 = #lo;

            /// The variant for a code (the sub-field's value, not shifted); undocumented codes
            /// are an error.
            pub fn decode(code: u64) -> Result<Self, crate::bits::BitfieldError> {
                match code {
                    #( #values => Ok(Self::#variants), )*
                    _ => Err(crate::bits::BitfieldError::UndocumentedCode { ty: #name, code }),
                }
            }

            /// The code of this variant.
            pub const fn encode(self) -> u64 {
                match self { #( Self::#variants => #values, )* }
            }

            /// The document's label for this code.
            pub const fn label(self) -> &'static str {
                match self { #( Self::#variants => #labels, )* }
            }

            /// The assembly token for this code (lower-case).
            pub const fn text(self) -> &'static str {
                match self { #( Self::#variants => #texts, )* }
            }

            /// The platforms this code is restricted to (empty: every platform).
            pub const fn platforms(self) -> &'static [crate::desc::PlatformDesc] {
                match self { #( Self::#variants => #platforms, )* }
            }

            /// The variant whose assembly token is `text` (any case).
            pub fn from_text(text: &str) -> Option<Self> {
                Self::ALL.into_iter().find(|v| v.text().eq_ignore_ascii_case(text))
            }
        }

        impl std::fmt::Display for #ident {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.label())
            }
        }
    }
}

fn raw_type(width: u32) -> TokenStream {
    match width {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        _ => quote!(u64),
    }
}

fn composite(c: &Composite, code_types: &[CodeType]) -> TokenStream {
    let ident = format_ident!("{}", c.ident);
    let name = &c.ident;
    let mut lines = vec![format!(
        "The `{}` field, sub-field by sub-field.",
        c.field_name
    )];
    lines.push(String::new());
    lines.push(users_line(&c.users));
    let doc = names::doc_lines(lines);
    let covered = c
        .members
        .iter()
        .fold(0u64, |acc, m| acc | (mask(m.hi, m.lo) << m.lo));
    let covered = Literal::u64_unsuffixed(covered);
    let mut members = Vec::new();
    let mut decodes = Vec::new();
    let mut encodes = Vec::new();
    let mut displays = Vec::new();
    for m in &c.members {
        let member = format_ident!("{}", m.ident);
        let bits = mask(m.hi, m.lo);
        let mask_lit = Literal::u64_unsuffixed(bits);
        let extracted = if m.lo == 0 {
            quote!(value & #mask_lit)
        } else {
            let lo = Literal::u32_unsuffixed(m.lo);
            quote!((value >> #lo) & #mask_lit)
        };
        let place = |encoded: TokenStream| {
            if m.lo == 0 {
                encoded
            } else {
                let lo = Literal::u32_unsuffixed(m.lo);
                quote!((#encoded << #lo))
            }
        };
        let range = bit_range(m.hi, m.lo);
        match m.ty {
            MemberType::Code(t) => {
                let ty_name = code_types.get(t).map_or("", |t| t.ident.as_str());
                let ty = format_ident!("{}", ty_name);
                let member_doc = names::doc_lines([format!("{range}: see [`{ty_name}`].")]);
                members.push(quote!(#member_doc pub #member: #ty));
                decodes.push(quote!(#member: #ty::decode(#extracted)?));
                encodes.push(place(quote!(self.#member.encode())));
                displays.push(quote!(self.#member.label().to_string()));
            }
            MemberType::Raw => {
                let ty = raw_type(m.hi.saturating_sub(m.lo) + 1);
                let member_doc = names::doc_lines([format!(
                    "{range}: the raw value (no codes are documented)."
                )]);
                members.push(quote!(#member_doc pub #member: #ty));
                decodes.push(quote!(#member: (#extracted) as #ty));
                encodes.push(place(quote!(u64::from(self.#member))));
                displays.push(quote!(self.#member.to_string()));
            }
        }
    }
    let width = Literal::u32_unsuffixed(c.width);
    quote! {
        #doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct #ident {
            #( #members, )*
        }

        impl #ident {
            /// Width of the field in bits.
            pub const WIDTH: u32 = #width;

            /// Splits a field value into its sub-fields; undocumented codes and bits outside the
            /// documented sub-fields are an error.
            pub fn decode(value: u64) -> Result<Self, crate::bits::BitfieldError> {
                let stray = value & !#covered;
                if stray != 0 {
                    return Err(crate::bits::BitfieldError::ReservedBits { ty: #name, bits: stray });
                }
                Ok(Self { #( #decodes, )* })
            }

            /// The field value.
            pub fn encode(self) -> u64 {
                #( #encodes )|*
            }
        }

        impl std::fmt::Display for #ident {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&[ #( #displays ),* ].join(", "))
            }
        }
    }
}

/// How many parts [`part`] splits the file into.
pub fn part_count(lowered: &Lowered<'_>) -> usize {
    lowered.code_types.len() + lowered.composites.len() + 1
}

/// Part `k` of the file (whole items): the code enums, then the per-field structs, then the
/// registries of both.
pub fn part(lowered: &Lowered<'_>, k: usize) -> TokenStream {
    let types = &lowered.code_types;
    if let Some(t) = types.get(k) {
        return code_type(t);
    }
    match lowered.composites.get(k - types.len()) {
        Some(c) => composite(c, types),
        None => registries(lowered),
    }
}

fn registries(lowered: &Lowered<'_>) -> TokenStream {
    let enum_infos = lowered.code_types.iter().map(|t| {
        let ident = format_ident!("{}", t.ident);
        let name = &t.ident;
        quote!(crate::bits::BitfieldInfo {
            name: #name,
            hi: #ident::HI,
            lo: #ident::LO,
            codes: #ident::CODES,
            round_trip: |v| #ident::decode(v).map(#ident::encode),
            display: |v| #ident::decode(v).ok().map(|x| x.to_string()),
        })
    });
    let struct_infos = lowered.composites.iter().map(|c| {
        let ident = format_ident!("{}", c.ident);
        let name = &c.ident;
        let parts = c.members.iter().map(|m| {
            let hi = Literal::u32_unsuffixed(m.hi);
            let lo = Literal::u32_unsuffixed(m.lo);
            let codes = match m.ty {
                MemberType::Code(t) => {
                    let ty = format_ident!(
                        "{}",
                        lowered.code_types.get(t).map_or("", |t| t.ident.as_str())
                    );
                    quote!(Some(#ty::CODES))
                }
                MemberType::Raw => quote!(None),
            };
            quote!((#hi, #lo, #codes))
        });
        quote!(crate::bits::FieldTypeInfo {
            name: #name,
            width: #ident::WIDTH,
            parts: &[ #( #parts ),* ],
            round_trip: |v| #ident::decode(v).map(#ident::encode),
            display: |v| #ident::decode(v).ok().map(|x| x.to_string()),
        })
    });
    quote! {
        /// Every generated code enum, for generic tools and tests.
        pub static BITFIELD_TYPES: &[crate::bits::BitfieldInfo] = &[ #( #enum_infos ),* ];

        /// Every generated per-field struct, for generic tools and tests.
        pub static FIELD_TYPES: &[crate::bits::FieldTypeInfo] = &[ #( #struct_infos ),* ];
    }
}

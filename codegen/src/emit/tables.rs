//! Emits `static INSTRUCTIONS: &[InstrDesc]`: the whole instruction table as static data, syntax
//! templates already bound to field indices.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::model::{CodeValue, Field, FieldType, Platform, PlatformBound, TypeName};

use super::lower::{Binding, FieldModel, InstrModel, Lowered, Role, Suffix, SyntaxModel};
use super::names;

fn platforms(list: &[Platform]) -> TokenStream {
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

pub(crate) fn codes(list: &[CodeValue]) -> TokenStream {
    let items = list.iter().map(|c| {
        let code = Literal::u64_unsuffixed(c.code);
        let label = &c.label;
        let text = names::text_token(&c.label);
        let platforms = platforms(&c.platforms);
        quote!(crate::desc::CodeDesc { code: #code, label: #label, text: #text, platforms: #platforms })
    });
    quote!(&[ #( #items ),* ])
}

fn types(list: &[TypeName]) -> TokenStream {
    let items = list.iter().map(|t| {
        let name = &t.name;
        let platforms = platforms(&t.platforms);
        quote!(crate::desc::TypeDesc { name: #name, platforms: #platforms })
    });
    quote!(&[ #( #items ),* ])
}

fn int(value: i64) -> TokenStream {
    let abs = Literal::u64_unsuffixed(value.unsigned_abs());
    if value < 0 {
        quote!(-#abs)
    } else {
        quote!(#abs)
    }
}

fn bitfields(field: &Field) -> TokenStream {
    let items = field.bitfields.iter().map(|b| {
        let hi = Literal::u32_unsuffixed(b.hi);
        let lo = Literal::u32_unsuffixed(b.lo);
        let description = b.description.trim();
        let platforms = platforms(&b.platforms);
        let codes = codes(&b.values);
        quote!(crate::desc::BitFieldDesc {
            hi: #hi, lo: #lo, description: #description, platforms: #platforms, codes: #codes
        })
    });
    quote!(&[ #( #items ),* ])
}

fn kind(kind: &FieldType) -> TokenStream {
    match kind {
        FieldType::Ub => quote!(Ub),
        FieldType::Uw => quote!(Uw),
        FieldType::Ud => quote!(Ud),
        FieldType::D => quote!(D),
        FieldType::Uq => quote!(Uq),
        FieldType::Scalar => quote!(Scalar),
        FieldType::VecOperand => quote!(VecOperand),
        FieldType::RawOperand => quote!(RawOperand),
        FieldType::Other(_) => quote!(Other),
    }
}

fn field(field: &FieldModel<'_>) -> TokenStream {
    let name = &field.name;
    let kind = kind(&field.kind);
    let role = match field.role {
        Role::Value => quote!(Value),
        Role::Predicate => quote!(Predicate),
        Role::ExecSize => quote!(ExecSize),
        Role::Operand => quote!(Operand),
        Role::Reference => quote!(Reference),
    };
    let optional = field.optional;
    let (description, allowed, classes, bits, values, range) = match field.bullet {
        Some(b) => {
            let classes = &b.operand_classes;
            let range = match b.range {
                Some((lo, hi)) => {
                    let (lo, hi) = (int(lo), int(hi));
                    quote!(Some((#lo, #hi)))
                }
                None => quote!(None),
            };
            (
                b.description.trim().to_string(),
                types(&b.allowed_types),
                quote!(&[ #( #classes ),* ]),
                bitfields(b),
                codes(&b.values),
                range,
            )
        }
        None => (
            String::new(),
            quote!(&[]),
            quote!(&[]),
            quote!(&[]),
            quote!(&[]),
            quote!(None),
        ),
    };
    quote!(crate::desc::FieldDesc {
        name: #name,
        kind: crate::desc::FieldKind::#kind,
        role: crate::desc::FieldRole::#role,
        optional: #optional,
        description: #description,
        allowed_types: #allowed,
        operand_classes: #classes,
        bitfields: #bits,
        values: #values,
        range: #range,
    })
}

fn binding(b: Binding) -> TokenStream {
    let field = Literal::usize_unsuffixed(b.field);
    let bitfield = match b.bitfield {
        Some(j) => {
            let j = Literal::usize_unsuffixed(j);
            quote!(Some(#j))
        }
        None => quote!(None),
    };
    quote!(crate::desc::Binding { field: #field, bitfield: #bitfield })
}

fn suffix(s: &Suffix) -> TokenStream {
    match s {
        Suffix::Field(b) => {
            let b = binding(*b);
            quote!(crate::desc::SuffixDesc::Field(#b))
        }
        Suffix::Literal(text) => quote!(crate::desc::SuffixDesc::Literal(#text)),
        Suffix::Flag { text, binding: b } => {
            let b = binding(*b);
            quote!(crate::desc::SuffixDesc::Flag { text: #text, binding: #b })
        }
        Suffix::Optional(inner) => {
            let inner = suffix(inner);
            quote!(crate::desc::SuffixDesc::Optional(&#inner))
        }
        Suffix::Alternatives(options) => {
            quote!(crate::desc::SuffixDesc::Alternatives(&[ #( #options ),* ]))
        }
        Suffix::Sets {
            text,
            binding: b,
            code,
        } => {
            let b = binding(*b);
            let code = Literal::u64_unsuffixed(*code);
            quote!(crate::desc::SuffixDesc::Sets { text: #text, binding: #b, code: #code })
        }
        Suffix::Hex { prefix, binding: b } => {
            let b = binding(*b);
            quote!(crate::desc::SuffixDesc::Hex { prefix: #prefix, binding: #b })
        }
        Suffix::Letters(letters) => {
            let items = letters.iter().map(|(letter, b)| {
                let b = binding(*b);
                quote!((#letter, #b))
            });
            quote!(crate::desc::SuffixDesc::Letters(&[ #( #items ),* ]))
        }
    }
}

fn option<T>(value: Option<T>, f: impl FnOnce(T) -> TokenStream) -> TokenStream {
    match value {
        Some(v) => {
            let inner = f(v);
            quote!(Some(#inner))
        }
        None => quote!(None),
    }
}

fn syntax(s: &SyntaxModel) -> TokenStream {
    let text = &s.text;
    let mnemonic = &s.mnemonic;
    let predicate = option(s.predicate, |p| {
        Literal::usize_unsuffixed(p).into_token_stream()
    });
    let suffixes = s.suffixes.iter().map(suffix);
    let exec_size = option(s.exec_size, binding);
    let operands = s.operands.iter().map(|&(f, optional)| {
        let f = Literal::usize_unsuffixed(f);
        quote!((#f, #optional))
    });
    let sets = option(s.mnemonic_sets, |(b, code)| {
        let b = binding(b);
        let code = Literal::u64_unsuffixed(code);
        quote!((#b, #code))
    });
    quote!(crate::desc::SyntaxDesc {
        text: #text,
        mnemonic: #mnemonic,
        predicate: #predicate,
        suffixes: &[ #( #suffixes ),* ],
        exec_size: #exec_size,
        operands: &[ #( #operands ),* ],
        mnemonic_sets: #sets,
    })
}

use quote::ToTokens;

fn instr(instr: &InstrModel<'_>) -> TokenStream {
    let doc = instr.doc;
    let name = &instr.name;
    let opcode = Literal::u8_unsuffixed(instr.opcode);
    let subop = option(instr.subop, |s| {
        Literal::u8_unsuffixed(s).into_token_stream()
    });
    let fields = instr.fields.iter().map(field);
    let syntax = instr.syntax.iter().map(syntax);
    let properties = doc.properties.iter().map(|p| {
        let (key, value) = (&p.key, p.value.trim());
        quote!((#key, #value))
    });
    let supported: Vec<TypeName> = doc
        .properties
        .iter()
        .flat_map(|p| p.types.iter().cloned())
        .collect();
    let supported = types(&supported);
    let type_maps = doc.type_maps.iter().map(|m| {
        let platforms = platforms(&m.platforms);
        let entries = m.entries.iter().map(|(role, list)| {
            let list = types(list);
            quote!((#role, #list))
        });
        quote!(crate::desc::TypeMapDesc { platforms: #platforms, entries: &[ #( #entries ),* ] })
    });
    let description = doc.description.as_ref().map_or("", |d| d.text.trim());
    let semantics = doc.semantics.as_ref().map_or("", |d| d.text.trim());
    let source = std::path::Path::new(&doc.file)
        .file_name()
        .map_or_else(|| doc.file.clone(), |n| n.to_string_lossy().into_owned());
    quote!(crate::desc::InstrDesc {
        name: #name,
        opcode: #opcode,
        subop: #subop,
        fields: &[ #( #fields ),* ],
        syntax: &[ #( #syntax ),* ],
        properties: &[ #( #properties ),* ],
        supported_types: #supported,
        type_maps: &[ #( #type_maps ),* ],
        description: #description,
        semantics: #semantics,
        source: #source,
    })
}

pub fn emit(lowered: &Lowered<'_>) -> TokenStream {
    let entries = lowered.instrs.iter().map(instr);
    quote! {
        /// The instruction table: one entry per opcode document, in [`Opcode`] order, with its
        /// Format fields (encoding order), codes, bound syntax templates and properties.
        pub static INSTRUCTIONS: &[crate::desc::InstrDesc] = &[ #( #entries ),* ];
    }
}

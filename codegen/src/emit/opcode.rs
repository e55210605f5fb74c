//! Emits `enum Opcode`: one variant per document (sub-operations included), in table order, so
//! `Opcode::index` is the instruction's index in `INSTRUCTIONS`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::ir::{InstrModel, Lowered};
use super::names;

/// A byte as a hexadecimal literal (`0x4e`), as the documents write opcodes.
fn hex(value: u8) -> syn::LitInt {
    syn::LitInt::new(&format!("{value:#04x}"), proc_macro2::Span::call_site())
}

fn variant_doc(instr: &InstrModel<'_>) -> TokenStream {
    let code = match instr.subop {
        Some(sub) => format!("opcode `{:#04x}`, sub-operation `{sub:#04x}`", instr.opcode),
        None => format!("opcode `{:#04x}`", instr.opcode),
    };
    let mut lines = vec![format!("`{}`: {code}.", instr.name)];
    if let Some(description) = &instr.doc.description {
        let paragraphs = names::doc_paragraphs(&description.text);
        let first: Vec<String> = paragraphs
            .into_iter()
            .take_while(|l| !l.is_empty())
            .collect();
        if !first.is_empty() {
            lines.push(String::new());
            lines.extend(first);
        }
    }
    names::doc_lines(lines)
}

pub fn emit(lowered: &Lowered<'_>) -> TokenStream {
    let instrs = &lowered.instrs;
    let count = Literal::usize_unsuffixed(instrs.len());
    let idents: Vec<_> = instrs
        .iter()
        .map(|i| format_ident!("{}", i.ident))
        .collect();
    let docs: Vec<_> = instrs.iter().map(variant_doc).collect();
    let names: Vec<_> = instrs.iter().map(|i| i.name.as_str()).collect();
    let values: Vec<_> = instrs
        .iter()
        .map(|i| Literal::u8_unsuffixed(i.opcode))
        .collect();
    let subops: Vec<_> = instrs
        .iter()
        .map(|i| match i.subop {
            Some(s) => {
                let s = hex(s);
                quote!(Some(#s))
            }
            None => quote!(None),
        })
        .collect();
    let indices: Vec<_> = (0..instrs.len()).map(Literal::usize_unsuffixed).collect();
    let mut with_subops: Vec<u8> = instrs
        .iter()
        .filter(|i| i.subop.is_some())
        .map(|i| i.opcode)
        .collect();
    with_subops.sort_unstable();
    with_subops.dedup();
    let has_subops_body = if with_subops.is_empty() {
        quote!({
            let _ = opcode;
            false
        })
    } else {
        let values = with_subops.into_iter().map(hex);
        quote!(matches!(opcode, #( #values )|*))
    };
    let from_value_arms = instrs.iter().zip(&idents).map(|(instr, ident)| {
        let value = hex(instr.opcode);
        match instr.subop {
            Some(s) => {
                let s = hex(s);
                quote!((#value, Some(#s)) => Some(Self::#ident),)
            }
            None => quote!((#value, None) => Some(Self::#ident),),
        }
    });
    quote! {
        /// Every instruction of the table, one per opcode document (a sub-operation is its own
        /// variant, named after the joined opcode names).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode {
            #( #docs #idents, )*
        }

        impl Opcode {
            /// Every opcode, in table order.
            pub const ALL: [Opcode; #count] = [ #( Self::#idents ),* ];

            /// The primary opcode byte.
            pub const fn value(self) -> u8 {
                match self { #( Self::#idents => #values, )* }
            }

            /// The sub-operation byte, for instructions declared under a parent opcode.
            pub const fn subop(self) -> Option<u8> {
                match self { #( Self::#idents => #subops, )* }
            }

            /// The full instruction name (`SVM_GATHER`).
            pub const fn name(self) -> &'static str {
                match self { #( Self::#idents => #names, )* }
            }

            /// The index of this instruction in [`crate::INSTRUCTIONS`].
            pub const fn index(self) -> usize {
                match self { #( Self::#idents => #indices, )* }
            }

            /// The instruction's table entry.
            pub fn desc(self) -> &'static crate::desc::InstrDesc {
                &crate::INSTRUCTIONS[self.index()]
            }

            /// The opcode at `index` in [`crate::INSTRUCTIONS`].
            pub const fn from_index(index: usize) -> Option<Self> {
                match index { #( #indices => Some(Self::#idents), )* _ => None }
            }

            /// The instruction with this opcode byte and sub-operation byte.
            pub const fn from_value(opcode: u8, subop: Option<u8>) -> Option<Self> {
                match (opcode, subop) { #( #from_value_arms )* _ => None }
            }

            /// Whether instructions with this opcode byte carry a sub-operation byte.
            pub const fn has_subops(opcode: u8) -> bool {
                #has_subops_body
            }

            /// The instruction with this full name (any case).
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.into_iter().find(|op| op.name().eq_ignore_ascii_case(name))
            }
        }

        impl std::fmt::Display for Opcode {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    }
}

//! Emits a typed struct per instruction (one member per Format field), `enum Instr`, and the
//! conversions from and to the generic `ast::Instruction`; and module `view`: the same members
//! borrowed from a generic instruction (`view::Instr::lift`), which the runtime decodes from.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::FieldType;

use super::ir::{FieldModel, InstrModel, Lowered, MemberType, Role, Typing};
use super::names;

fn int_type(kind: &FieldType) -> TokenStream {
    match kind {
        FieldType::Ub => quote!(u8),
        FieldType::Uw => quote!(u16),
        FieldType::Ud => quote!(u32),
        FieldType::D => quote!(i32),
        _ => quote!(u64),
    }
}

fn type_name(lowered: &Lowered<'_>, typing: Typing) -> String {
    match typing {
        Typing::Code(t) => lowered
            .code_types
            .get(t)
            .map_or(String::new(), |t| t.ident.clone()),
        Typing::Composite(c) => lowered
            .composites
            .get(c)
            .map_or(String::new(), |c| c.ident.clone()),
        _ => String::new(),
    }
}

/// The member type, before wrapping optional fields in `Option`.
fn member_type(lowered: &Lowered<'_>, field: &FieldModel<'_>) -> TokenStream {
    if field.repeat.is_some() {
        return match field.typing {
            Typing::Operand => quote!(Vec<crate::ast::Operand>),
            _ => quote!(Vec<u64>),
        };
    }
    match field.typing {
        Typing::Int => int_type(&field.kind),
        Typing::Code(_) | Typing::Composite(_) => {
            let ty = format_ident!("{}", type_name(lowered, field.typing));
            quote!(crate::fields::#ty)
        }
        Typing::Operand => quote!(crate::ast::Operand),
        Typing::Predicate => quote!(Option<crate::ast::Predicate>),
        Typing::Raw => quote!(crate::ast::FieldValue),
    }
}

/// Reads field `i` of `inst` into the member type.
fn read_field(lowered: &Lowered<'_>, field: &FieldModel<'_>, i: usize) -> TokenStream {
    let i = Literal::usize_unsuffixed(i);
    if field.repeat.is_some() {
        return match field.typing {
            Typing::Operand => quote!(crate::typed::operand_list(inst, #i)?),
            _ => quote!(crate::typed::int_list(inst, #i)?),
        };
    }
    match field.typing {
        Typing::Int if field.kind == FieldType::D => {
            quote!(crate::typed::int::<u32>(inst, #i)? as i32)
        }
        Typing::Int => {
            let ty = int_type(&field.kind);
            quote!(crate::typed::int::<#ty>(inst, #i)?)
        }
        Typing::Code(_) | Typing::Composite(_) => {
            let ty = format_ident!("{}", type_name(lowered, field.typing));
            quote!(crate::typed::coded(inst, #i, crate::fields::#ty::decode)?)
        }
        Typing::Operand => quote!(crate::typed::operand(inst, #i)?),
        Typing::Predicate => quote!(crate::typed::pred(inst, #i)?),
        Typing::Raw => quote!(crate::typed::raw(inst, #i)),
    }
}

/// Converts a member value `x` back into an `ast::FieldValue`.
fn write_field(
    field: &FieldModel<'_>,
    index: &TokenStream,
    i: usize,
    x: &TokenStream,
) -> TokenStream {
    let i = Literal::usize_unsuffixed(i);
    if field.repeat.is_some() {
        let element = match field.typing {
            Typing::Operand => quote!(crate::ast::FieldValue::Operand),
            _ => quote!(crate::ast::FieldValue::Int),
        };
        return quote!(crate::ast::FieldValue::List(#x.into_iter().map(#element).collect()));
    }
    match field.typing {
        Typing::Int if field.kind == FieldType::D => {
            quote!(crate::ast::FieldValue::Int(u64::from(#x as u32)))
        }
        Typing::Int => quote!(crate::ast::FieldValue::Int(u64::from(#x))),
        Typing::Code(_) | Typing::Composite(_) if field.role == Role::ExecSize => {
            quote!(crate::typed::exec_value(#index, #i, #x.encode()))
        }
        Typing::Code(_) | Typing::Composite(_) => quote!(crate::ast::FieldValue::Int(#x.encode())),
        Typing::Operand => quote!(crate::ast::FieldValue::Operand(#x)),
        Typing::Predicate => quote!(crate::ast::FieldValue::Pred(#x)),
        Typing::Raw => quote!(#x),
    }
}

fn struct_doc(instr: &InstrModel<'_>) -> TokenStream {
    let code = match instr.subop {
        Some(sub) => format!("opcode `{:#04x}`, sub-operation `{sub:#04x}`", instr.opcode),
        None => format!("opcode `{:#04x}`", instr.opcode),
    };
    let mut lines = vec![format!("The `{}` instruction ({code}).", instr.name)];
    if let Some(description) = &instr.doc.description {
        lines.push(String::new());
        lines.extend(names::doc_paragraphs(&description.text));
    }
    if !instr.syntax.is_empty() {
        lines.push(String::new());
        lines.push("Syntax:".to_string());
        lines.push("```text".to_string());
        lines.extend(instr.syntax.iter().map(|s| s.text.replace("```", "")));
        lines.push("```".to_string());
    }
    if let Some(semantics) = &instr.doc.semantics {
        let body: Vec<&str> = semantics
            .text
            .lines()
            .filter(|l| !l.trim_start().starts_with("```"))
            .collect();
        if body.iter().any(|l| !l.trim().is_empty()) {
            lines.push(String::new());
            lines.push("Semantics:".to_string());
            lines.push("```text".to_string());
            let indent = body
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            let trimmed: Vec<String> = body
                .iter()
                .map(|l| l.get(indent..).unwrap_or("").trim_end().to_string())
                .collect();
            let start = trimmed.iter().position(|l| !l.is_empty()).unwrap_or(0);
            let end = trimmed
                .iter()
                .rposition(|l| !l.is_empty())
                .map_or(0, |e| e + 1);
            lines.extend(trimmed.get(start..end).unwrap_or_default().iter().cloned());
            lines.push("```".to_string());
        }
    }
    names::doc_lines(lines)
}

fn member_doc(field: &FieldModel<'_>) -> TokenStream {
    let kind = field.kind.token();
    let mut lines = vec![format!(
        "`{}` ({kind}){}",
        field.name,
        if field.optional { ", optional" } else { "" }
    )];
    if let Some(bullet) = field.bullet {
        let description = names::doc_paragraphs(&bullet.description);
        if !description.is_empty() {
            lines.push(String::new());
            lines.extend(description);
        }
    }
    names::doc_lines(lines)
}

fn instr_struct(lowered: &Lowered<'_>, index: usize, instr: &InstrModel<'_>) -> TokenStream {
    let ident = format_ident!("{}", instr.ident);
    let name = &instr.name;
    let doc = struct_doc(instr);
    let index_lit = Literal::usize_unsuffixed(index);
    let self_index = quote!(#ident::INDEX);
    let mut members = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    for (i, field) in instr.fields.iter().enumerate() {
        let member = format_ident!("{}", field.member);
        let doc = member_doc(field);
        let ty = member_type(lowered, field);
        let read = read_field(lowered, field, i);
        let bound = quote!(x);
        let direct = quote!(value.#member);
        let write = write_field(field, &self_index, i, &bound);
        let write_direct = write_field(field, &self_index, i, &direct);
        let optional = field.optional && field.typing != Typing::Predicate;
        let i_lit = Literal::usize_unsuffixed(i);
        if optional {
            members.push(quote!(#doc pub #member: Option<#ty>));
            reads.push(quote!(#member: if crate::typed::present(inst, #i_lit) { Some(#read) } else { None }));
            writes.push(quote!(match value.#member { Some(x) => #write, None => crate::ast::FieldValue::Absent }));
        } else {
            members.push(quote!(#doc pub #member: #ty));
            reads.push(quote!(#member: #read));
            writes.push(write_direct);
        }
    }
    let (sat_member, sat_read, sat_write, sat_check) = if instr.saturates {
        (
            quote!(#[doc = " `.sat`: saturate the result."] pub saturate: bool,),
            quote!(saturate: inst.saturate,),
            quote!(value.saturate),
            quote!(),
        )
    } else {
        (
            quote!(),
            quote!(),
            quote!(false),
            quote!(if inst.saturate {
                return Err(crate::typed::ConvertError::Saturate { instr: #name });
            }),
        )
    };
    let struct_body = if members.is_empty() && !instr.saturates {
        quote!(;)
    } else {
        quote!({ #( #members, )* #sat_member })
    };
    let construct = if members.is_empty() && !instr.saturates {
        quote!(Self)
    } else {
        quote!(Self { #( #reads, )* #sat_read })
    };
    let value_param = if members.is_empty() && !instr.saturates {
        quote!(_value)
    } else {
        quote!(value)
    };
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        pub struct #ident #struct_body

        impl #ident {
            /// Index of this instruction in [`crate::INSTRUCTIONS`].
            pub const INDEX: usize = #index_lit;
            /// The opcode.
            pub const OPCODE: crate::Opcode = crate::Opcode::#ident;

            /// The instruction's table entry.
            pub fn desc() -> &'static crate::desc::InstrDesc {
                &crate::INSTRUCTIONS[Self::INDEX]
            }
        }

        impl TryFrom<&crate::ast::Instruction> for #ident {
            type Error = crate::typed::ConvertError;

            fn try_from(inst: &crate::ast::Instruction) -> Result<Self, Self::Error> {
                crate::typed::check(inst, Self::INDEX)?;
                #sat_check
                Ok(#construct)
            }
        }

        impl From<#ident> for crate::ast::Instruction {
            fn from(#value_param: #ident) -> Self {
                crate::ast::Instruction {
                    desc: #ident::INDEX,
                    saturate: #sat_write,
                    fields: Vec::from([ #( #writes ),* ]),
                    span: crate::ast::Span::default(),
                    field_spans: Vec::new(),
                    element_spans: Vec::new(),
                }
            }
        }
    }
}

/// How many parts [`part`] splits the file into.
pub fn part_count(lowered: &Lowered<'_>) -> usize {
    lowered.instrs.len() + 2
}

/// Part `k` of the file (whole items): instruction `k`'s struct and impls, then the shared
/// `enum Instr` and its impls, then module `view`.
pub fn part(lowered: &Lowered<'_>, k: usize) -> TokenStream {
    match lowered.instrs.get(k) {
        Some(instr) => instr_struct(lowered, k, instr),
        None if k == lowered.instrs.len() => instr_enum(lowered),
        None => view_module(lowered),
    }
}

/// The member type of field `field` in a view (borrowing from the generic instruction, before
/// wrapping optional fields in `Option`).
fn view_member_type(lowered: &Lowered<'_>, field: &FieldModel<'_>) -> TokenStream {
    match field.typing {
        _ if field.repeat.is_some() => match field.typing {
            Typing::Operand => quote!(Vec<&'a crate::ast::Operand>),
            _ => quote!(Vec<u64>),
        },
        Typing::Code(_) | Typing::Composite(_) if field.role == Role::ExecSize => {
            quote!(crate::ast::ExecSize)
        }
        Typing::Operand => quote!(&'a crate::ast::Operand),
        Typing::Predicate => quote!(Option<&'a crate::ast::Predicate>),
        Typing::Raw => quote!(&'a crate::ast::FieldValue),
        _ => member_type(lowered, field),
    }
}

/// Reads field `i` of `inst` into the view's member type.
fn view_read_field(lowered: &Lowered<'_>, field: &FieldModel<'_>, i: usize) -> TokenStream {
    let i = Literal::usize_unsuffixed(i);
    let v = quote!(crate::typed::view);
    if field.repeat.is_some() {
        return match field.typing {
            Typing::Operand => quote!(#v::operand_list(inst, INDEX, #i)?),
            _ => quote!(#v::int_list(inst, INDEX, #i)?),
        };
    }
    match field.typing {
        Typing::Int if field.kind == FieldType::D => {
            quote!(#v::int::<u32>(inst, INDEX, #i)? as i32)
        }
        Typing::Int => {
            let ty = int_type(&field.kind);
            quote!(#v::int::<#ty>(inst, INDEX, #i)?)
        }
        Typing::Code(_) | Typing::Composite(_) if field.role == Role::ExecSize => {
            quote!(#v::exec(inst, INDEX, #i)?)
        }
        Typing::Code(_) | Typing::Composite(_) => {
            let ty = format_ident!("{}", type_name(lowered, field.typing));
            quote!(#v::coded(inst, INDEX, #i, crate::fields::#ty::decode)?)
        }
        Typing::Operand => quote!(#v::operand(inst, INDEX, #i)?),
        Typing::Predicate => quote!(#v::pred(inst, INDEX, #i)?),
        Typing::Raw => quote!(#v::raw(inst, #i)),
    }
}

fn view_struct(lowered: &Lowered<'_>, instr: &InstrModel<'_>) -> TokenStream {
    let ident = format_ident!("{}", instr.ident);
    let doc = names::doc_lines([format!(
        "A borrowed view of a `{}` instruction: the members of [`super::{}`].",
        instr.name, instr.ident
    )]);
    let mut members = Vec::new();
    let mut reads = Vec::new();
    let mut indices = Vec::new();
    for (i, field) in instr.fields.iter().enumerate() {
        let member = format_ident!("{}", field.member);
        let index_ident = format_ident!("{}", field.member.to_ascii_uppercase());
        let index_doc = names::doc_lines([format!(
            "Index of `{}` in the Format table (of `fields`, `desc.fields`).",
            field.name
        )]);
        let index_lit = Literal::usize_unsuffixed(i);
        indices.push(quote!(#index_doc pub const #index_ident: usize = #index_lit;));
        let member_doc = member_doc(field);
        let ty = view_member_type(lowered, field);
        let read = view_read_field(lowered, field, i);
        let i_lit = Literal::usize_unsuffixed(i);
        // An operand some template leaves out is absent in instructions written that way.
        let left_out = field.typing == Typing::Operand
            && field.repeat.is_none()
            && instr
                .syntax
                .iter()
                .any(|s| !s.operands.iter().any(|(f, _)| *f == i));
        if (field.optional || left_out) && field.typing != Typing::Predicate {
            members.push(quote!(#member_doc pub #member: Option<#ty>));
            reads.push(quote!(#member: if crate::typed::present(inst, #i_lit) { Some(#read) } else { None }));
        } else {
            members.push(quote!(#member_doc pub #member: #ty));
            reads.push(quote!(#member: #read));
        }
    }
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq)]
        pub struct #ident<'a> {
            /// The generic instruction viewed (its spans, `.sat`).
            pub generic: &'a crate::ast::Instruction,
            #( #members, )*
        }

        impl<'a> #ident<'a> {
            #( #indices )*

            /// Views `inst` as this instruction: its fields must be laid out as this table entry's
            /// (`inst.desc` is not looked at, so an instruction of another table with the same
            /// fields is viewed too). Absent integer fields read as 0.
            pub fn lift(inst: &'a crate::ast::Instruction) -> Result<Self, crate::typed::ConvertError> {
                const INDEX: usize = super::#ident::INDEX;
                crate::typed::view::check(inst, INDEX)?;
                Ok(Self { generic: inst, #( #reads, )* })
            }
        }
    }
}

/// Module `view::<instr>`: the generated types of an instruction's coded fields under names
/// of their own (`view::min_max::Op`), which do not depend on the other documents of the build
/// (the types in `fields` are shared and named apart across documents); a composite's members
/// as the field and member names joined (`view::svm_block_ld::PropertiesSize`).
fn type_aliases(lowered: &Lowered<'_>, instr: &InstrModel<'_>) -> TokenStream {
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut add = |alias: String, ty: String| {
        if !ty.is_empty() && !aliases.iter().any(|(a, _)| *a == alias) {
            aliases.push((alias, ty));
        }
    };
    for field in &instr.fields {
        let alias = names::type_ident(&field.name, "T", "Field");
        match field.typing {
            Typing::Code(_) => add(alias, type_name(lowered, field.typing)),
            Typing::Composite(c) => {
                add(alias.clone(), type_name(lowered, field.typing));
                for member in lowered.composites.get(c).map_or(&[][..], |c| &c.members) {
                    if let MemberType::Code(t) = member.ty {
                        let ty = lowered
                            .code_types
                            .get(t)
                            .map_or(String::new(), |t| t.ident.clone());
                        add(
                            format!("{alias}{}", names::type_ident(&member.ident, "T", "Member")),
                            ty,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    if aliases.is_empty() {
        return quote!();
    }
    let module = format_ident!("{}", names::member_ident(&instr.ident, "instr"));
    let doc = names::doc_lines([format!("The code types of `{}`'s fields.", instr.name)]);
    let items = aliases.iter().map(|(alias, ty)| {
        let alias_ident = format_ident!("{}", alias);
        let ty = format_ident!("{}", ty);
        let doc = names::doc_lines([format!("[`crate::fields::{ty}`].")]);
        quote!(#doc pub type #alias_ident = crate::fields::#ty;)
    });
    quote! {
        #doc
        pub mod #module { #( #items )* }
    }
}

fn view_module(lowered: &Lowered<'_>) -> TokenStream {
    let structs = lowered.instrs.iter().map(|i| view_struct(lowered, i));
    let aliases = lowered.instrs.iter().map(|i| type_aliases(lowered, i));
    let idents: Vec<_> = lowered
        .instrs
        .iter()
        .map(|i| format_ident!("{}", i.ident))
        .collect();
    let docs = lowered
        .instrs
        .iter()
        .map(|i| names::doc_lines([format!("`{}`.", i.name)]));
    quote! {
        /// Typed views of generic instructions: one struct per instruction whose members borrow
        /// the operands of an [`crate::ast::Instruction`] (no copy, so an operand's address
        /// still finds its span) and decode its codes and integers.
        pub mod view {
            #( #structs )*
            #( #aliases )*

            /// Any instruction, viewed.
            #[derive(Debug, Clone, PartialEq)]
            pub enum Instr<'a> {
                #( #docs #idents(#idents<'a>), )*
            }

            impl<'a> Instr<'a> {
                /// Views `inst` as the instruction `opcode` (the generic-to-typed lift): an
                /// error when a field holds a value of the wrong kind or an undocumented code.
                pub fn lift(
                    opcode: crate::Opcode,
                    inst: &'a crate::ast::Instruction,
                ) -> Result<Self, crate::typed::ConvertError> {
                    Ok(match opcode { #( crate::Opcode::#idents => Self::#idents(#idents::lift(inst)?), )* })
                }

                /// The instruction's opcode.
                pub fn opcode(&self) -> crate::Opcode {
                    match self { #( Self::#idents(_) => crate::Opcode::#idents, )* }
                }

                /// The generic instruction viewed.
                pub fn generic(&self) -> &'a crate::ast::Instruction {
                    match self { #( Self::#idents(x) => x.generic, )* }
                }
            }
        }
    }
}

fn instr_enum(lowered: &Lowered<'_>) -> TokenStream {
    let idents: Vec<_> = lowered
        .instrs
        .iter()
        .map(|i| format_ident!("{}", i.ident))
        .collect();
    let docs = lowered
        .instrs
        .iter()
        .map(|i| names::doc_lines([format!("`{}`.", i.name)]));
    let indices = (0..lowered.instrs.len()).map(Literal::usize_unsuffixed);
    quote! {
        /// Any instruction, typed.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Instr {
            #( #docs #idents(#idents), )*
        }

        impl Instr {
            /// The instruction's opcode.
            pub fn opcode(&self) -> crate::Opcode {
                match self { #( Self::#idents(_) => crate::Opcode::#idents, )* }
            }

            /// The instruction's table entry.
            pub fn desc(&self) -> &'static crate::desc::InstrDesc {
                self.opcode().desc()
            }
        }

        impl TryFrom<&crate::ast::Instruction> for Instr {
            type Error = crate::typed::ConvertError;

            fn try_from(inst: &crate::ast::Instruction) -> Result<Self, Self::Error> {
                match inst.desc {
                    #( #indices => Ok(Self::#idents(#idents::try_from(inst)?)), )*
                    other => Err(crate::typed::ConvertError::UnknownDesc(other)),
                }
            }
        }

        impl From<Instr> for crate::ast::Instruction {
            fn from(value: Instr) -> Self {
                match value { #( Instr::#idents(x) => x.into(), )* }
            }
        }
    }
}

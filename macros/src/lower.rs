//! Turns a parsed [`ast::Module`] into Rust code that rebuilds it, so that no assembly text is
//! parsed when the program runs.

use proc_macro2::TokenStream;
use quote::quote;
use visa_isa::ast::{
    self, Align, Decl, DeclKind, ElemType, ExecSize, FieldValue, Immediate, Instruction, Operand,
    PredControl, Predicate, Region, SrcMod, Stmt, StmtKind,
};

const AST: &str = "::visa::isa::ast";

fn path() -> TokenStream {
    AST.parse().unwrap_or_default()
}

pub fn module(m: &ast::Module) -> TokenStream {
    let stmts = m.stmts.iter().map(stmt);
    let ast = path();
    quote! { #ast::Module { stmts: ::std::vec![#(#stmts),*] } }
}

fn string(s: &str) -> TokenStream {
    quote! { ::std::string::String::from(#s) }
}

fn opt_string(s: &Option<String>) -> TokenStream {
    match s {
        Some(s) => {
            let s = string(s);
            quote! { ::core::option::Option::Some(#s) }
        }
        None => quote! { ::core::option::Option::None },
    }
}

fn stmt(s: &Stmt) -> TokenStream {
    let ast = path();
    let (line, col) = (s.span.line, s.span.col);
    let kind = stmt_kind(&s.kind);
    quote! { #ast::Stmt { kind: #kind, span: #ast::Span::new(#line, #col) } }
}

fn stmt_kind(k: &StmtKind) -> TokenStream {
    let ast = path();
    match k {
        StmtKind::Version { major, minor } => {
            quote! { #ast::StmtKind::Version { major: #major, minor: #minor } }
        }
        StmtKind::Kernel { name } => {
            let name = string(name);
            quote! { #ast::StmtKind::Kernel { name: #name } }
        }
        StmtKind::Function { name, global } => {
            let name = string(name);
            quote! { #ast::StmtKind::Function { name: #name, global: #global } }
        }
        StmtKind::KernelAttr { name, value } => {
            let name = string(name);
            let value = opt_string(value);
            quote! { #ast::StmtKind::KernelAttr { name: #name, value: #value } }
        }
        StmtKind::Decl(d) => {
            let d = decl(d);
            quote! { #ast::StmtKind::Decl(#d) }
        }
        StmtKind::Input { name, offset, size } => {
            let name = string(name);
            quote! { #ast::StmtKind::Input { name: #name, offset: #offset, size: #size } }
        }
        StmtKind::Label { name } => {
            let name = string(name);
            quote! { #ast::StmtKind::Label { name: #name } }
        }
        StmtKind::ScopeOpen => quote! { #ast::StmtKind::ScopeOpen },
        StmtKind::ScopeClose => quote! { #ast::StmtKind::ScopeClose },
        StmtKind::Directive { name, args } => {
            let name = string(name);
            let args = string(args);
            quote! { #ast::StmtKind::Directive { name: #name, args: #args } }
        }
        StmtKind::Instr(i) => {
            let i = instruction(i);
            quote! { #ast::StmtKind::Instr(#i) }
        }
    }
}

fn decl(d: &Decl) -> TokenStream {
    let ast = path();
    let name = string(&d.name);
    let attrs = d.attrs.iter().map(|(k, v)| {
        let k = string(k);
        let v = opt_string(v);
        quote! { (#k, #v) }
    });
    let kind = match &d.kind {
        DeclKind::General {
            ty,
            num_elts,
            align,
            alias,
        } => {
            let ty = elem_type(*ty);
            let align = match align {
                Some(a) => {
                    let a = align_tokens(a);
                    quote! { ::core::option::Option::Some(#a) }
                }
                None => quote! { ::core::option::Option::None },
            };
            let alias = match alias {
                Some((base, off)) => {
                    let base = string(base);
                    quote! { ::core::option::Option::Some((#base, #off)) }
                }
                None => quote! { ::core::option::Option::None },
            };
            quote! { #ast::DeclKind::General { ty: #ty, num_elts: #num_elts, align: #align, alias: #alias } }
        }
        DeclKind::Address { num_elts } => {
            quote! { #ast::DeclKind::Address { num_elts: #num_elts } }
        }
        DeclKind::Predicate { num_elts } => {
            quote! { #ast::DeclKind::Predicate { num_elts: #num_elts } }
        }
        DeclKind::Sampler { num_elts, v_name } => {
            let v_name = opt_string(v_name);
            quote! { #ast::DeclKind::Sampler { num_elts: #num_elts, v_name: #v_name } }
        }
        DeclKind::Surface { num_elts, v_name } => {
            let v_name = opt_string(v_name);
            quote! { #ast::DeclKind::Surface { num_elts: #num_elts, v_name: #v_name } }
        }
    };
    quote! { #ast::Decl { name: #name, kind: #kind, attrs: ::std::vec![#(#attrs),*] } }
}

fn align_tokens(a: &Align) -> TokenStream {
    let ast = path();
    let written = string(&a.written);
    let (bytes, grfs) = (a.bytes, a.grfs);
    quote! { #ast::Align { written: #written, bytes: #bytes, grfs: #grfs } }
}

pub fn elem_type(t: ElemType) -> TokenStream {
    let ast = path();
    let variant: TokenStream = format!("{t:?}").parse().unwrap_or_default();
    quote! { #ast::ElemType::#variant }
}

fn instruction(i: &Instruction) -> TokenStream {
    let ast = path();
    let desc = i.desc;
    let saturate = i.saturate;
    let fields = i.fields.iter().map(field_value);
    let (line, col) = (i.span.line, i.span.col);
    quote! {
        #ast::Instruction {
            desc: #desc,
            saturate: #saturate,
            fields: ::std::vec![#(#fields),*],
            span: #ast::Span::new(#line, #col),
        }
    }
}

fn field_value(v: &FieldValue) -> TokenStream {
    let ast = path();
    match v {
        FieldValue::Int(n) => quote! { #ast::FieldValue::Int(#n) },
        FieldValue::Operand(o) => {
            let o = operand(o);
            quote! { #ast::FieldValue::Operand(#o) }
        }
        FieldValue::Pred(None) => quote! { #ast::FieldValue::Pred(::core::option::Option::None) },
        FieldValue::Pred(Some(p)) => {
            let p = predicate(p);
            quote! { #ast::FieldValue::Pred(::core::option::Option::Some(#p)) }
        }
        FieldValue::Exec(e) => {
            let e = exec_size(e);
            quote! { #ast::FieldValue::Exec(#e) }
        }
        FieldValue::List(items) => {
            let items = items.iter().map(field_value);
            quote! { #ast::FieldValue::List(::std::vec![#(#items),*]) }
        }
        FieldValue::Absent => quote! { #ast::FieldValue::Absent },
    }
}

fn exec_size(e: &ExecSize) -> TokenStream {
    let ast = path();
    let ExecSize {
        size,
        mask_offset,
        no_mask,
        mask_written,
    } = *e;
    quote! { #ast::ExecSize { size: #size, mask_offset: #mask_offset, no_mask: #no_mask, mask_written: #mask_written } }
}

fn predicate(p: &Predicate) -> TokenStream {
    let ast = path();
    let name = string(&p.name);
    let inverse = p.inverse;
    let control = match p.control {
        PredControl::None => quote! { #ast::PredControl::None },
        PredControl::Any => quote! { #ast::PredControl::Any },
        PredControl::All => quote! { #ast::PredControl::All },
    };
    quote! { #ast::Predicate { name: #name, inverse: #inverse, control: #control } }
}

fn modifier(m: SrcMod) -> TokenStream {
    let ast = path();
    match m {
        SrcMod::None => quote! { #ast::SrcMod::None },
        SrcMod::Abs => quote! { #ast::SrcMod::Abs },
        SrcMod::Neg => quote! { #ast::SrcMod::Neg },
        SrcMod::NegAbs => quote! { #ast::SrcMod::NegAbs },
        SrcMod::Not => quote! { #ast::SrcMod::Not },
    }
}

fn opt_region(r: &Option<Region>) -> TokenStream {
    let ast = path();
    match r {
        Some(Region { vs, width, hs }) => {
            let vs = opt_u16(*vs);
            let width = opt_u16(*width);
            quote! { ::core::option::Option::Some(#ast::Region { vs: #vs, width: #width, hs: #hs }) }
        }
        None => quote! { ::core::option::Option::None },
    }
}

fn opt_u16(v: Option<u16>) -> TokenStream {
    match v {
        Some(v) => quote! { ::core::option::Option::Some(#v) },
        None => quote! { ::core::option::Option::None },
    }
}

fn operand(o: &Operand) -> TokenStream {
    let ast = path();
    match o {
        Operand::General {
            modifier: m,
            var,
            row,
            col,
            region,
            ty,
        } => {
            let m = modifier(*m);
            let var = string(var);
            let region = opt_region(region);
            let ty = match ty {
                Some(t) => {
                    let t = elem_type(*t);
                    quote! { ::core::option::Option::Some(#t) }
                }
                None => quote! { ::core::option::Option::None },
            };
            quote! { #ast::Operand::General { modifier: #m, var: #var, row: #row, col: #col, region: #region, ty: #ty } }
        }
        Operand::Indirect {
            modifier: m,
            addr,
            addr_elem,
            offset,
            region,
            ty,
        } => {
            let m = modifier(*m);
            let addr = string(addr);
            let region = opt_region(region);
            let ty = elem_type(*ty);
            quote! { #ast::Operand::Indirect { modifier: #m, addr: #addr, addr_elem: #addr_elem, offset: #offset, region: #region, ty: #ty } }
        }
        Operand::Address { var, elem, width } => {
            let var = string(var);
            quote! { #ast::Operand::Address { var: #var, elem: #elem, width: #width } }
        }
        Operand::AddressOf { var, offset } => {
            let var = string(var);
            quote! { #ast::Operand::AddressOf { var: #var, offset: #offset } }
        }
        Operand::Immediate(Immediate { bits, ty }) => {
            let ty = elem_type(*ty);
            quote! { #ast::Operand::Immediate(#ast::Immediate { bits: #bits, ty: #ty }) }
        }
        Operand::Raw { var, offset } => {
            let var = string(var);
            quote! { #ast::Operand::Raw { var: #var, offset: #offset } }
        }
        Operand::Predicate { var } => {
            let var = string(var);
            quote! { #ast::Operand::Predicate { var: #var } }
        }
        Operand::Name(n) => {
            let n = string(n);
            quote! { #ast::Operand::Name(#n) }
        }
    }
}

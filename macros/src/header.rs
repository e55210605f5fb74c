//! The kernel header of `isa!`: `kernel NAME<SIMD>(PARAM, ...) { BODY }`.
//!
//! A parameter is `name: vector<T>` (one element per lane), `name: vector<T, N>` (N components per
//! lane, as inline assembly binds a `uchar4` or `ushort2`: SIMD x N elements, component-major,
//! element `c*SIMD + lane`), `name: uniform<T>` (one value for all lanes), `name: svm` (a
//! per-lane 64-bit shared-virtual-memory address, bound from a buffer) or `name: surface` (a
//! buffer bound as a surface).

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitInt, Token, braced, parenthesized};
use visa_isa::ast::ElemType;

/// What a parameter binds to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParamKind {
    Vector,
    Uniform,
    Svm,
    Surface,
}

pub struct Param {
    pub name: Ident,
    pub kind: ParamKind,
    pub ty: ElemType,
    /// Elements per lane: N of `vector<T, N>`, else 1.
    pub components: u32,
}

pub struct Header {
    pub name: Ident,
    pub simd: u32,
    pub params: Vec<Param>,
    pub body: TokenStream,
    pub body_span: Span,
}

/// Parses the header. The body (the last token, a brace group) is set aside first and parsed
/// as an empty group with the same span: syn would copy every token of a large body into its
/// parse buffer, and the body is only needed as the token stream it already is.
pub fn parse(input: TokenStream) -> syn::Result<Header> {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    let body = match tokens.last_mut() {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
            let mut empty = Group::new(Delimiter::Brace, TokenStream::new());
            empty.set_span(group.span());
            Some(std::mem::replace(group, empty))
        }
        _ => None,
    };
    let mut header: Header = syn::parse2(tokens.into_iter().collect())?;
    if let Some(body) = body {
        header.body = body.stream();
        header.body_span = body.span();
    }
    Ok(header)
}

mod kw {
    syn::custom_keyword!(kernel);
}

impl Parse for Header {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        input.parse::<kw::kernel>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a kernel header: `kernel NAME<SIMD>(PARAMS) { ... }`",
            )
        })?;
        let name: Ident = input.parse()?;
        input.parse::<Token![<]>()?;
        let simd_lit: LitInt = input.parse()?;
        let simd: u32 = simd_lit.base10_parse()?;
        if !matches!(simd, 1 | 2 | 4 | 8 | 16 | 32) {
            return Err(syn::Error::new(
                simd_lit.span(),
                format!("SIMD width {simd} is not one of 1, 2, 4, 8, 16, 32"),
            ));
        }
        input.parse::<Token![>]>()?;
        let params_content;
        parenthesized!(params_content in input);
        let mut params: Vec<Param> = Vec::new();
        let mut errors: Option<syn::Error> = None;
        while !params_content.is_empty() {
            let param = parse_param(&params_content)?;
            if params.iter().any(|p| p.name == param.name) {
                let err = syn::Error::new(
                    param.name.span(),
                    format!("duplicate parameter `{}`", param.name),
                );
                match &mut errors {
                    Some(e) => e.combine(err),
                    None => errors = Some(err),
                }
            }
            params.push(param);
            if params_content.is_empty() {
                break;
            }
            params_content.parse::<Token![,]>()?;
        }
        if let Some(e) = errors {
            return Err(e);
        }
        let body;
        let brace = braced!(body in input);
        let body: TokenStream = body.parse()?;
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the kernel body"));
        }
        Ok(Header {
            name,
            simd,
            params,
            body,
            body_span: brace.span.join(),
        })
    }
}

fn parse_param(input: ParseStream) -> syn::Result<Param> {
    let name: Ident = input.parse()?;
    input.parse::<Token![:]>()?;
    let kind_ident: Ident = input.parse()?;
    let kind = match kind_ident.to_string().as_str() {
        "vector" => ParamKind::Vector,
        "uniform" => ParamKind::Uniform,
        "svm" => ParamKind::Svm,
        "surface" => ParamKind::Surface,
        other => {
            return Err(syn::Error::new(
                kind_ident.span(),
                format!(
                    "unknown parameter kind `{other}`: expected `vector<T>`, `vector<T, N>`, `uniform<T>`, `svm` or `surface`"
                ),
            ));
        }
    };
    let mut ty = match kind {
        ParamKind::Svm => ElemType::Uq,
        ParamKind::Surface => ElemType::Ud,
        _ => ElemType::Ud,
    };
    let needs_type = matches!(kind, ParamKind::Vector | ParamKind::Uniform);
    let mut components = 1;
    if input.peek(Token![<]) {
        input.parse::<Token![<]>()?;
        let ty_ident: Ident = input.parse()?;
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            let count: LitInt = input.parse()?;
            if kind != ParamKind::Vector {
                return Err(syn::Error::new(
                    count.span(),
                    format!("only `vector<T, N>` takes a component count, not `{kind_ident}`"),
                ));
            }
            components = count.base10_parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
                syn::Error::new(
                    count.span(),
                    format!(
                        "the component count of `vector<T, N>` must be a whole number from 1 up, not `{count}`"
                    ),
                )
            })?;
        }
        input.parse::<Token![>]>()?;
        let parsed = ElemType::from_name(&ty_ident.to_string())
            .filter(|t| !matches!(t, ElemType::V | ElemType::Uv | ElemType::Vf | ElemType::Bool))
            .ok_or_else(|| {
                syn::Error::new(
                    ty_ident.span(),
                    format!(
                        "unknown element type `{ty_ident}`: expected one of ub, b, uw, w, ud, d, uq, q, hf, f, df, bf"
                    ),
                )
            })?;
        if needs_type {
            ty = parsed;
        }
    } else if needs_type {
        return Err(syn::Error::new(
            kind_ident.span(),
            format!("`{kind_ident}` needs an element type, e.g. `{kind_ident}<d>`"),
        ));
    }
    Ok(Param {
        name,
        kind,
        ty,
        components,
    })
}

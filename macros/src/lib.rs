//! `visa-macros`: the `isa!` procedural macro. Use it through the root crate, `visa::isa!`, whose
//! documentation describes the syntax.
//!
//! The macro rebuilds the assembly text from the tokens ([`source`]), parses it with the one
//! assembler of the workspace (`visa_isa::text`), runs the checker against the generated
//! instruction tables, and reports every problem as a `syn::Error` at the offending token. A
//! kernel without errors expands to its canonical assembly text and source map in a `static`
//! `visa::KernelText` ([`embed`]), parsed once at run time.
#![forbid(unsafe_code)]

mod diagnostics;
mod embed;
mod header;
mod immediates;
mod source;

use header::{Header, ParamKind};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use visa_isa::ast::{self, DeclKind, Stmt, StmtKind};

/// Writes a vISA kernel inline; see `visa::isa!` for the syntax and examples.
#[proc_macro]
pub fn isa(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    // Warnings (rules only a document states) are emitted with the errors too.
    let mut warnings = TokenStream::new();
    match expand(input.into(), &mut warnings) {
        Ok(tokens) => tokens.into(),
        Err(err) => error_expansion(err, warnings).into(),
    }
}

/// On errors, the expansion still has the type `visa::Kernel` so that rust-analyzer keeps working.
fn error_expansion(err: syn::Error, warnings: TokenStream) -> TokenStream {
    let errors = err.to_compile_error();
    quote! {{
        #warnings
        #errors
        ::visa::Kernel::invalid()
    }}
}

fn expand(input: TokenStream, warnings: &mut TokenStream) -> syn::Result<TokenStream> {
    let header: Header = header::parse(input)?;
    let param_names: Vec<String> = header.params.iter().map(|p| p.name.to_string()).collect();
    let mut rebuilder = source::Rebuilder::new(&param_names, header.body_span);
    rebuilder.push_stream(header.body.clone());
    let src = rebuilder.finish();

    // Lines already reported while rebuilding are not reported again by the assembler.
    let mut errors: Vec<syn::Error> = Vec::new();
    let reported: Vec<u32> = src.errors.iter().map(|(line, _)| *line).collect();
    errors.extend(src.errors.iter().map(|(_, e)| e.clone()));

    let mut module = match visa_isa::text::parse(&src.text) {
        Ok(m) => m,
        Err(errs) => {
            for e in errs.iter().filter(|e| !reported.contains(&e.span.line)) {
                let message = diagnostics::parse_error_message(e);
                errors.push(syn::Error::new(
                    src.span_at(e.span.line, e.span.col),
                    message,
                ));
            }
            return Err(combine(errors));
        }
    };

    // `$N`: the assembler read it as a name; bound to parameter N by the rule text follows too.
    let placeholder_params: Vec<visa_isa::text::PlaceholderParam> = header
        .params
        .iter()
        .zip(&param_names)
        .map(|(p, name)| visa_isa::text::PlaceholderParam {
            name,
            general: p.kind != ParamKind::Surface,
        })
        .collect();
    let unbound = visa_isa::text::bind_dollar_placeholders(
        visa_isa::INSTRUCTIONS,
        &mut module,
        &placeholder_params,
    );
    for e in unbound.iter().filter(|e| !reported.contains(&e.span.line)) {
        let message = diagnostics::parse_error_message(e);
        errors.push(syn::Error::new(
            src.span_at(e.span.line, e.span.col),
            message,
        ));
    }

    // Parameters are declared ahead of the body so that the checker and the runtime see them.
    let prelude = param_decls(&header);
    let body_len = module.stmts.len();
    module.stmts.splice(0..0, prelude);

    // The rules the runtime loads the kernel with (no platform named, its default GRF size).
    let rules = visa_isa::text::CheckOptions {
        grf_bytes: Some(visa_isa::rules::DEFAULT_GRF_BYTES),
        ..Default::default()
    };
    for d in visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &rules) {
        if reported.contains(&d.statement.line) {
            continue;
        }
        let span = diagnostics::span_of(&d, &src, header.body_span);
        let mut message = diagnostics::check_message(&d);
        if let Some(other) = d.related.filter(|at| at.line != 0) {
            let line = src.span_at(other.line, other.col).start().line;
            message.push_str(&format!(" (first at line {line})"));
        }
        if d.is_error() {
            errors.push(syn::Error::new(span, message));
        } else {
            warnings.extend(diagnostics::warning(span, &message));
        }
    }
    let placed = immediates::place(&mut module, &src, body_len, &mut errors);
    if !errors.is_empty() {
        return Err(combine(errors));
    }

    // A `static` per call site: a kernel built in a loop parses its text once. The embedding
    // checks that the text decodes to exactly the module checked here; the assembler's
    // format/parse round trip is tested and fuzzed, so a failure is a bug of the toolkit.
    let embedded = embed::embed(&module).ok_or_else(|| {
        syn::Error::new(
            header.body_span,
            "internal error of isa!: the canonical text of this kernel does not reproduce it; \
             please report the kernel",
        )
    })?;
    let (text, map) = (
        embedded.text,
        proc_macro2::Literal::byte_string(&embedded.source_map),
    );
    let name = header.name.to_string();
    let simd = header.simd;
    let params = header.params.iter().map(|p| {
        let pname = p.name.to_string();
        let kind = format_ident!(
            "{}",
            match p.kind {
                ParamKind::Vector => "Vector",
                ParamKind::Uniform => "Uniform",
                ParamKind::Svm => "Svm",
                ParamKind::Surface => "Surface",
            }
        );
        let ty = elem_type(p.ty);
        let param = quote! { ::visa::Param::new(#pname, ::visa::ParamKind::#kind, #ty) };
        match p.components {
            1 => param,
            n => quote! { #param.with_components(#n) },
        }
    });
    let patches = placed.iter().map(|imm| {
        let (stmt, field) = (imm.stmt, imm.field);
        let ty = elem_type(imm.ty);
        let expr = &imm.expr;
        let span = imm.span;
        quote::quote_spanned! {span=>
            kernel.set_immediate(#stmt, #field, #ty, ::visa::IntoImmediate::into_immediate(#expr));
        }
    });
    let warnings = std::mem::take(warnings);
    Ok(quote! {{
        #warnings
        static TEXT: ::visa::KernelText = ::visa::KernelText::new(#text, #map);
        let mut kernel = ::visa::Kernel::from_text(
            #name,
            #simd,
            ::std::vec![#(#params),*],
            &TEXT,
        );
        #(#patches)*
        kernel
    }})
}

/// The `visa::isa::ast::ElemType` variant of `t`, as a path.
fn elem_type(t: ast::ElemType) -> TokenStream {
    let variant = format_ident!("{t:?}");
    quote! { ::visa::isa::ast::ElemType::#variant }
}

fn combine(errors: Vec<syn::Error>) -> syn::Error {
    let mut iter = errors.into_iter();
    let Some(mut first) = iter.next() else {
        return syn::Error::new(Span::call_site(), "invalid kernel");
    };
    for e in iter {
        first.combine(e);
    }
    first
}

/// `.decl` statements for the kernel parameters (span line 0: they have no text of their own).
fn param_decls(header: &Header) -> Vec<Stmt> {
    header
        .params
        .iter()
        .map(|p| {
            let kind = match p.kind {
                ParamKind::Vector | ParamKind::Svm => DeclKind::General {
                    ty: p.ty,
                    // `vector<T, N>`: N components per lane, component-major. (The header
                    // bounds N so that this cannot overflow; the checker applies the limit.)
                    num_elts: header.simd.saturating_mul(p.components),
                    align: Some(grf_align()),
                    alias: None,
                },
                ParamKind::Uniform => DeclKind::General {
                    ty: p.ty,
                    num_elts: 1,
                    align: None,
                    alias: None,
                },
                ParamKind::Surface => DeclKind::Surface {
                    num_elts: 1,
                    v_name: None,
                },
            };
            Stmt {
                kind: StmtKind::Decl(ast::Decl {
                    name: p.name.to_string(),
                    kind,
                    attrs: Vec::new(),
                    spans: ast::DeclSpans::default(),
                }),
                span: ast::Span::new(0, 0),
            }
        })
        .collect()
}

fn grf_align() -> ast::Align {
    ast::Align {
        written: "GRF".to_string(),
        bytes: 0,
        grfs: 1,
    }
}

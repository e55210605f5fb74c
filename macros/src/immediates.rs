//! Rust expressions used as immediates (`{expr}:ud`).
//!
//! A literal expression (`{3}:ud`, `{-1.5}:f`) is converted and range-checked here, at compile
//! time, and written straight into the AST. Any other expression is evaluated where the kernel is
//! built and checked against the type when it is launched.

use crate::source::Source;
use proc_macro2::{Span, TokenStream};
use visa_isa::ast::{ElemType, FieldValue, Module, Operand, StmtKind};

/// A Rust immediate left for run time: where it goes and what to evaluate.
pub struct Placed {
    pub stmt: usize,
    pub field: usize,
    pub ty: ElemType,
    pub expr: TokenStream,
    pub span: Span,
}

/// Finds each Rust immediate's operand (by line and rank among that line's immediate operands),
/// folds literal ones in, and returns the rest.
pub fn place(
    module: &mut Module,
    src: &Source,
    body_len: usize,
    errors: &mut Vec<syn::Error>,
) -> Vec<Placed> {
    let first_body_stmt = module.stmts.len() - body_len;
    let mut placed = Vec::new();
    for imm in &src.immediates {
        let found = module
            .stmts
            .iter_mut()
            .enumerate()
            .skip(first_body_stmt)
            .find(|(_, s)| s.span.line == imm.line && matches!(s.kind, StmtKind::Instr(_)));
        let Some((stmt_index, stmt)) = found else {
            errors.push(syn::Error::new(
                imm.span,
                "a Rust expression immediate must be an operand of an instruction",
            ));
            continue;
        };
        let StmtKind::Instr(instr) = &mut stmt.kind else {
            continue;
        };
        let slot = instr
            .fields
            .iter_mut()
            .enumerate()
            .filter(|(_, f)| matches!(f, FieldValue::Operand(Operand::Immediate(_))))
            .nth(imm.rank_in_line);
        let Some((field_index, FieldValue::Operand(Operand::Immediate(value)))) = slot else {
            errors.push(syn::Error::new(
                imm.span,
                "this Rust expression is not in an immediate operand position",
            ));
            continue;
        };
        match literal_bits(&imm.expr, value.ty) {
            Some(Ok(bits)) => value.bits = bits,
            Some(Err(message)) => errors.push(syn::Error::new(imm.span, message)),
            None => placed.push(Placed {
                stmt: stmt_index,
                field: field_index,
                ty: value.ty,
                expr: imm.expr.clone(),
                span: imm.span,
            }),
        }
    }
    placed
}

/// The bits of a literal expression of type `ty`; `None` when the expression is not a literal.
fn literal_bits(expr: &TokenStream, ty: ElemType) -> Option<Result<u64, String>> {
    let expr: syn::Expr = syn::parse2(expr.clone()).ok()?;
    let (negative, lit) = match &expr {
        syn::Expr::Lit(l) => (false, l.lit.clone()),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            syn::Expr::Lit(l) => (true, l.lit.clone()),
            _ => return None,
        },
        _ => return None,
    };
    let value = match lit {
        syn::Lit::Int(i) => match i.base10_parse::<i128>() {
            Ok(v) => Number::Int(if negative { -v } else { v }),
            Err(e) => return Some(Err(e.to_string())),
        },
        syn::Lit::Float(f) => match f.base10_parse::<f64>() {
            Ok(v) => Number::Float(if negative { -v } else { v }),
            Err(e) => return Some(Err(e.to_string())),
        },
        _ => return Some(Err("an immediate must be a number".to_string())),
    };
    Some(value.bits(ty))
}

enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    fn bits(self, ty: ElemType) -> Result<u64, String> {
        match (self, ty) {
            (Number::Float(v), ElemType::F) => Ok(u64::from((v as f32).to_bits())),
            (Number::Float(v), ElemType::Df) => Ok(v.to_bits()),
            (Number::Int(v), ElemType::F) => Ok(u64::from((v as f32).to_bits())),
            (Number::Int(v), ElemType::Df) => Ok((v as f64).to_bits()),
            (Number::Float(_), t) => Err(format!(
                "a floating-point value cannot be an immediate of type {t}"
            )),
            (Number::Int(v), t) => int_bits(v, t),
        }
    }
}

fn int_bits(v: i128, ty: ElemType) -> Result<u64, String> {
    let (lo, hi): (i128, i128) = match ty {
        ElemType::Ub => (0, u8::MAX.into()),
        ElemType::B => (i8::MIN.into(), i8::MAX.into()),
        ElemType::Uw => (0, u16::MAX.into()),
        ElemType::W => (i16::MIN.into(), i16::MAX.into()),
        ElemType::Ud => (0, u32::MAX.into()),
        ElemType::D => (i32::MIN.into(), i32::MAX.into()),
        ElemType::Uq => (0, u64::MAX.into()),
        ElemType::Q => (i64::MIN.into(), i64::MAX.into()),
        t => return Err(format!("an integer cannot be an immediate of type {t}")),
    };
    if v < lo || v > hi {
        return Err(format!("{v} does not fit in type {ty} (range {lo}..={hi})"));
    }
    // Two's complement, sign-extended into 64 bits as the AST stores signed immediates.
    Ok(v as i64 as u64)
}

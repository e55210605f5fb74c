//! Reading immediates: `0x1:ud`, `-5:w`, `1.5:f`, `1.5e+3:f`, `0x3c00:hf`, `0x76543210:v` (the
//! formatter prints them back).
//!
//! An integer literal written with a float type is the raw bit pattern (`0x3f800000:f` = 1.0),
//! as the Intel assembler reads it; `:hf`/`:bf` take only bit patterns.

use super::TextError;
use super::cursor::{Cursor, parse_uint};
use crate::ast::{ElemType, Immediate};

/// A literal as written, before its type is known.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Literal {
    Int { negative: bool, magnitude: u64 },
    Float(f64),
}

/// Reads a numeric literal (with an optional sign) at the cursor.
pub(crate) fn literal(cur: &mut Cursor) -> Result<Literal, TextError> {
    cur.skip_ws();
    let start = cur.pos();
    let negative = match cur.peek() {
        Some('-') => {
            cur.bump();
            true
        }
        Some('+') => {
            cur.bump();
            false
        }
        _ => false,
    };
    let token_start = cur.pos();
    let token = cur.number_token();
    if let Some(magnitude) = parse_uint(token) {
        return Ok(Literal::Int {
            negative,
            magnitude,
        });
    }
    let is_float_text = !token.is_empty()
        && token.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && token
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    match token.parse::<f64>() {
        Ok(v) if is_float_text => Ok(Literal::Float(if negative { -v } else { v })),
        _ => {
            cur.reset(if token.is_empty() { start } else { token_start });
            let found = if token.is_empty() {
                cur.found()
            } else {
                format!("`{token}`")
            };
            Err(TextError::new(cur.span(), found, "a number"))
        }
    }
}

/// Reads `:type` after a literal.
pub(crate) fn type_suffix(cur: &mut Cursor) -> Result<ElemType, TextError> {
    if cur.peek() != Some(':') {
        return Err(cur.error("a type suffix (`:ud`, `:f`, ...)"));
    }
    cur.bump();
    let start = cur.pos();
    let name = cur.name().unwrap_or_default();
    ElemType::from_name(&name).ok_or_else(|| {
        cur.reset(start);
        cur.error("an element type (ub, b, uw, w, ud, d, uq, q, hf, f, df, bf, v, uv, vf)")
    })
}

/// Bit width of an immediate of type `ty` in the binary form.
pub(crate) fn imm_bits(ty: ElemType) -> u32 {
    match ty {
        ElemType::Ub | ElemType::B | ElemType::Bool => 8,
        ElemType::Uw | ElemType::W | ElemType::Hf | ElemType::Bf => 16,
        ElemType::Uq | ElemType::Q | ElemType::Df => 64,
        _ => 32,
    }
}

/// The mask of the `bits` low bits (all bits from 64 on).
pub(crate) fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Encodes a literal as `ty`; the error is the expectation that was violated.
pub(crate) fn encode(lit: &Literal, ty: ElemType) -> Result<Immediate, String> {
    let bits = imm_bits(ty);
    let mask = low_mask(bits);
    let pattern = match (*lit, ty) {
        (_, ElemType::Bool) => return Err("a type other than bool".into()),
        (Literal::Float(v), ElemType::F) => u64::from((v as f32).to_bits()),
        (Literal::Float(v), ElemType::Df) => v.to_bits(),
        (Literal::Float(_), _) => {
            return Err(format!("an integer or hex bit pattern for type {ty}"));
        }
        (
            Literal::Int {
                negative,
                magnitude,
            },
            _,
        ) if !ty.is_float() => {
            // The compiler keeps an integer immediate's low bits whatever its value
            // (`CISA_create_immed`, visa/BuildCISAIRImpl.cpp:3888-3899 at 98fff71643f1, as in IGC
            // 1.0.12504): `0x4c0:ub` is 0xc0, `-1:ud` is 0xffffffff.
            if negative {
                magnitude.wrapping_neg() & mask
            } else {
                magnitude & mask
            }
        }
        // An integer written for a float type is its bit pattern (`0x3f800000:f`): it must fit
        // the type, and only zero may carry a minus sign.
        (
            Literal::Int {
                negative,
                magnitude,
            },
            _,
        ) => {
            if (negative && magnitude != 0) || magnitude & !mask != 0 {
                return Err(format!("a value that fits type {ty}"));
            }
            magnitude & mask
        }
    };
    Ok(Immediate {
        bits: extend(pattern & mask, ty),
        ty,
    })
}

/// Sign-extends the pattern of a signed integer type; other types are zero-extended.
pub(crate) fn extend(pattern: u64, ty: ElemType) -> u64 {
    let bits = imm_bits(ty);
    if ty.is_signed_int() && ty != ElemType::V && bits < 64 && pattern >> (bits - 1) & 1 == 1 {
        pattern | !low_mask(bits)
    } else {
        pattern
    }
}

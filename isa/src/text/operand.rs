//! Operands: general `V(r,c)<vs;w,hs>`, indirect `r[A0(0), 8]<8;8,1>:f`, address `A0(0)<1>`,
//! address-of `&V[4]`, immediates, raw `V.0`, and bare names.

use super::TextError;
use super::cursor::Cursor;
use super::immediate::{self, Literal};
use crate::ast::{ElemType, Operand, Region, SrcMod};

/// An operand as read, before the field it fills decides what a bare name or untyped number is.
pub(crate) enum Parsed {
    Operand(Operand),
    /// A name alone (`P1`, `T6`, `%bss`, `LABEL`, `$0`).
    Bare(String),
    /// A number without `:type` (only meaningful for integer fields).
    Untyped(u64),
}

fn starts_number(c: char) -> bool {
    c.is_ascii_digit() || c == '-' || c == '+' || c == '.'
}

/// Reads a source modifier `(-)`, `(abs)`, `(-abs)`, `(~)` if one comes next.
fn modifier(cur: &mut Cursor) -> SrcMod {
    cur.skip_ws();
    if cur.peek() != Some('(') {
        return SrcMod::None;
    }
    let start = cur.pos();
    cur.bump();
    let found = if cur.eat('-') {
        if cur.eat_word("abs") {
            SrcMod::NegAbs
        } else {
            SrcMod::Neg
        }
    } else if cur.eat('~') {
        SrcMod::Not
    } else if cur.eat_word("abs") {
        SrcMod::Abs
    } else {
        SrcMod::None
    };
    if found != SrcMod::None && cur.eat(')') {
        found
    } else {
        cur.reset(start);
        SrcMod::None
    }
}

fn region_num(cur: &mut Cursor) -> Result<u16, TextError> {
    cur.skip_ws();
    let start = cur.pos();
    let v = cur.expect_uint("a region number")?;
    u16::try_from(v).map_err(|_| {
        cur.reset(start);
        cur.error("a region number")
    })
}

/// `<hs>`, `<vs;w,hs>` or `<w,hs>` (multi-address indirect).
pub(crate) fn region(cur: &mut Cursor) -> Result<Region, TextError> {
    cur.expect('<')?;
    let first = region_num(cur)?;
    let region = if cur.eat(';') {
        let width = region_num(cur)?;
        cur.expect(',')?;
        let hs = region_num(cur)?;
        Region {
            vs: Some(first),
            width: Some(width),
            hs,
        }
    } else if cur.eat(',') {
        let hs = region_num(cur)?;
        Region {
            vs: None,
            width: Some(first),
            hs,
        }
    } else {
        Region {
            vs: None,
            width: None,
            hs: first,
        }
    };
    cur.expect('>')?;
    Ok(region)
}

fn optional_region(cur: &mut Cursor) -> Result<Option<Region>, TextError> {
    cur.skip_ws();
    if cur.peek() == Some('<') {
        region(cur).map(Some)
    } else {
        Ok(None)
    }
}

fn optional_type(cur: &mut Cursor) -> Result<Option<ElemType>, TextError> {
    if cur.peek() == Some(':') {
        immediate::type_suffix(cur).map(Some)
    } else {
        Ok(None)
    }
}

fn no_modifier(cur: &mut Cursor, m: SrcMod, at: usize) -> Result<(), TextError> {
    if m == SrcMod::None {
        Ok(())
    } else {
        cur.reset(at);
        Err(cur.error("a general or indirect operand after a source modifier"))
    }
}

/// Reads one operand.
pub(crate) fn operand(cur: &mut Cursor) -> Result<Parsed, TextError> {
    cur.skip_ws();
    let m = modifier(cur);
    cur.skip_ws();
    let at = cur.pos();
    match cur.peek() {
        Some('&') => {
            no_modifier(cur, m, at)?;
            cur.bump();
            let var = cur.expect_name("a variable name after `&`")?;
            let offset = if cur.peek() == Some('[') {
                cur.bump();
                let off = offset32(cur)?;
                cur.expect(']')?;
                off
            } else if cur.peek() == Some('+') || cur.peek() == Some('-') {
                offset32(cur)?
            } else {
                0
            };
            Ok(Parsed::Operand(Operand::AddressOf { var, offset }))
        }
        Some(c) if starts_number(c) => {
            no_modifier(cur, m, at)?;
            let lit = immediate::literal(cur)?;
            if let Literal::Int {
                negative: false,
                magnitude,
            } = lit
                && cur.peek() != Some(':')
            {
                return Ok(Parsed::Untyped(magnitude));
            }
            let ty = immediate::type_suffix(cur)?;
            let span = cur.span_at(at);
            immediate::encode(&lit, ty)
                .map(|imm| Parsed::Operand(Operand::Immediate(imm)))
                .map_err(|why| TextError::new(span, format!("immediate of type {ty}"), why))
        }
        Some(_) => {
            let Some(var) = cur.name() else {
                return Err(cur.error("an operand"));
            };
            named_operand(cur, m, var, at)
        }
        None => Err(cur.error("an operand")),
    }
}

fn offset32(cur: &mut Cursor) -> Result<i32, TextError> {
    cur.skip_ws();
    let start = cur.pos();
    let v = cur.expect_int("an offset")?;
    i32::try_from(v).map_err(|_| {
        cur.reset(start);
        cur.error("an offset that fits 32 bits")
    })
}

/// What follows a name: `(r,c)`, `(k)`, `<region>`, `.offset`, or nothing.
fn named_operand(cur: &mut Cursor, m: SrcMod, var: String, at: usize) -> Result<Parsed, TextError> {
    match cur.peek() {
        Some('[') if var == "r" => indirect(cur, m),
        Some('(') => {
            cur.bump();
            let first = cur.expect_u32("a row number")?;
            if cur.eat(',') {
                let col = cur.expect_u32("a column number")?;
                cur.expect(')')?;
                let region = optional_region(cur)?;
                let ty = optional_type(cur)?;
                Ok(Parsed::Operand(Operand::General {
                    modifier: m,
                    var,
                    row: first,
                    col,
                    region,
                    ty,
                }))
            } else {
                cur.expect(')')?;
                no_modifier(cur, m, at)?;
                cur.skip_ws();
                let width = if cur.peek() == Some('<') {
                    cur.bump();
                    let w = cur.expect_u32("an address width")?;
                    cur.expect('>')?;
                    w
                } else {
                    1
                };
                Ok(Parsed::Operand(Operand::Address {
                    var,
                    elem: first,
                    width,
                }))
            }
        }
        Some('<') => {
            let region = Some(region(cur)?);
            let ty = optional_type(cur)?;
            Ok(Parsed::Operand(Operand::General {
                modifier: m,
                var,
                row: 0,
                col: 0,
                region,
                ty,
            }))
        }
        Some('.') if cur.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => {
            no_modifier(cur, m, at)?;
            cur.bump();
            let offset_at = cur.pos();
            let offset = cur.expect_u32("a byte offset")?;
            // The compiler's grammar reads `%null.N` for N = 0 only (`RawOperand`, visa/CISA.y:3036-3040
            // at 98fff71643f1, as in IGC 1.0.12504).
            if offset != 0 && var.eq_ignore_ascii_case("%null") {
                cur.reset(offset_at);
                return Err(cur.error("offset 0 (`%null.0`: the null variable has no bytes)"));
            }
            Ok(Parsed::Operand(Operand::Raw { var, offset }))
        }
        _ => {
            no_modifier(cur, m, at)?;
            Ok(Parsed::Bare(var))
        }
    }
}

/// `r[A0(k), off]<region>:type` (the `r` is already read).
fn indirect(cur: &mut Cursor, m: SrcMod) -> Result<Parsed, TextError> {
    cur.expect('[')?;
    let addr = cur.expect_name("an address variable")?;
    cur.expect('(')?;
    let addr_elem = cur.expect_u32("an address element")?;
    cur.expect(')')?;
    let offset = if cur.eat(',') { offset32(cur)? } else { 0 };
    cur.expect(']')?;
    let region = optional_region(cur)?;
    let ty = immediate::type_suffix(cur)?;
    Ok(Parsed::Operand(Operand::Indirect {
        modifier: m,
        addr,
        addr_elem,
        offset,
        region,
        ty,
    }))
}

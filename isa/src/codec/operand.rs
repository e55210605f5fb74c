//! Operand encodings (5_operands.md): vector operands (a tag byte holding the operand class in
//! bits 0-2 and a modifier in bits 3-5, then class-specific bytes), raw operands (variable index
//! and byte offset) and the predicate word.
//!
//! Project choices where the specification is silent: the modifier values follow the Intel
//! compiler (0 none, 1 abs, 2 neg, 3 neg-abs, 4 saturate, 5 not); an address operand's width is
//! stored as the compiler stores it, as an execution-size code (0 for 1 element .. 4 for 16);
//! the address-of operand `&V[off]`
//! uses the reserved class 4 with the variable index (ud) and a signed byte offset (d).

use crate::ast::{ElemType, Immediate, Operand, PredControl, Predicate, Region, SrcMod};

use super::reader::Reader;
use super::symbols::{SymbolKind, SymbolTable};
use super::{DecodeError, DecodeErrorKind};

/// Operand classes (tag bits 0-2).
pub(crate) mod class {
    pub const GENERAL: u8 = 0;
    pub const ADDRESS: u8 = 1;
    pub const PREDICATE: u8 = 2;
    pub const INDIRECT: u8 = 3;
    pub const ADDRESS_OF: u8 = 4;
    pub const IMMEDIATE: u8 = 5;
    pub const STATE: u8 = 6;
}

/// The saturation modifier, carried by the destination operand.
pub(crate) const MOD_SAT: u8 = 4;

/// Why an operand does not encode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OperandError {
    /// The operand form is not allowed in this field.
    #[error("a {form} operand cannot be stored in a {field_kind} field")]
    WrongForm {
        /// The operand form.
        form: &'static str,
        /// The field kind.
        field_kind: &'static str,
    },
    /// A number does not fit its binary slot.
    #[error("{what} {value} does not fit the binary form")]
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The value.
        value: i64,
    },
    /// A region parameter that is not 0, 1, 2, 4, 8, 16 or 32.
    #[error("region parameter {0} is not 0, 1, 2, 4, 8, 16 or 32")]
    Region(u16),
    /// An immediate whose bits are not its type's canonical extension.
    #[error("immediate bits {bits:#x} are not a valid {ty} value")]
    Immediate {
        /// The bits.
        bits: u64,
        /// The type.
        ty: ElemType,
    },
    /// Too many names of a kind.
    #[error(transparent)]
    Symbols(#[from] super::symbols::SymbolLimit),
    /// The predicate `P0` means "no predicate" in the binary form.
    #[error("predicate `{0}` has index 0, which means no predicate")]
    PredicateZero(String),
}

const TYPE_CODES: [(ElemType, u8); 16] = [
    (ElemType::Ud, 0),
    (ElemType::D, 1),
    (ElemType::Uw, 2),
    (ElemType::W, 3),
    (ElemType::Ub, 4),
    (ElemType::B, 5),
    (ElemType::Df, 6),
    (ElemType::F, 7),
    (ElemType::V, 8),
    (ElemType::Vf, 9),
    (ElemType::Bool, 10),
    (ElemType::Uq, 11),
    (ElemType::Uv, 12),
    (ElemType::Q, 13),
    (ElemType::Hf, 14),
    (ElemType::Bf, 15),
];

/// The binary type code (2_datatypes.md).
pub fn type_code(ty: ElemType) -> u8 {
    TYPE_CODES
        .iter()
        .find(|(t, _)| *t == ty)
        .map_or(0, |(_, c)| *c)
}

/// The type with a binary type code.
pub fn type_from_code(code: u8) -> Option<ElemType> {
    TYPE_CODES.iter().find(|(_, c)| *c == code).map(|(t, _)| *t)
}

/// The canonical 64-bit pattern of an immediate of type `ty` whose low bits are `raw`: signed
/// integer types sign-extend, the rest zero-extend.
pub fn canonical_bits(ty: ElemType, raw: u64) -> u64 {
    let width = ty.size() * 8;
    if width >= 64 {
        return raw;
    }
    let low = raw & ((1u64 << width) - 1);
    let signed = matches!(ty, ElemType::B | ElemType::W | ElemType::D);
    if signed && (low >> (width - 1)) & 1 == 1 {
        low | (u64::MAX << width)
    } else {
        low
    }
}

fn modifier_code(m: SrcMod) -> u8 {
    match m {
        SrcMod::None => 0,
        SrcMod::Abs => 1,
        SrcMod::Neg => 2,
        SrcMod::NegAbs => 3,
        SrcMod::Not => 5,
    }
}

/// Returns the source modifier and whether the saturation modifier was set.
fn modifier_from_code(code: u8) -> Option<(SrcMod, bool)> {
    Some(match code {
        0 => (SrcMod::None, false),
        1 => (SrcMod::Abs, false),
        2 => (SrcMod::Neg, false),
        3 => (SrcMod::NegAbs, false),
        MOD_SAT => (SrcMod::None, true),
        5 => (SrcMod::Not, false),
        _ => return None,
    })
}

fn region_param(value: u16) -> Result<u16, OperandError> {
    Ok(match value {
        0 => 1,
        1 => 2,
        2 => 3,
        4 => 4,
        8 => 5,
        16 => 6,
        32 => 7,
        _ => return Err(OperandError::Region(value)),
    })
}

fn region_value(code: u16) -> Option<u16> {
    match code {
        1 => Some(0),
        2..=7 => Some(1 << (code - 2)),
        _ => None,
    }
}

fn encode_region(region: Option<Region>) -> Result<u16, OperandError> {
    let Some(r) = region else { return Ok(0) };
    let vs = r.vs.map_or(Ok(0), region_param)?;
    let width = r.width.map_or(Ok(0), region_param)?;
    let hs = region_param(r.hs)?;
    Ok(vs | (width << 4) | (hs << 8))
}

fn decode_region(bits: u16, at: usize) -> Result<Option<Region>, DecodeError> {
    if bits == 0 {
        return Ok(None);
    }
    let invalid = || DecodeError::new(at, DecodeErrorKind::InvalidRegion(bits));
    if bits >> 12 != 0 {
        return Err(invalid());
    }
    let nibble = |shift: u16| (bits >> shift) & 0xf;
    let optional = |code: u16| {
        if code == 0 {
            Ok(None)
        } else {
            region_value(code).map(Some).ok_or_else(invalid)
        }
    };
    Ok(Some(Region {
        vs: optional(nibble(0))?,
        width: optional(nibble(4))?,
        hs: region_value(nibble(8)).ok_or_else(invalid)?,
    }))
}

fn fit<T: TryFrom<i64>>(what: &'static str, value: i64) -> Result<T, OperandError> {
    T::try_from(value).map_err(|_| OperandError::OutOfRange { what, value })
}

fn form(op: &Operand) -> &'static str {
    match op {
        Operand::General { .. } => "general",
        Operand::Indirect { .. } => "indirect",
        Operand::Address { .. } => "address",
        Operand::AddressOf { .. } => "address-of",
        Operand::Immediate(_) => "immediate",
        Operand::Raw { .. } => "raw",
        Operand::Predicate { .. } => "predicate",
        Operand::Name(_) => "name",
    }
}

/// Encodes a vector (or scalar) operand; `saturate` sets the saturation modifier (destination).
pub fn encode_vector(
    op: &Operand,
    saturate: bool,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<(), OperandError> {
    let tag = |class: u8, modifier: u8| class | (modifier << 3);
    let modifier = |m: SrcMod| -> Result<u8, OperandError> {
        match (saturate, m) {
            (false, m) => Ok(modifier_code(m)),
            (true, SrcMod::None) => Ok(MOD_SAT),
            (true, _) => Err(OperandError::WrongForm {
                form: "modified",
                field_kind: "saturated destination",
            }),
        }
    };
    if saturate && !matches!(op, Operand::General { .. } | Operand::Indirect { .. }) {
        return Err(OperandError::WrongForm {
            form: form(op),
            field_kind: "saturated destination",
        });
    }
    match op {
        Operand::General {
            modifier: m,
            var,
            row,
            col,
            region,
            ty: _,
        } => {
            out.push(tag(class::GENERAL, modifier(*m)?));
            out.extend(syms.intern(SymbolKind::General, var)?.to_le_bytes());
            out.push(fit::<u8>("row offset", i64::from(*row))?);
            out.push(fit::<u8>("column offset", i64::from(*col))?);
            out.extend(encode_region(*region)?.to_le_bytes());
        }
        // `T6(0)`, `S0(1)`: a surface or sampler with an element index is a state operand.
        Operand::Address {
            var,
            elem,
            width: 1,
        } if syms.id(SymbolKind::Surface, var).is_some()
            || syms.id(SymbolKind::Sampler, var).is_some() =>
        {
            out.push(tag(class::STATE, 0));
            let (state_class, id) = match syms.id(SymbolKind::Sampler, var) {
                Some(id) => (1u8, id),
                None => (0u8, syms.intern(SymbolKind::Surface, var)?),
            };
            out.push(state_class);
            out.extend(fit::<u16>("state index", i64::from(id))?.to_le_bytes());
            out.push(fit::<u8>("state element", i64::from(*elem))?);
        }
        Operand::Address { var, elem, width } => {
            out.push(tag(class::ADDRESS, 0));
            let id = syms.intern(SymbolKind::Address, var)?;
            out.extend(fit::<u16>("address index", i64::from(id))?.to_le_bytes());
            out.push(fit::<u8>("address offset", i64::from(*elem))?);
            // The compiler stores the width as an execution-size code: log2 of 1, 2, 4, 8, 16.
            if !width.is_power_of_two() || *width > 16 {
                return Err(OperandError::OutOfRange {
                    what: "address width",
                    value: i64::from(*width),
                });
            }
            out.push(width.trailing_zeros() as u8);
        }
        Operand::Predicate { var } => {
            out.push(tag(class::PREDICATE, 0));
            let id = syms.intern(SymbolKind::Predicate, var)?;
            out.extend(fit::<u16>("predicate index", i64::from(id))?.to_le_bytes());
        }
        Operand::Indirect {
            modifier: m,
            addr,
            addr_elem,
            offset,
            region,
            ty,
        } => {
            out.push(tag(class::INDIRECT, modifier(*m)?));
            let id = syms.intern(SymbolKind::Address, addr)?;
            out.extend(fit::<u16>("address index", i64::from(id))?.to_le_bytes());
            out.push(fit::<u8>("address offset", i64::from(*addr_elem))?);
            out.extend(fit::<i16>("indirect offset", i64::from(*offset))?.to_le_bytes());
            out.push(type_code(*ty));
            out.extend(encode_region(*region)?.to_le_bytes());
        }
        Operand::AddressOf { var, offset } => {
            out.push(tag(class::ADDRESS_OF, 0));
            out.extend(syms.intern(SymbolKind::General, var)?.to_le_bytes());
            out.extend(offset.to_le_bytes());
        }
        Operand::Immediate(Immediate { bits, ty }) => {
            if *ty == ElemType::Bool || canonical_bits(*ty, *bits) != *bits {
                return Err(OperandError::Immediate {
                    bits: *bits,
                    ty: *ty,
                });
            }
            out.push(tag(class::IMMEDIATE, 0));
            out.push(type_code(*ty));
            out.extend((*bits as u32).to_le_bytes());
            if ty.size() == 8 {
                out.extend(((*bits >> 32) as u32).to_le_bytes());
            }
        }
        Operand::Name(name) => {
            out.push(tag(class::STATE, 0));
            let (state_class, id) = match syms.id(SymbolKind::Sampler, name) {
                Some(id) => (1u8, id),
                None => (0u8, syms.intern(SymbolKind::Surface, name)?),
            };
            out.push(state_class);
            out.extend(fit::<u16>("state index", i64::from(id))?.to_le_bytes());
            out.push(0);
        }
        Operand::Raw { .. } => {
            return Err(OperandError::WrongForm {
                form: "raw",
                field_kind: "vector operand",
            });
        }
    }
    Ok(())
}

fn lookup(syms: &SymbolTable, kind: SymbolKind, id: u32, at: usize) -> Result<String, DecodeError> {
    syms.name(kind, id)
        .map(str::to_string)
        .ok_or_else(|| DecodeError::new(at, DecodeErrorKind::UnknownSymbol { kind, id }))
}

/// Decodes a vector operand; returns it and whether it carried the saturation modifier.
pub fn decode_vector(
    r: &mut Reader<'_>,
    syms: &SymbolTable,
) -> Result<(Operand, bool), DecodeError> {
    let at = r.pos();
    let tag = r.u8()?;
    if tag >> 6 != 0 {
        return Err(DecodeError::new(at, DecodeErrorKind::InvalidTag(tag)));
    }
    let class = tag & 0x7;
    let modifier_bits = (tag >> 3) & 0x7;
    let (modifier, saturate) = modifier_from_code(modifier_bits)
        .ok_or(DecodeError::new(at, DecodeErrorKind::InvalidTag(tag)))?;
    let plain = |class_ok: bool| {
        if class_ok && modifier_bits == 0 {
            Ok(())
        } else {
            Err(DecodeError::new(at, DecodeErrorKind::InvalidTag(tag)))
        }
    };
    let op = match class {
        class::GENERAL => {
            let id_at = r.pos();
            let var = lookup(syms, SymbolKind::General, r.u32()?, id_at)?;
            let row = u32::from(r.u8()?);
            let col = u32::from(r.u8()?);
            let region_at = r.pos();
            let region = decode_region(r.u16()?, region_at)?;
            Operand::General {
                modifier,
                var,
                row,
                col,
                region,
                ty: None,
            }
        }
        class::ADDRESS => {
            plain(true)?;
            let id_at = r.pos();
            let var = lookup(syms, SymbolKind::Address, u32::from(r.u16()?), id_at)?;
            let elem = u32::from(r.u8()?);
            let width_at = r.pos();
            let width_code = r.u8()?;
            if width_code > 4 {
                return Err(DecodeError::new(
                    width_at,
                    DecodeErrorKind::InvalidTag(width_code),
                ));
            }
            let width = 1u32 << width_code;
            Operand::Address { var, elem, width }
        }
        class::PREDICATE => {
            plain(true)?;
            let id_at = r.pos();
            let var = lookup(syms, SymbolKind::Predicate, u32::from(r.u16()?), id_at)?;
            Operand::Predicate { var }
        }
        class::INDIRECT => {
            let id_at = r.pos();
            let addr = lookup(syms, SymbolKind::Address, u32::from(r.u16()?), id_at)?;
            let addr_elem = u32::from(r.u8()?);
            let offset = i32::from(r.i16()?);
            let ty_at = r.pos();
            let ty_code = r.u8()?;
            let ty = type_from_code(ty_code).ok_or(DecodeError::new(
                ty_at,
                DecodeErrorKind::InvalidType(ty_code),
            ))?;
            let region_at = r.pos();
            let region = decode_region(r.u16()?, region_at)?;
            Operand::Indirect {
                modifier,
                addr,
                addr_elem,
                offset,
                region,
                ty,
            }
        }
        class::ADDRESS_OF => {
            plain(true)?;
            let id_at = r.pos();
            let var = lookup(syms, SymbolKind::General, r.u32()?, id_at)?;
            let offset = r.i32()?;
            Operand::AddressOf { var, offset }
        }
        class::IMMEDIATE => {
            plain(true)?;
            let ty_at = r.pos();
            let ty_code = r.u8()?;
            let ty = type_from_code(ty_code)
                .filter(|t| *t != ElemType::Bool)
                .ok_or(DecodeError::new(
                    ty_at,
                    DecodeErrorKind::InvalidType(ty_code),
                ))?;
            let low_at = r.pos();
            let low = u64::from(r.u32()?);
            // Narrow types are stored sign- or zero-extended into the dword.
            if ty.size() < 4 && canonical_bits(ty, low) & 0xffff_ffff != low {
                return Err(DecodeError::new(
                    low_at,
                    DecodeErrorKind::InvalidImmediate(low as u32),
                ));
            }
            let high = if ty.size() == 8 {
                u64::from(r.u32()?)
            } else {
                0
            };
            Operand::Immediate(Immediate {
                bits: canonical_bits(ty, low | (high << 32)),
                ty,
            })
        }
        class::STATE => {
            plain(true)?;
            let class_at = r.pos();
            let kind = match r.u8()? {
                0 => SymbolKind::Surface,
                1 => SymbolKind::Sampler,
                other => {
                    return Err(DecodeError::new(
                        class_at,
                        DecodeErrorKind::InvalidTag(other),
                    ));
                }
            };
            let id_at = r.pos();
            let name = lookup(syms, kind, u32::from(r.u16()?), id_at)?;
            // Element 0 reads as the name alone (`T6`); `T6(0)` writes the same bytes.
            match r.u8()? {
                0 => Operand::Name(name),
                elem => Operand::Address {
                    var: name,
                    elem: u32::from(elem),
                    width: 1,
                },
            }
        }
        _ => return Err(DecodeError::new(at, DecodeErrorKind::InvalidTag(tag))),
    };
    Ok((op, saturate))
}

/// Encodes a raw operand: variable index (ud) and byte offset (uw).
pub fn encode_raw(
    op: &Operand,
    syms: &mut SymbolTable,
    out: &mut Vec<u8>,
) -> Result<(), OperandError> {
    match op {
        Operand::Raw { var, offset } => {
            out.extend(syms.intern(SymbolKind::General, var)?.to_le_bytes());
            out.extend(fit::<u16>("raw offset", i64::from(*offset))?.to_le_bytes());
            Ok(())
        }
        other => Err(OperandError::WrongForm {
            form: form(other),
            field_kind: "raw operand",
        }),
    }
}

/// Decodes a raw operand.
pub fn decode_raw(r: &mut Reader<'_>, syms: &SymbolTable) -> Result<Operand, DecodeError> {
    let id_at = r.pos();
    let var = lookup(syms, SymbolKind::General, r.u32()?, id_at)?;
    let offset = u32::from(r.u16()?);
    Ok(Operand::Raw { var, offset })
}

/// The predicate word (5_operands.md, Predication): index in bits 0-11, combine in 13-14,
/// inverse in bit 15; 0 for no predicate.
pub fn encode_predicate(
    pred: Option<&Predicate>,
    syms: &mut SymbolTable,
) -> Result<u16, OperandError> {
    let Some(p) = pred else { return Ok(0) };
    let id = syms.intern(SymbolKind::Predicate, &p.name)?;
    if id == 0 {
        return Err(OperandError::PredicateZero(p.name.clone()));
    }
    let control = match p.control {
        PredControl::None => 0,
        PredControl::Any => 1,
        PredControl::All => 2,
    };
    let id = fit::<u16>("predicate index", i64::from(id))?;
    Ok(id | (control << 13) | (u16::from(p.inverse) << 15))
}

/// Decodes the predicate word.
pub fn decode_predicate(
    word: u16,
    at: usize,
    syms: &SymbolTable,
) -> Result<Option<Predicate>, DecodeError> {
    let invalid = || DecodeError::new(at, DecodeErrorKind::InvalidPredicate(word));
    let id = u32::from(word & 0x0fff);
    if word & 0x1000 != 0 {
        return Err(invalid());
    }
    let control = match (word >> 13) & 0x3 {
        0 => PredControl::None,
        1 => PredControl::Any,
        2 => PredControl::All,
        _ => return Err(invalid()),
    };
    let inverse = word >> 15 == 1;
    if id == 0 {
        return if word == 0 { Ok(None) } else { Err(invalid()) };
    }
    Ok(Some(Predicate {
        name: lookup(syms, SymbolKind::Predicate, id, at)?,
        inverse,
        control,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_bits_extend_by_signedness() {
        assert_eq!(canonical_bits(ElemType::D, 0xffff_ffff), u64::MAX);
        assert_eq!(canonical_bits(ElemType::Ud, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(canonical_bits(ElemType::W, 0x8000), 0xffff_ffff_ffff_8000);
        assert_eq!(canonical_bits(ElemType::Uq, u64::MAX), u64::MAX);
        assert_eq!(canonical_bits(ElemType::Hf, 0x1_3c00), 0x3c00);
    }

    #[test]
    fn region_parameters_round_trip() {
        for v in [0u16, 1, 2, 4, 8, 16, 32] {
            let code = region_param(v).unwrap();
            assert_eq!(region_value(code), Some(v));
        }
        assert_eq!(region_param(3), Err(OperandError::Region(3)));
        assert_eq!(region_value(0), None);
        assert_eq!(region_value(8), None);
    }

    #[test]
    fn every_type_code_is_distinct() {
        for ty in ElemType::ALL {
            assert_eq!(type_from_code(type_code(ty)), Some(ty));
        }
    }
}

//! Support for the generated bitfield types and for the table-driven conversions between field
//! values and their encoded integers (shared by the typed instructions and the binary codec).

use crate::ast::ExecSize;
use crate::desc::{BitFieldDesc, CodeDesc, FieldDesc};

/// A field value that the documents do not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BitfieldError {
    /// A sub-field holds a code its document does not list.
    #[error("{ty}: code {code:#x} is not documented")]
    UndocumentedCode {
        /// The generated type (or field) name.
        ty: &'static str,
        /// The offending code (already shifted down to the sub-field).
        code: u64,
    },
    /// Bits outside every documented sub-field are set.
    #[error("{ty}: bits {bits:#x} are outside every documented sub-field")]
    ReservedBits {
        /// The generated type (or field) name.
        ty: &'static str,
        /// The offending bits.
        bits: u64,
    },
    /// An execution size or mask that the field's codes cannot express.
    #[error("{field}: {what} cannot be encoded")]
    Unencodable {
        /// The field name.
        field: &'static str,
        /// What was asked for, e.g. `exec size 3`.
        what: String,
    },
}

/// A generated code enum, described for generic tools (see `fields::BITFIELD_TYPES`).
#[derive(Debug, Clone, Copy)]
pub struct BitfieldInfo {
    /// The generated type's name.
    pub name: &'static str,
    /// Highest bit of the sub-field.
    pub hi: u32,
    /// Lowest bit of the sub-field.
    pub lo: u32,
    /// The documented codes.
    pub codes: &'static [CodeDesc],
    /// `decode` then `encode`.
    pub round_trip: fn(u64) -> Result<u64, BitfieldError>,
    /// `decode` then `Display`.
    pub display: fn(u64) -> Option<String>,
}

/// A generated per-field struct, described for generic tools (see `fields::FIELD_TYPES`).
#[derive(Debug, Clone, Copy)]
pub struct FieldTypeInfo {
    /// The generated type's name.
    pub name: &'static str,
    /// Width of the field in bits.
    pub width: u32,
    /// Sub-fields: (hi, lo, documented codes; `None` for a raw sub-field).
    pub parts: &'static [(u32, u32, Option<&'static [CodeDesc]>)],
    /// `decode` then `encode`.
    pub round_trip: fn(u64) -> Result<u64, BitfieldError>,
    /// `decode` then `Display`.
    pub display: fn(u64) -> Option<String>,
}

/// Extracts the sub-field described by `bitfield` from a field value.
pub const fn extract(bitfield: &BitFieldDesc, value: u64) -> u64 {
    (value & bitfield.mask()) >> bitfield.lo
}

/// The documented code `code` of a list, if any.
pub fn find_code(codes: &'static [CodeDesc], code: u64) -> Option<&'static CodeDesc> {
    codes.iter().find(|c| c.code == code)
}

/// The documented code whose text token is `text` (case-insensitive), if any.
pub fn find_text(codes: &'static [CodeDesc], text: &str) -> Option<&'static CodeDesc> {
    codes.iter().find(|c| c.is_written(text))
}

/// Checks that a field value only uses documented codes: every sub-field holds a listed code and
/// no bit outside the sub-fields is set (a field with a plain value list must hold a listed
/// value; a field without codes accepts anything that fits).
pub fn check_field(field: &FieldDesc, value: u64) -> Result<(), BitfieldError> {
    if !field.bitfields.is_empty() {
        let mut covered = 0u64;
        for bitfield in field.bitfields {
            covered |= bitfield.mask();
            let code = extract(bitfield, value);
            if !bitfield.codes.is_empty() && find_code(bitfield.codes, code).is_none() {
                return Err(BitfieldError::UndocumentedCode {
                    ty: field.name,
                    code,
                });
            }
        }
        let stray = value & !covered;
        if stray != 0 {
            return Err(BitfieldError::ReservedBits {
                ty: field.name,
                bits: stray,
            });
        }
    } else if !field.values.is_empty() && find_code(field.values, value).is_none() {
        return Err(BitfieldError::UndocumentedCode {
            ty: field.name,
            code: value,
        });
    }
    Ok(())
}

/// The size (`Bit[2..0]`) and mask (`Bit[7..4]`) sub-fields of an execution-size field.
fn exec_parts(field: &FieldDesc) -> Option<(&'static BitFieldDesc, &'static BitFieldDesc)> {
    // The size sub-field starts at bit 0: Bit[2..0], or Bit[1..0] (GATHER's `Num_elts`).
    let size = field.bitfields.iter().find(|b| b.lo == 0 && b.hi <= 2)?;
    let mask = field.bitfields.iter().find(|b| b.lo == 4 && b.hi == 7)?;
    Some((size, mask))
}

/// The text token of an execution mask: `m1` .. `m8`, `_nm` appended for no-mask.
fn mask_token(mask_offset: u8, no_mask: bool) -> String {
    let suffix = if no_mask { "_nm" } else { "" };
    format!("m{}{suffix}", u32::from(mask_offset) + 1)
}

/// Encodes an execution size into the value of an execution-size field, using the field's
/// documented codes (size token `16`, mask token `m1_nm`; syntax convention 3).
pub fn exec_to_bits(field: &FieldDesc, exec: &ExecSize) -> Result<u64, BitfieldError> {
    let unencodable = |what: String| BitfieldError::Unencodable {
        field: field.name,
        what,
    };
    let (size_bits, mask_bits) =
        exec_parts(field).ok_or_else(|| unencodable("an execution size".to_string()))?;
    let size = find_text(size_bits.codes, &exec.size.to_string())
        .ok_or_else(|| unencodable(format!("exec size {}", exec.size)))?;
    let token = mask_token(exec.mask_offset, exec.no_mask);
    let mask = find_text(mask_bits.codes, &token)
        .ok_or_else(|| unencodable(format!("exec mask {}", token.to_uppercase())))?;
    Ok((size.code << size_bits.lo) | (mask.code << mask_bits.lo))
}

/// Decodes the value of an execution-size field. The binary form does not record whether the
/// mask was written, so the result has `mask_written: true`.
pub fn bits_to_exec(field: &FieldDesc, value: u64) -> Result<ExecSize, BitfieldError> {
    check_field(field, value)?;
    let (size_bits, mask_bits) = exec_parts(field).ok_or(BitfieldError::UndocumentedCode {
        ty: field.name,
        code: value,
    })?;
    let undocumented = |code| BitfieldError::UndocumentedCode {
        ty: field.name,
        code,
    };
    let size_code = extract(size_bits, value);
    let size = find_code(size_bits.codes, size_code)
        .and_then(|c| c.text.parse::<u32>().ok())
        .ok_or(undocumented(size_code))?;
    let mask_code = extract(mask_bits, value);
    let mask = find_code(mask_bits.codes, mask_code).ok_or(undocumented(mask_code))?;
    let (mask_offset, no_mask) = parse_mask_token(mask.text).ok_or(undocumented(mask_code))?;
    Ok(ExecSize {
        size,
        mask_offset,
        no_mask,
        mask_written: true,
    })
}

/// `m3` -> (2, false), `m3_nm` -> (2, true).
fn parse_mask_token(text: &str) -> Option<(u8, bool)> {
    let lower = text.to_ascii_lowercase();
    let rest = lower.strip_prefix('m')?;
    let (digits, no_mask) = match rest.strip_suffix("_nm") {
        Some(d) => (d, true),
        None => (rest, false),
    };
    let group: u8 = digits.parse().ok()?;
    Some((group.checked_sub(1)?, no_mask))
}

/// Whether a field has the shape of an execution-size field (size and mask sub-fields whose codes
/// are numbers and mask names): what [`exec_to_bits`] and [`bits_to_exec`] need.
pub fn is_exec_field(field: &FieldDesc) -> bool {
    exec_parts(field).is_some_and(|(size, mask)| {
        size.codes.iter().all(|c| c.text.parse::<u32>().is_ok())
            && mask
                .codes
                .iter()
                .all(|c| parse_mask_token(c.text).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_tokens_round_trip() {
        for offset in 0..8u8 {
            for no_mask in [false, true] {
                let token = mask_token(offset, no_mask);
                assert_eq!(parse_mask_token(&token), Some((offset, no_mask)));
            }
        }
        assert_eq!(parse_mask_token("m0"), None);
        assert_eq!(parse_mask_token("x1"), None);
    }
}

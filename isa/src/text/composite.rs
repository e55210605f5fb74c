//! Composite operands: the operand slots of a template that has a layout
//! ([`SyntaxDesc::layout`], `spec/README.md` "Composite operands"), read piece by piece with
//! backtracking over optional groups (`[<Blocks=1>"x"]<BlockWidth>"x"<BlockHeight>` reads both
//! `16x32` and `2x16x32`).

use super::TextError;
use super::cursor::Cursor;
use super::operand::{self, Parsed};
use super::table::{binding_codes, binding_fits, binding_value, set_binding};
use crate::ast::{ElemType, FieldValue, Immediate, Operand, Span};
use crate::desc::{Binding, FieldKind, InstrDesc, NumberStyle, PieceDesc};

/// The continuation of a match: what must follow the pieces matched so far.
type Next<'k, 'c, 'a> = dyn FnMut(&mut Reader<'c, 'a>) -> Result<(), TextError> + 'k;

/// The state of reading one instruction's operands against a layout.
pub(crate) struct Reader<'c, 'a> {
    desc: &'static InstrDesc,
    cur: &'c mut Cursor<'a>,
    pub(crate) fields: Vec<FieldValue>,
    pub(crate) spans: Vec<Span>,
    /// Fields a placeholder of this layout has set (a field written twice must agree).
    written: Vec<bool>,
}

/// What [`Reader::save`] keeps to backtrack.
struct Saved {
    pos: usize,
    fields: Vec<FieldValue>,
    spans: Vec<Span>,
    written: Vec<bool>,
}

impl<'c, 'a> Reader<'c, 'a> {
    pub(crate) fn new(
        desc: &'static InstrDesc,
        cur: &'c mut Cursor<'a>,
        fields: Vec<FieldValue>,
        spans: Vec<Span>,
    ) -> Self {
        let written = vec![false; fields.len()];
        Self {
            desc,
            cur,
            fields,
            spans,
            written,
        }
    }

    /// Reads every operand slot of `layout`, separated by spaces, up to the end of the line.
    pub(crate) fn read(
        &mut self,
        layout: &'static [&'static [PieceDesc]],
    ) -> Result<(), TextError> {
        self.slots(layout, &mut |r| {
            if r.cur.at_end() {
                Ok(())
            } else {
                Err(r.cur.error("end of line"))
            }
        })
    }

    fn slots(
        &mut self,
        layout: &'static [&'static [PieceDesc]],
        next: &mut Next<'_, 'c, 'a>,
    ) -> Result<(), TextError> {
        let Some((first, rest)) = layout.split_first() else {
            return next(self);
        };
        let before = self.cur.pos();
        if self.cur.at_end() {
            return Err(self.cur.error("another operand"));
        }
        // Operands are apart when a space or a punctuation mark ends the previous one
        // (`(M1, 16)bss(...)` is two tokens to the compiler's lexer).
        let glued = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        if self.cur.pos() == before
            && before > 0
            && glued(self.cur.previous())
            && glued(self.cur.peek())
        {
            return Err(self.cur.error("a space before the next operand"));
        }
        self.pieces(first, &mut |r| r.slots(rest, next))
    }

    fn save(&self) -> Saved {
        Saved {
            pos: self.cur.pos(),
            fields: self.fields.clone(),
            spans: self.spans.clone(),
            written: self.written.clone(),
        }
    }

    fn restore(&mut self, saved: Saved) {
        self.cur.reset(saved.pos);
        self.fields = saved.fields;
        self.spans = saved.spans;
        self.written = saved.written;
    }

    fn pieces(
        &mut self,
        pieces: &'static [PieceDesc],
        next: &mut Next<'_, 'c, 'a>,
    ) -> Result<(), TextError> {
        let Some((first, rest)) = pieces.split_first() else {
            return next(self);
        };
        match first {
            PieceDesc::Literal(text) => match literal_len(self.cur.remaining(), text) {
                Some(len) => {
                    self.cur.reset(self.cur.pos() + len);
                    self.pieces(rest, next)
                }
                None => Err(self.cur.error(&format!("`{}`", text.trim()))),
            },
            PieceDesc::Optional(inner) => {
                let saved = self.save();
                let with = self.pieces(inner, &mut |r| r.pieces(rest, next));
                let Err(with) = with else { return Ok(()) };
                self.restore(saved);
                self.leave_out(inner);
                let without = self.pieces(rest, next);
                match without {
                    Ok(()) => Ok(()),
                    Err(without) if without.span >= with.span => Err(without),
                    Err(_) => Err(with),
                }
            }
            PieceDesc::Field { binding, style, .. } => {
                self.field(*binding, *style, &mut |r| r.pieces(rest, next))
            }
        }
    }

    /// Gives the fields of a left-out group their left-out values.
    fn leave_out(&mut self, pieces: &'static [PieceDesc]) {
        for piece in pieces {
            match piece {
                PieceDesc::Literal(_) => {}
                PieceDesc::Optional(inner) => self.leave_out(inner),
                PieceDesc::Field {
                    binding, default, ..
                } => {
                    if is_operand(self.desc, *binding) {
                        if let Some(slot) = self.fields.get_mut(binding.field) {
                            *slot = FieldValue::Absent;
                        }
                    } else {
                        set_binding(self.desc, &mut self.fields, *binding, default.unwrap_or(0));
                    }
                }
            }
        }
    }

    /// Stores a placeholder's value; a field already written by this layout must agree.
    fn store(&mut self, binding: Binding, value: FieldValue, at: Span) -> Result<(), TextError> {
        let index = binding.field;
        let mut fields = self.fields.clone();
        match value {
            FieldValue::Int(code) if binding.bitfield.is_some() => {
                set_binding(self.desc, &mut fields, binding, code)
            }
            other => {
                if let Some(slot) = fields.get_mut(index) {
                    *slot = other;
                }
            }
        }
        if self.written.get(index).copied().unwrap_or(false) && fields[index] != self.fields[index]
        {
            let name = self.desc.fields.get(index).map_or("", |f| f.name);
            return Err(TextError::new(
                at,
                "a different value",
                format!("the same {name} as earlier in the instruction"),
            ));
        }
        self.fields = fields;
        if let Some(slot) = self.written.get_mut(index) {
            *slot = true;
        }
        if let Some(slot) = self.spans.get_mut(index) {
            *slot = at;
        }
        Ok(())
    }

    fn field(
        &mut self,
        binding: Binding,
        style: NumberStyle,
        next: &mut Next<'_, 'c, 'a>,
    ) -> Result<(), TextError> {
        let at = self.cur.span();
        if is_operand(self.desc, binding) {
            let raw = self
                .desc
                .fields
                .get(binding.field)
                .is_some_and(|f| f.kind == FieldKind::RawOperand);
            let value = match operand::operand(self.cur)? {
                Parsed::Operand(op) => op,
                // A variable written alone: its start (`V` is `V.0`, or `V(0,0)` in a vector field).
                Parsed::Bare(var) => Operand::from_start(var, raw),
                Parsed::Untyped(bits) => Operand::Immediate(Immediate {
                    bits,
                    ty: if bits > u64::from(u32::MAX) {
                        ElemType::Uq
                    } else {
                        ElemType::Ud
                    },
                }),
            };
            self.store(binding, FieldValue::Operand(value), at)?;
            return next(self);
        }
        let codes = binding_codes(self.desc, binding);
        if !codes.is_empty() {
            // Every code whose token starts here, the longest first.
            let remaining = self.cur.remaining();
            let mut fitting: Vec<_> = codes
                .iter()
                .flat_map(|c| c.spellings().map(move |s| (c, s)))
                .filter(|(_, s)| {
                    !s.is_empty()
                        && remaining
                            .get(..s.len())
                            .is_some_and(|head| head.eq_ignore_ascii_case(s))
                })
                .collect();
            fitting.sort_by_key(|(_, s)| std::cmp::Reverse(s.len()));
            let mut best: Option<TextError> = None;
            for (code, spelling) in fitting {
                let saved = self.save();
                self.cur.reset(self.cur.pos() + spelling.len());
                let result = self
                    .store(binding, FieldValue::Int(code.code), at)
                    .and_then(|()| next(self));
                match result {
                    Ok(()) => return Ok(()),
                    Err(e) => {
                        self.restore(saved);
                        if best.as_ref().is_none_or(|b| e.span > b.span) {
                            best = Some(e);
                        }
                    }
                }
            }
            return Err(best.unwrap_or_else(|| {
                let list: Vec<&str> = codes.iter().map(|c| c.text).collect();
                self.cur.error(&format!("one of {}", list.join(", ")))
            }));
        }
        let value = self.number(binding, style)?;
        self.store(binding, FieldValue::Int(value), at)?;
        next(self)
    }

    /// A number of a field without codes, as `style` writes it; stored as the field's bits.
    fn number(&mut self, binding: Binding, style: NumberStyle) -> Result<u64, TextError> {
        let start = self.cur.pos();
        let remaining = self.cur.remaining();
        let signed_kind = self
            .desc
            .fields
            .get(binding.field)
            .is_some_and(|f| f.kind == FieldKind::D);
        let (negative, body) = match style {
            NumberStyle::SignedHex => match remaining.chars().next() {
                Some('+') => (false, &remaining[1..]),
                Some('-') => (true, &remaining[1..]),
                _ => return Err(self.cur.error("a signed number (`+0x10`, `-0x4`)")),
            },
            NumberStyle::SignedDecimal => match remaining.chars().next() {
                Some('+') => (false, &remaining[1..]),
                Some('-') => (true, &remaining[1..]),
                _ => return Err(self.cur.error("a signed number (`+4`, `-2`)")),
            },
            // A signed field in plain decimal: a minus sign when negative, none otherwise.
            NumberStyle::Decimal if signed_kind => match remaining.strip_prefix('-') {
                Some(body) => (true, body),
                None => (false, remaining),
            },
            _ => (false, remaining),
        };
        let sign_len = remaining.len() - body.len();
        let hex_digits = matches!(style, NumberStyle::Hex | NumberStyle::SignedHex)
            .then(|| body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")))
            .flatten()
            .map(|h| h.len() - h.trim_start_matches(|c: char| c.is_ascii_hexdigit()).len());
        let (len, magnitude) = match hex_digits {
            Some(n) if n > 0 => (2 + n, u64::from_str_radix(&body[2..2 + n], 16).ok()),
            _ => {
                let n = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                (n, body[..n].parse::<u64>().ok().filter(|_| n > 0))
            }
        };
        let value = magnitude.and_then(|m| match (negative, signed_kind) {
            (false, false) => Some(m),
            (true, false) => None,
            (neg, true) => {
                let v = i64::try_from(m).ok().map(|v| if neg { -v } else { v })?;
                i32::try_from(v).ok().map(|v| u64::from(v as u32))
            }
        });
        match value.filter(|v| binding_fits(self.desc, binding, *v)) {
            Some(v) => {
                self.cur.reset(start + sign_len + len);
                Ok(v)
            }
            None => Err(self.cur.error("a number that fits the field")),
        }
    }
}

/// How many bytes of `remaining` the literal `text` takes: its characters in any case, a space
/// of it standing for any run of spaces, none included (`flat[A + (0,0)]` and `flat[A+(0,0)]`
/// read alike, as the compiler's lexer skips blanks between tokens).
fn literal_len(remaining: &str, text: &str) -> Option<usize> {
    let mut at = 0;
    for c in text.chars() {
        if c == ' ' {
            at += remaining[at..].len() - remaining[at..].trim_start_matches(' ').len();
            continue;
        }
        let next = remaining[at..].chars().next()?;
        if !next.eq_ignore_ascii_case(&c) {
            return None;
        }
        at += next.len_utf8();
    }
    Some(at)
}

/// Whether a binding is an operand field (an operand is read there, not a number or a code).
pub(crate) fn is_operand(desc: &InstrDesc, binding: Binding) -> bool {
    binding.bitfield.is_none()
        && desc.fields.get(binding.field).is_some_and(|f| {
            matches!(
                f.kind,
                FieldKind::Scalar | FieldKind::VecOperand | FieldKind::RawOperand
            )
        })
}

/// Whether every field of an optional group holds its left-out value (the printer leaves the
/// group out then).
pub(crate) fn left_out(desc: &InstrDesc, fields: &[FieldValue], pieces: &[PieceDesc]) -> bool {
    pieces.iter().all(|piece| match piece {
        PieceDesc::Literal(_) => true,
        PieceDesc::Optional(inner) => left_out(desc, fields, inner),
        PieceDesc::Field {
            binding, default, ..
        } => {
            if is_operand(desc, *binding) {
                matches!(fields.get(binding.field), Some(FieldValue::Absent) | None)
            } else {
                binding_value(desc, fields, *binding).unwrap_or(0) == default.unwrap_or(0)
            }
        }
    })
}

//! The narrow-float conversions of FCVT and SRND (spec/FCVT.md, spec/SRND.md) on raw bits: BF8
//! (E5M2) and HF8 (E4M3) to and from HF, F to TF32, and stochastic rounding HF to BF8 and F to HF.
//!
//! Every conversion goes through one exact integer path: the source is split into sign,
//! integer significand and power of two; the significand is shifted to the destination's step at
//! the source's magnitude (with round to nearest even, or by adding random bits below the kept
//! bits and truncating); the result is checked against the destination's largest finite value and
//! encoded. No float arithmetic is involved, so no double rounding can happen.

/// A binary floating-point format of at most 32 bits: sign, `exponent` bits, `mantissa` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Format {
    mantissa: u32,
    exponent: u32,
    /// The all-ones exponent holds infinities (mantissa 0) and NaNs, as in IEEE-754. Otherwise
    /// (E4M3) it holds numbers, and only the all-ones mantissa there is NaN: no infinities.
    ieee: bool,
}

/// BF8, E5M2.
pub(crate) const BF8: Format = Format {
    mantissa: 2,
    exponent: 5,
    ieee: true,
};
/// HF8, E4M3 (no infinities, largest finite 448).
pub(crate) const HF8: Format = Format {
    mantissa: 3,
    exponent: 4,
    ieee: false,
};
/// IEEE binary16.
pub(crate) const HF: Format = Format {
    mantissa: 10,
    exponent: 5,
    ieee: true,
};
/// IEEE binary32.
pub(crate) const F32: Format = Format {
    mantissa: 23,
    exponent: 8,
    ieee: true,
};
/// TF32 as a format of its own (19 bits); stored as F bits shifted left by 13.
const TF32: Format = Format {
    mantissa: 10,
    exponent: 8,
    ieee: true,
};

/// How the dropped bits of a significand are rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Round {
    NearestEven,
    /// `random` (below `1 << bits`) is added to the `bits` bits right below the last kept bit,
    /// then the rest is truncated (SRND.md).
    Stochastic {
        random: u32,
        bits: u32,
    },
}

/// A decoded value: sign bit and one of the kinds below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    Zero,
    /// `significand * 2^exponent`, significand non-zero.
    Finite {
        significand: u128,
        exponent: i32,
    },
    Infinity,
    /// The mantissa field of the NaN.
    NaN(u32),
}

fn bit_length(x: u128) -> i32 {
    (128 - x.leading_zeros()) as i32
}

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exponent - 1)) - 1
    }

    /// Unbiased exponent of the smallest normal value.
    fn min_exponent(self) -> i32 {
        1 - self.bias()
    }

    fn exponent_ones(self) -> u32 {
        (1 << self.exponent) - 1
    }

    fn mantissa_ones(self) -> u32 {
        (1 << self.mantissa) - 1
    }

    fn sign_bit(self) -> u32 {
        1 << (self.mantissa + self.exponent)
    }

    /// The largest finite magnitude as `(significand, exponent)`.
    fn max_finite(self) -> (u128, i32) {
        let top_field = if self.ieee {
            self.exponent_ones() - 1
        } else {
            self.exponent_ones()
        };
        // E4M3's top exponent lacks its all-ones mantissa (NaN).
        let significand = if self.ieee {
            (1u128 << (self.mantissa + 1)) - 1
        } else {
            (1u128 << (self.mantissa + 1)) - 2
        };
        let exponent = top_field as i32 - self.bias() - self.mantissa as i32;
        (significand, exponent)
    }

    fn decode(self, bits: u32) -> (u32, Value) {
        let sign = bits & self.sign_bit();
        let field = (bits >> self.mantissa) & self.exponent_ones();
        let mantissa = bits & self.mantissa_ones();
        let value = if field == self.exponent_ones() && self.ieee {
            if mantissa == 0 {
                Value::Infinity
            } else {
                Value::NaN(mantissa)
            }
        } else if field == self.exponent_ones() && mantissa == self.mantissa_ones() {
            Value::NaN(mantissa)
        } else if field == 0 && mantissa == 0 {
            Value::Zero
        } else if field == 0 {
            Value::Finite {
                significand: mantissa.into(),
                exponent: self.min_exponent() - self.mantissa as i32,
            }
        } else {
            Value::Finite {
                significand: u128::from(mantissa | 1 << self.mantissa),
                exponent: field as i32 - self.bias() - self.mantissa as i32,
            }
        };
        (sign, value)
    }

    /// A NaN of this format with the given sign and, for IEEE formats, the leading bits of the
    /// source's payload (`from` mantissa bits wide); the quiet bit is set when none are left.
    fn nan(self, sign: u32, payload: u32, from: Format) -> u32 {
        let exponent = self.exponent_ones() << self.mantissa;
        if !self.ieee {
            return sign | exponent | self.mantissa_ones();
        }
        let kept = if !from.ieee {
            0
        } else if from.mantissa >= self.mantissa {
            payload >> (from.mantissa - self.mantissa)
        } else {
            payload << (self.mantissa - from.mantissa)
        };
        let kept = if kept == 0 {
            1 << (self.mantissa - 1)
        } else {
            kept
        };
        sign | exponent | kept
    }

    fn infinity(self, sign: u32) -> u32 {
        sign | self.exponent_ones() << self.mantissa
    }

    /// The largest finite value with the given sign.
    fn max_bits(self, sign: u32) -> u32 {
        let (significand, exponent) = self.max_finite();
        self.encode(sign, significand, exponent)
    }

    /// Encodes `q * 2^k` (q below `2^(mantissa + 2)`, not above the largest finite value, `k`
    /// at least the denormal step's exponent).
    fn encode(self, sign: u32, q: u128, k: i32) -> u32 {
        if q == 0 {
            return sign;
        }
        let m = self.mantissa as i32;
        let top = k + bit_length(q) - 1;
        if top < self.min_exponent() {
            let shift = k - (self.min_exponent() - m);
            return sign | (q << shift) as u32;
        }
        let shift = m - bit_length(q) + 1;
        // A shift right only happens for a carry into the next power of two (q = 2^(m+1)).
        let normalised = if shift >= 0 { q << shift } else { q >> -shift };
        let mantissa = (normalised as u32) & self.mantissa_ones();
        let field = (top + self.bias()) as u32;
        sign | field << self.mantissa | mantissa
    }
}

/// `significand * 2^-shift` rounded to an integer.
fn shift_round(significand: u128, shift: i32, round: Round) -> u128 {
    let shifted = |s: i32| {
        if s <= 0 {
            significand << -s
        } else if s >= 127 {
            0
        } else {
            significand >> s
        }
    };
    match round {
        Round::NearestEven => {
            if shift <= 0 {
                return shifted(shift);
            }
            if shift > 127 {
                return 0;
            }
            let q = shifted(shift);
            let rest = significand & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            if rest > half || (rest == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
        Round::Stochastic { random, bits } => {
            // The `bits` bits under the last kept one, with the kept ones above them; lower
            // source bits are dropped.
            let extended = shifted(shift - bits as i32);
            (extended + u128::from(random)) >> bits
        }
    }
}

/// Whether `q * 2^k` exceeds the largest finite value of `to`.
fn exceeds(q: u128, k: i32, to: Format) -> bool {
    let (max, max_exp) = to.max_finite();
    let top = k + bit_length(q) - 1;
    let max_top = max_exp + bit_length(max) - 1;
    if top != max_top {
        return top > max_top;
    }
    let base = k.min(max_exp);
    (q << (k - base)) > (max << (max_exp - base))
}

/// Converts `bits` of format `from` to format `to`. `saturate`: a finite value too large for
/// `to` gives its largest finite value (and an infinity too, when `to` has none) instead of
/// infinity or NaN. `flush`: denormal sources become zeros.
pub(crate) fn convert(
    bits: u32,
    from: Format,
    to: Format,
    round: Round,
    saturate: bool,
    flush: bool,
) -> u32 {
    let (sign_in, value) = from.decode(bits);
    let sign = if sign_in != 0 { to.sign_bit() } else { 0 };
    let (significand, exponent) = match value {
        Value::Zero => return sign,
        Value::NaN(payload) => return to.nan(sign, payload, from),
        Value::Infinity if to.ieee => return to.infinity(sign),
        Value::Infinity if saturate => return to.max_bits(sign),
        Value::Infinity => return to.nan(sign, 0, from),
        Value::Finite {
            significand,
            exponent,
        } => (significand, exponent),
    };
    if flush && bit_length(significand) <= from.mantissa as i32 {
        return sign;
    }
    let top = exponent + bit_length(significand) - 1;
    let k = top.max(to.min_exponent()) - to.mantissa as i32;
    let q = shift_round(significand, k - exponent, round);
    if exceeds(q, k, to) {
        return if saturate {
            to.max_bits(sign)
        } else if to.ieee {
            to.infinity(sign)
        } else {
            to.nan(sign, 0, from)
        };
    }
    to.encode(sign, q, k)
}

/// BF8 (E5M2) to HF: exact.
pub(crate) fn bf8_to_hf(b: u8) -> u16 {
    convert(b.into(), BF8, HF, Round::NearestEven, false, false) as u16
}

/// HF to BF8, round to nearest even.
pub(crate) fn hf_to_bf8(h: u16, saturate: bool) -> u8 {
    convert(h.into(), HF, BF8, Round::NearestEven, saturate, false) as u8
}

/// HF8 (E4M3) to HF: exact.
pub(crate) fn hf8_to_hf(b: u8) -> u16 {
    convert(b.into(), HF8, HF, Round::NearestEven, false, false) as u16
}

/// HF to HF8, round to nearest even.
pub(crate) fn hf_to_hf8(h: u16, saturate: bool) -> u8 {
    convert(h.into(), HF, HF8, Round::NearestEven, saturate, false) as u8
}

/// F to TF32 (F bits whose low 13 mantissa bits are zero): round to nearest even, denormal
/// inputs flushed to zero (a normal F never rounds to a TF32 denormal: both share F's exponent
/// range).
pub(crate) fn f_to_tf32(f: u32, saturate: bool) -> u32 {
    convert(f, F32, TF32, Round::NearestEven, saturate, true) << 13
}

/// SRND HF to BF8 with 8 random bits.
pub(crate) fn srnd_hf_to_bf8(h: u16, random: u8, saturate: bool) -> u8 {
    let round = Round::Stochastic {
        random: random.into(),
        bits: 8,
    };
    convert(h.into(), HF, BF8, round, saturate, false) as u8
}

/// SRND F to HF with the low 13 bits of `random`.
pub(crate) fn srnd_f_to_hf(f: u32, random: u16, saturate: bool) -> u16 {
    let round = Round::Stochastic {
        random: u32::from(random & 0x1fff),
        bits: 13,
    };
    convert(f, F32, HF, round, saturate, false) as u16
}

#[cfg(test)]
#[path = "fp8_tests.rs"]
mod tests;

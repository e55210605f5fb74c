//! The integer ALU operations with a fast form, each defined once (issue 28).
//!
//! [`int_ops!`] lists every such operation with its opcode, its number of sources, what its
//! result depends on and its meaning, written in the primitives of [`IntLanes`]. From that one
//! list come [`IntOp`] (the fast-path subset of [`AluOp`]), [`eval`] (one result: the
//! interpreter's scalar function and the JIT's Cranelift builder) and [`map_lanes`] (the fast
//! path's loop over slices, the operation chosen once outside the loop). Each engine implements
//! [`IntLanes`] on its own representation of values (`exec::int_lanes`, `jit::lower_alu`), so a
//! rule such as "a shift count keeps the bits that address a bit of the source" is written
//! here only.

use super::AluOp;

/// Which source bits an operation's result depends on; engines pick their representation by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operands {
    /// The low 32 bits of the result depend only on the low 32 bits of the sources (after
    /// their modifiers), lane by lane.
    LowBits,
    /// As [`Operands::LowBits`], and src1 is a shift count: a vector form needs one count for
    /// all lanes.
    ShiftCount,
    /// The sources' exact values, each widened by its own signedness (MIN_MAX.md).
    Exact,
}

/// The primitive lane arithmetic the operations are written in.
pub(crate) trait IntLanes {
    /// A value: one lane's, or a vector of lanes.
    type V: Copy;
    /// A shift count.
    type Count: Copy;
    /// Where a value is (a lane, a group of lanes): what SEL reads its selector for.
    type At: Copy;
    /// The width in bits of the values shifted (the source type's).
    fn bits(&self) -> u32;
    /// The sum, modulo the width of the representation.
    fn add(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// The product, modulo the width of the representation.
    fn mul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn and(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn or(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn xor(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn not(&mut self, a: Self::V) -> Self::V;
    /// `b & mask`, as a shift count.
    fn count(&mut self, b: Self::V, mask: u32) -> Self::Count;
    fn shl(&mut self, a: Self::V, n: Self::Count) -> Self::V;
    /// `a`'s bits (in the source type's width) shifted right, zeros shifted in.
    fn ushr(&mut self, a: Self::V, n: Self::Count) -> Self::V;
    /// `a`'s bits (in the source type's width) shifted right, copies of the sign bit shifted in.
    fn sshr(&mut self, a: Self::V, n: Self::Count) -> Self::V;
    /// The smaller exact value.
    fn min(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// The larger exact value.
    fn max(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// `a` where SEL's selector is set at `at`, otherwise `b`.
    fn select(&mut self, at: Self::At, a: Self::V, b: Self::V) -> Self::V;
}

/// Defines the operations: `Name(Opcode) / sources, Operands => |lanes, at, [a, b, c]| result;`.
/// `Name` is the [`AluOp`] variant, `Opcode` the generated `visa_isa::Opcode` of the instruction
/// (when it is not `Name`); `Name[field: Type]` an operation with a parameter (the variant's one
/// field in both enums), which the meaning reads as `field`.
macro_rules! int_ops {
    (@opcode $name:ident) => { visa_isa::Opcode::$name };
    (@opcode $name:ident $opcode:ident) => { visa_isa::Opcode::$opcode };
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(($opcode:ident))? $([$field:ident: $fty:ty])? / $arity:literal,
            $operands:ident =>
            |$t:pat_param, $at:pat_param, [$a:pat_param, $b:pat_param, $c:pat_param]| $body:expr;
    )*) => {
        /// An integer operation with a fast form (see [`int_ops!`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum IntOp {
            $($(#[doc = $doc])* $name $(($fty))?,)*
        }

        impl IntOp {
            /// Every operation of the table.
            #[cfg(test)]
            pub(crate) const ALL: &'static [IntOp] =
                &[$(IntOp::$name $((<$fty>::MAX))?),*];

            /// The table's operation for an ALU operation, when it has one.
            pub(crate) fn of(op: AluOp) -> Option<IntOp> {
                match op {
                    $(AluOp::$name $(($field))? => Some(IntOp::$name $(($field))?),)*
                    _ => None,
                }
            }

            /// The instruction's generated opcode.
            #[cfg(test)]
            pub(crate) fn opcode(self) -> visa_isa::Opcode {
                match self {
                    $(IntOp::$name { .. } => int_ops!(@opcode $name $($opcode)?),)*
                }
            }

            /// Its number of sources.
            pub(crate) fn arity(self) -> usize {
                match self {
                    $(IntOp::$name { .. } => $arity,)*
                }
            }

            pub(crate) fn operands(self) -> Operands {
                match self {
                    $(IntOp::$name { .. } => Operands::$operands,)*
                }
            }
        }

        /// The result of `op` on one value of each source (sources past its arity are ignored).
        #[inline(always)]
        pub(crate) fn eval<T: IntLanes>(op: IntOp, lanes: &mut T, at: T::At, v: [T::V; 3]) -> T::V {
            match op {
                $(IntOp::$name $(($field))? => {
                    let $t = lanes;
                    let $at = at;
                    let [$a, $b, $c] = v;
                    $body
                })*
            }
        }

        /// `out[i] = op(x[i], y[i], z[i])` for every lane `i`, `op` chosen once for the loop.
        #[inline]
        pub(crate) fn map_lanes<T: IntLanes<At = usize>>(
            op: IntOp,
            lanes: &mut T,
            (x, y, z): (&[T::V], &[T::V], &[T::V]),
            out: &mut [T::V],
        ) {
            // Indexing slices cut to one length: the form the compiler vectorises best.
            let n = out.len().min(x.len()).min(y.len()).min(z.len());
            let (out, x, y, z) = (&mut out[..n], &x[..n], &y[..n], &z[..n]);
            match op {
                $(IntOp::$name $(($field))? => {
                    for lane in 0..n {
                        let $t = &mut *lanes;
                        let $at = lane;
                        let [$a, $b, $c] = [x[lane], y[lane], z[lane]];
                        out[lane] = $body;
                    }
                })*
            }
        }
    };
}

int_ops! {
    Mov / 1, LowBits => |_t, _, [a, _, _]| a;
    /// src0 in the channels whose selector (the predicate) is set, src1 elsewhere.
    Sel / 2, LowBits => |t, at, [a, b, _]| t.select(at, a, b);
    Add / 2, LowBits => |t, _, [a, b, _]| t.add(a, b);
    Mul / 2, LowBits => |t, _, [a, b, _]| t.mul(a, b);
    /// `src0 * src1 + src2`.
    Mad / 3, LowBits => |t, _, [a, b, c]| {
        let product = t.mul(a, b);
        t.add(product, c)
    };
    /// `src0 + src1 + src2` (IGC's address arithmetic).
    Add3 / 3, LowBits => |t, _, [a, b, c]| {
        let sum = t.add(a, b);
        t.add(sum, c)
    };
    And / 2, LowBits => |t, _, [a, b, _]| t.and(a, b);
    Or / 2, LowBits => |t, _, [a, b, _]| t.or(a, b);
    Xor / 2, LowBits => |t, _, [a, b, _]| t.xor(a, b);
    /// The count keeps the bits that address a bit of the source: 5 for dwords, 6 for qwords.
    Shl / 2, ShiftCount => |t, _, [a, b, _]| {
        let n = t.count(b, t.bits() - 1);
        t.shl(a, n)
    };
    Shr / 2, ShiftCount => |t, _, [a, b, _]| {
        let n = t.count(b, t.bits() - 1);
        t.ushr(a, n)
    };
    Asr / 2, ShiftCount => |t, _, [a, b, _]| {
        let n = t.count(b, t.bits() - 1);
        t.sshr(a, n)
    };
    /// Exact values compared: a UD 0xffffffff is larger than a D -1.
    Min(MinMax) / 2, Exact => |t, _, [a, b, _]| t.min(a, b);
    Max(MinMax) / 2, Exact => |t, _, [a, b, _]| t.max(a, b);
    /// The bitwise function of the three sources whose truth table is `table`: result bit `i` is
    /// the table's bit `a_i | b_i << 1 | c_i << 2` (IGC's three-input logic, e.g. `0x96`, the
    /// XOR of all three).
    Bfn[table: u8] / 3, LowBits => |t, _, [a, b, c]| bfn(t, table, [a, b, c]);
}

/// [`IntOp::Bfn`]: the OR of the table's minterms; the tables IGC writes most are written
/// directly (the XOR, AND and OR of all three, and `0xd8`, `a ? b : c` bit by bit, its select
/// through a compare's mask).
#[inline(always)]
fn bfn<T: IntLanes>(t: &mut T, table: u8, [a, b, c]: [T::V; 3]) -> T::V {
    match table {
        0x96 => {
            let ab = t.xor(a, b);
            t.xor(ab, c)
        }
        0x80 => {
            let ab = t.and(a, b);
            t.and(ab, c)
        }
        0xfe => {
            let ab = t.or(a, b);
            t.or(ab, c)
        }
        0xd8 => {
            let from_b = t.and(a, b);
            let not_a = t.not(a);
            let from_c = t.and(not_a, c);
            t.or(from_b, from_c)
        }
        _ => {
            let zero = t.xor(a, a);
            let inputs = [a, b, c];
            let mut result = zero;
            for row in 0..8 {
                if table >> row & 1 == 0 {
                    continue;
                }
                let mut term = t.not(zero);
                for (i, &input) in inputs.iter().enumerate() {
                    let bit = if row >> i & 1 == 1 {
                        input
                    } else {
                        t.not(input)
                    };
                    term = t.and(term, bit);
                }
                result = t.or(result, term);
            }
            result
        }
    }
}

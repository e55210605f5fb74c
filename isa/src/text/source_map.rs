//! What the canonical text of a module does not keep, as data: the source map that `isa!` stores
//! beside a kernel's text (`visa-macros`'s `embed`) and that `visa::Kernel` applies when it
//! decodes that text at run time. One encoding, written and read here.
//!
//! Per statement: its span's line and column; for an instruction, then its own span's line and
//! column, a bit set of its execution-size fields (in field order) written without a mask
//! (`(16)`; the formatter prints `(M1, 16)`) and the line and column of each field's value (0, 0
//! where not written), then of each element of its list fields; for a declaration, the line and
//! column of its name and of its `type=`, `num_elts=` and `alias=` keywords.
//!
//! The numbers are stored as unsigned LEB128 (seven bits a byte, low bits first, the high bit
//! set on every byte but a number's last): positions are small, so most take one byte, and a
//! byte string costs the compiler far less than an array literal of the same numbers.

use crate::ast::{DeclSpans, FieldValue, Instruction, Module, Span, StmtKind};

/// The source map of `module`; `None` when an instruction has more than 32 execution-size
/// fields.
pub fn source_map(module: &Module) -> Option<Vec<u8>> {
    let numbers = numbers(module)?;
    let mut bytes = Vec::with_capacity(numbers.len());
    for mut n in numbers {
        while n >= 0x80 {
            bytes.push((n & 0x7f) as u8 | 0x80);
            n >>= 7;
        }
        bytes.push(n as u8);
    }
    Some(bytes)
}

/// The numbers of a source map, in the order the module docs give; `None` if a number is cut
/// short or does not fit 32 bits.
pub fn source_map_numbers(map: &[u8]) -> Option<Vec<u32>> {
    let mut numbers = Vec::with_capacity(map.len());
    let mut bytes = map.iter();
    while let Some(&first) = bytes.next() {
        let mut n = u32::from(first & 0x7f);
        let mut shift = 7;
        let mut byte = first;
        while byte & 0x80 != 0 {
            byte = *bytes.next()?;
            let bits = u32::from(byte & 0x7f);
            if shift > 28 || (shift == 28 && bits > 0xf) {
                return None;
            }
            n |= bits << shift;
            shift += 7;
        }
        numbers.push(n);
    }
    Some(numbers)
}

fn numbers(module: &Module) -> Option<Vec<u32>> {
    let mut map = Vec::with_capacity(module.stmts.len() * 5);
    for stmt in &module.stmts {
        map.extend([stmt.span.line, stmt.span.col]);
        match &stmt.kind {
            StmtKind::Instr(instr) => {
                map.extend([instr.span.line, instr.span.col, unwritten_masks(instr)?]);
                for index in 0..instr.fields.len() {
                    let span = instr.field_span(index).unwrap_or_default();
                    map.extend([span.line, span.col]);
                }
                for element in 0..instr.list_elements() {
                    let span = instr.element_spans.get(element).copied();
                    let span = span.unwrap_or_default();
                    map.extend([span.line, span.col]);
                }
            }
            StmtKind::Decl(decl) => {
                map.extend(decl.spans.to_array().iter().flat_map(|s| [s.line, s.col]));
            }
            _ => {}
        }
    }
    Some(map)
}

/// Bit `k` set: the `k`-th execution-size field has no written mask. `None` past 32 such fields.
fn unwritten_masks(instr: &Instruction) -> Option<u32> {
    let mut bits = 0u32;
    let execs = instr.fields.iter().filter_map(|f| match f {
        FieldValue::Exec(e) => Some(e),
        _ => None,
    });
    for (k, exec) in execs.enumerate() {
        if !exec.mask_written {
            bits |= 1u32.checked_shl(u32::try_from(k).ok()?)?;
        }
    }
    Some(bits)
}

/// Puts back what [`source_map`] recorded into `module` (parsed from the canonical text);
/// `None` if `map` does not fit the module's statements.
pub fn apply_source_map(module: &mut Module, map: &[u8]) -> Option<()> {
    let numbers = source_map_numbers(map)?;
    let mut rest = numbers.iter().copied();
    let span = |rest: &mut std::iter::Copied<std::slice::Iter<u32>>| {
        Some(Span::new(rest.next()?, rest.next()?))
    };
    for stmt in &mut module.stmts {
        stmt.span = span(&mut rest)?;
        match &mut stmt.kind {
            StmtKind::Instr(instr) => {
                instr.span = span(&mut rest)?;
                let mut unwritten = rest.next()?;
                for field in &mut instr.fields {
                    if let FieldValue::Exec(exec) = field {
                        exec.mask_written = unwritten & 1 == 0;
                        unwritten >>= 1;
                    }
                }
                if unwritten != 0 {
                    return None;
                }
                instr.field_spans = (0..instr.fields.len())
                    .map(|_| span(&mut rest))
                    .collect::<Option<_>>()?;
                instr.element_spans = (0..instr.list_elements())
                    .map(|_| span(&mut rest))
                    .collect::<Option<_>>()?;
            }
            StmtKind::Decl(decl) => {
                let spans = [(); 4].map(|()| span(&mut rest));
                decl.spans = DeclSpans::from_array(spans.map(|s| s.unwrap_or_default()));
                if spans.iter().any(Option::is_none) {
                    return None;
                }
            }
            _ => {}
        }
    }
    rest.next().is_none().then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_leb128() {
        assert_eq!(source_map(&Module::default()), Some(Vec::new()));
        // 300 is 0b10_0101100: 0xac, 0x02.
        assert_eq!(source_map_numbers(&[0xac, 0x02, 0x05]), Some(vec![300, 5]));
        assert_eq!(
            source_map_numbers(&[0xff, 0xff, 0xff, 0xff, 0x0f]),
            Some(vec![u32::MAX])
        );
        assert_eq!(source_map_numbers(&[0x80]), None, "cut short");
        assert_eq!(
            source_map_numbers(&[0xff, 0xff, 0xff, 0xff, 0x1f]),
            None,
            "past 32 bits"
        );
        // A statement on line 300, column 200: two bytes each.
        let src = format!(
            "{}{}.decl A v_type=A num_elts=1\n",
            "\n".repeat(299),
            " ".repeat(199)
        );
        let module = crate::text::parse(&src).expect("parses");
        let map = source_map(&module).expect("a map");
        assert_eq!(&map[..4], &[0xac, 0x02, 0xc8, 0x01]);
        let numbers = source_map_numbers(&map).expect("decodes");
        assert_eq!(&numbers[..4], &[300, 200, 300, 206]);
    }
}

//! The suffix rules of the syntax conventions that need more than one placeholder at a time
//! (`brief/syntax-conventions.md`, rules 9 to 12): glued hex values, flag letters, literal
//! suffixes selecting codes, and optional alternatives choosing codes. Generic: they read the
//! fields and codes of the document, never an instruction name.

use super::lower::{Binding, FieldModel, Suffix};
use super::names;

/// Whether two bindings touch the same bits (same field, and one is the whole field or both
/// name the same sub-field).
pub fn overlap(a: Binding, b: Binding) -> bool {
    a.field == b.field && (a.bitfield.is_none() || b.bitfield.is_none() || a.bitfield == b.bitfield)
}

/// `.<name>` naming two or more one-bit sub-fields (descriptions `name: ...`), each with a code
/// 1: a suffix made of their letters (the first word of code 1's label, as written), in bit order.
pub fn letters(fields: &[FieldModel<'_>], name: &str) -> Option<Suffix> {
    let name = name.trim().trim_start_matches('<').trim_end_matches('>');
    if fields.iter().any(|f| f.name.eq_ignore_ascii_case(name)) {
        return None;
    }
    let mut out = Vec::new();
    for (field, model) in fields.iter().enumerate() {
        let Some(bullet) = model.bullet else { continue };
        for (j, bf) in bullet.bitfields.iter().enumerate() {
            if bf.hi != bf.lo || !names::description_names(&bf.description, name) {
                continue;
            }
            let letter = bf
                .values
                .iter()
                .find(|c| c.code == 1)
                .and_then(|c| c.label.split_whitespace().next())
                .map(|w| w.trim_end_matches([':', ',', '-', '.']).to_string())?;
            out.push((
                letter,
                Binding {
                    field,
                    bitfield: Some(j),
                },
            ));
        }
    }
    (out.len() >= 2).then_some(Suffix::Letters(out))
}

/// `.x[Name]` in the template text: the literal `x` and the field `Name` are one suffix, the
/// field's value written in hex right after the prefix (`bfn.xd8`).
pub fn glue_hex(suffixes: Vec<Suffix>, text: &str) -> Vec<Suffix> {
    let lower = text.to_ascii_lowercase();
    let mut out: Vec<Suffix> = Vec::with_capacity(suffixes.len());
    for suffix in suffixes {
        if let (Suffix::Field(binding), Some(Suffix::Literal(prefix))) = (&suffix, out.last())
            && lower.contains(&format!(".{prefix}["))
        {
            let prefix = prefix.clone();
            let binding = *binding;
            out.pop();
            out.push(Suffix::Hex { prefix, binding });
            continue;
        }
        out.push(suffix);
    }
    out
}

/// A literal suffix (not `sat`) equal to a code token of an otherwise unbound (sub-)field
/// selects that code (`nbarrier.wait`, `lifetime.end`). `find` looks the word up.
pub fn code_suffixes(
    suffixes: Vec<Suffix>,
    find: &dyn Fn(&str) -> Option<(Binding, u64)>,
) -> Vec<Suffix> {
    suffixes
        .into_iter()
        .map(|s| match s {
            Suffix::Literal(text) if text != "sat" => match find(&text) {
                Some((binding, code)) => Suffix::Sets {
                    text,
                    binding,
                    code,
                },
                None => Suffix::Literal(text),
            },
            other => other,
        })
        .collect()
}

/// `[.16|.64]`: optional alternatives that are all code tokens of one otherwise unbound
/// (sub-)field bind to it (absent: code 0). `find` gives that binding.
pub fn optional_choices(
    suffixes: Vec<Suffix>,
    find: &dyn Fn(&[String]) -> Option<Binding>,
) -> Vec<Suffix> {
    suffixes
        .into_iter()
        .map(|s| match s {
            Suffix::Optional(inner) => match *inner {
                Suffix::Alternatives(options) => match find(&options) {
                    Some(b) => Suffix::Optional(Box::new(Suffix::Field(b))),
                    None => Suffix::Optional(Box::new(Suffix::Alternatives(options))),
                },
                other => Suffix::Optional(Box::new(other)),
            },
            other => other,
        })
        .collect()
}

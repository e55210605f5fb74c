//! The suffix rules of the syntax conventions that need more than one placeholder at a time
//! (`brief/syntax-conventions.md`, rules 10 to 12, and rule 4 for `NAME_word` mnemonics): glued
//! hex values, flag letters, literal suffixes and mnemonic parts selecting codes, and optional
//! alternatives choosing codes. Generic: they read the fields and codes of the document, never
//! an instruction name.

use super::ir::{Binding, FieldModel, Suffix, coded_bindings, find_token};
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
fn code_suffixes(
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
fn optional_choices(
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

/// Rules 4 and 10: the codes a template's literal text selects among the (sub-)fields it does
/// not otherwise bind (`bound`): literal suffixes, optional alternatives, and the mnemonic
/// (`MAX` of MIN_MAX) or what follows `NAME_` in it (`FENCE_LOCAL`).
pub fn choose_codes(
    suffixes: Vec<Suffix>,
    fields: &[FieldModel<'_>],
    bound: &[Binding],
    mnemonic: &str,
    instr_name: &str,
) -> (Vec<Suffix>, Option<(Binding, u64)>) {
    let free = || {
        coded_bindings(fields)
            .into_iter()
            .map(|(b, _)| b)
            .filter(|b| !bound.iter().any(|x| overlap(*x, *b)))
    };
    let find_word =
        |word: &str| free().find_map(|b| find_token(fields, b, word).map(|code| (b, code)));
    let suffixes = code_suffixes(suffixes, &find_word);
    let suffixes = optional_choices(suffixes, &|options: &[String]| {
        free().find(|b| options.iter().all(|o| find_token(fields, *b, o).is_some()))
    });
    let mnemonic_sets = if mnemonic.eq_ignore_ascii_case(instr_name) {
        None
    } else {
        let word = mnemonic
            .strip_prefix(&format!("{}_", instr_name.to_ascii_lowercase()))
            .unwrap_or(mnemonic);
        find_word(word)
    };
    (suffixes, mnemonic_sets)
}

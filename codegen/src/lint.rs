//! Consistency checks of the opcode documents, for their maintainers (`visa spec lint`).
//!
//! [`lint`] reports, as [`Diagnostic`]s with a [`DiagnosticKind`]:
//! - everything the parser reports (fields of the Format table without a bullet and bullets no
//!   table has, code lists with duplicate codes or codes wider than their bits, constructs kept
//!   as text, documents left out);
//! - syntax placeholders that name no field, as the generator binds them, and `Compiler checks`
//!   rules that name no field or code of their document, as the generator resolves them;
//! - inside a document: `Bit[..]` ranges of one field that overlap, codes inside a code range;
//! - across documents: an opcode value (with its sub-operation) declared twice, or declared
//!   under two names, and sibling documents that disagree on a field of the same name (its type,
//!   or the codes behind an assembly token).
//!
//! Sibling documents are the sub-operations of one opcode (`SVM_GATHER`, `SVM_SCATTER`) and
//! documents whose names differ in exactly one `_`-separated word (`GATHER_SCALED`,
//! `SCATTER_SCALED`). Two ranges or codes only conflict when their platform tags let them apply
//! on the same platform.

use std::collections::BTreeMap;

use crate::model::{
    BitField, CodeRange, CodeValue, Diagnostic, DiagnosticKind, Document, Field, Loc, Platform,
    PlatformBound, Severity,
};
use crate::parse::ParsedDirs;

/// Every finding about the documents `parsed` read, in file order.
pub fn lint(parsed: &ParsedDirs) -> Vec<Diagnostic> {
    let mut findings = parsed.diagnostics.clone();
    findings.extend(
        crate::emit::lowering_warnings(&parsed.documents)
            .into_iter()
            .filter(|d| {
                matches!(
                    d.kind,
                    DiagnosticKind::Syntax | DiagnosticKind::CompilerChecks
                )
            }),
    );
    for doc in &parsed.documents {
        for field in &doc.fields {
            overlapping_bits(doc, field, &mut findings);
            overlapping_codes(
                doc,
                &field.name,
                None,
                &field.values,
                &field.ranges,
                &mut findings,
            );
            for bits in &field.bitfields {
                overlapping_codes(
                    doc,
                    &field.name,
                    Some(bits),
                    &bits.values,
                    &bits.ranges,
                    &mut findings,
                );
            }
        }
    }
    reused_opcodes(&parsed.documents, &mut findings);
    siblings(&parsed.documents, &mut findings);
    // File order, then position; a document's parse diagnostics stay before its other findings
    // at the same place.
    let order: BTreeMap<&str, usize> = parsed
        .documents
        .iter()
        .enumerate()
        .map(|(i, d)| (d.file.as_str(), i))
        .collect();
    findings.sort_by_key(|d| {
        (
            order.get(d.file.as_str()).copied().unwrap_or(usize::MAX),
            d.file.clone(),
            d.loc,
        )
    });
    findings
}

fn finding(doc: &Document, loc: Loc, kind: DiagnosticKind, message: String) -> Diagnostic {
    Diagnostic {
        file: doc.file.clone(),
        loc,
        severity: Severity::Warning,
        message,
        kind,
    }
}

/// Whether two sets of platform tags can apply on one platform. No tags: every platform. Tags
/// that certainly exclude each other: `{-X}` and `{X+}`, `{X}` and `{Y}`, `{X}` and `{-X}`.
fn may_coexist(a: &[Platform], b: &[Platform]) -> bool {
    let excludes = |p: &Platform, q: &Platform| {
        use PlatformBound::{Before, Only, Since};
        match (p.bound, q.bound) {
            (Before, Since) | (Since, Before) | (Only, Before) | (Before, Only) => p.name == q.name,
            (Only, Only) => p.name != q.name,
            _ => false,
        }
    };
    !a.iter().any(|p| b.iter().any(|q| excludes(p, q)))
}

fn bits_text(bits: &BitField) -> String {
    if bits.hi == bits.lo {
        format!("Bit[{}]", bits.hi)
    } else {
        format!("Bit[{}..{}]", bits.hi, bits.lo)
    }
}

/// `Bit[..]` ranges of one field that share bits.
fn overlapping_bits(doc: &Document, field: &Field, out: &mut Vec<Diagnostic>) {
    for (i, a) in field.bitfields.iter().enumerate() {
        for b in &field.bitfields[i + 1..] {
            if a.lo <= b.hi && b.lo <= a.hi && may_coexist(&a.platforms, &b.platforms) {
                let message = format!(
                    "`{}` of field `{}` overlaps `{}` (at {}:{})",
                    bits_text(b),
                    field.name,
                    bits_text(a),
                    a.loc.line,
                    a.loc.col
                );
                out.push(finding(
                    doc,
                    b.loc,
                    DiagnosticKind::OverlappingBits,
                    message,
                ));
            }
        }
    }
}

/// Codes inside a code range, and ranges that overlap, in one code list.
fn overlapping_codes(
    doc: &Document,
    field: &str,
    bits: Option<&BitField>,
    values: &[CodeValue],
    ranges: &[CodeRange],
    out: &mut Vec<Diagnostic>,
) {
    let owner = match bits {
        Some(bits) => format!("`{}` of field `{field}`", bits_text(bits)),
        None => format!("field `{field}`"),
    };
    for (i, range) in ranges.iter().enumerate() {
        for value in values {
            if (range.first..=range.last).contains(&value.code)
                && may_coexist(&range.platforms, &value.platforms)
            {
                let message = format!(
                    "code {:#x} of {owner} is inside the range {:#x}-{:#x} (at {}:{})",
                    value.code, range.first, range.last, range.loc.line, range.loc.col
                );
                out.push(finding(
                    doc,
                    value.loc,
                    DiagnosticKind::OverlappingCodes,
                    message,
                ));
            }
        }
        for other in &ranges[i + 1..] {
            if range.first <= other.last
                && other.first <= range.last
                && may_coexist(&range.platforms, &other.platforms)
            {
                let message = format!(
                    "the range {:#x}-{:#x} of {owner} overlaps the range {:#x}-{:#x} (at {}:{})",
                    other.first, other.last, range.first, range.last, range.loc.line, range.loc.col
                );
                out.push(finding(
                    doc,
                    other.loc,
                    DiagnosticKind::OverlappingCodes,
                    message,
                ));
            }
        }
    }
}

fn opcode_text(doc: &Document) -> String {
    doc.opcodes
        .iter()
        .map(|o| format!("{} = {:#04x}", o.name, o.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An opcode value (with its sub-operation) declared by two documents, or one opcode value
/// declared under two names.
fn reused_opcodes(docs: &[Document], out: &mut Vec<Diagnostic>) {
    let mut by_values: BTreeMap<Vec<u32>, &Document> = BTreeMap::new();
    let mut by_parent: BTreeMap<u32, &Document> = BTreeMap::new();
    for doc in docs {
        let Some(parent) = doc.opcodes.first() else {
            continue;
        };
        let values: Vec<u32> = doc.opcodes.iter().map(|o| o.value).collect();
        if let Some(first) = by_values.get(&values) {
            let message = format!(
                "opcode `{}` is also declared by {} (`{}`)",
                opcode_text(doc),
                first.file,
                opcode_text(first)
            );
            out.push(finding(
                doc,
                parent.loc,
                DiagnosticKind::OpcodeReused,
                message,
            ));
        } else if let Some(first) = by_parent
            .get(&parent.value)
            .filter(|first| first.opcodes.first().is_some_and(|o| o.name != parent.name))
        {
            let message = format!(
                "opcode value {:#04x} is `{}` here but `{}` in {}",
                parent.value,
                parent.name,
                first.opcodes.first().map_or("", |o| o.name.as_str()),
                first.file
            );
            out.push(finding(
                doc,
                parent.loc,
                DiagnosticKind::OpcodeReused,
                message,
            ));
        }
        by_values.entry(values).or_insert(doc);
        by_parent.entry(parent.value).or_insert(doc);
    }
}

/// Whether two documents are siblings (see the module docs).
fn are_siblings(a: &Document, b: &Document) -> bool {
    if let ([pa, _], [pb, _]) = (a.opcodes.as_slice(), b.opcodes.as_slice())
        && pa.value == pb.value
    {
        return true;
    }
    let (na, nb) = (a.full_name(), b.full_name());
    let (wa, wb): (Vec<&str>, Vec<&str>) = (na.split('_').collect(), nb.split('_').collect());
    wa.len() == wb.len()
        && wa.len() >= 2
        && wa
            .iter()
            .zip(&wb)
            .filter(|(x, y)| !x.eq_ignore_ascii_case(y))
            .count()
            == 1
}

/// A field's code lists, by where they are (the whole field, or a bit range): assembly token ->
/// (code, platforms, where written).
type CodeLists<'a> = BTreeMap<String, Vec<(String, u64, &'a [Platform], Loc)>>;

fn code_list(values: &[CodeValue]) -> Vec<(String, u64, &[Platform], Loc)> {
    values
        .iter()
        .map(|v| {
            let token = crate::emit::code_token(&v.label);
            (token, v.code, v.platforms.as_slice(), v.loc)
        })
        .collect()
}

fn code_lists(field: &Field) -> CodeLists<'_> {
    let mut lists: CodeLists<'_> = BTreeMap::new();
    let entry = code_list;
    if !field.values.is_empty() {
        lists.insert("values".to_string(), entry(&field.values));
    }
    for bits in &field.bitfields {
        lists.insert(bits_text(bits), entry(&bits.values));
    }
    lists
}

/// Sibling documents that disagree on a field of the same name: its type, or the code behind
/// an assembly token of one of its code lists. Reported at the later document.
fn siblings(docs: &[Document], out: &mut Vec<Diagnostic>) {
    for (j, later) in docs.iter().enumerate() {
        for earlier in docs[..j].iter().filter(|e| are_siblings(e, later)) {
            for field in &later.fields {
                let Some(other) = earlier.field(&field.name) else {
                    continue;
                };
                if field.ty != other.ty {
                    let message = format!(
                        "field `{}` is `{}` here but `{}` in the sibling {}",
                        field.name,
                        field.ty.token(),
                        other.ty.token(),
                        earlier.file
                    );
                    out.push(finding(
                        later,
                        field.loc,
                        DiagnosticKind::SiblingMismatch,
                        message,
                    ));
                    continue;
                }
                let theirs = code_lists(other);
                for (place, codes) in code_lists(field) {
                    let Some(their_codes) = theirs.get(&place) else {
                        continue;
                    };
                    for (token, code, platforms, loc) in &codes {
                        let clash = their_codes.iter().find(|(t, c, p, _)| {
                            t == token && c != code && may_coexist(p, platforms)
                        });
                        if let Some((_, their_code, _, their_loc)) = clash {
                            let message = format!(
                                "`{token}` is code {code:#b} of {place} of field `{}` here but {their_code:#b} in the sibling {} (at {}:{})",
                                field.name, earlier.file, their_loc.line, their_loc.col
                            );
                            out.push(finding(
                                later,
                                *loc,
                                DiagnosticKind::SiblingMismatch,
                                message,
                            ));
                        }
                    }
                }
            }
        }
    }
}

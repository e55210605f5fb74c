//! Resolves the parsed `Compiler checks` code rules of a document against its fields: a rule
//! naming a field the Format table does not have, a code token no code of its field has, or a
//! bound on a field of codes is left out with a warning at its position (never silently).

use crate::model::{CheckKind, CheckTest, CodeValue, Document, Loc};

use super::ir::{FieldModel, Role, RuleModel, TestModel};
use super::names;

/// The code rules of `doc` that resolve; `warn` gets the others with why.
pub(super) fn rules(
    doc: &Document,
    fields: &[FieldModel<'_>],
    warn: &mut dyn FnMut(Loc, String),
) -> Vec<RuleModel> {
    let mut out = Vec::new();
    for rule in &doc.compiler_checks.rules {
        let tests: Result<Vec<TestModel>, (Loc, String)> = std::iter::once(&rule.test)
            .chain(&rule.when)
            .map(|t| test(t, fields))
            .collect();
        match tests {
            Ok(mut tests) => {
                let test = tests.remove(0);
                out.push(RuleModel {
                    test,
                    when: tests,
                    when_text: rule.when_text.clone(),
                });
            }
            Err((loc, why)) => warn(loc, format!("`Compiler checks` rule ignored: {why}")),
        }
    }
    out
}

fn test(t: &CheckTest, fields: &[FieldModel<'_>]) -> Result<TestModel, (Loc, String)> {
    let Some(name) = &t.field else {
        return Ok(TestModel {
            field: None,
            kind: t.kind.clone(),
        });
    };
    let index = fields
        .iter()
        .position(|f| f.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| (t.loc, format!("`{name}` is no field of the Format table")))?;
    let field = &fields[index];
    let codes = codes(field);
    match &t.kind {
        CheckKind::In(tokens) | CheckKind::NotIn(tokens) => {
            for token in tokens {
                let known = if field.role == Role::ExecSize {
                    token.parse::<u32>().is_ok()
                } else if codes.is_empty() {
                    token.parse::<u64>().is_ok()
                } else {
                    codes
                        .iter()
                        .any(|c| matches(token, &names::text_token(&c.label)))
                };
                if !known {
                    return Err((t.loc, format!("`{token}` names no code of {}", field.name)));
                }
            }
        }
        CheckKind::AtMost(_) if !codes.is_empty() || field.width().is_none() => {
            return Err((
                t.loc,
                format!(
                    "`at most` bounds a number, and {} is not a number field",
                    field.name
                ),
            ));
        }
        _ => {}
    }
    Ok(TestModel {
        field: Some(index),
        kind: t.kind.clone(),
    })
}

/// The codes a field's value is written with: its value list, or the codes of its only coded
/// sub-field (as the assembly reads a field's token).
fn codes<'a>(field: &FieldModel<'a>) -> &'a [CodeValue] {
    let Some(bullet) = field.bullet else {
        return &[];
    };
    if !bullet.values.is_empty() {
        return &bullet.values;
    }
    let mut coded = bullet.bitfields.iter().filter(|b| !b.values.is_empty());
    match (coded.next(), coded.next()) {
        (Some(only), None) => &only.values,
        _ => &[],
    }
}

/// A listed token matches a code's token; a listed `prefix*` matches every token so starting.
pub(super) fn matches(listed: &str, token: &str) -> bool {
    match listed.strip_suffix('*') {
        Some(prefix) => token
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
        None => listed.eq_ignore_ascii_case(token),
    }
}

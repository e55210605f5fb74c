//! The `Compiler checks` property (spec/README.md): items separated by `;`, each a fixed phrase
//! (`supported types`, `NoMask for dst types B, UB`, ...) or a code rule (`Field in A, B`,
//! `platform in pvc+`, ... optionally `when` conditions joined by `and`). Parsed once here into
//! [`CompilerChecks`]; an item that is neither is a warning at its position, never dropped
//! silently. Which fields a rule names and which codes it lists are resolved when lowering.

use super::diag::Diags;
use super::inline::platform_tag;
use crate::model::{
    CheckKind, CheckTest, CodeRule, CompilerChecks, DiagnosticKind, Enforce, Loc, Platform,
    Property,
};

/// The property's key.
pub(crate) const KEY: &str = "Compiler checks";

/// The fixed phrases that need no argument, as spec/README.md spells them (any case).
const PHRASES: [(&str, Enforce); 7] = [
    ("supported types", Enforce::SupportedTypes),
    ("type maps", Enforce::TypeMaps),
    ("integer operands", Enforce::IntegerOperands),
    (
        "saturation only with a float destination",
        Enforce::SaturationNeedsFloatDestination,
    ),
    ("no source modifiers", Enforce::NoSourceModifiers),
    (
        "no arithmetic source modifiers",
        Enforce::NoArithmeticSourceModifiers,
    ),
    ("one float type", Enforce::OneFloatType),
];

/// Parses the document's `Compiler checks` property, if it has one.
pub(crate) fn compiler_checks(properties: &[Property], diags: &mut Diags) -> CompilerChecks {
    let mut out = CompilerChecks::default();
    let Some(property) = properties.iter().find(|p| p.key.eq_ignore_ascii_case(KEY)) else {
        return out;
    };
    let value = property.value.as_str();
    let mut start = 0;
    for piece in value.split(';') {
        let offset = start + (piece.len() - piece.trim_start().len());
        start += piece.len() + 1;
        let item = piece.trim();
        if item.is_empty() {
            continue;
        }
        // `part` is a slice of `item` (else: the item's start).
        let at = |part: &str| {
            let inner = (part.as_ptr() as usize).checked_sub(item.as_ptr() as usize);
            let inner = inner.filter(|i| *i <= item.len()).unwrap_or(0);
            property.loc_in_value(offset + inner)
        };
        let loc = at(item);
        match parse_item(item, &at) {
            Ok(Item::Enforce(enforce)) => out.enforces.push((enforce, loc)),
            Ok(Item::Rule(rule)) => out.rules.push(rule),
            Err((loc, why)) => diags.warn(
                DiagnosticKind::CompilerChecks,
                loc,
                format!("`{KEY}` item `{item}` is ignored: {why} (see spec/README.md)"),
            ),
        }
    }
    out
}

enum Item {
    Enforce(Enforce),
    Rule(CodeRule),
}

/// Where a sub-slice of the item is written.
type At<'a> = dyn Fn(&str) -> Loc + 'a;

fn parse_item(item: &str, at: &At<'_>) -> Result<Item, (Loc, String)> {
    if let Some((_, enforce)) = PHRASES.iter().find(|(p, _)| item.eq_ignore_ascii_case(p)) {
        return Ok(Item::Enforce(enforce.clone()));
    }
    let lower = item.to_ascii_lowercase();
    // Byte offsets of `lower` are those of `item` (ASCII case mapping keeps lengths).
    if let Some(types) = lower.strip_prefix("nomask for dst types ") {
        let types = &item[item.len() - types.len()..];
        return Ok(Item::Enforce(Enforce::NoMaskForDstTypes(type_names(
            types, at,
        )?)));
    }
    if let Some(rest) = lower.strip_prefix("dst types ")
        && let Some(split) = rest.find(" not on ")
    {
        let rest = &item[item.len() - rest.len()..];
        let (types, platforms) = (&rest[..split], &rest[split + " not on ".len()..]);
        let platforms = list(platforms);
        if platforms.is_empty() {
            return Err((at(rest), "it names no platform after `not on`".to_string()));
        }
        return Ok(Item::Enforce(Enforce::DstTypesNotOn {
            types: type_names(types, at)?,
            platforms: platforms.iter().map(|p| p.to_string()).collect(),
        }));
    }
    let (rule, condition) = match item.split_once(" when ") {
        Some((rule, condition)) => (rule, Some(condition)),
        None => (item, None),
    };
    let rule_test = test(rule, at)?;
    let when = match condition {
        Some(condition) => condition
            .split(" and ")
            .map(|part| test(part, at))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    Ok(Item::Rule(CodeRule {
        test: rule_test,
        when,
        when_text: condition.unwrap_or("").to_string(),
        loc: at(item),
    }))
}

/// `Field in A, B`, `Field not in A, B`, `Field has type T, U`, `Field is %null`,
/// `Field is not %null`, `Field at most N`, `platform in P, Q+, -R`, `platform not in ...`.
fn test(text: &str, at: &At<'_>) -> Result<CheckTest, (Loc, String)> {
    let text = text.trim();
    let loc = at(text);
    let not_a_rule = || {
        (
            loc,
            format!(
                "`{text}` is no known phrase and no code rule (`Field in ...`, `not in`, `has type`, \
                 `is %null`, `is not %null`, `at most`, `platform in ...`)"
            ),
        )
    };
    let (name, rest) = text.split_once(' ').ok_or_else(not_a_rule)?;
    fn nonempty<'t>(
        tokens: Vec<&'t str>,
        what: &str,
        text: &str,
        loc: Loc,
    ) -> Result<Vec<&'t str>, (Loc, String)> {
        if tokens.is_empty() {
            Err((loc, format!("`{text}` lists no {what}")))
        } else {
            Ok(tokens)
        }
    }
    if name == "platform" {
        let (negated, tokens) = match rest.strip_prefix("not in ") {
            Some(l) => (true, l),
            None => (false, rest.strip_prefix("in ").ok_or_else(not_a_rule)?),
        };
        let listed = nonempty(list(tokens), "platform", text, loc)?
            .into_iter()
            .map(|token| {
                platform(token).ok_or_else(|| {
                    (
                        at(token),
                        format!("`{token}` is no platform (`P`, `P+`, `-P`)"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(CheckTest {
            field: None,
            kind: CheckKind::Platform { listed, negated },
            loc,
        });
    }
    let tokens = |l: &str, what: &str| -> Result<Vec<String>, (Loc, String)> {
        Ok(nonempty(list(l), what, text, loc)?
            .into_iter()
            .map(str::to_string)
            .collect())
    };
    let kind = if let Some(l) = rest.strip_prefix("not in ") {
        CheckKind::NotIn(tokens(l, "code")?)
    } else if let Some(l) = rest.strip_prefix("in ") {
        CheckKind::In(tokens(l, "code")?)
    } else if let Some(l) = rest.strip_prefix("has type ") {
        CheckKind::HasType(type_names(l, at)?)
    } else if rest == "is %null" {
        CheckKind::IsNull
    } else if rest == "is not %null" {
        CheckKind::NotNull
    } else if let Some(bound) = rest.strip_prefix("at most ") {
        let bound = bound.trim();
        let value = match bound.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => bound.parse().ok(),
        };
        CheckKind::AtMost(value.ok_or_else(|| {
            (
                at(bound),
                format!("`{bound}` is no number (decimal or `0x` hexadecimal)"),
            )
        })?)
    } else {
        return Err(not_a_rule());
    };
    Ok(CheckTest {
        field: Some(name.to_string()),
        kind,
        loc,
    })
}

/// The non-empty comma-separated tokens of `text`.
fn list(text: &str) -> Vec<&str> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect()
}

/// A list of type names: upper-case words (`UD, D`).
fn type_names(text: &str, at: &At<'_>) -> Result<Vec<String>, (Loc, String)> {
    let names = list(text);
    if names.is_empty() {
        return Err((at(text), "it lists no type".to_string()));
    }
    names
        .into_iter()
        .map(|name| {
            let valid = name.chars().all(|c| c.is_ascii_alphanumeric())
                && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            if valid {
                Ok(name.to_ascii_uppercase())
            } else {
                Err((at(name), format!("`{name}` is no type name")))
            }
        })
        .collect()
}

/// `P`, `P+` (P and newer), `-P` (older than P), any case; the name is kept as written.
fn platform(token: &str) -> Option<Platform> {
    let tag = platform_tag(&token.to_ascii_uppercase())?;
    let name = token.trim_start_matches('-').trim_end_matches('+');
    Some(Platform {
        name: name.to_string(),
        bound: tag.bound,
    })
}

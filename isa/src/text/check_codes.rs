//! The code rules of a document's `Compiler checks` property (spec/README.md): which codes, values
//! or declared types a field may hold, or whether an operand is `%null`, when other fields hold
//! given codes. `DataSize in d32, d64 when DataElemsPerAddr not in 1` reads: when the vector size
//! is not 1, the element size is d32 or d64; `BlockHeight at most 32` bounds a number. Nothing
//! here knows an instruction: the rules are the document's.

use super::check_types;
use super::scope::VarKind;
use super::table::{binding_codes, binding_value};
use crate::ast::{ElemType, FieldValue, Instruction, Operand};
use crate::desc::{Binding, FieldRole, InstrDesc};
use crate::rules::Platform;

/// Every code rule `instr` breaks: the field it is about (`None`: the instruction, for a
/// `platform` rule) and the message. `lookup` resolves variable names (for `has type` rules);
/// `platform` is the one named (a `platform` rule or condition is unknown without one).
pub(crate) fn violations(
    desc: &InstrDesc,
    instr: &Instruction,
    lookup: &dyn Fn(&str) -> Option<VarKind>,
    platform: Option<Platform>,
) -> Vec<(Option<usize>, String)> {
    let ctx = Ctx {
        desc,
        instr,
        lookup,
        platform,
    };
    let mut out = Vec::new();
    let items = desc.property("Compiler checks").unwrap_or("").split(';');
    for item in items.map(str::trim).filter(|i| !i.is_empty()) {
        let (rule, condition) = match item.split_once(" when ") {
            Some((rule, condition)) => (rule, Some(condition)),
            None => (item, None),
        };
        let Some(rule) = Rule::parse(desc, rule) else {
            continue;
        };
        let applies = condition.is_none_or(|c| {
            c.split(" and ")
                .all(|part| Rule::parse(desc, part).is_some_and(|r| r.test(&ctx) == Some(true)))
        });
        if applies && rule.test(&ctx) == Some(false) {
            let value = rule.shown(&ctx);
            let when = condition.map_or(String::new(), |c| format!(" when {c}"));
            let field = (rule.kind != Kind::Platform).then_some(rule.field);
            out.push((
                field,
                format!(
                    "{} is {value}; it must be {}{when}",
                    rule.name,
                    rule.expectation()
                ),
            ));
        }
    }
    out
}

/// What a rule is tested against.
struct Ctx<'a> {
    desc: &'a InstrDesc,
    instr: &'a Instruction,
    lookup: &'a dyn Fn(&str) -> Option<VarKind>,
    platform: Option<Platform>,
}

/// `Field in A, B`, `Field not in A, B`, `Field has type T, U`, `Field is %null`,
/// `Field is not %null`, `Field at most N`; `platform in P, Q+, -R` (the platform named, `Q+`
/// being Q and every newer one, `-R` every one older than R) and `platform not in ...`.
struct Rule<'a> {
    field: usize,
    name: &'a str,
    kind: Kind,
    tokens: Vec<&'a str>,
    /// `not in` (for a platform rule).
    negated: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    In,
    NotIn,
    Types,
    Null,
    NotNull,
    /// A number field's value is at most the one token.
    AtMost,
    /// The platform is one of the tokens (`negated`: none of them).
    Platform,
}

/// Whether `platform` is one of the platform tokens: `P`, `P+` (P or newer), `-P` (older than P).
fn platform_listed(tokens: &[&str], platform: Platform) -> bool {
    tokens.iter().any(|t| {
        if let Some(name) = t.strip_suffix('+') {
            Platform::parse(name).is_some_and(|p| platform >= p)
        } else if let Some(name) = t.strip_prefix('-') {
            Platform::parse(name).is_some_and(|p| platform < p)
        } else {
            Platform::parse(t) == Some(platform)
        }
    })
}

impl<'a> Rule<'a> {
    fn parse(desc: &InstrDesc, text: &'a str) -> Option<Self> {
        let text = text.trim();
        let (name, rest) = text.split_once(' ')?;
        let list = |l: &'a str| -> Vec<&'a str> {
            l.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect()
        };
        if name == "platform" {
            let (negated, tokens) = match rest.strip_prefix("not in ") {
                Some(l) => (true, l),
                None => (false, rest.strip_prefix("in ")?),
            };
            return Some(Self {
                field: 0,
                name,
                kind: Kind::Platform,
                tokens: list(tokens),
                negated,
            });
        }
        let field = desc.field_index(name)?;
        let (kind, list_text) = if let Some(list) = rest.strip_prefix("not in ") {
            (Kind::NotIn, list)
        } else if let Some(list) = rest.strip_prefix("in ") {
            (Kind::In, list)
        } else if let Some(list) = rest.strip_prefix("has type ") {
            (Kind::Types, list)
        } else if rest == "is %null" {
            (Kind::Null, "")
        } else if rest == "is not %null" {
            (Kind::NotNull, "")
        } else if let Some(bound) = rest.strip_prefix("at most ") {
            (Kind::AtMost, bound)
        } else {
            return None;
        };
        Some(Self {
            field,
            name,
            kind,
            tokens: list(list_text),
            negated: false,
        })
    }

    /// Whether the instruction keeps the rule; None when the field's value is not known (an
    /// absent operand, an undeclared variable).
    fn test(&self, ctx: &Ctx) -> Option<bool> {
        let (desc, instr, lookup) = (ctx.desc, ctx.instr, ctx.lookup);
        if self.kind == Kind::Platform {
            return Some(platform_listed(&self.tokens, ctx.platform?) != self.negated);
        }
        let value = instr.fields.get(self.field)?;
        match self.kind {
            Kind::In | Kind::NotIn => {
                let token = token(desc, instr, self.field)?;
                let listed = self.tokens.iter().any(|t| matches(t, &token));
                Some(listed == (self.kind == Kind::In))
            }
            Kind::Types => {
                let ty = declared_type(value, lookup)?;
                Some(
                    self.tokens
                        .iter()
                        .any(|t| t.eq_ignore_ascii_case(ty.name())),
                )
            }
            Kind::Null | Kind::NotNull => {
                let null = is_null(value)?;
                Some(null == (self.kind == Kind::Null))
            }
            Kind::AtMost => {
                let bound = number(self.tokens.first()?)?;
                Some(self.number(desc, instr)? <= bound)
            }
            Kind::Platform => None,
        }
    }

    /// The value of a number field.
    fn number(&self, desc: &InstrDesc, instr: &Instruction) -> Option<u64> {
        let binding = Binding {
            field: self.field,
            bitfield: None,
        };
        match instr.fields.get(self.field)? {
            FieldValue::Int(_) => binding_value(desc, &instr.fields, binding),
            _ => None,
        }
    }

    /// The value the message shows.
    fn shown(&self, ctx: &Ctx) -> String {
        let (desc, instr, lookup) = (ctx.desc, ctx.instr, ctx.lookup);
        let value = instr.fields.get(self.field);
        match self.kind {
            Kind::In | Kind::NotIn => {
                token(desc, instr, self.field).map_or("unknown".into(), |t| format!("`{t}`"))
            }
            Kind::Types => value
                .and_then(|v| declared_type(v, lookup))
                .map_or("unknown".into(), |t| format!("of type {t}")),
            Kind::Null => "not %null".into(),
            Kind::NotNull => "%null".into(),
            Kind::AtMost => self
                .number(desc, instr)
                .map_or("unknown".into(), |n| n.to_string()),
            Kind::Platform => ctx
                .platform
                .map_or("unknown".into(), |p| p.name().to_string()),
        }
    }

    fn expectation(&self) -> String {
        let list = self.tokens.join(", ");
        match self.kind {
            Kind::In => format!("one of {list}"),
            Kind::NotIn => format!("none of {list}"),
            Kind::Types => format!("of type {list}"),
            Kind::Null => "%null".into(),
            Kind::NotNull => "an operand other than %null".into(),
            Kind::AtMost => format!("at most {list}"),
            Kind::Platform if self.negated => format!("none of {list}"),
            Kind::Platform => format!("one of {list}"),
        }
    }
}

/// A decimal or `0x` hexadecimal number of a rule.
fn number(token: &str) -> Option<u64> {
    match token.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => token.parse().ok(),
    }
}

/// A listed token matches a value's token; a listed `prefix*` matches every token starting so.
fn matches(listed: &str, token: &str) -> bool {
    match listed.strip_suffix('*') {
        Some(prefix) => token
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
        None => listed.eq_ignore_ascii_case(token),
    }
}

/// How a field's value is written: the token of its code, the execution size, or the number.
fn token(desc: &InstrDesc, instr: &Instruction, field: usize) -> Option<String> {
    let binding = Binding {
        field,
        bitfield: None,
    };
    match instr.fields.get(field)? {
        FieldValue::Exec(exec) => Some(exec.size.to_string()),
        FieldValue::Int(_) if desc.fields.get(field)?.role == FieldRole::Value => {
            let code = binding_value(desc, &instr.fields, binding)?;
            let codes = binding_codes(desc, binding);
            if codes.is_empty() {
                Some(code.to_string())
            } else {
                codes
                    .iter()
                    .find(|c| c.code == code)
                    .map(|c| c.text.to_string())
            }
        }
        _ => None,
    }
}

fn declared_type(value: &FieldValue, lookup: &dyn Fn(&str) -> Option<VarKind>) -> Option<ElemType> {
    let FieldValue::Operand(op) = value else {
        return None;
    };
    let var = match op {
        Operand::General { var, .. } | Operand::Raw { var, .. } => var.as_str(),
        _ => return check_types::operand_type(op, None),
    };
    if var == "%null" {
        return None;
    }
    check_types::operand_type(op, lookup(var))
}

fn is_null(value: &FieldValue) -> Option<bool> {
    match value {
        FieldValue::Operand(op) => Some(op.is_null()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is wrong with one code rule or condition of `desc`: a token no code of its field
    /// has, or a `has type` name that is no element type.
    fn problem(desc: &InstrDesc, part: &str) -> Option<String> {
        let Some(rule) = Rule::parse(desc, part) else {
            return Some(format!("`{part}` is no code rule"));
        };
        if rule.kind == Kind::Platform {
            let bad = rule.tokens.iter().find(|t| {
                Platform::parse(t.trim_start_matches('-').trim_end_matches('+')).is_none()
            });
            return bad.map(|t| format!("`{t}` in `{part}` is no platform"));
        }
        let field = &desc.fields[rule.field];
        for token in &rule.tokens {
            let known = match rule.kind {
                Kind::Types => ElemType::from_name(token).is_some(),
                Kind::In | Kind::NotIn if field.role == FieldRole::ExecSize => {
                    token.parse::<u32>().is_ok()
                }
                Kind::In | Kind::NotIn => {
                    let binding = Binding {
                        field: rule.field,
                        bitfield: None,
                    };
                    let codes = binding_codes(desc, binding);
                    if codes.is_empty() {
                        token.parse::<u64>().is_ok()
                    } else {
                        codes.iter().any(|c| matches(token, c.text))
                    }
                }
                Kind::Null | Kind::NotNull | Kind::Platform => true,
                // A bound on a number field (not on a field of codes).
                Kind::AtMost => {
                    let binding = Binding {
                        field: rule.field,
                        bitfield: None,
                    };
                    rule.tokens.len() == 1
                        && number(token).is_some()
                        && binding_codes(desc, binding).is_empty()
                }
            };
            if !known {
                return Some(format!(
                    "`{token}` in `{part}` names no code of {}",
                    field.name
                ));
            }
        }
        None
    }

    /// Every `Compiler checks` item that starts with a field name is a code rule whose tokens
    /// exist, and so are its conditions: a typo in a document is not a rule silently ignored.
    #[test]
    fn the_code_rules_of_the_documents_name_existing_codes() {
        let mut rules = 0;
        let mut problems = Vec::new();
        for desc in crate::INSTRUCTIONS {
            let items = desc.property("Compiler checks").unwrap_or("").split(';');
            for item in items.map(str::trim) {
                let first = item.split(' ').next().unwrap_or("");
                // `dst types T, U not on P` and the other fixed items of spec/README.md.
                if (desc.field_index(first).is_none() && first != "platform")
                    || item.contains(" not on ")
                {
                    continue;
                }
                rules += 1;
                let (rule, condition) = item.split_once(" when ").unwrap_or((item, ""));
                let parts = std::iter::once(rule).chain(condition.split(" and "));
                for part in parts.filter(|p| !p.trim().is_empty()) {
                    problems.extend(problem(desc, part).map(|p| format!("{}: {p}", desc.name)));
                }
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(rules >= 30, "only {rules} code rules");
    }
}

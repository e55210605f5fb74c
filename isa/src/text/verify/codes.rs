//! The codes pass: the code rules of a document's `Compiler checks` property (spec/README.md),
//! typed by the generator ([`CheckRule`]): which codes, values or declared types a field may
//! hold, or whether an operand is `%null`, when other fields hold given codes.
//! `DataSize in d32, d64 when DataElemsPerAddr not in 1` reads: when the vector size is not 1,
//! the element size is d32 or d64; `BlockHeight at most 32` bounds a number. Nothing here knows
//! an instruction: the rules are the document's. A rule about the platform itself
//! (`platform in pvc+`) is the [`super::platform`] pass's; as a condition it is evaluated here.

use super::InstrCtx;
use super::platform;
use super::types::{named, operand_type};
use crate::ast::{ElemType, FieldValue, Instruction, Operand};
use crate::desc::{Binding, CheckRule, FieldRole, InstrDesc, RuleTest};
use crate::text::scope::{Scopes, VarKind};
use crate::text::table::{binding_codes, binding_value};

/// Every code rule about a field.
pub(super) fn check(ctx: &mut InstrCtx) {
    for rule in ctx.desc.rules {
        if rule.test.field().is_some() {
            report(ctx, rule);
        }
    }
}

/// Reports `rule` when it applies and the instruction breaks it: at the field it is about, or
/// at the instruction for a platform rule.
pub(super) fn report(ctx: &mut InstrCtx, rule: &CheckRule) {
    let values = Values {
        desc: ctx.desc,
        instr: ctx.instr,
        scopes: ctx.scopes,
    };
    let applies = rule.when.iter().all(|c| values.holds(c) == Some(true));
    if !applies || values.holds(&rule.test) != Some(false) {
        return;
    }
    let name = match rule.test.field() {
        Some(field) => ctx.desc.fields.get(field).map_or("?", |f| f.name),
        None => "platform",
    };
    let shown = values.shown(&rule.test);
    let when = match rule.when_text {
        "" => String::new(),
        text => format!(" when {text}"),
    };
    ctx.field = rule.test.field();
    ctx.error(format!(
        "{name} is {shown}; it must be {}{when}",
        expectation(&rule.test)
    ));
}

/// What a rule is tested against.
struct Values<'a> {
    desc: &'a InstrDesc,
    instr: &'a Instruction,
    scopes: &'a Scopes,
}

impl Values<'_> {
    fn lookup(&self, name: &str) -> Option<VarKind> {
        self.scopes.lookup(name)
    }

    /// Whether the instruction keeps the test; `None` when the value is not known (an absent
    /// operand, an undeclared variable, no platform named).
    fn holds(&self, test: &RuleTest) -> Option<bool> {
        let (desc, instr) = (self.desc, self.instr);
        match *test {
            RuleTest::Platform { listed, negated } => {
                Some(platform::listed(listed, self.scopes.platform?) != negated)
            }
            RuleTest::In { field, tokens } | RuleTest::NotIn { field, tokens } => {
                instr.fields.get(field)?;
                let token = token(desc, instr, field)?;
                let listed = tokens.iter().any(|t| matches(t, &token));
                Some(listed == matches!(test, RuleTest::In { .. }))
            }
            RuleTest::HasType { field, types } => {
                let ty = declared_type(instr.fields.get(field)?, &|n| self.lookup(n))?;
                Some(named(types, ty))
            }
            RuleTest::IsNull { field } => is_null(instr.fields.get(field)?),
            RuleTest::NotNull { field } => is_null(instr.fields.get(field)?).map(|null| !null),
            RuleTest::AtMost { field, bound } => Some(number(desc, instr, field)? <= bound),
        }
    }

    /// The value the message shows.
    fn shown(&self, test: &RuleTest) -> String {
        let (desc, instr) = (self.desc, self.instr);
        match *test {
            RuleTest::In { field, .. } | RuleTest::NotIn { field, .. } => {
                token(desc, instr, field).map_or("unknown".into(), |t| format!("`{t}`"))
            }
            RuleTest::HasType { field, .. } => instr
                .fields
                .get(field)
                .and_then(|v| declared_type(v, &|n| self.lookup(n)))
                .map_or("unknown".into(), |t| format!("of type {t}")),
            RuleTest::IsNull { .. } => "not %null".into(),
            RuleTest::NotNull { .. } => "%null".into(),
            RuleTest::AtMost { field, .. } => {
                number(desc, instr, field).map_or("unknown".into(), |n| n.to_string())
            }
            RuleTest::Platform { .. } => self
                .scopes
                .platform
                .map_or("unknown".into(), |p| p.name().to_string()),
        }
    }
}

/// What the rule asks for, in the message.
fn expectation(test: &RuleTest) -> String {
    match *test {
        RuleTest::In { tokens, .. } => format!("one of {}", tokens.join(", ")),
        RuleTest::NotIn { tokens, .. } => format!("none of {}", tokens.join(", ")),
        RuleTest::HasType { types, .. } => format!("of type {}", types.join(", ")),
        RuleTest::IsNull { .. } => "%null".into(),
        RuleTest::NotNull { .. } => "an operand other than %null".into(),
        RuleTest::AtMost { bound, .. } => format!("at most {bound}"),
        RuleTest::Platform { listed, negated } => {
            let names = platform::written(listed);
            if negated {
                format!("none of {names}")
            } else {
                format!("one of {names}")
            }
        }
    }
}

/// The value of a number field.
fn number(desc: &InstrDesc, instr: &Instruction, field: usize) -> Option<u64> {
    let binding = Binding {
        field,
        bitfield: None,
    };
    match instr.fields.get(field)? {
        FieldValue::Int(_) => binding_value(desc, &instr.fields, binding),
        _ => None,
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
        _ => return operand_type(op, None),
    };
    if var == "%null" {
        return None;
    }
    operand_type(op, lookup(var))
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
    use crate::desc::Enforce;
    use crate::rules::Platform;

    /// The generator checked that every rule names a field and codes of it; what it cannot
    /// know is checked here: every type name of a rule or phrase is an element type, every
    /// platform name a platform.
    #[test]
    fn the_rules_of_the_documents_name_existing_types_and_platforms() {
        let mut rules = 0;
        let mut problems = Vec::new();
        for desc in crate::INSTRUCTIONS {
            let mut types: Vec<&str> = Vec::new();
            let mut platforms: Vec<&str> = Vec::new();
            for rule in desc.rules {
                rules += 1;
                for test in std::iter::once(&rule.test).chain(rule.when) {
                    match *test {
                        RuleTest::HasType { types: t, .. } => types.extend(t),
                        RuleTest::Platform { listed, .. } => {
                            platforms.extend(listed.iter().map(|p| p.name))
                        }
                        _ => {}
                    }
                }
            }
            for enforce in desc.enforces {
                match *enforce {
                    Enforce::NoMaskForDstTypes(t) => types.extend(t),
                    Enforce::DstTypesNotOn {
                        types: t,
                        platforms: p,
                    } => {
                        types.extend(t);
                        platforms.extend(p);
                    }
                    _ => {}
                }
            }
            let bad_types = types.iter().filter(|t| ElemType::from_name(t).is_none());
            let bad_platforms = platforms.iter().filter(|p| Platform::parse(p).is_none());
            problems.extend(bad_types.map(|t| format!("{}: `{t}` is no type", desc.name)));
            problems.extend(bad_platforms.map(|p| format!("{}: `{p}` is no platform", desc.name)));
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(rules >= 30, "only {rules} code rules");
    }

    /// Every item of every `Compiler checks` property became a typed phrase or rule: none was
    /// dropped between the document and the table.
    #[test]
    fn every_item_of_compiler_checks_is_in_the_table() {
        for desc in crate::INSTRUCTIONS {
            let text = desc.property("Compiler checks").unwrap_or("");
            let items = text.split(';').filter(|i| !i.trim().is_empty()).count();
            assert_eq!(
                items,
                desc.enforces.len() + desc.rules.len(),
                "{}: `{text}`",
                desc.name
            );
        }
    }
}

//! How a typed `Compiler checks` rule ([`CheckRule`]) is evaluated on an instruction, for the
//! [`super::codes`] and [`super::platform`] passes: whether its conditions hold, whether the
//! instruction keeps it, and the message when it does not (the value found, what the rule asks,
//! its conditions as written). A test whose value is not known (an absent operand, an
//! undeclared variable, no platform named) neither breaks a rule nor meets a condition.

use super::InstrCtx;
use super::types::{named, operand_type};
use crate::ast::{ElemType, FieldValue, Instruction, Operand};
use crate::desc::{
    Binding, CheckRule, FieldRole, InstrDesc, PlatformBound, PlatformDesc, RuleTest,
};
use crate::rules::Platform;
use crate::text::scope::{Scopes, VarKind};
use crate::text::table::{binding_codes, binding_value};

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
                Some(platform_listed(listed, self.scopes.platform?) != negated)
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
            let names = written(listed);
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

/// Whether `platform` is one of the listed: `P`, `P+` (P or newer), `-P` (older than P).
fn platform_listed(listed: &[PlatformDesc], platform: Platform) -> bool {
    listed.iter().any(|p| {
        Platform::parse(p.name).is_some_and(|named| match p.bound {
            PlatformBound::Since => platform >= named,
            PlatformBound::Before => platform < named,
            PlatformBound::Only => platform == named,
        })
    })
}

/// The platforms as the document writes them (`pvc+`, `-xehp`), comma-separated.
fn written(listed: &[PlatformDesc]) -> String {
    let names: Vec<String> = listed
        .iter()
        .map(|p| match p.bound {
            PlatformBound::Since => format!("{}+", p.name),
            PlatformBound::Before => format!("-{}", p.name),
            PlatformBound::Only => p.name.to_string(),
        })
        .collect();
    names.join(", ")
}

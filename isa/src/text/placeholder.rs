//! LLVM-style inline-assembly placeholders `$N`: one rule for assembly text and for `isa!`.
//!
//! The parser reads `$N` as a variable name like any other (`$` is a name character). What
//! follows it decides what it stands for:
//! - a region `$N(r,c)<...>`, `$N<...>`, a raw offset `$N.k`, an address element `$N(k)`: the
//!   operand of a variable named `$N`, exactly as for any declared name;
//! - nothing: the whole operand ([`Operand::Name`]), read as the variable from its first
//!   element: `<1>` as a destination, `<1;1,0>` as a vector source (one element per channel),
//!   `<0;1,0>` as a scalar source, offset 0 as a raw operand.
//!
//! In a text file the variables `$0`, `$1`, ... are bound by name at launch and the loader reads
//! a whole operand as above. `isa!` binds them to its parameters: [`bind_dollar_placeholders`]
//! renames `$N` to the N-th parameter and writes each whole operand in the explicit form above,
//! so that the checker sees an ordinary operand of a declared variable.

use super::TextError;
use super::table::is_operand_field;
use crate::ast::{FieldValue, Module, Operand, Predicate, Region, SrcMod, StmtKind};
use crate::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc, OperandClass};

/// A kernel parameter that `$N` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceholderParam<'a> {
    /// The variable the parameter is.
    pub name: &'a str,
    /// Whether it is a general variable (a whole operand of it is written with a region);
    /// other variables (surfaces) stay names.
    pub general: bool,
}

/// `N` of a placeholder name `$N` (decimal digits only).
pub fn dollar_index(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('$')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Binds the `$N` placeholders of `module` to `params` (see the module documentation). Every
/// `$N` that names no parameter is reported at its instruction and left as it is.
pub fn bind_dollar_placeholders(
    table: &'static [InstrDesc],
    module: &mut Module,
    params: &[PlaceholderParam<'_>],
) -> Vec<TextError> {
    let mut errors = Vec::new();
    for stmt in &mut module.stmts {
        let StmtKind::Instr(instr) = &mut stmt.kind else {
            continue;
        };
        let Some(desc) = table.get(instr.desc) else {
            continue;
        };
        let exec_size = instr.fields.iter().find_map(|f| match f {
            FieldValue::Exec(e) => Some(e.size),
            _ => None,
        });
        let span = instr.span;
        let mut unknown = |name: &str| {
            errors.push(TextError::new(
                span,
                format!("`{name}`"),
                format!(
                    "a parameter placeholder `$0`..`${}`",
                    params.len().saturating_sub(1)
                ),
            ));
        };
        let mut bind = Binder {
            params,
            exec_size,
            unknown: &mut unknown,
        };
        for (field, value) in desc.fields.iter().zip(instr.fields.iter_mut()) {
            bind.value(field, value);
        }
    }
    errors
}

struct Binder<'p, 'n, 'u> {
    params: &'p [PlaceholderParam<'n>],
    exec_size: Option<u32>,
    unknown: &'u mut dyn FnMut(&str),
}

impl<'n> Binder<'_, 'n, '_> {
    /// The parameter `name` stands for, if it is a placeholder; unknown ones are reported.
    fn param(&mut self, name: &str) -> Option<PlaceholderParam<'n>> {
        let index = dollar_index(name)?;
        let found = self.params.get(index).copied();
        if found.is_none() {
            (self.unknown)(name);
        }
        found
    }

    fn rename(&mut self, name: &mut String) {
        if let Some(p) = self.param(name) {
            *name = p.name.to_string();
        }
    }

    fn value(&mut self, field: &FieldDesc, value: &mut FieldValue) {
        match value {
            FieldValue::Operand(op) => self.operand(field, op),
            FieldValue::Pred(Some(Predicate { name, .. })) => self.rename(name),
            FieldValue::List(items) => {
                for item in items {
                    self.value(field, item);
                }
            }
            _ => {}
        }
    }

    fn operand(&mut self, field: &FieldDesc, op: &mut Operand) {
        match op {
            // In a field that also takes predicates the parser reads a lone name as one; a
            // placeholder bound to a general variable is its whole operand all the same.
            Operand::Name(name) | Operand::Predicate { var: name } => {
                let Some(param) = self.param(name) else {
                    return;
                };
                *op = match whole_operand_form(field, self.exec_size).filter(|_| param.general) {
                    Some(Whole::Raw) => Operand::Raw {
                        var: param.name.to_string(),
                        offset: 0,
                    },
                    Some(Whole::Region(region)) => Operand::General {
                        modifier: SrcMod::None,
                        var: param.name.to_string(),
                        row: 0,
                        col: 0,
                        region: Some(region),
                        ty: None,
                    },
                    None => match op {
                        Operand::Predicate { .. } => Operand::Predicate {
                            var: param.name.to_string(),
                        },
                        _ => Operand::Name(param.name.to_string()),
                    },
                };
            }
            Operand::General { var, .. }
            | Operand::Raw { var, .. }
            | Operand::AddressOf { var, .. }
            | Operand::Address { var, .. } => self.rename(var),
            Operand::Indirect { addr, .. } => self.rename(addr),
            Operand::Immediate(_) => {}
        }
    }
}

/// How a whole operand of a general variable is written in a field.
enum Whole {
    Raw,
    Region(Region),
}

/// The explicit form of a whole operand in `field`, None when the field takes no general or raw
/// operand (the name stays a name).
fn whole_operand_form(field: &FieldDesc, exec_size: Option<u32>) -> Option<Whole> {
    if field.role != FieldRole::Operand || !is_operand_field(field) {
        return None;
    }
    if field.kind == FieldKind::RawOperand {
        return Some(Whole::Raw);
    }
    if !field.operand_classes.is_empty() && !field.has_class(OperandClass::General) {
        return None;
    }
    let destination = field.name.to_ascii_lowercase().starts_with("dst");
    let scalar = field.kind == FieldKind::Scalar || exec_size == Some(1);
    let region = Region::implied(destination, scalar);
    Some(Whole::Region(region))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_indices_are_decimal_digits_after_the_dollar() {
        assert_eq!(dollar_index("$0"), Some(0));
        assert_eq!(dollar_index("$12"), Some(12));
        assert_eq!(dollar_index("$"), None);
        assert_eq!(dollar_index("$x"), None);
        assert_eq!(dollar_index("$1a"), None);
        assert_eq!(dollar_index("V1"), None);
    }
}

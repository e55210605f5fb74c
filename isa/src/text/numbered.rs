//! The compiler's numbered names of the predefined variables (`V0` for `%null`, `V7` for `%r0`,
//! [`crate::rules::NUMBERED_PREDEFINED`]): after parsing, an operand naming one that the text
//! does not declare is read as the `%` name it stands for, so every later pass sees one name.
//! A text that declares such a name (upstream documents' snippets do; the compiler rejects it)
//! keeps its variable. Every numbered name is read so in a module written as the compiler
//! writes one (it starts with `.version`); elsewhere only `V0`, the null operand inline vISA
//! writes, since hand-written kernels and tests use `V1`, `V2` as names of their own.

use std::collections::HashSet;

use crate::ast::{FieldValue, Instruction, Module, Operand, StmtKind};
use crate::rules;

/// Rewrites the undeclared numbered names of every instruction of `module`.
pub(crate) fn resolve(module: &mut Module) {
    let versioned = module
        .stmts
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Version { .. }));
    let declared: HashSet<String> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl(d) if rules::numbered_predefined(&d.name).is_some() => {
                Some(d.name.clone())
            }
            _ => None,
        })
        .collect();
    for stmt in &mut module.stmts {
        if let StmtKind::Instr(instr) = &mut stmt.kind {
            resolve_instruction(instr, &declared, versioned);
        }
    }
}

/// Rewrites the numbered names of `instr` not in `declared` (only `V0` unless `all`).
pub(crate) fn resolve_instruction(instr: &mut Instruction, declared: &HashSet<String>, all: bool) {
    for value in &mut instr.fields {
        resolve_value(value, declared, all);
    }
}

fn resolve_value(value: &mut FieldValue, declared: &HashSet<String>, all: bool) {
    match value {
        FieldValue::Operand(op) => resolve_operand(op, declared, all),
        FieldValue::List(items) => items
            .iter_mut()
            .for_each(|v| resolve_value(v, declared, all)),
        _ => {}
    }
}

fn resolve_operand(op: &mut Operand, declared: &HashSet<String>, all: bool) {
    let var = match op {
        Operand::General { var, .. }
        | Operand::Raw { var, .. }
        | Operand::AddressOf { var, .. }
        | Operand::Name(var) => var,
        _ => return,
    };
    if declared.contains(var.as_str()) || !all && var != "V0" {
        return;
    }
    if let Some(name) = rules::numbered_predefined(var) {
        *var = name.to_string();
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::{FieldValue, Operand, StmtKind};

    fn operand_vars(src: &str) -> Vec<String> {
        let m = crate::text::parse(src).expect("parses");
        m.stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Instr(i) => Some(i.fields.clone()),
                _ => None,
            })
            .flatten()
            .filter_map(|v| match v {
                FieldValue::Operand(Operand::General { var, .. } | Operand::Raw { var, .. }) => {
                    Some(var)
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn numbered_names_read_as_their_predefined_variable_unless_declared() {
        let vars = operand_vars(
            ".version 4.1\n.decl D v_type=G type=ud num_elts=8 align=GRF\nmov (M1, 1) D(0,0)<1> V7(0,2)<0;1,0>\nmov (M1, 1) V0(0,0)<1> D(0,0)<0;1,0>\n",
        );
        assert_eq!(vars, ["D", "%r0", "%null", "D"]);
        // Without `.version`, only the null operand `V0` is the compiler's.
        let vars = operand_vars(
            "mov (M1, 1) V1(0,0)<1> V7(0,2)<0;1,0>\nmov (M1, 1) V0(0,0)<1> V7(0,0)<0;1,0>\n",
        );
        assert_eq!(vars, ["V1", "V7", "%null", "V7"]);
        // Declared (as upstream snippets do), `V1` stays the variable; `V22` is no numbered name.
        let vars = operand_vars(
            ".decl V1 v_type=G type=ud num_elts=8\n.decl V22 v_type=G type=ud num_elts=8\nmov (M1, 1) V1(0,0)<1> V22(0,0)<0;1,0>\n",
        );
        assert_eq!(vars, ["V1", "V22"]);
    }
}

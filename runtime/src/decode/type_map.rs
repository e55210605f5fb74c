//! The `Type map`s of the instruction table, enforced at load: an instruction whose
//! destination and source types fit none of its maps is rejected with the reason (the same
//! rule as `visa check`, names resolved through the register-file layout).

use std::collections::HashMap;

use visa_isa::ast::{ElemType, FieldValue, Instruction, Operand};
use visa_isa::desc::InstrDesc;

use crate::error::LoadError;
use crate::layout::{Layout, Symbol};

pub(super) fn check(
    layout: &mut Layout,
    desc: &InstrDesc,
    instr: &Instruction,
) -> Result<(), LoadError> {
    if desc.type_maps.is_empty() {
        return Ok(());
    }
    let mut types: HashMap<&str, ElemType> = HashMap::new();
    for value in &instr.fields {
        if let FieldValue::Operand(Operand::General { var, .. } | Operand::Raw { var, .. }) = value
            && let Some(Symbol::Var(index)) = layout.lookup(var, instr.span)?
            && let Some(info) = layout.vars.get(index)
        {
            types.insert(var.as_str(), info.ty);
        }
    }
    match visa_isa::text::type_map_problem(desc, &instr.fields, &|name| types.get(name).copied()) {
        Some(problem) => Err(LoadError::new(
            instr.span,
            format!("{}: {problem}", desc.name.to_ascii_lowercase()),
        )),
        None => Ok(()),
    }
}

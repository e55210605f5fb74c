//! The operands pass: each field of an instruction against its table entry: the operand
//! classes its document lists, declared names and the kind of variable they name, raw operand
//! forms and alignment, region rules (5_operands.md: W in {1,2,4,8,16}, VS in
//! {0,1,2,4,8,16,32}, HS in {0,1,2,4}, W <= exec size, destination HS != 0), lists and their
//! counts, predicate width against the execution size, writes to read-only predefined
//! variables, numbers their field cannot hold, missing operands. Each operand's types are the
//! [`super::types`] pass's, asked here in the operand's turn.

use super::InstrCtx;
use super::types;
use crate::ast::{ElemType, FieldValue, Operand, Region};
use crate::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc, OperandClass, SyntaxDesc};
use crate::text::scope::VarKind;
use crate::text::table::template_selects;

use crate::rules::{self, HSTRIDES, VSTRIDES, WIDTHS, Writable};

/// Checks every field of the instruction.
pub(super) fn check(ctx: &mut InstrCtx) {
    let (desc, instr) = (ctx.desc, ctx.instr);
    for (index, (field, value)) in desc.fields.iter().zip(&instr.fields).enumerate() {
        ctx.field = Some(index);
        match value {
            FieldValue::Pred(Some(p)) => check_predicate_var(ctx, &p.name),
            FieldValue::Operand(op) => check_operand(ctx, field, op),
            FieldValue::List(items) => check_list(ctx, field, items, &instr.fields),
            // A number the field's bytes cannot hold has no encoding (`dpas.8.256`).
            FieldValue::Int(v) => {
                let size = field.kind.int_size().unwrap_or(8);
                if size < 8 && v >> (size * 8) != 0 {
                    ctx.error(format!(
                        "{v} does not fit <{}>, a {size}-byte field",
                        field.name.to_ascii_lowercase()
                    ));
                }
            }
            FieldValue::Absent if !field.optional && required(desc, &instr.fields, index) => {
                ctx.error(format!(
                    "operand <{}> is missing",
                    field.name.to_ascii_lowercase()
                ));
            }
            _ => {}
        }
    }
}

/// Whether field `index` is a required operand of every template that selects the codes the
/// instruction holds (NBARRIER's short `.signal` form leaves out operands the long one needs).
fn required(desc: &InstrDesc, fields: &[FieldValue], index: usize) -> bool {
    let requires = |s: &SyntaxDesc| {
        s.operands
            .iter()
            .any(|&(f, optional)| f == index && !optional)
    };
    let mut selecting = desc
        .syntax
        .iter()
        .filter(|s| template_selects(desc, s, fields))
        .peekable();
    if selecting.peek().is_none() {
        return desc.syntax.iter().any(requires);
    }
    selecting.all(requires)
}

/// A list field: its length is the value of its count field and lies in that field's documented
/// range; each element is checked as an operand of the field.
fn check_list(ctx: &mut InstrCtx, field: &FieldDesc, items: &[FieldValue], fields: &[FieldValue]) {
    let fname = field.name.to_ascii_lowercase();
    if let Some(count) = field.repeat.and_then(|c| ctx.desc.fields.get(c)) {
        let len = items.len() as u64;
        let cname = count.name.to_ascii_lowercase();
        match field.repeat.and_then(|c| fields.get(c)) {
            Some(FieldValue::Int(n)) if *n == len => {}
            Some(FieldValue::Int(n)) => ctx.error(format!(
                "<{cname}> is {n} but the list <{fname}> has {len} elements"
            )),
            _ => ctx.error(format!("<{cname}> must hold the length of <{fname}>")),
        }
        if let Some((lo, hi)) = count.range
            && !(lo..=hi).contains(&i64::try_from(len).unwrap_or(i64::MAX))
        {
            ctx.error(format!(
                "the list <{fname}> has {len} elements, it must have {lo} to {hi}"
            ));
        }
    }
    for (element, item) in items.iter().enumerate() {
        ctx.element = Some(element);
        match item {
            FieldValue::Operand(op) => check_operand(ctx, field, op),
            FieldValue::Int(_) => {}
            _ => ctx.error(format!("<{fname}> holds an element that is not a value")),
        }
    }
    ctx.element = None;
}

fn check_predicate_var(ctx: &mut InstrCtx, name: &str) {
    match ctx.scopes.lookup(name) {
        Some(VarKind::Predicate { num_elts }) => {
            if let Some(size) = ctx.exec_size().filter(|s| *s > num_elts) {
                ctx.warning(format!(
                    "predicate `{name}` has {num_elts} elements but the execution size is {size}"
                ));
            }
        }
        Some(VarKind::Placeholder) => {}
        Some(_) => ctx.error(format!("`{name}` is not a predicate variable")),
        None => ctx.undeclared(name, format!("predicate `{name}` is not declared")),
    }
}

/// The operand class an operand form belongs to (5_operands.md names).
fn class_of(op: &Operand, resolved: Option<VarKind>) -> OperandClass {
    match op {
        Operand::General { .. } | Operand::AddressOf { .. } => OperandClass::General,
        Operand::Indirect { .. } => OperandClass::Indirect,
        Operand::Immediate(_) => OperandClass::Immediate,
        Operand::Predicate { .. } => OperandClass::Predicate,
        // A surface or sampler with an element index (`T6(0)`, `%bss(0)`) is a state operand.
        Operand::Address { .. } => match resolved {
            Some(VarKind::Surface | VarKind::Sampler) => OperandClass::State,
            _ => OperandClass::Address,
        },
        Operand::Raw { .. } => OperandClass::Raw,
        Operand::Name(_) => match resolved {
            Some(VarKind::Predicate { .. }) => OperandClass::Predicate,
            Some(VarKind::Address { .. }) => OperandClass::Address,
            Some(VarKind::Surface | VarKind::Sampler) => OperandClass::State,
            Some(VarKind::Label) => OperandClass::Label,
            _ => OperandClass::Name,
        },
    }
}

fn class_allowed(field: &FieldDesc, class: OperandClass) -> bool {
    field.operand_classes.is_empty() || field.operand_classes.iter().any(|c| c.accepts(class))
}

fn check_operand(ctx: &mut InstrCtx, field: &FieldDesc, op: &Operand) {
    let fname = field.name.to_ascii_lowercase();
    if field.role == FieldRole::Reference
        && (field.has_class(OperandClass::String) || field.has_class(OperandClass::Symbol))
    {
        // A quoted string (a file name) or a symbol the linker resolves: nothing to look up.
        return;
    }
    let var = match op {
        Operand::General { var, .. }
        | Operand::AddressOf { var, .. }
        | Operand::Raw { var, .. }
        | Operand::Predicate { var }
        | Operand::Name(var)
        | Operand::Address { var, .. } => Some(var.as_str()),
        Operand::Indirect { addr, .. } => Some(addr.as_str()),
        Operand::Immediate(_) => None,
    };
    let resolved = var.and_then(|v| ctx.scopes.lookup(v));
    if resolved == Some(VarKind::Placeholder) {
        return;
    }
    if let Some(v) = var.filter(|_| resolved.is_none()) {
        ctx.undeclared(v, format!("`{v}` in <{fname}> is not declared"));
        return;
    }
    if field.role == FieldRole::Reference && !matches!(op, Operand::Name(_)) {
        ctx.error(format!("<{fname}> is written as a name (or a number)"));
        return;
    }
    let class = class_of(op, resolved);
    let operand_field = matches!(field.kind, FieldKind::Scalar | FieldKind::VecOperand);
    if operand_field && !class_allowed(field, class) {
        let class = class.word();
        let article = if class.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        let allowed: Vec<&str> = field.operand_classes.iter().map(|c| c.word()).collect();
        ctx.error(format!(
            "<{fname}> cannot be {article} {class} operand (allowed: {})",
            allowed.join(", ")
        ));
    }
    // The Intel compiler prints some raw operands as a bare variable name (`oword_st ... RES`).
    // A raw operand may also be written `V(row,col)` (no region), as the runtime reads it.
    let bare_general = matches!(op, Operand::Name(_) | Operand::General { region: None, .. })
        && matches!(resolved, Some(VarKind::General { .. }));
    if field.kind == FieldKind::RawOperand && !matches!(op, Operand::Raw { .. }) && !bare_general {
        ctx.error(format!("<{fname}> must be a raw operand `V.offset`"));
    }
    check_var_kind(ctx, op, resolved, &fname);
    check_raw_alignment(ctx, op, &fname);
    if fname == "dst" {
        check_predefined_write(ctx, op);
    }
    types::operand(ctx, field, op, resolved, &fname);
    match op {
        // A placeholder's region is the embedder's (a whole-operand `$N` gets one written for
        // it).
        Operand::General { var, .. } if rules::is_placeholder(var) => {}
        Operand::General {
            region: Some(r), ..
        }
        | Operand::Indirect {
            region: Some(r), ..
        } => {
            check_region(ctx, r, &fname, matches!(op, Operand::Indirect { .. }));
        }
        _ => {}
    }
}

/// A raw operand in a variable of one GRF or more starts on a GRF boundary of its alias chain's
/// last user variable (visa/IsaVerification.cpp:881-885 at 98fff71643f1); checked when a platform
/// gives the GRF size.
fn check_raw_alignment(ctx: &mut InstrCtx, op: &Operand, fname: &str) {
    let Operand::Raw { var, offset } = op else {
        return;
    };
    if ctx.scopes.platform.is_none() || rules::predefined(var).is_some() {
        return;
    }
    let grf = u64::from(ctx.scopes.grf);
    if let Some((root_bytes, base)) = ctx.scopes.alias_roots.get(var.as_str()) {
        let total = base + u64::from(*offset);
        if *root_bytes >= grf && total % grf != 0 {
            ctx.error(format!(
                "<{fname}> must start on a GRF boundary ({grf} bytes): it starts at byte {total} of its variable"
            ));
        }
    }
}

fn check_var_kind(ctx: &mut InstrCtx, op: &Operand, resolved: Option<VarKind>, fname: &str) {
    let ok = match (op, resolved) {
        (Operand::General { .. } | Operand::Raw { .. } | Operand::AddressOf { .. }, Some(k)) => {
            matches!(k, VarKind::General { .. })
        }
        (Operand::Indirect { .. } | Operand::Address { .. }, Some(k)) => {
            matches!(k, VarKind::Address { .. })
                || matches!(op, Operand::Address { .. })
                    && matches!(k, VarKind::Surface | VarKind::Sampler)
        }
        (Operand::Predicate { .. }, Some(k)) => matches!(k, VarKind::Predicate { .. }),
        _ => true,
    };
    if !ok {
        let what = match op {
            Operand::Indirect { .. } | Operand::Address { .. } => "an address variable",
            Operand::Predicate { .. } => "a predicate variable",
            _ => "a general variable",
        };
        ctx.error(format!("<{fname}> needs {what}"));
    }
}

/// The verifier rejects writes to read-only predefined variables (`%r0`, `%sr0.0`, ...); a few
/// are writable only from one byte on (`%tsc` element 4).
fn check_predefined_write(ctx: &mut InstrCtx, op: &Operand) {
    let Operand::General { var, row, col, .. } = op else {
        return;
    };
    let Some(p) = rules::predefined(var) else {
        return;
    };
    let offset = |ty: ElemType| {
        u64::from(*row) * u64::from(ctx.scopes.grf) + u64::from(*col) * u64::from(ty.size())
    };
    let ok = match p.writable {
        Writable::Yes => true,
        Writable::No => false,
        Writable::At(bytes) => {
            let ty = types::operand_type(op, None).unwrap_or(p.ty);
            bytes.iter().any(|b| u64::from(*b) == offset(ty))
        }
    };
    if !ok {
        ctx.error(format!(
            "<dst>: `{var}` is read-only here (the compiler rejects the write)"
        ));
    }
}

fn check_region(ctx: &mut InstrCtx, r: &Region, fname: &str, indirect: bool) {
    // Destinations are `dst` and the other operands an instruction writes (ADDC's carry):
    // every operand not named `src*` may take the destination form `<hs>`.
    let is_src = fname.starts_with("src");
    let is_dst = fname.starts_with("dst");
    match (r.vs, r.width) {
        (None, None) => {
            if is_src {
                ctx.error(format!(
                    "<{fname}> is a source: its region is `<vs;w,hs>`, not `<hs>`"
                ));
            } else if r.hs == 0 || !HSTRIDES.contains(&r.hs) {
                ctx.error(format!(
                    "<{fname}>: destination stride {} must be 1, 2 or 4",
                    r.hs
                ));
            }
            return;
        }
        (None, Some(_)) if !indirect => {
            ctx.error(format!(
                "<{fname}>: the `<w,hs>` region is only for multi-address indirect operands"
            ));
        }
        _ => {}
    }
    if is_dst {
        ctx.error(format!("<{fname}> is a destination: its region is `<hs>`"));
        return;
    }
    if let Some(vs) = r.vs.filter(|v| !VSTRIDES.contains(v)) {
        ctx.error(format!(
            "<{fname}>: vertical stride {vs} must be 0, 1, 2, 4, 8, 16 or 32"
        ));
    }
    if let Some(w) = r.width {
        if !WIDTHS.contains(&w) {
            ctx.error(format!("<{fname}>: width {w} must be 1, 2, 4, 8 or 16"));
        } else if let Some(size) = ctx.exec_size().filter(|s| u32::from(w) > *s) {
            ctx.error(format!(
                "<{fname}>: width {w} exceeds the execution size {size}"
            ));
        }
    }
    if !HSTRIDES.contains(&r.hs) {
        ctx.error(format!(
            "<{fname}>: horizontal stride {} must be 0, 1, 2 or 4",
            r.hs
        ));
    }
}

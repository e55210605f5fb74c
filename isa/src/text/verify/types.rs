//! The types pass: element types read from the table: a field's `Must have type`, the
//! `Supported Types`, the `Type map`s (the dst/src type combinations an instruction accepts),
//! the `Source Modifier` property, and the `Compiler checks` phrases about types
//! (`supported types`, `type maps`, `integer operands`, `no (arithmetic) source modifiers`,
//! `saturation only with a float destination`, `NoMask for dst types`). A document rule is a
//! warning naming the document unless its phrase says the verifier enforces it.

use super::InstrCtx;
use crate::ast::{ElemType, FieldValue, Operand, SrcMod};
use crate::desc::{Enforce, FieldDesc, FieldKind, InstrDesc, TypeDesc};
use crate::text::scope::VarKind;

/// The instruction's type rules: its type maps, then the destination phrases.
pub(super) fn check(ctx: &mut InstrCtx) {
    let desc = ctx.desc;
    let scopes = ctx.scopes;
    // The type rules are about the destination (its type against the sources').
    ctx.field = ctx.dst_field();
    if let Some(problem) = type_map_mismatch(desc, &ctx.instr.fields, |n| scopes.lookup(n)) {
        if desc.enforces(Enforce::TypeMaps) {
            ctx.error(problem);
        } else {
            ctx.document(problem);
        }
    }
    let Some(dst) = ctx.dst_type() else {
        return;
    };
    if desc.enforces(Enforce::OneFloatType) {
        one_float_type(ctx, dst);
    }
    let no_mask = ctx.exec.is_some_and(|e| e.no_mask);
    for enforce in desc.enforces {
        match enforce {
            Enforce::SaturationNeedsFloatDestination if ctx.instr.saturate && !dst.is_float() => {
                ctx.error(format!(
                    ".sat needs a floating-point destination, not {dst}"
                ));
            }
            Enforce::NoMaskForDstTypes(types) if named(types, dst) && !no_mask => {
                ctx.error(format!(
                    "a {dst} destination needs a NoMask mask control (M1_NM ... M8_NM)"
                ));
            }
            _ => {}
        }
    }
}

/// `one float type` (`verifyInstructionArith`, visa/IsaVerification.cpp:2271-2300 at
/// 98fff71643f1, the same in IGC 1.0.12504; ../shared/visa-verifier-rules.md §4.1 "Float
/// consistency"): with an F, HF or DF destination or source, a source has the destination's
/// type, or is an HF or VF source of an F destination or an F source of an HF one; otherwise a
/// source is an integer or a V/UV immediate. The verifier leaves instructions with a BF operand
/// to its BF rules.
fn one_float_type(ctx: &mut InstrCtx, dst: ElemType) {
    let scopes = ctx.scopes;
    let sources: Vec<(usize, &'static str, ElemType)> = ctx
        .desc
        .fields
        .iter()
        .zip(&ctx.instr.fields)
        .enumerate()
        .filter(|(_, (f, _))| is_src(f))
        .filter_map(|(index, (f, v))| {
            let FieldValue::Operand(op) = v else {
                return None;
            };
            let var = match op {
                Operand::General { var, .. } | Operand::Raw { var, .. } => scopes.lookup(var),
                _ => None,
            };
            let ty = operand_type(op, var)?;
            Some((index, f.name, ty))
        })
        .collect();
    if dst == ElemType::Bf || sources.iter().any(|s| s.2 == ElemType::Bf) {
        return;
    }
    let ieee = |t: ElemType| matches!(t, ElemType::F | ElemType::Hf | ElemType::Df);
    for (index, name, ty) in sources {
        let fits = if ieee(dst) || ieee(ty) {
            ty == dst
                || (dst == ElemType::F && matches!(ty, ElemType::Vf | ElemType::Hf))
                || (dst == ElemType::Hf && ty == ElemType::F)
        } else {
            // V and UV exist only as immediates.
            !ty.is_float() && ty != ElemType::Bool
        };
        if !fits {
            ctx.field = Some(index);
            let name = name.to_ascii_lowercase();
            ctx.error(format!(
                "<{name}> has type {ty} with a {dst} destination: the compiler requires one float \
                 type throughout (F may take HF or VF sources, HF may take F ones)"
            ));
        }
    }
    ctx.field = ctx.dst_field();
}

/// Whether `ty` is one of the type names.
pub(super) fn named(names: &[&str], ty: ElemType) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(ty.name()))
}

/// One operand's types, in its turn of the operands pass: its source modifier, its type
/// against the field's and the instruction's type lists, `integer operands`.
pub(super) fn operand(
    ctx: &mut InstrCtx,
    field: &FieldDesc,
    op: &Operand,
    resolved: Option<VarKind>,
    fname: &str,
) {
    let desc = ctx.desc;
    match modifier_problem(desc, field, op) {
        Some(ModifierProblem::Rule(problem)) => ctx.error(problem),
        Some(ModifierProblem::Document(problem))
            if desc.enforces(Enforce::NoSourceModifiers)
                || desc.enforces(Enforce::NoArithmeticSourceModifiers)
                    && matches!(
                        op,
                        Operand::General {
                            modifier: SrcMod::Neg | SrcMod::Abs | SrcMod::NegAbs,
                            ..
                        } | Operand::Indirect {
                            modifier: SrcMod::Neg | SrcMod::Abs | SrcMod::NegAbs,
                            ..
                        }
                    ) =>
        {
            ctx.error(problem)
        }
        Some(ModifierProblem::Document(problem)) => ctx.document(problem),
        None => {}
    }
    let Some(ty) = operand_type(op, resolved) else {
        return;
    };
    check_type(ctx, field, op, ty, fname);
    let integral = !ty.is_float();
    if desc.enforces(Enforce::IntegerOperands)
        && !integral
        && !matches!(op, Operand::Predicate { .. })
    {
        ctx.error(format!(
            "<{fname}> has type {ty}: the compiler requires integer operands"
        ));
    }
}

fn check_type(ctx: &mut InstrCtx, field: &FieldDesc, op: &Operand, ty: ElemType, fname: &str) {
    let names = |types: &[TypeDesc]| types.iter().map(|t| t.name).collect::<Vec<_>>().join(", ");
    if !field.allowed_types.is_empty() {
        if !listed(field.allowed_types, ty) {
            ctx.document(format!(
                "<{fname}> has type {ty}, must be one of {}",
                names(field.allowed_types)
            ));
        }
        return;
    }
    let packed = matches!(ty, ElemType::V | ElemType::Uv | ElemType::Vf);
    let supported = ctx.desc.supported_types;
    if field.kind == FieldKind::VecOperand
        && !supported.is_empty()
        && !packed
        && !matches!(op, Operand::Predicate { .. })
        && !listed(supported, ty)
    {
        let message = format!(
            "<{fname}> has type {ty}, supported types are {}",
            names(supported)
        );
        if ctx.desc.enforces(Enforce::SupportedTypes) {
            ctx.error(message);
        } else {
            ctx.document(message);
        }
    }
}

/// The element type of an operand, when known (explicit `:type`, or the declared type).
pub(crate) fn operand_type(op: &Operand, resolved: Option<VarKind>) -> Option<ElemType> {
    match op {
        Operand::General { ty: Some(t), .. } | Operand::Indirect { ty: t, .. } => Some(*t),
        Operand::Immediate(imm) => Some(imm.ty),
        Operand::General { ty: None, .. } | Operand::Raw { .. } => match resolved {
            Some(VarKind::General { ty, .. }) => Some(ty),
            _ => None,
        },
        _ => None,
    }
}

fn listed(types: &[TypeDesc], ty: ElemType) -> bool {
    types.iter().any(|t| t.name.eq_ignore_ascii_case(ty.name()))
}

fn is_dst(field: &FieldDesc) -> bool {
    field.name.eq_ignore_ascii_case("dst")
}

fn is_src(field: &FieldDesc) -> bool {
    field.name.to_ascii_lowercase().starts_with("src")
}

/// When the instruction has type maps, the known dst and src types must fit one of them.
/// Packed immediates (`:v`, `:uv`, `:vf`) stand for vectors of W/UW/F and are not compared.
pub(crate) fn type_map_mismatch(
    desc: &InstrDesc,
    fields: &[FieldValue],
    lookup: impl Fn(&str) -> Option<VarKind>,
) -> Option<String> {
    if desc.type_maps.is_empty() {
        return None;
    }
    let mut dst = None;
    let mut srcs = Vec::new();
    for (field, value) in desc.fields.iter().zip(fields) {
        let FieldValue::Operand(op) = value else {
            continue;
        };
        if matches!(op, Operand::Predicate { .. }) {
            continue;
        }
        let var = match op {
            Operand::General { var, .. } | Operand::Raw { var, .. } => Some(var.as_str()),
            _ => None,
        };
        let Some(ty) = operand_type(op, var.and_then(&lookup)) else {
            continue;
        };
        if matches!(ty, ElemType::V | ElemType::Uv | ElemType::Vf) {
            continue;
        }
        if is_dst(field) {
            dst = Some(ty);
        } else if is_src(field) {
            // The source's number (`Src1` is 1): a map may list types per source.
            let number = field.name[3..].parse::<usize>().unwrap_or(srcs.len());
            srcs.push((number, ty));
        }
    }
    if dst.is_none() && srcs.is_empty() {
        return None;
    }
    let entry = |map: &crate::desc::TypeMapDesc, key: &str| {
        map.entries
            .iter()
            .find(|(k, _)| k.to_ascii_lowercase().starts_with(key))
            .map(|(_, types)| *types)
    };
    let exact = |map: &crate::desc::TypeMapDesc, key: &str| {
        map.entries
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, types)| *types)
    };
    // A map lists either one set for every source (`Src types`) or one per source
    // (`Src0 types`, `Src1 types`, ...).
    let fits = desc.type_maps.iter().any(|map| {
        let dst_ok = match (dst, entry(map, "dst")) {
            (Some(t), Some(types)) => listed(types, t),
            _ => true,
        };
        let src_ok = srcs.iter().all(|(i, t)| {
            match exact(map, &format!("src{i}")).or_else(|| exact(map, "src")) {
                Some(types) => listed(types, *t),
                None => true,
            }
        });
        dst_ok && src_ok
    });
    if fits {
        return None;
    }
    let show = |t: Option<ElemType>| t.map_or("?".to_string(), |t| t.name().to_string());
    let srcs: Vec<String> = srcs.iter().map(|(_, t)| t.name().to_string()).collect();
    Some(format!(
        "no type map allows dst type {} with source types {}",
        show(dst),
        srcs.join(", ")
    ))
}

/// The checker's type-map check (`type_map_mismatch`) for tools that resolve names themselves
/// (the runtime loader): `var_type` gives the declared element type of a variable name, `None`
/// when unknown.
pub fn type_map_problem(
    desc: &InstrDesc,
    fields: &[FieldValue],
    var_type: &dyn Fn(&str) -> Option<ElemType>,
) -> Option<String> {
    type_map_mismatch(desc, fields, |name| {
        var_type(name).map(|ty| VarKind::General { ty, num_elts: 1 })
    })
}

/// A modifier problem: `Rule` for a modifier on a destination, `Document` for one the
/// instruction's `Source Modifier` property does not list (the verifier forbids source
/// modifiers only on a few instructions).
pub(crate) enum ModifierProblem {
    Rule(String),
    Document(String),
}

/// A source modifier the instruction's `Source Modifier` property does not allow.
pub(crate) fn modifier_problem(
    desc: &InstrDesc,
    field: &FieldDesc,
    op: &Operand,
) -> Option<ModifierProblem> {
    let modifier = match op {
        Operand::General { modifier, .. } | Operand::Indirect { modifier, .. } => *modifier,
        _ => SrcMod::None,
    };
    if modifier == SrcMod::None {
        return None;
    }
    let fname = field.name.to_ascii_lowercase();
    if is_dst(field) {
        return Some(ModifierProblem::Rule(format!(
            "<{fname}>: a destination takes no source modifier"
        )));
    }
    let allowed = desc
        .property("Source Modifier")?
        .trim()
        .to_ascii_lowercase();
    let ok = match modifier {
        SrcMod::Not => allowed == "logic",
        _ => allowed == "arithmetic",
    };
    let written = match modifier {
        SrcMod::Abs => "(abs)",
        SrcMod::Neg => "(-)",
        SrcMod::NegAbs => "(-abs)",
        SrcMod::Not => "(~)",
        SrcMod::None => "",
    };
    if ok {
        return None;
    }
    let message =
        format!("<{fname}>: modifier {written} not allowed (source modifiers: {allowed})");
    // The verifier rejects `(~)` outside logic operations and `(-)`/`(abs)` on logic
    // operations (the shifts, whose property is `arithmetic`, take them); where a document says
    // `false`, only the document forbids them.
    Some(match allowed.as_str() {
        "logic" | "arithmetic" => ModifierProblem::Rule(message),
        _ => ModifierProblem::Document(message),
    })
}

//! Instruction checks: operand classes, declared names, element types and region rules
//! (5_operands.md: W in {1,2,4,8,16}, VS in {0,1,2,4,8,16,32}, HS in {0,1,2,4}, W <= exec size,
//! destination HS != 0), and predicate width against the execution size.

use super::check_types;
use super::scope::{Diagnostic, Scopes, Subject, VarKind};
use super::table::{has_class, is_exec_field, template_selects};
use crate::ast::{ElemType, FieldValue, Instruction, Operand, Region, Span, SrcMod};
use crate::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc, SyntaxDesc, TypeDesc};

use crate::rules::{self, HSTRIDES, VSTRIDES, WIDTHS, Writable};

struct Ctx<'a> {
    desc: &'static InstrDesc,
    span: Span,
    instr: &'a Instruction,
    /// The field being checked, and the element of a list field: what the diagnostics are
    /// about.
    field: Option<usize>,
    element: Option<usize>,
    scopes: &'a Scopes,
    exec_size: Option<u32>,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(&mut self, d: Diagnostic) {
        let Some(index) = self.field else {
            self.out.push(d);
            return;
        };
        let at = match self.element {
            Some(element) => self.instr.element_span(index, element),
            None => self.instr.field_span(index),
        };
        let subject = Subject::Field {
            index,
            name: self.desc.fields.get(index).map_or("", |f| f.name),
            element: self.element,
        };
        let d = d.about(subject, at);
        self.out.push(d);
    }

    fn error(&mut self, msg: String) {
        let name = self.desc.name.to_ascii_lowercase();
        self.push(Diagnostic::error(self.span, format!("{name}: {msg}")));
    }

    /// An undeclared name, with the nearest visible one suggested.
    fn undeclared(&mut self, var: &str, msg: String) {
        let name = self.desc.name.to_ascii_lowercase();
        let suggestion = self.scopes.nearest(var);
        let d = Diagnostic::error(self.span, format!("{name}: {msg}")).suggesting(suggestion);
        self.push(d);
    }

    fn warning(&mut self, msg: String) {
        self.push(Diagnostic::warning(self.span, msg));
    }

    /// A rule only the instruction's document states: a warning naming the document.
    fn document(&mut self, msg: String) {
        let name = self.desc.name.to_ascii_lowercase();
        self.push(Diagnostic::document(
            self.span,
            self.desc,
            format!("{name}: {msg}"),
        ));
    }

    /// The index of the destination field, if the entry has one.
    fn dst_field(&self) -> Option<usize> {
        self.desc
            .fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case("dst"))
    }
}

pub(crate) fn check_instruction(
    table: &'static [InstrDesc],
    i: &Instruction,
    span: Span,
    scopes: &Scopes,
    out: &mut Vec<Diagnostic>,
) {
    let Some(desc) = table.get(i.desc) else {
        out.push(Diagnostic::error(
            span,
            format!("instruction #{} is not in the table", i.desc),
        ));
        return;
    };
    if i.fields.len() != desc.fields.len() {
        out.push(Diagnostic::error(
            span,
            format!(
                "{}: {} field values for {} fields",
                desc.name,
                i.fields.len(),
                desc.fields.len()
            ),
        ));
        return;
    }
    let exec = desc
        .fields
        .iter()
        .zip(&i.fields)
        .find_map(|(f, v)| match v {
            FieldValue::Exec(e) if is_exec_field(f) => Some(*e),
            _ => None,
        });
    let exec_size = exec.map(|e| e.size);
    let mut ctx = Ctx {
        desc,
        span,
        instr: i,
        field: None,
        element: None,
        scopes,
        exec_size,
        out,
    };
    for (index, (field, value)) in desc.fields.iter().zip(&i.fields).enumerate() {
        ctx.field = Some(index);
        match value {
            FieldValue::Pred(Some(p)) => check_predicate_var(&mut ctx, &p.name),
            FieldValue::Operand(op) => check_operand(&mut ctx, field, op),
            FieldValue::List(items) => check_list(&mut ctx, field, items, &i.fields),
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
            FieldValue::Absent if !field.optional && required(desc, &i.fields, index) => {
                ctx.error(format!(
                    "operand <{}> is missing",
                    field.name.to_ascii_lowercase()
                ));
            }
            _ => {}
        }
    }
    // The type rules are about the destination (its type against the sources').
    ctx.field = ctx.dst_field();
    if let Some(problem) = check_types::type_map_mismatch(desc, &i.fields, |n| scopes.lookup(n)) {
        if enforces(desc, "type maps") {
            ctx.error(problem);
        } else {
            ctx.document(problem);
        }
    }
    let no_mask = exec.is_some_and(|e| e.no_mask);
    check_destination_rules(&mut ctx, &i.fields, i.saturate, no_mask);
    let platform = ctx.scopes.platform;
    for (field, message) in super::check_codes::violations(desc, i, &|n| scopes.lookup(n), platform)
    {
        ctx.field = field;
        ctx.error(message);
    }
}

/// Whether the instruction's `Compiler checks` property lists `item` (see spec/README.md):
/// a document rule the compiler's verifier enforces.
fn enforces(desc: &InstrDesc, item: &str) -> bool {
    compiler_checks(desc).any(|c| c.eq_ignore_ascii_case(item))
}

fn compiler_checks(desc: &InstrDesc) -> impl Iterator<Item = &'static str> {
    desc.property("Compiler checks")
        .unwrap_or("")
        .split(';')
        .map(str::trim)
        .filter(|c| !c.is_empty())
}

/// The `Compiler checks` items about the destination (spec/README.md): `saturation only with
/// a float destination`, `NoMask for dst types T, U`, and `dst types T, U not on P, Q` (only
/// when a platform is named).
fn check_destination_rules(ctx: &mut Ctx, fields: &[FieldValue], saturate: bool, no_mask: bool) {
    let Some(dst) = dst_type(ctx, fields) else {
        return;
    };
    let listed = |types: &str| {
        types
            .split(',')
            .any(|n| n.trim().eq_ignore_ascii_case(dst.name()))
    };
    let desc = ctx.desc;
    for item in compiler_checks(desc) {
        let item = item.to_ascii_lowercase();
        if item == "saturation only with a float destination" {
            if saturate && !dst.is_float() {
                ctx.error(format!(
                    ".sat needs a floating-point destination, not {dst}"
                ));
            }
        } else if let Some(types) = item.strip_prefix("nomask for dst types ") {
            if listed(types) && !no_mask {
                ctx.error(format!(
                    "a {dst} destination needs a NoMask mask control (M1_NM ... M8_NM)"
                ));
            }
        } else if let Some((types, platforms)) = item
            .strip_prefix("dst types ")
            .and_then(|rest| rest.split_once(" not on "))
            && let Some(platform) = ctx.scopes.platform
            && platforms
                .split(',')
                .any(|p| rules::Platform::parse(p.trim()) == Some(platform))
            && listed(types)
        {
            ctx.error(format!(
                "a {dst} destination is not allowed on {}",
                platform.name()
            ));
        }
    }
}

/// The destination's element type, when known.
fn dst_type(ctx: &Ctx, fields: &[FieldValue]) -> Option<ElemType> {
    ctx.desc
        .fields
        .iter()
        .zip(fields)
        .find_map(|(field, value)| match value {
            FieldValue::Operand(op) if field.name.eq_ignore_ascii_case("dst") => {
                let var = match op {
                    Operand::General { var, .. } => Some(var.as_str()),
                    _ => None,
                };
                check_types::operand_type(op, var.and_then(|v| ctx.scopes.lookup(v)))
            }
            _ => None,
        })
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
fn check_list(ctx: &mut Ctx, field: &FieldDesc, items: &[FieldValue], fields: &[FieldValue]) {
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

fn check_predicate_var(ctx: &mut Ctx, name: &str) {
    match ctx.scopes.lookup(name) {
        Some(VarKind::Predicate { num_elts }) => {
            if let Some(size) = ctx.exec_size.filter(|s| *s > num_elts) {
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
fn class_of(op: &Operand, resolved: Option<VarKind>) -> &'static str {
    match op {
        Operand::General { .. } | Operand::AddressOf { .. } => "general",
        Operand::Indirect { .. } => "indirect",
        Operand::Immediate(_) => "immediate",
        Operand::Predicate { .. } => "predicate",
        // A surface or sampler with an element index (`T6(0)`, `%bss(0)`) is a state operand.
        Operand::Address { .. } => match resolved {
            Some(VarKind::Surface | VarKind::Sampler) => "state",
            _ => "address",
        },
        Operand::Raw { .. } => "raw",
        Operand::Name(_) => match resolved {
            Some(VarKind::Predicate { .. }) => "predicate",
            Some(VarKind::Address { .. }) => "address",
            Some(VarKind::Surface | VarKind::Sampler) => "state",
            Some(VarKind::Label) => "label",
            _ => "name",
        },
    }
}

fn class_allowed(field: &FieldDesc, class: &str) -> bool {
    field.operand_classes.is_empty()
        || field.operand_classes.iter().any(|c| {
            let c = c.trim().to_ascii_lowercase();
            c == class || (class == "immediate" && c.starts_with("immediate"))
        })
}

fn check_operand(ctx: &mut Ctx, field: &FieldDesc, op: &Operand) {
    let fname = field.name.to_ascii_lowercase();
    if field.role == FieldRole::Reference
        && (has_class(field, "string") || has_class(field, "symbol"))
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
        let article = if class.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        ctx.error(format!(
            "<{fname}> cannot be {article} {class} operand (allowed: {})",
            field.operand_classes.join(", ")
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
    match check_types::modifier_problem(ctx.desc, field, op) {
        Some(check_types::ModifierProblem::Rule(problem)) => ctx.error(problem),
        Some(check_types::ModifierProblem::Document(problem))
            if enforces(ctx.desc, "no source modifiers")
                || enforces(ctx.desc, "no arithmetic source modifiers")
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
        Some(check_types::ModifierProblem::Document(problem)) => ctx.document(problem),
        None => {}
    }
    let ty = check_types::operand_type(op, resolved);
    if let Some(ty) = ty {
        check_type(ctx, field, op, ty, &fname);
        let integral = !ty.is_float();
        if enforces(ctx.desc, "integer operands")
            && !integral
            && !matches!(op, Operand::Predicate { .. })
        {
            ctx.error(format!(
                "<{fname}> has type {ty}: the compiler requires integer operands"
            ));
        }
    }
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
fn check_raw_alignment(ctx: &mut Ctx, op: &Operand, fname: &str) {
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

fn check_var_kind(ctx: &mut Ctx, op: &Operand, resolved: Option<VarKind>, fname: &str) {
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
fn check_predefined_write(ctx: &mut Ctx, op: &Operand) {
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
            let ty = check_types::operand_type(op, None).unwrap_or(p.ty);
            bytes.iter().any(|b| u64::from(*b) == offset(ty))
        }
    };
    if !ok {
        ctx.error(format!(
            "<dst>: `{var}` is read-only here (the compiler rejects the write)"
        ));
    }
}

fn type_listed(types: &[TypeDesc], ty: ElemType) -> bool {
    types.iter().any(|t| t.name.eq_ignore_ascii_case(ty.name()))
}

fn check_type(ctx: &mut Ctx, field: &FieldDesc, op: &Operand, ty: ElemType, fname: &str) {
    let names = |types: &[TypeDesc]| types.iter().map(|t| t.name).collect::<Vec<_>>().join(", ");
    if !field.allowed_types.is_empty() {
        if !type_listed(field.allowed_types, ty) {
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
        && !type_listed(supported, ty)
    {
        let message = format!(
            "<{fname}> has type {ty}, supported types are {}",
            names(supported)
        );
        if enforces(ctx.desc, "supported types") {
            ctx.error(message);
        } else {
            ctx.document(message);
        }
    }
}

fn check_region(ctx: &mut Ctx, r: &Region, fname: &str, indirect: bool) {
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
        } else if let Some(size) = ctx.exec_size.filter(|s| u32::from(w) > *s) {
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

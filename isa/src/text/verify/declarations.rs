//! The declarations pass: labels (each defined once), `{ }` scopes (matched, each a name
//! space), declarations (ranges, types, alias offsets, duplicates per scope) and inputs. It
//! keeps the names visible at each statement ([`Scopes`]) for the instruction passes.

use crate::ast::{Decl, DeclKind, Module, Span, Stmt, StmtKind};
use crate::desc::InstrDesc;
use crate::rules;
use crate::text::scope::{CheckOptions, DeclPart, Diagnostic, Scopes, Subject, VarKind};
use std::collections::{HashMap, HashSet};

fn decl_kind(d: &Decl) -> VarKind {
    match d.kind {
        DeclKind::General { ty, num_elts, .. } => VarKind::General { ty, num_elts },
        DeclKind::Address { num_elts } => VarKind::Address { num_elts },
        DeclKind::Predicate { num_elts } => VarKind::Predicate { num_elts },
        DeclKind::Sampler { .. } => VarKind::Sampler,
        DeclKind::Surface { .. } => VarKind::Surface,
    }
}

/// The walk over a module's statements: the names visible so far and the scopes still open.
pub(super) struct Walk<'o> {
    pub(super) scopes: Scopes,
    options: &'o CheckOptions,
    open_scopes: Vec<Span>,
    /// The payload bytes of the `.input`s so far: name, start, end.
    inputs: Vec<(String, u32, u32)>,
}

impl<'o> Walk<'o> {
    /// Collects the labels (every label is visible everywhere; one defined twice is an error)
    /// and starts with the kernel's parameters in scope.
    pub(super) fn new(
        table: &[InstrDesc],
        m: &Module,
        options: &'o CheckOptions,
        out: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut labels = HashSet::new();
        let mut defined = HashSet::new();
        for stmt in &m.stmts {
            let name = match &stmt.kind {
                StmtKind::Label { name } => name,
                StmtKind::Function { name, .. } => name,
                StmtKind::Instr(i) => match label_defined_by(table, i) {
                    Some(name) => name,
                    None => continue,
                },
                _ => continue,
            };
            // A function's name may also label its first instruction (`.function "f"` then `f:`).
            let function = matches!(stmt.kind, StmtKind::Function { .. });
            labels.insert(name.clone());
            if !function && !defined.insert(name.clone()) {
                out.push(Diagnostic::error(
                    stmt.span,
                    format!("label `{name}` is defined more than once"),
                ));
            }
        }
        let params = options
            .params
            .iter()
            .map(|(name, ty, num_elts)| {
                let kind = VarKind::General {
                    ty: *ty,
                    num_elts: *num_elts,
                };
                (name.clone(), (kind, Span::default()))
            })
            .collect();
        let scopes = Scopes {
            stack: vec![params, HashMap::new()],
            labels,
            grf: options.grf(),
            platform: options.platform,
            version_major: m.stmts.iter().find_map(|s| match s.kind {
                StmtKind::Version { major, .. } => Some(major),
                _ => None,
            }),
            alias_roots: HashMap::new(),
            root_aligns: HashMap::new(),
            user_surfaces: 0,
        };
        Self {
            scopes,
            options,
            open_scopes: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// A statement other than an instruction.
    pub(super) fn statement(&mut self, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
        let scopes = &mut self.scopes;
        match &stmt.kind {
            StmtKind::ScopeOpen => {
                scopes.stack.push(HashMap::new());
                self.open_scopes.push(stmt.span);
            }
            StmtKind::ScopeClose => {
                if self.open_scopes.pop().is_some() {
                    scopes.stack.pop();
                } else {
                    out.push(Diagnostic::error(stmt.span, "`}` without a matching `{`"));
                }
            }
            // Each function object has its own name space (3_execution_model).
            StmtKind::Function { global: true, .. } => scopes.stack = vec![HashMap::new()],
            StmtKind::Decl(d) => check_decl(d, stmt.span, self.options, scopes, out),
            StmtKind::Input { name, .. } if scopes.lookup(name).is_none() => {
                out.push(Diagnostic::error(
                    stmt.span,
                    format!("input `{name}` is not declared"),
                ));
            }
            StmtKind::Directive { name, .. } if !rules::is_known_directive(name) => {
                out.push(Diagnostic::error(
                    stmt.span,
                    format!("`.{name}` is not a directive of vISA assembly"),
                ));
            }
            StmtKind::KernelAttr { name, value } if name == "Target" => {
                let quoted = value
                    .as_deref()
                    .and_then(|v| v.strip_prefix('"'))
                    .and_then(|v| v.strip_suffix('"'));
                let number = value.as_deref().is_some_and(|v| {
                    v.starts_with(|c: char| c.is_ascii_digit() || "(-~!".contains(c))
                });
                let known = |t: &str| rules::TARGET_VALUES.iter().any(|(name, _)| *name == t);
                if !number && !quoted.is_some_and(known) {
                    out.push(Diagnostic::error(
                        stmt.span,
                        format!(
                            "`.kernel_attr Target` must be {}",
                            rules::TARGET_VALUES
                                .iter()
                                .map(|(t, _)| format!("\"{t}\""))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                    ));
                }
            }
            StmtKind::Input { name, offset, size } => {
                let (problems, (start, end)) =
                    input_problems(name, *offset, *size, scopes, &self.inputs);
                out.extend(
                    problems
                        .into_iter()
                        .map(|p| Diagnostic::error(stmt.span, p)),
                );
                self.inputs.push((name.clone(), start, end));
            }
            _ => {}
        }
    }

    /// The scopes never closed.
    pub(super) fn finish(self, out: &mut Vec<Diagnostic>) {
        for span in self.open_scopes {
            out.push(Diagnostic::error(span, "`{` is never closed"));
        }
    }
}

/// What the verifier's kernel-header pass rejects in an `.input` of a declared name
/// (`verifyKernelHeader`, visa/IsaVerification.cpp:5146-5249 at 98fff71643f1, the same in IGC
/// 1.0.12504; ../shared/visa-verifier-rules.md §2 "Inputs"): a predefined variable as input,
/// a general variable whose byte size is not the input's size, an input overlapping an earlier
/// one, and (with a platform named, the GRF size known) an input ending past the last GRF but
/// one or, smaller than a GRF, straddling two GRFs. The compiler keeps the offset in 16 signed
/// bits and the size in 16 unsigned bits (`CISA_input_directive`'s `short` and `unsigned short`),
/// and computes the payload range in 32 unsigned bits; so does this check.
fn input_problems(
    name: &str,
    offset: u32,
    size: u32,
    scopes: &Scopes,
    earlier: &[(String, u32, u32)],
) -> (Vec<String>, (u32, u32)) {
    let mut out = Vec::new();
    let signed_offset = i64::from(offset as u16 as i16);
    let size = size as u16;
    let start = signed_offset as u32;
    let end = start.wrapping_add(u32::from(size));
    if rules::predefined(name).is_some() {
        out.push(format!(
            "input `{name}` is a predefined variable: an input names a declared variable"
        ));
        return (out, (start, end));
    }
    let grf = i64::from(scopes.grf);
    if let Some(VarKind::General { ty, num_elts }) = scopes.lookup(name) {
        let bytes = u64::from(num_elts) * u64::from(ty.size());
        if bytes != u64::from(size) {
            out.push(format!(
                "input `{name}`: size={size} is not the size of its variable ({bytes} bytes)"
            ));
        }
        // Rust's `/` truncates toward zero, as C++'s does.
        let last = signed_offset + i64::from(size) - 1;
        if scopes.platform.is_some() && i64::from(size) < grf && signed_offset / grf != last / grf {
            out.push(format!(
                "input `{name}` ({size} bytes at offset {offset}) straddles a GRF boundary \
                 ({grf}-byte GRFs)"
            ));
        }
    }
    let limit = scopes.grf * rules::INPUT_GRF_LIMIT;
    if scopes.platform.is_some() && end >= limit {
        out.push(format!(
            "input `{name}` ends at byte {end}, past the input area (below {limit} bytes)"
        ));
    }
    // The first earlier input it overlaps, if any: one message per input, so that hostile
    // input of many identical `.input` lines gives as many messages, not their square.
    let overlapped = earlier.iter().find(|(_, other_start, other_end)| {
        let (a, b) = ((start, end), (*other_start, *other_end));
        (a.0 >= b.0 && a.0 < b.1) || (b.0 >= a.0 && b.0 < a.1)
    });
    if let Some((other, other_start, other_end)) = overlapped {
        out.push(format!(
            "input `{name}` (bytes {start}..{end}) overlaps input `{other}` \
             (bytes {other_start}..{other_end})"
        ));
    }
    (out, (start, end))
}

/// The label an instruction defines: the name operand of an instruction whose document has the
/// `Defines Label` property (LABEL, SUBROUTINE).
pub fn label_defined_by<'m>(
    table: &[InstrDesc],
    instr: &'m crate::ast::Instruction,
) -> Option<&'m String> {
    let desc = table.get(instr.desc)?;
    if !desc
        .property("Defines Label")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("yes"))
    {
        return None;
    }
    instr.fields.iter().find_map(|f| match f {
        crate::ast::FieldValue::Operand(crate::ast::Operand::Name(name)) => Some(name),
        _ => None,
    })
}

fn check_decl(
    d: &Decl,
    span: Span,
    options: &CheckOptions,
    scopes: &mut Scopes,
    out: &mut Vec<Diagnostic>,
) {
    let at = |part: DeclPart| {
        let spans = &d.spans;
        let position = match part {
            DeclPart::Name => spans.name,
            DeclPart::Type => spans.ty,
            DeclPart::NumElts => spans.num_elts,
            DeclPart::Alias => spans.alias,
        };
        move |diagnostic: Diagnostic| diagnostic.about(Subject::Decl(part), Some(position))
    };
    let mut warnings = Vec::new();
    // The compiler rejects a declaration of a numbered predefined name (a redeclaration); with
    // no platform named it is accepted and shadows the numbered name, as upstream documents'
    // snippets and hand-written kernels use `V1`, `V2` as names of their own.
    let numbered = rules::numbered_predefined(&d.name).filter(|_| options.platform.is_some());
    if let Some(predefined) = numbered {
        out.push(at(DeclPart::Name)(Diagnostic::error(
            span,
            format!(
                "`{}` is the compiler's numbered name of the predefined `{predefined}`: the \
                 Intel compiler rejects this declaration as a redeclaration",
                d.name
            ),
        )));
    }
    let mut err = |part: DeclPart, msg: String| out.push(at(part)(Diagnostic::error(span, msg)));
    let name = &d.name;
    if name.starts_with('%') && !rules::is_placeholder(name) {
        err(
            DeclPart::Name,
            format!("predefined variable `{name}` cannot be declared"),
        );
    }
    if matches!(d.kind, DeclKind::Surface { .. }) {
        scopes.user_surfaces += 1;
    }
    match &d.kind {
        DeclKind::General {
            ty,
            num_elts,
            alias,
            align,
        } => {
            let bytes = u64::from(*num_elts) * u64::from(ty.size());
            let root = match alias {
                Some((base, off)) => match scopes.alias_roots.get(base.as_str()) {
                    Some((root_bytes, base_off)) => (*root_bytes, base_off + u64::from(*off)),
                    None => (bytes, u64::from(*off)),
                },
                None => (bytes, 0),
            };
            scopes.alias_roots.insert(name.to_string(), root);
            let type_align = rules::type_align_rank(*ty, *num_elts, scopes.grf);
            let root_align = match alias {
                Some((base, _)) => scopes.root_aligns.get(base.as_str()).copied().flatten(),
                None => {
                    let declared = align.as_ref().and_then(|a| rules::align_rank(&a.written));
                    Some(declared.unwrap_or(0).max(type_align))
                }
            };
            scopes.root_aligns.insert(name.to_string(), root_align);
            // An alias needs its root at least as aligned as its own type asks; the GRF size
            // decides that, so only with a platform named (`verifyVariableDecl`,
            // visa/IsaVerification.cpp:420-429 at 98fff71643f1, the same in IGC 1.0.12504).
            if let (Some((base, _)), Some(root_align)) = (alias, root_align)
                && options.platform.is_some()
                && root_align < type_align
            {
                let names = |rank: usize| rules::ALIGNMENTS[rank].names[0];
                err(
                    DeclPart::Alias,
                    format!(
                        "`{name}`: the root of `{base}` is {}-aligned, less than type {ty} x \
                         {num_elts} asks ({})",
                        names(root_align),
                        names(type_align)
                    ),
                );
            }
            let max = rules::max_general_elements(scopes.grf);
            if !(1..=max).contains(num_elts) {
                err(
                    DeclPart::NumElts,
                    format!(
                        "`{name}`: num_elts={num_elts} is out of range (1..={max}: 256 GRFs of elements)"
                    ),
                );
            }
            if rules::NON_VARIABLE_TYPES.contains(ty) {
                err(
                    DeclPart::Type,
                    format!("`{name}`: type {ty} is not a variable type"),
                );
            }
            if let Some((base, off)) = alias {
                if off % ty.size() != 0 {
                    err(
                        DeclPart::Alias,
                        format!(
                            "`{name}`: alias offset {off} is not aligned to type {ty} ({} bytes)",
                            ty.size()
                        ),
                    );
                }
                match scopes.lookup(base) {
                    None => err(
                        DeclPart::Alias,
                        format!("`{name}`: aliased variable `{base}` is not declared"),
                    ),
                    Some(VarKind::General {
                        ty: base_ty,
                        num_elts: base_elts,
                    }) => {
                        let base_bytes = u64::from(base_elts) * u64::from(base_ty.size());
                        // The verifier checks where an alias starts, not where it ends.
                        if u64::from(*off) >= base_bytes {
                            err(
                                DeclPart::Alias,
                                format!(
                                    "`{name}`: alias offset {off} is outside `{base}` ({base_bytes} bytes)"
                                ),
                            );
                        } else if u64::from(*off) + bytes > base_bytes {
                            warnings.push(format!(
                                "`{name}`: alias range {off}..{} extends past `{base}` ({base_bytes} bytes)",
                                u64::from(*off) + bytes
                            ));
                        }
                    }
                    Some(VarKind::Placeholder) => {}
                    Some(_) => err(
                        DeclPart::Alias,
                        format!("`{name}`: aliased `{base}` is not a general variable"),
                    ),
                }
            }
        }
        DeclKind::Address { num_elts } if !(1..=rules::MAX_ADDRESS_ELEMENTS).contains(num_elts) => {
            err(
                DeclPart::NumElts,
                format!(
                    "`{name}`: num_elts={num_elts} is out of range for an address variable (1..={})",
                    rules::MAX_ADDRESS_ELEMENTS
                ),
            );
        }
        DeclKind::Predicate { num_elts } if !rules::PREDICATE_SIZES.contains(num_elts) => {
            err(
                DeclPart::NumElts,
                format!(
                    "`{name}`: num_elts={num_elts} for a predicate must be 1, 2, 4, 8, 16 or 32"
                ),
            );
        }
        // The verifier keeps the count in 16 bits and compares it with the limit only: 0 passes.
        // Its loop over surfaces starts at the number of predefined surfaces, an index into the
        // user surfaces, so the first six declared are never checked (`verifyKernelHeader`,
        // visa/IsaVerification.cpp:5132-5144 at 98fff71643f1, the same in IGC 1.0.12504).
        DeclKind::Sampler { num_elts, .. } | DeclKind::Surface { num_elts, .. }
            if (*num_elts as u16) as u32 > rules::MAX_STATE_ELEMENTS
                && (matches!(d.kind, DeclKind::Sampler { .. })
                    || scopes.user_surfaces > rules::UNCHECKED_USER_SURFACES) =>
        {
            err(
                DeclPart::NumElts,
                format!(
                    "`{name}`: num_elts={num_elts} is out of range for a surface or sampler (0..={})",
                    rules::MAX_STATE_ELEMENTS
                ),
            );
        }
        _ => {}
    }
    out.extend(
        warnings
            .into_iter()
            .map(|w| at(DeclPart::Alias)(Diagnostic::warning(span, w))),
    );
    if let Some(top) = scopes.stack.last_mut() {
        if let Some((_, first)) = top.get(name) {
            out.push(
                at(DeclPart::Name)(Diagnostic::error(
                    span,
                    format!("`{name}` is already declared in this scope"),
                ))
                .related_to(*first),
            );
        } else {
            let name_at = Some(d.spans.name).filter(|s| s.line != 0).unwrap_or(span);
            top.insert(name.clone(), (decl_kind(d), name_at));
        }
    }
}

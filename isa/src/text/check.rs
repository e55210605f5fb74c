//! The checker: declarations and scopes, labels, and each instruction's operands against its
//! table entry. Works on any [`Module`] with spans (parsed text, or one the macro built).

use super::check_operand::check_instruction;
use crate::ast::{Decl, DeclKind, ElemType, Module, Span, StmtKind};
use crate::desc::InstrDesc;
use std::collections::{HashMap, HashSet};

/// How serious a diagnostic is: errors make `visa check` fail, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The text is invalid.
    Error,
    /// Suspicious but accepted (e.g. a predicate narrower than the execution size, which real
    /// kernels do).
    Warning,
}

/// A problem found by the checker. Displayed as `line:col: error: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where: the statement the problem is in.
    pub span: Span,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong (names the operand, e.g. `<src1>`, for operand problems).
    pub message: String,
}

impl Diagnostic {
    pub(crate) fn error(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    pub(crate) fn warning(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            severity: Severity::Warning,
            message: message.into(),
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {sev}: {}", self.span, self.message)
    }
}

/// What a name refers to, as far as operand checks need to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VarKind {
    General {
        ty: ElemType,
        num_elts: u32,
    },
    Address {
        num_elts: u32,
    },
    Predicate {
        num_elts: u32,
    },
    Sampler,
    Surface,
    Label,
    /// An inline-asm placeholder (`%0`, `%[x]`, `$0`): bound later, not checked.
    Placeholder,
}

/// Predefined variables and surfaces (runtime-semantics §2), matched case-insensitively.
const PREDEFINED: &[(&str, VarKind)] = &[
    ("%null", general(ElemType::Ud, 1)),
    ("%thread_x", general(ElemType::Uw, 1)),
    ("%thread_y", general(ElemType::Uw, 1)),
    ("%group_id_x", general(ElemType::Ud, 1)),
    ("%group_id_y", general(ElemType::Ud, 1)),
    ("%group_id_z", general(ElemType::Ud, 1)),
    ("%local_id_x", general(ElemType::Ud, 1)),
    ("%local_id_y", general(ElemType::Ud, 1)),
    ("%local_id_z", general(ElemType::Ud, 1)),
    ("%local_size_x", general(ElemType::Ud, 1)),
    ("%local_size_y", general(ElemType::Ud, 1)),
    ("%local_size_z", general(ElemType::Ud, 1)),
    ("%group_count_x", general(ElemType::Ud, 1)),
    ("%group_count_y", general(ElemType::Ud, 1)),
    ("%group_count_z", general(ElemType::Ud, 1)),
    ("%tsc", general(ElemType::Ud, 5)),
    ("%tm", general(ElemType::Ud, 5)),
    ("%r0", general(ElemType::Ud, 8)),
    ("%arg", general(ElemType::Ud, 512)),
    ("%retval", general(ElemType::Ud, 192)),
    ("%sp", general(ElemType::Uq, 1)),
    ("%fp", general(ElemType::Uq, 1)),
    ("%hw_id", general(ElemType::Ud, 1)),
    ("%sr0", general(ElemType::Ud, 4)),
    ("%cr0", general(ElemType::Ud, 1)),
    ("%ce0", general(ElemType::Ud, 1)),
    ("%dbg0", general(ElemType::Ud, 2)),
    ("%color", general(ElemType::Uw, 1)),
    ("%impl_arg_buf_ptr", general(ElemType::Uq, 1)),
    ("%local_id_buf_ptr", general(ElemType::Uq, 1)),
    ("%msg0", general(ElemType::Ud, 1)),
    ("%scratchloc", general(ElemType::Uq, 1)),
    ("%slm", VarKind::Surface),
    ("%bss", VarKind::Surface),
    ("%scratch", VarKind::Surface),
    ("T0", VarKind::Surface),
    ("T1", VarKind::Surface),
    ("T2", VarKind::Surface),
    ("T3", VarKind::Surface),
    ("TSS", VarKind::Surface),
    ("T4", VarKind::Surface),
    ("T5", VarKind::Surface),
    ("S31", VarKind::Sampler),
];

const fn general(ty: ElemType, num_elts: u32) -> VarKind {
    VarKind::General { ty, num_elts }
}

/// `T6` ... `T255`: binding-table entries after the predefined surfaces, usable without a
/// declaration (the runtime binds them by name).
fn is_binding_table_surface(name: &str) -> bool {
    name.strip_prefix('T').is_some_and(|digits| {
        !digits.starts_with('0') && digits.parse::<u32>().is_ok_and(|n| (6..=255).contains(&n))
    })
}

pub(crate) fn is_placeholder(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    name.strip_prefix('%')
        .is_some_and(|r| digits(r) || r.starts_with('['))
        || name.strip_prefix('$').is_some_and(digits)
}

/// Declarations visible at a point: a stack of `{ }` scopes.
pub(crate) struct Scopes {
    stack: Vec<HashMap<String, (VarKind, Span)>>,
    labels: HashSet<String>,
}

impl Scopes {
    pub(crate) fn lookup(&self, name: &str) -> Option<VarKind> {
        if is_placeholder(name) {
            return Some(VarKind::Placeholder);
        }
        for scope in self.stack.iter().rev() {
            if let Some((kind, _)) = scope.get(name) {
                return Some(*kind);
            }
        }
        if let Some((_, kind)) = PREDEFINED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            return Some(*kind);
        }
        if is_binding_table_surface(name) {
            return Some(VarKind::Surface);
        }
        self.labels.contains(name).then_some(VarKind::Label)
    }
}

fn decl_kind(d: &Decl) -> VarKind {
    match d.kind {
        DeclKind::General { ty, num_elts, .. } => VarKind::General { ty, num_elts },
        DeclKind::Address { num_elts } => VarKind::Address { num_elts },
        DeclKind::Predicate { num_elts } => VarKind::Predicate { num_elts },
        DeclKind::Sampler { .. } => VarKind::Sampler,
        DeclKind::Surface { .. } => VarKind::Surface,
    }
}

/// Checks a module against the instruction table: declarations (ranges, alias offsets,
/// duplicates per `{ }` scope), labels, and each instruction's operands (declared names, operand
/// classes, element types, region rules, predicate width).
pub fn check_with(table: &'static [InstrDesc], m: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut labels = HashSet::new();
    for stmt in &m.stmts {
        let name = match &stmt.kind {
            StmtKind::Label { name } => name,
            StmtKind::Function { name, .. } => name,
            _ => continue,
        };
        if !labels.insert(name.clone()) && matches!(stmt.kind, StmtKind::Label { .. }) {
            out.push(Diagnostic::error(
                stmt.span,
                format!("label `{name}` is defined more than once"),
            ));
        }
    }
    let mut scopes = Scopes {
        stack: vec![HashMap::new()],
        labels,
    };
    let mut open_scopes: Vec<Span> = Vec::new();
    for stmt in &m.stmts {
        match &stmt.kind {
            StmtKind::ScopeOpen => {
                scopes.stack.push(HashMap::new());
                open_scopes.push(stmt.span);
            }
            StmtKind::ScopeClose => {
                if open_scopes.pop().is_some() {
                    scopes.stack.pop();
                } else {
                    out.push(Diagnostic::error(stmt.span, "`}` without a matching `{`"));
                }
            }
            // Each function object has its own name space (3_execution_model).
            StmtKind::Function { global: true, .. } => scopes.stack = vec![HashMap::new()],
            StmtKind::Decl(d) => check_decl(d, stmt.span, &mut scopes, &mut out),
            StmtKind::Input { name, .. } if scopes.lookup(name).is_none() => {
                out.push(Diagnostic::error(
                    stmt.span,
                    format!("input `{name}` is not declared"),
                ));
            }
            StmtKind::Instr(i) => check_instruction(table, i, stmt.span, &scopes, &mut out),
            _ => {}
        }
    }
    for span in open_scopes {
        out.push(Diagnostic::error(span, "`{` is never closed"));
    }
    out
}

fn check_decl(d: &Decl, span: Span, scopes: &mut Scopes, out: &mut Vec<Diagnostic>) {
    let mut err = |msg: String| out.push(Diagnostic::error(span, msg));
    let name = &d.name;
    if name.starts_with('%') && !is_placeholder(name) {
        err(format!("predefined variable `{name}` cannot be declared"));
    }
    match &d.kind {
        DeclKind::General {
            ty,
            num_elts,
            alias,
            ..
        } => {
            let bytes = u64::from(*num_elts) * u64::from(ty.size());
            if !(1..=4096).contains(num_elts) {
                err(format!(
                    "`{name}`: num_elts={num_elts} is out of range (1..=4096)"
                ));
            } else if bytes >= 4096 {
                err(format!(
                    "`{name}`: {bytes} bytes, a general variable must be smaller than 4096 bytes"
                ));
            }
            if matches!(
                ty,
                ElemType::V | ElemType::Uv | ElemType::Vf | ElemType::Bool
            ) {
                err(format!("`{name}`: type {ty} is not a variable type"));
            }
            if let Some((base, off)) = alias {
                if off % ty.size() != 0 {
                    err(format!(
                        "`{name}`: alias offset {off} is not aligned to type {ty} ({} bytes)",
                        ty.size()
                    ));
                }
                match scopes.lookup(base) {
                    None => err(format!(
                        "`{name}`: aliased variable `{base}` is not declared"
                    )),
                    Some(VarKind::General {
                        ty: base_ty,
                        num_elts: base_elts,
                    }) => {
                        let base_bytes = u64::from(base_elts) * u64::from(base_ty.size());
                        if u64::from(*off) + bytes > base_bytes {
                            err(format!(
                                "`{name}`: alias range {off}..{} exceeds `{base}` ({base_bytes} bytes)",
                                u64::from(*off) + bytes
                            ));
                        }
                    }
                    Some(VarKind::Placeholder) => {}
                    Some(_) => err(format!(
                        "`{name}`: aliased `{base}` is not a general variable"
                    )),
                }
            }
        }
        DeclKind::Address { num_elts } if !(1..=16).contains(num_elts) => {
            err(format!(
                "`{name}`: num_elts={num_elts} is out of range for an address variable (1..=16)"
            ));
        }
        DeclKind::Predicate { num_elts } if ![1, 2, 4, 8, 16, 32].contains(num_elts) => {
            err(format!(
                "`{name}`: num_elts={num_elts} for a predicate must be 1, 2, 4, 8, 16 or 32"
            ));
        }
        DeclKind::Sampler { num_elts, .. } if !(1..=32).contains(num_elts) => {
            err(format!(
                "`{name}`: num_elts={num_elts} is out of range for a sampler (1..=32)"
            ));
        }
        DeclKind::Surface { num_elts, .. } if !(1..=256).contains(num_elts) => {
            err(format!(
                "`{name}`: num_elts={num_elts} is out of range for a surface (1..=256)"
            ));
        }
        _ => {}
    }
    if let Some(top) = scopes.stack.last_mut() {
        if let Some((_, first)) = top.get(name) {
            out.push(Diagnostic::error(
                span,
                format!("`{name}` is already declared in this scope (at {first})"),
            ));
        } else {
            top.insert(name.clone(), (decl_kind(d), span));
        }
    }
}

//! What the checker's passes share: diagnostics and their kinds, the checker's options, and the
//! names visible at a point (`{ }` scopes, predefined names from [`crate::rules`], labels). The
//! passes (`check` for declarations and statements, `check_operand` for instructions,
//! `check_types` for type rules) depend on this module and not on each other's internals.

use crate::ast::{ElemType, Span};
use crate::desc::InstrDesc;
use crate::rules::{self, Platform};
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

/// Why the checker reports something: the verifier's rule, a per-instruction document's
/// statement, or advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// The Intel compiler's vISA verifier rejects it (or the text makes no sense at all): an
    /// error.
    Rule,
    /// Only a per-instruction document says so (a type map, "must be UQ", a source-modifier
    /// property); the compiler accepts it: a warning naming the document, an error under
    /// `--deny-warnings` / `LoadOptions::strict_docs`.
    Document {
        /// The document's file name (`SHR.md`).
        doc: &'static str,
    },
    /// Legal but suspicious (a predicate narrower than the execution size, which real kernels
    /// do): a warning.
    Advice,
}

/// A problem found by the checker. Displayed as `line:col: error: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where: the statement the problem is in.
    pub span: Span,
    /// Error or warning.
    pub severity: Severity,
    /// Whose rule it is.
    pub kind: DiagnosticKind,
    /// What is wrong (names the operand, e.g. `<src1>`, for operand problems).
    pub message: String,
}

impl Diagnostic {
    pub(crate) fn error(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            severity: Severity::Error,
            kind: DiagnosticKind::Rule,
            message: message.into(),
        }
    }

    pub(crate) fn warning(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            severity: Severity::Warning,
            kind: DiagnosticKind::Advice,
            message: message.into(),
        }
    }

    /// A warning: only `desc`'s document states the rule.
    pub(crate) fn document(span: Span, desc: &InstrDesc, message: impl Into<String>) -> Self {
        let doc = desc
            .source
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(desc.source);
        Self {
            span,
            severity: Severity::Warning,
            kind: DiagnosticKind::Document { doc },
            message: format!(
                "{} ({doc}; the compiler does not enforce it)",
                message.into()
            ),
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether this is an error, or a document's rule that `strict_docs` makes one.
    pub fn is_error_with(&self, strict_docs: bool) -> bool {
        self.is_error() || strict_docs && matches!(self.kind, DiagnosticKind::Document { .. })
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

/// What the checker assumes of the target.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// The platform: its rules apply. `None` accepts what some platform accepts.
    pub platform: Option<Platform>,
    /// Bytes per GRF when no platform is named (the runtime loader passes its own); `None`
    /// accepts what some GRF size accepts.
    pub grf_bytes: Option<u32>,
    /// General variables declared outside the text (a runtime's kernel parameters): name,
    /// element type, element count.
    pub params: Vec<(String, ElemType, u32)>,
}

impl CheckOptions {
    /// The GRF size the rules use: the platform's, the one given, or the largest.
    pub fn grf(&self) -> u32 {
        self.platform
            .map(Platform::grf_bytes)
            .or(self.grf_bytes)
            .unwrap_or(rules::MAX_GRF_BYTES)
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

/// What a predefined name is, for a GRF size (the list is [`rules::PREDEFINED`]).
fn predefined_kind(name: &str, grf: u32) -> Option<VarKind> {
    if let Some(p) = rules::predefined(name) {
        return Some(VarKind::General {
            ty: p.ty,
            num_elts: p.num_elts(grf),
        });
    }
    if rules::undeclared_surface(name).is_some() {
        return Some(VarKind::Surface);
    }
    rules::is_predefined_sampler(name).then_some(VarKind::Sampler)
}

/// Declarations visible at a point: a stack of `{ }` scopes.
pub(crate) struct Scopes {
    pub(crate) stack: Vec<HashMap<String, (VarKind, Span)>>,
    pub(crate) labels: HashSet<String>,
    /// The GRF size the rules use ([`CheckOptions::grf`]).
    pub(crate) grf: u32,
    /// The platform named, if any: platform-dependent rules apply only then.
    pub(crate) platform: Option<Platform>,
}

impl Scopes {
    pub(crate) fn lookup(&self, name: &str) -> Option<VarKind> {
        if rules::is_placeholder(name) {
            return Some(VarKind::Placeholder);
        }
        for scope in self.stack.iter().rev() {
            if let Some((kind, _)) = scope.get(name) {
                return Some(*kind);
            }
        }
        if let Some(kind) = predefined_kind(name, self.grf) {
            return Some(kind);
        }
        self.labels.contains(name).then_some(VarKind::Label)
    }
}

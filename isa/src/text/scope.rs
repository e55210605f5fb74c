//! What the checker's passes share: diagnostics and their kinds, the checker's options, and the
//! names visible at a point (`{ }` scopes, predefined names from [`crate::rules`], labels). The
//! passes of the verifier (`verify`: declarations, operands, types, codes, platform) depend on
//! this module.

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

/// What a diagnostic is about: where it points follows from this, not from its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Subject {
    /// A statement as a whole (a label defined twice, an unclosed `{`).
    Statement,
    /// Field `index` of an instruction, in its table entry's field order: an operand, the
    /// predicate, the execution size, a list.
    Field {
        /// Index into the entry's `fields` (and the instruction's `fields`).
        index: usize,
        /// The field's name in the entry's Format table (`Src1`).
        name: &'static str,
        /// For a list field, the element concerned.
        element: Option<usize>,
    },
    /// A part of a declaration.
    Decl(DeclPart),
}

/// The parts of a `.decl` a diagnostic can be about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeclPart {
    /// The declared name.
    Name,
    /// `type=`.
    Type,
    /// `num_elts=`.
    NumElts,
    /// `alias=`.
    Alias,
}

/// A problem found by the checker. Displayed as `line:col: error: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Where it points: the position of its subject when the text has one (the operand, the
    /// `num_elts=` keyword), else the statement's.
    pub span: Span,
    /// Where the statement it is in starts.
    pub statement: Span,
    /// What it is about.
    pub subject: Subject,
    /// Error or warning.
    pub severity: Severity,
    /// Whose rule it is.
    pub kind: DiagnosticKind,
    /// What is wrong (words only: positions are in `span`, `subject` and `related`).
    pub message: String,
    /// Another place the problem involves (the first declaration of a name declared twice).
    pub related: Option<Span>,
    /// What was probably meant (a declared name near an undeclared one), if anything.
    pub suggestion: Option<String>,
}

impl Diagnostic {
    fn new(statement: Span, severity: Severity, kind: DiagnosticKind, message: String) -> Self {
        Self {
            span: statement,
            statement,
            subject: Subject::Statement,
            severity,
            kind,
            message,
            related: None,
            suggestion: None,
        }
    }

    pub(crate) fn error(statement: Span, message: impl Into<String>) -> Self {
        Self::new(
            statement,
            Severity::Error,
            DiagnosticKind::Rule,
            message.into(),
        )
    }

    pub(crate) fn warning(statement: Span, message: impl Into<String>) -> Self {
        Self::new(
            statement,
            Severity::Warning,
            DiagnosticKind::Advice,
            message.into(),
        )
    }

    /// A warning: only `desc`'s document states the rule.
    pub(crate) fn document(statement: Span, desc: &InstrDesc, message: impl Into<String>) -> Self {
        let doc = desc
            .source
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(desc.source);
        Self::new(
            statement,
            Severity::Warning,
            DiagnosticKind::Document { doc },
            format!(
                "{} ({doc}; the compiler does not enforce it)",
                message.into()
            ),
        )
    }

    /// The same diagnostic about `subject`, pointing at `at` when that is known (line 0 is not).
    pub(crate) fn about(mut self, subject: Subject, at: Option<Span>) -> Self {
        self.subject = subject;
        if let Some(at) = at.filter(|s| s.line != 0) {
            self.span = at;
        }
        self
    }

    /// The same diagnostic, also naming `other` (see [`Diagnostic::related`]).
    pub(crate) fn related_to(mut self, other: Span) -> Self {
        self.related = Some(other);
        self
    }

    /// The same diagnostic suggesting `meant`.
    pub(crate) fn suggesting(mut self, meant: Option<&str>) -> Self {
        self.suggestion = meant.map(str::to_string);
        self
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
        write!(f, "{}: {sev}: {}", self.span, self.message)?;
        match self.related {
            Some(other) => write!(f, " (see {other})"),
            None => Ok(()),
        }
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
fn predefined_kind(name: &str, scopes: &Scopes) -> Option<VarKind> {
    let grf = scopes.grf;
    let version_3 = scopes
        .version_major
        .is_some_and(|v| v >= rules::VERSION_WITHOUT_2X_VARIABLES);
    if let Some(p) = rules::predefined(name).filter(|p| !(p.only_version_2 && version_3)) {
        return Some(VarKind::General {
            ty: p.ty,
            num_elts: p.num_elts(grf),
        });
    }
    // A user surface `Tn` needs a declaration for the compiler; without a platform named, the
    // runtime binds it by number (docs/igc-differences.md).
    if rules::undeclared_surface(name)
        .is_some_and(|n| scopes.platform.is_none() || !rules::needs_declaration(n))
    {
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
    /// The major number of the module's `.version`, if it has one.
    pub(crate) version_major: Option<u32>,
    /// Of each declared general variable, as the verifier walks an alias chain for a raw
    /// operand: the size in bytes of the last user variable of the chain and the byte offset
    /// of the variable in it (alias offsets summed, one onto a predefined variable included).
    pub(crate) alias_roots: HashMap<String, (u64, u64)>,
    /// Of each declared general variable, the alignment of the user variable at the root of its
    /// alias chain ([`rules::align_rank`], the larger of the declared one and its type's); `None`
    /// when the chain ends at a predefined variable.
    pub(crate) root_aligns: HashMap<String, Option<usize>>,
    /// How many user surfaces (`v_type=T`) are declared so far.
    pub(crate) user_surfaces: u32,
}

impl Scopes {
    /// The visible name (variable, label or predefined variable) nearest to the undeclared
    /// `name`, if one is close enough to be a typo.
    pub(crate) fn nearest(&self, name: &str) -> Option<&str> {
        let declared = self.stack.iter().flat_map(|scope| scope.keys());
        let predefined = rules::PREDEFINED.iter().map(|p| p.name);
        super::suggest::nearest(
            name,
            declared
                .chain(&self.labels)
                .map(String::as_str)
                .chain(predefined),
        )
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<VarKind> {
        if rules::is_placeholder(name) {
            return Some(VarKind::Placeholder);
        }
        for scope in self.stack.iter().rev() {
            if let Some((kind, _)) = scope.get(name) {
                return Some(*kind);
            }
        }
        if let Some(kind) = predefined_kind(name, self) {
            return Some(kind);
        }
        self.labels.contains(name).then_some(VarKind::Label)
    }
}

//! Collects the diagnostics of one document.

use crate::model::{Diagnostic, DiagnosticKind, Loc, Severity};

pub(crate) struct Diags {
    file: String,
    pub list: Vec<Diagnostic>,
}

impl Diags {
    pub fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            list: Vec::new(),
        }
    }

    /// The document cannot be read.
    pub fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(
            loc,
            Severity::Error,
            DiagnosticKind::Unreadable,
            message.into(),
        );
    }

    /// A construct kept as text or ignored (the usual fallback).
    pub fn warning(&mut self, loc: Loc, message: impl Into<String>) {
        self.warn(DiagnosticKind::KeptAsText, loc, message);
    }

    /// A warning of the given kind.
    pub fn warn(&mut self, kind: DiagnosticKind, loc: Loc, message: impl Into<String>) {
        self.push(loc, Severity::Warning, kind, message.into());
    }

    fn push(&mut self, loc: Loc, severity: Severity, kind: DiagnosticKind, message: String) {
        self.list.push(Diagnostic {
            file: self.file.clone(),
            loc,
            severity,
            message,
            kind,
        });
    }
}

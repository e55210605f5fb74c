//! Collects the diagnostics of one document.

use crate::model::{Diagnostic, Loc, Severity};

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

    pub fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(loc, Severity::Error, message.into());
    }

    pub fn warning(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(loc, Severity::Warning, message.into());
    }

    fn push(&mut self, loc: Loc, severity: Severity, message: String) {
        self.list.push(Diagnostic {
            file: self.file.clone(),
            loc,
            severity,
            message,
        });
    }
}

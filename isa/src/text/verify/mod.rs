//! The checker: one [`Verifier`] over a [`Module`] (parsed text, or one the macro built), with a
//! pass per concern:
//!
//! * [`declarations`]: labels, `{ }` scopes, declarations (ranges, aliases, duplicates), inputs;
//! * [`operands`]: each instruction's fields against its table entry: declared names, operand
//!   classes, variable kinds, regions, lists, predicate width, writes to read-only variables;
//! * [`types`]: element types: a field's `Must have type`, supported types, type maps, source
//!   modifiers, the destination phrases of `Compiler checks`;
//! * [`platform`]: what holds only on some platforms (`platform in ...`, `dst types ... not on`);
//! * [`codes`]: the code rules of `Compiler checks` (`Field in ...`, `has type`, `%null`).
//!
//! Both last passes evaluate their rules with [`rule`].
//!
//! The `Compiler checks` property reaches the passes typed ([`crate::desc::Enforce`],
//! [`crate::desc::CheckRule`]): the generator parsed it, nothing here reads its text.

mod codes;
mod declarations;
mod messages;
mod operands;
mod platform;
mod rule;
mod types;

pub use declarations::label_defined_by;
pub(crate) use types::operand_type;
pub use types::type_map_problem;

use super::scope::{CheckOptions, Diagnostic, Scopes, Subject};
use crate::ast::{FieldValue, Instruction, Module, Span, StmtKind};
use crate::desc::InstrDesc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Checks a module against the instruction table with no platform named (see
/// [`check_with_options`]).
pub fn check_with(table: &'static [InstrDesc], m: &Module) -> Vec<Diagnostic> {
    check_with_options(table, m, &CheckOptions::default())
}

/// How many times this process has run the checker: tools that must run it once (`visa check`,
/// which then asks the loader only what the runtime cannot execute) are tested against it.
static CHECKER_RUNS: AtomicUsize = AtomicUsize::new(0);

/// The number of checker runs in this process so far ([`check_with_options`] calls).
pub fn checker_runs() -> usize {
    CHECKER_RUNS.load(Ordering::Relaxed)
}

/// Checks a module against the instruction table and the rules of [`crate::rules`]:
/// declarations (ranges, alias offsets, duplicates per `{ }` scope), labels, and each
/// instruction's operands (declared names, operand classes, element types, region rules,
/// predicate width, writes to read-only predefined variables) and `Compiler checks`.
pub fn check_with_options(
    table: &'static [InstrDesc],
    m: &Module,
    options: &CheckOptions,
) -> Vec<Diagnostic> {
    CHECKER_RUNS.fetch_add(1, Ordering::Relaxed);
    Verifier { table, options }.run(m)
}

/// One run of the checker over a module.
struct Verifier<'o> {
    table: &'static [InstrDesc],
    options: &'o CheckOptions,
}

impl Verifier<'_> {
    fn run(&self, m: &Module) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut walk = declarations::Walk::new(self.table, m, self.options, &mut out);
        for stmt in &m.stmts {
            match &stmt.kind {
                StmtKind::Instr(i) => self.instruction(i, stmt.span, &walk.scopes, &mut out),
                _ => walk.statement(stmt, &mut out),
            }
        }
        walk.finish(&mut out);
        out
    }

    /// The instruction passes, in this order: operands (with their types), the instruction's
    /// type rules, its platform rules (whether it exists on the platform named comes before
    /// what its fields hold), its code rules, its message rules.
    fn instruction(&self, i: &Instruction, span: Span, scopes: &Scopes, out: &mut Vec<Diagnostic>) {
        {
            let Some(mut ctx) = InstrCtx::new(self.table, i, span, scopes, out) else {
                return;
            };
            operands::check(&mut ctx);
            types::check(&mut ctx);
            platform::check(&mut ctx);
            codes::check(&mut ctx);
        }
        messages::check_data_registers(self.table, i, span, scopes.grf, out);
        messages::check_raw_sends_lengths(self.table, i, span, out);
    }
}

/// What the instruction passes share: the instruction, its table entry, the names visible, and
/// the field (and list element) the diagnostics are about.
pub(super) struct InstrCtx<'a> {
    desc: &'static InstrDesc,
    span: Span,
    instr: &'a Instruction,
    /// The field being checked, and the element of a list field.
    field: Option<usize>,
    element: Option<usize>,
    scopes: &'a Scopes,
    /// The execution size and NoMask, when the instruction has an execution-size field.
    exec: Option<crate::ast::ExecSize>,
    out: &'a mut Vec<Diagnostic>,
}

impl<'a> InstrCtx<'a> {
    /// The context of an instruction whose table entry exists and whose field count matches
    /// it; otherwise the error is reported and there is nothing more to check.
    fn new(
        table: &'static [InstrDesc],
        i: &'a Instruction,
        span: Span,
        scopes: &'a Scopes,
        out: &'a mut Vec<Diagnostic>,
    ) -> Option<Self> {
        let Some(desc) = table.get(i.desc) else {
            out.push(Diagnostic::error(
                span,
                format!("instruction #{} is not in the table", i.desc),
            ));
            return None;
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
            return None;
        }
        let exec = desc
            .fields
            .iter()
            .zip(&i.fields)
            .find_map(|(f, v)| match v {
                FieldValue::Exec(e) if super::table::is_exec_field(f) => Some(*e),
                _ => None,
            });
        Some(Self {
            desc,
            span,
            instr: i,
            field: None,
            element: None,
            scopes,
            exec,
            out,
        })
    }

    fn exec_size(&self) -> Option<u32> {
        self.exec.map(|e| e.size)
    }

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

    /// The element type of the destination, when known.
    fn dst_type(&self) -> Option<crate::ast::ElemType> {
        let index = self.dst_field()?;
        let FieldValue::Operand(op) = self.instr.fields.get(index)? else {
            return None;
        };
        let var = match op {
            crate::ast::Operand::General { var, .. } => Some(var.as_str()),
            _ => None,
        };
        operand_type(op, var.and_then(|v| self.scopes.lookup(v)))
    }
}

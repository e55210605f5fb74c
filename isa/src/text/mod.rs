//! vISA assembly text: one parser and one formatter, both driven by an instruction table
//! (`crate::INSTRUCTIONS` by default), and a checker of whole modules.
//!
//! The instruction syntax is not hard-coded: each instruction is read and printed by following
//! the syntax templates of its [`InstrDesc`] (see `syntax-conventions` in the project notes for
//! how placeholders bind to fields).

mod composite;
mod cursor;
mod directive;
mod format;
mod immediate;
mod instr;
mod mnemonics;
mod module;
mod numbered;
mod operand;
mod placeholder;
mod scope;
mod source_map;
pub mod suggest;
mod table;
mod verify;

pub use format::{format_instruction_with, format_module_with, format_module_with_comments};
pub use placeholder::{PlaceholderParam, bind_dollar_placeholders, dollar_index};
pub use scope::{CheckOptions, DeclPart, Diagnostic, DiagnosticKind, Severity, Subject};
pub use source_map::{apply_source_map, source_map, source_map_numbers};
pub use verify::{
    check_with, check_with_options, checker_runs, label_defined_by, type_map_problem,
};

use crate::ast::{Instruction, Module, Operand, Span};
use crate::desc::InstrDesc;

/// A syntax error in assembly text. Displayed as `line:col: error: found X, expected Y`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{span}: error: found {found}, expected {expected}")]
#[non_exhaustive]
pub struct TextError {
    /// Where the problem is (1-based line and column).
    pub span: Span,
    /// What the parser found (a quoted token, or `end of line`).
    pub found: String,
    /// What it expected there.
    pub expected: String,
    /// What was probably meant (a known mnemonic near an unknown one), if anything.
    pub suggestion: Option<String>,
}

impl TextError {
    /// An error at `span`.
    pub fn new(span: Span, found: impl Into<String>, expected: impl Into<String>) -> Self {
        Self {
            span,
            found: found.into(),
            expected: expected.into(),
            suggestion: None,
        }
    }

    /// The same error suggesting `meant`.
    pub fn suggesting(mut self, meant: Option<impl Into<String>>) -> Self {
        self.suggestion = meant.map(Into::into);
        self
    }
}

/// A comment of assembly text (`// ...` or `/* ... */`), as [`parse_comments`] finds it: what
/// [`format_source`] puts back around the statements it prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Where it starts (its `/`).
    pub span: Span,
    /// The line its last character is on (block comments may span lines).
    pub end_line: u32,
    /// The comment with its markers; `//` comments without trailing white space, block comments
    /// as written (with `\n` line breaks).
    pub text: String,
}

/// An assembler / formatter / checker bound to one instruction table.
#[derive(Debug, Clone, Copy)]
pub struct Assembler {
    table: &'static [InstrDesc],
}

impl Assembler {
    /// An assembler reading and printing instructions with `table`.
    pub const fn new(table: &'static [InstrDesc]) -> Self {
        Self { table }
    }

    /// The instruction table in use.
    pub const fn table(&self) -> &'static [InstrDesc] {
        self.table
    }

    /// Parses a whole text; reports every erroneous line (recovering at line boundaries).
    pub fn parse(&self, src: &str) -> Result<Module, Vec<TextError>> {
        module::parse_module(self.table, src)
    }

    /// Parses one instruction line (line number 1).
    pub fn parse_instruction(&self, line: &str) -> Result<Instruction, TextError> {
        module::parse_single_instruction(self.table, line)
    }

    /// Parses one operand (`V(0,0)<1;1,0>`, `r[A0(0),8]<1>:ud`, `0x1:w`, `&V[4]`, `V.0`, `T6`).
    /// A bare name is returned as [`Operand::Name`]; an untyped number is an error.
    pub fn parse_operand(&self, text: &str) -> Result<Operand, TextError> {
        module::parse_single_operand(text)
    }

    /// Prints a module in canonical form.
    pub fn format_module(&self, m: &Module) -> String {
        format_module_with(self.table, m)
    }

    /// Prints a text in canonical form keeping its comments and blank lines (see
    /// [`format_module_with_comments`]); the errors are those of [`Assembler::parse`].
    pub fn format_source(&self, src: &str) -> Result<String, Vec<TextError>> {
        let module = self.parse(src)?;
        let comments = module::parse_comments(src).map_err(|e| vec![e])?;
        Ok(format_module_with_comments(self.table, &module, &comments))
    }

    /// Prints one instruction in canonical form.
    pub fn format_instruction(&self, i: &Instruction) -> String {
        format_instruction_with(self.table, i)
    }

    /// Checks a module (see [`check_with`]).
    pub fn check(&self, m: &Module) -> Vec<Diagnostic> {
        check_with(self.table, m)
    }
}

/// The assembler over the generated table of `spec/`.
pub const fn assembler() -> Assembler {
    Assembler::new(crate::INSTRUCTIONS)
}

/// Parses assembly text with the generated instruction table.
pub fn parse(src: &str) -> Result<Module, Vec<TextError>> {
    assembler().parse(src)
}

/// The comments of a text, in order (a leading byte-order mark is skipped, as [`parse`] does).
pub fn parse_comments(src: &str) -> Result<Vec<Comment>, TextError> {
    module::parse_comments(src)
}

/// Prints a text in canonical form keeping its comments and blank lines, with the generated
/// instruction table (see [`Assembler::format_source`]).
pub fn format_source(src: &str) -> Result<String, Vec<TextError>> {
    assembler().format_source(src)
}

/// Parses one instruction line with the generated instruction table.
pub fn parse_instruction(line: &str) -> Result<Instruction, TextError> {
    assembler().parse_instruction(line)
}

/// Parses one operand (see [`Assembler::parse_operand`]).
pub fn parse_operand(text: &str) -> Result<Operand, TextError> {
    module::parse_single_operand(text)
}

/// Prints one operand in canonical form.
pub fn format_operand(op: &Operand) -> String {
    format::format_operand(op)
}

/// Prints a module in canonical form (one statement per line).
pub fn format_module(m: &Module) -> String {
    assembler().format_module(m)
}

/// Prints one instruction in canonical form, as the Intel compiler prints it.
pub fn format_instruction(i: &Instruction) -> String {
    assembler().format_instruction(i)
}

/// Validates a module against its declarations and the instruction table.
pub fn check(m: &Module) -> Vec<Diagnostic> {
    assembler().check(m)
}

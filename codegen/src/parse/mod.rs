//! The opcode-document parser: markdown text -> [`Document`].
//!
//! The parser is tolerant by design, because users regenerate from documents it has never seen:
//! [`parse_document`] never panics and never gives up on a document that has an Opcode section
//! and a Format table. A construct it cannot place is kept in the model as description text
//! ([`Document::extra`] for whole sections and stray lines) and reported as a warning with its
//! `file:line:col`; what is well-formed around it is read as usual. Every fallback is a warning:
//! nothing is guessed silently. A document without an opcode or a Format table is left out with
//! one warning. Errors are kept for documents that cannot be read at all (over the size limit;
//! unreadable files in [`parse_dirs`]).

mod checks;
mod diag;
pub mod dump;
mod examples;
mod fields;
mod format_table;
mod inline;
mod sections;
mod syntax;
mod text;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::{
    Diagnostic, DiagnosticKind, Document, ExtraText, Field, FormatTable, Loc, OpcodeDef, Severity,
    TextBlock,
};
use diag::Diags;
use text::{Line, Section};

/// The result of parsing one document.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The model: present unless the document is left out (no opcode, no Format table, not a
    /// markdown document, over the size limit), which one diagnostic then says.
    pub document: Option<Document>,
    /// Warnings (and the error of an unreadable document) in order of discovery.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Only the errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

/// Input limits of [`parse_document_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseLimits {
    /// Largest document accepted, in bytes (the largest upstream document is under 40 KB).
    pub max_document_bytes: usize,
}

impl ParseLimits {
    /// Default [`ParseLimits::max_document_bytes`]: 1 MiB.
    pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 1 << 20;
}

impl Default for ParseLimits {
    fn default() -> Self {
        Self {
            max_document_bytes: Self::DEFAULT_MAX_DOCUMENT_BYTES,
        }
    }
}

/// Parses one opcode document. `file` is only used in the model and the diagnostics.
pub fn parse_document(file: &str, text: &str) -> Parsed {
    parse_document_with(file, text, &ParseLimits::default())
}

/// [`parse_document`] with explicit limits: a document over a limit yields one error at 1:1 and
/// no model.
pub fn parse_document_with(file: &str, text: &str, limits: &ParseLimits) -> Parsed {
    let mut diags = Diags::new(file);
    if text.len() > limits.max_document_bytes {
        diags.error(
            Loc::new(1, 1),
            format!(
                "the document is {} bytes long, more than the limit of {} bytes",
                text.len(),
                limits.max_document_bytes
            ),
        );
        return Parsed {
            document: None,
            diagnostics: diags.list,
        };
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let document = document(file, text, &mut diags);
    Parsed {
        document,
        diagnostics: diags.list,
    }
}

/// What [`parse_dirs`] read.
#[derive(Debug, Clone, Default)]
pub struct ParsedDirs {
    /// The model of every document that has one, in file order.
    pub documents: Vec<Document>,
    /// Every diagnostic, file by file: warnings, and errors for what cannot be read at all (a
    /// directory, a file, a document over the size limit).
    pub diagnostics: Vec<Diagnostic>,
    /// The files that gave no model, in file order (each has its diagnostic).
    pub left_out: Vec<PathBuf>,
}

impl ParsedDirs {
    /// The diagnostics that are errors: what could not be read at all.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// Whether something could not be read at all.
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }
}

/// Parses every `*.md` / `*.txt` document of each directory (sorted by file name; `README.md`,
/// `index.md` and object-format documents ([`crate::object::is_format_document`]) skipped); a path that names a file is that one document. Documents parse in
/// parallel and independently: one that is left out or has warnings does not stop the others.
pub fn parse_dirs(dirs: &[PathBuf]) -> ParsedDirs {
    let mut out = ParsedDirs::default();
    for dir in dirs {
        let files = if dir.is_file() {
            Ok(vec![dir.clone()])
        } else {
            document_files(dir)
        };
        match files {
            Ok(files) => {
                // In parallel, collected in file order.
                let parsed: Vec<(Option<Document>, Vec<Diagnostic>)> =
                    files.par_iter().map(|path| parse_file(path)).collect();
                for (path, (document, diagnostics)) in files.iter().zip(parsed) {
                    match document {
                        Some(document) => out.documents.push(document),
                        None => out.left_out.push(path.clone()),
                    }
                    out.diagnostics.extend(diagnostics);
                }
            }
            Err(error) => out
                .diagnostics
                .push(io_error(dir, &error, "cannot read directory")),
        }
    }
    out
}

/// The document files of `dir`, sorted by file name.
pub fn document_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let lower = name.to_ascii_lowercase();
        let is_doc = lower.ends_with(".md") || lower.ends_with(".txt");
        if is_doc && lower != "readme.md" && lower != "index.md" && path.is_file() {
            // The object-format document describes the container, not an opcode.
            let is_format = std::fs::read_to_string(&path)
                .is_ok_and(|text| crate::object::is_format_document(&text));
            if !is_format {
                files.push(path);
            }
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(files)
}

fn parse_file(path: &Path) -> (Option<Document>, Vec<Diagnostic>) {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let parsed = parse_document(&path.display().to_string(), &text);
            (parsed.document, parsed.diagnostics)
        }
        Err(error) => (None, vec![io_error(path, &error, "cannot read file")]),
    }
}

fn io_error(path: &Path, error: &std::io::Error, what: &str) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        loc: Loc::new(1, 1),
        severity: Severity::Error,
        message: format!("{what}: {error}"),
        kind: DiagnosticKind::Unreadable,
    }
}

/// The sections the parser knows, found by title (at any heading level).
#[derive(Default)]
struct Known<'s> {
    opcode: Option<&'s Section>,
    format: Option<&'s Section>,
    conditions: Vec<&'s Section>,
    semantics: Option<&'s Section>,
    description: Option<&'s Section>,
    properties: Option<&'s Section>,
    type_maps: Option<&'s Section>,
    text: Option<&'s Section>,
    notes: Option<&'s Section>,
    examples: Option<&'s Section>,
}

/// Finds the known sections. A `CONDITION` section belongs to the Format section when that is
/// the nearest section above it with a higher-ranking heading (whatever the levels used). An
/// unknown or repeated section is kept as text, with a warning.
fn classify_sections<'s>(
    sections: &'s [Section],
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Known<'s> {
    let mut known = Known::default();
    // Titles of the enclosing sections, with their levels.
    let mut enclosing: Vec<(u8, String)> = Vec::new();
    for section in sections {
        let title = section.title.to_ascii_lowercase();
        while enclosing
            .last()
            .is_some_and(|(level, _)| *level >= section.level)
        {
            enclosing.pop();
        }
        let parent_is_format = enclosing.last().is_some_and(|(_, t)| t == "format");
        enclosing.push((section.level, title.clone()));
        let slot = match title.as_str() {
            "opcode" => &mut known.opcode,
            "format" => &mut known.format,
            "condition" if parent_is_format => {
                known.conditions.push(section);
                continue;
            }
            "semantics" => &mut known.semantics,
            "description" => &mut known.description,
            "properties" => &mut known.properties,
            "operand type maps" => &mut known.type_maps,
            "text" => &mut known.text,
            "notes" => &mut known.notes,
            "examples" => &mut known.examples,
            _ => {
                let kept = keep_section(section, lines, extra);
                diags.warning(
                    section.loc,
                    format!("unknown section `{}`: {kept}", section.title),
                );
                continue;
            }
        };
        match slot {
            Some(first) => {
                let kept = keep_section(section, lines, extra);
                diags.warning(
                    section.loc,
                    format!(
                        "duplicate `{}` section (first at {}:{}): {kept}",
                        section.title, first.loc.line, first.loc.col
                    ),
                );
            }
            None => *slot = Some(section),
        }
    }
    known
}

/// Keeps a section the parser has no place for as text; says what was done.
fn keep_section(section: &Section, lines: &[Line<'_>], extra: &mut Vec<ExtraText>) -> &'static str {
    let body = body(lines, section);
    let text = text::prose(body);
    match body.iter().find(|l| !l.is_blank() && !l.is_fence) {
        Some(first) if !text.is_empty() => {
            extra.push(ExtraText {
                section: section.title.clone(),
                text,
                loc: first.loc_of_content(),
            });
            "kept as text"
        }
        _ => "ignored (it is empty)",
    }
}

/// Keeps one line of a known section that is not what the section holds, as text of that
/// section (consecutive lines join).
pub(crate) fn keep_line(extra: &mut Vec<ExtraText>, section: &str, line: &Line<'_>) {
    let text = line.trimmed();
    match extra.last_mut() {
        Some(last) if last.section == section => {
            last.text.push('\n');
            last.text.push_str(text);
        }
        _ => extra.push(ExtraText {
            section: section.to_string(),
            text: text.to_string(),
            loc: line.loc_of_content(),
        }),
    }
}

fn body<'l, 'a>(lines: &'l [Line<'a>], section: &Section) -> &'l [Line<'a>] {
    lines.get(section.body.clone()).unwrap_or(&[])
}

/// Leaves the document out: its diagnostics so far give way to one warning saying why.
fn leave_out(diags: &mut Diags, loc: Loc, reason: &str) -> Option<Document> {
    diags.list.clear();
    diags.warn(
        DiagnosticKind::LeftOut,
        loc,
        format!("{reason}: the document is left out"),
    );
    None
}

fn document(file: &str, text: &str, diags: &mut Diags) -> Option<Document> {
    if text.trim().is_empty() {
        return leave_out(
            diags,
            Loc::new(1, 1),
            "empty document (expected an `## Opcode` section)",
        );
    }
    if let Some((line, col)) = find_char(text, '\0') {
        return leave_out(
            diags,
            Loc::new(line, col),
            "binary data (NUL byte), not a markdown opcode document",
        );
    }
    if let Some((line, col)) = find_char(text, '\u{fffd}') {
        diags.warning(
            Loc::new(line, col),
            "invalid UTF-8 in the file: the bytes were replaced by U+FFFD",
        );
    }
    let source = text::scan(text, diags);
    let lines = &source.lines;
    let mut extra = Vec::new();
    let known = classify_sections(&source.sections, lines, &mut extra, diags);

    let Some(opcode_section) = known.opcode else {
        return leave_out(
            diags,
            Loc::new(1, 1),
            "no `## Opcode` section (expected `## Opcode` followed by `NAME = 0x..`)",
        );
    };
    let (opcodes, rejected) = sections::opcodes(body(lines, opcode_section), &mut extra);
    if opcodes.is_empty() {
        let (loc, why) = match rejected.first() {
            Some((loc, problem)) => (*loc, format!("no opcode declared: {problem}")),
            None => (
                opcode_section.loc,
                "the Opcode section declares no opcode (expected a line `NAME = 0x..`)".to_string(),
            ),
        };
        return leave_out(diags, loc, &why);
    }
    for (loc, problem) in rejected {
        diags.warning(loc, format!("{problem}: the line is kept as text"));
    }

    let Some(format_section) = known.format else {
        return leave_out(
            diags,
            opcode_section.loc,
            "no `## Format` section (expected a Format table after the Opcode section)",
        );
    };
    let before = diags.list.len();
    let formats = format_tables(format_section, &known.conditions, lines, &mut extra, diags);
    let format_is_empty = known.conditions.is_empty()
        && body(lines, format_section)
            .iter()
            .all(|l| l.is_blank() || l.is_fence);
    if formats.is_empty() && !format_is_empty {
        // The first problem the table reader found says why, if there is one.
        let (loc, why) = diags.list.get(before).map_or_else(
            || {
                (
                    format_section.loc,
                    "no Format table (expected `| 0x.. (NAME) | Field | ... |`)".to_string(),
                )
            },
            |d| (d.loc, format!("no Format table: {}", d.message)),
        );
        return leave_out(diags, loc, &why);
    }
    for table in &formats {
        check_table_opcodes(table, &opcodes, diags);
    }

    let description = known
        .description
        .map(|s| fields::description(body(lines, s), diags));
    let (description_text, bullets) = match description {
        Some(d) => (d.prose, d.fields),
        None => (None, Vec::new()),
    };
    let fields = merge_fields(&formats, bullets, diags);

    let properties = known
        .properties
        .map(|s| sections::properties(body(lines, s), &mut extra, diags))
        .unwrap_or_default();
    let compiler_checks = checks::compiler_checks(&properties, diags);
    let type_maps = known
        .type_maps
        .map(|s| sections::type_maps(body(lines, s), &mut extra, diags))
        .unwrap_or_default();
    let field_names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let text_section = known
        .text
        .map(|s| syntax::text_section(body(lines, s), &field_names, diags));
    let (syntax, syntax_comments) = match text_section {
        Some(t) => (t.syntax, t.comments),
        None => (Vec::new(), Vec::new()),
    };

    for (section, name) in [
        (known.semantics, "Semantics"),
        (known.description, "Description"),
        (known.text, "Text"),
    ] {
        if section.is_none() {
            diags.warn(
                DiagnosticKind::MissingSection,
                opcode_section.loc,
                format!("the document has no `## {name}` section"),
            );
        }
    }
    let examples = known
        .examples
        .map(|s| examples::examples(body(lines, s), &mut extra, diags))
        .unwrap_or_default();
    extra.sort_by_key(|e| e.loc);
    Some(Document {
        file: file.to_string(),
        line: opcode_section.loc.line,
        opcodes,
        formats,
        fields,
        properties,
        compiler_checks,
        type_maps,
        semantics: known.semantics.and_then(|s| text_block(lines, s)),
        description: description_text,
        syntax,
        syntax_comments,
        notes: known.notes.and_then(|s| text_block(lines, s)),
        examples,
        extra,
    })
}

fn find_char(text: &str, wanted: char) -> Option<(u32, u32)> {
    text.split('\n').enumerate().find_map(|(i, line)| {
        line.chars().position(|c| c == wanted).map(|col| {
            (
                u32::try_from(i + 1).unwrap_or(u32::MAX),
                u32::try_from(col + 1).unwrap_or(u32::MAX),
            )
        })
    })
}

fn text_block(lines: &[Line<'_>], section: &Section) -> Option<TextBlock> {
    let body = body(lines, section);
    let text = text::prose(body);
    let first = body.iter().find(|l| !l.is_blank() && !l.is_fence)?;
    (!text.is_empty()).then(|| TextBlock {
        text,
        loc: first.loc_of_content(),
    })
}

fn format_tables(
    format: &Section,
    conditions: &[&Section],
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Vec<FormatTable> {
    let main = body(lines, format);
    let has_table = main
        .iter()
        .any(|l| l.trimmed().starts_with('|') && l.trimmed() != "|");
    let mut tables = Vec::new();
    if conditions.is_empty() || has_table {
        tables.extend(format_table::tables(main, None, extra, diags));
    }
    for condition in conditions {
        tables.extend(format_table::tables(
            body(lines, condition),
            Some(condition.loc),
            extra,
            diags,
        ));
    }
    tables
}

fn check_table_opcodes(table: &FormatTable, opcodes: &[OpcodeDef], diags: &mut Diags) {
    let pairs = |list: &[OpcodeDef]| -> Vec<(String, u32)> {
        list.iter().map(|o| (o.name.clone(), o.value)).collect()
    };
    if table.opcodes.is_empty() || opcodes.is_empty() || pairs(&table.opcodes) == pairs(opcodes) {
        return;
    }
    let cells: Vec<String> = table
        .opcodes
        .iter()
        .map(|o| format!("0x{:02x}({})", o.value, o.name))
        .collect();
    let declared: Vec<String> = opcodes
        .iter()
        .map(|o| format!("{} = 0x{:02x}", o.name, o.value))
        .collect();
    diags.warn(DiagnosticKind::FormatTable,
        table.opcodes.first().map_or(table.loc, |o| o.loc),
        format!(
            "the Format table's opcode cells `{}` do not match the Opcode section `{}`: the Opcode section's values are used",
            cells.join(" "),
            declared.join(", ")
        ),
    );
}

/// The document's fields: the union of the Format tables' fields in first-seen order, each with
/// its bullet; then bullets that no table mentions.
fn merge_fields(formats: &[FormatTable], bullets: Vec<Field>, diags: &mut Diags) -> Vec<Field> {
    let mut bullets: Vec<Option<Field>> = bullets.into_iter().map(Some).collect();
    let mut fields: Vec<Field> = Vec::new();
    for cell in formats.iter().flat_map(|t| &t.fields) {
        if fields.iter().any(|f| f.name == cell.name) {
            continue;
        }
        let position = bullets
            .iter()
            .position(|b| b.as_ref().is_some_and(|f| f.name == cell.name))
            .or_else(|| {
                bullets.iter().position(|b| {
                    b.as_ref()
                        .is_some_and(|f| f.name.eq_ignore_ascii_case(&cell.name))
                })
            });
        let found = position
            .and_then(|p| bullets.get_mut(p))
            .and_then(Option::take);
        let found = match (&cell.repeat, found) {
            (Some(count), None) => list_bullet(&mut bullets, &cell.name, count),
            (_, found) => found,
        };
        match found {
            Some(field) => fields.push(field),
            None => diags.warn(DiagnosticKind::FieldWithoutBullet,
                cell.loc,
                format!(
                    "field `{}` of the Format table has no bullet (expected `- **{}(type):** ...` in the Description section): its type is unknown",
                    cell.name, cell.name
                ),
            ),
        }
    }
    for field in bullets.into_iter().flatten() {
        if !formats.is_empty() {
            // (A bullet per element of a written-out list has been taken by `list_bullet`.)
            diags.warn(
                DiagnosticKind::BulletWithoutField,
                field.loc,
                format!(
                    "field `{}` is described but not in the Format table",
                    field.name
                ),
            );
        }
        fields.push(field);
    }
    fields
}

/// The bullet of a list field written out as cells: one bullet named like the list, or one per
/// element cell as upstream writes them (`Label0`, `LabelN`, `Label(Num_labels-1)`). The element
/// bullets are all taken; the first with a known type describes the list, renamed to `name`.
fn list_bullet(bullets: &mut [Option<Field>], name: &str, count: &str) -> Option<Field> {
    let tail = format!("{name}({count}-1)");
    let is_element = |f: &Field| {
        f.name.eq_ignore_ascii_case(&tail) || format_table::is_list_element(&f.name, name)
    };
    let elements: Vec<Field> = bullets
        .iter_mut()
        .filter(|b| b.as_ref().is_some_and(is_element))
        .filter_map(Option::take)
        .collect();
    let typed = elements
        .iter()
        .position(|f| !matches!(f.ty, crate::model::FieldType::Other(_)))
        .unwrap_or(0);
    let mut field = elements.into_iter().nth(typed)?;
    field.name = name.to_string();
    Some(field)
}

//! The opcode-document parser: markdown text -> [`Document`].
//!
//! [`parse_document`] never panics. It reports every problem it finds as a [`Diagnostic`]
//! (`file:line:col: error: ...`) and keeps going, so one run lists all the errors of a file.

mod diag;
pub mod dump;
mod fields;
mod format_table;
mod inline;
mod sections;
mod syntax;
mod text;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::{Diagnostic, Document, Field, FormatTable, Loc, OpcodeDef, Severity, TextBlock};
use diag::Diags;
use text::{Line, Section};

/// The result of parsing one document.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The model, present whenever the document declares at least one opcode, even when some
    /// diagnostics are errors (the partial model helps tests and tools). Check
    /// [`Parsed::has_errors`] before trusting it.
    pub document: Option<Document>,
    /// Errors and warnings in source order of discovery.
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

/// Parses every `*.md` / `*.txt` document of each directory (sorted by file name; `README.md` and
/// `index.md` skipped); a path that names a file is that one document. `Ok` holds the documents
/// and the warnings; `Err` holds every error when any document (or the file system) had one.
pub fn parse_dirs(dirs: &[PathBuf]) -> Result<(Vec<Document>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut documents = Vec::new();
    let mut diagnostics = Vec::new();
    for dir in dirs {
        let files = if dir.is_file() {
            Ok(vec![dir.clone()])
        } else {
            document_files(dir)
        };
        match files {
            Ok(files) => {
                // Documents parse independently: in parallel, collected in file order.
                let parsed: Vec<_> = files
                    .par_iter()
                    .map(|path| {
                        let (mut documents, mut diagnostics) = (Vec::new(), Vec::new());
                        parse_file(path, &mut documents, &mut diagnostics);
                        (documents, diagnostics)
                    })
                    .collect();
                for (parsed_documents, parsed_diagnostics) in parsed {
                    documents.extend(parsed_documents);
                    diagnostics.extend(parsed_diagnostics);
                }
            }
            Err(error) => diagnostics.push(io_error(dir, &error, "cannot read directory")),
        }
    }
    let (errors, warnings): (Vec<_>, Vec<_>) = diagnostics
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    if errors.is_empty() {
        Ok((documents, warnings))
    } else {
        Err(errors)
    }
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
            files.push(path);
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(files)
}

fn parse_file(path: &Path, documents: &mut Vec<Document>, diagnostics: &mut Vec<Diagnostic>) {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let parsed = parse_document(&path.display().to_string(), &text);
            diagnostics.extend(parsed.diagnostics);
            documents.extend(parsed.document);
        }
        Err(error) => diagnostics.push(io_error(path, &error, "cannot read file")),
    }
}

fn io_error(path: &Path, error: &std::io::Error, what: &str) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        loc: Loc::new(1, 1),
        severity: Severity::Error,
        message: format!("{what}: {error}"),
    }
}

/// The sections the parser knows, found by title.
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
}

fn classify_sections<'s>(sections: &'s [Section], diags: &mut Diags) -> Known<'s> {
    let mut known = Known::default();
    let mut top_level = String::new();
    for section in sections {
        let title = section.title.to_ascii_lowercase();
        if section.level <= 2 {
            top_level.clone_from(&title);
        }
        let slot = match title.as_str() {
            "opcode" => &mut known.opcode,
            "format" => &mut known.format,
            "condition" if top_level == "format" => {
                known.conditions.push(section);
                continue;
            }
            "semantics" => &mut known.semantics,
            "description" => &mut known.description,
            "properties" => &mut known.properties,
            "operand type maps" => &mut known.type_maps,
            "text" => &mut known.text,
            "notes" => &mut known.notes,
            "examples" => continue,
            _ => {
                diags.warning(
                    section.loc,
                    format!("unknown section `{}`: ignored", section.title),
                );
                continue;
            }
        };
        match slot {
            Some(first) => diags.error(
                section.loc,
                format!(
                    "duplicate `{}` section (first at {}:{})",
                    section.title, first.loc.line, first.loc.col
                ),
            ),
            None => *slot = Some(section),
        }
    }
    known
}

fn body<'l, 'a>(lines: &'l [Line<'a>], section: &Section) -> &'l [Line<'a>] {
    lines.get(section.body.clone()).unwrap_or(&[])
}

fn document(file: &str, text: &str, diags: &mut Diags) -> Option<Document> {
    if text.trim().is_empty() {
        diags.error(
            Loc::new(1, 1),
            "empty document: expected an `## Opcode` section",
        );
        return None;
    }
    if let Some((line, col)) = find_char(text, '\0') {
        diags.error(
            Loc::new(line, col),
            "binary data (NUL byte): expected a markdown opcode document",
        );
        return None;
    }
    if let Some((line, col)) = find_char(text, '\u{fffd}') {
        diags.warning(
            Loc::new(line, col),
            "invalid UTF-8 in the file: the bytes were replaced by U+FFFD",
        );
    }
    let source = text::scan(text, diags);
    let lines = &source.lines;
    let known = classify_sections(&source.sections, diags);

    let Some(opcode_section) = known.opcode else {
        diags.error(
            Loc::new(1, 1),
            "missing `## Opcode` section: expected `## Opcode` followed by `NAME = 0x..`",
        );
        return None;
    };
    let errors_before = diags.error_count();
    let opcodes = sections::opcodes(opcode_section, body(lines, opcode_section), diags);
    let opcodes_ok = diags.error_count() == errors_before;

    let formats = format_tables(&known, lines, diags);
    if opcodes_ok {
        // (A broken Opcode section would make every table disagree: reported once is enough.)
        for table in &formats {
            check_table_opcodes(table, &opcodes, diags);
        }
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
        .map(|s| sections::properties(body(lines, s), diags))
        .unwrap_or_default();
    let type_maps = known
        .type_maps
        .map(|s| sections::type_maps(body(lines, s), diags))
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
            diags.warning(
                opcode_section.loc,
                format!("the document has no `## {name}` section"),
            );
        }
    }
    if opcodes.is_empty() {
        return None;
    }
    Some(Document {
        file: file.to_string(),
        line: opcode_section.loc.line,
        opcodes,
        formats,
        fields,
        properties,
        type_maps,
        semantics: known.semantics.and_then(|s| text_block(lines, s)),
        description: description_text,
        syntax,
        syntax_comments,
        notes: known.notes.and_then(|s| text_block(lines, s)),
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

fn format_tables(known: &Known<'_>, lines: &[Line<'_>], diags: &mut Diags) -> Vec<FormatTable> {
    let Some(format) = known.format else {
        diags.error(
            known.opcode.map_or(Loc::new(1, 1), |s| s.loc),
            "missing `## Format` section: expected a Format table after the Opcode section",
        );
        return Vec::new();
    };
    let main = body(lines, format);
    let has_table = main
        .iter()
        .any(|l| l.trimmed().starts_with('|') && l.trimmed() != "|");
    let mut tables = Vec::new();
    if known.conditions.is_empty() || has_table {
        tables.extend(format_table::tables(main, None, diags));
    }
    for condition in &known.conditions {
        tables.extend(format_table::tables(
            body(lines, condition),
            Some(condition.loc),
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
    diags.error(
        table.opcodes.first().map_or(table.loc, |o| o.loc),
        format!(
            "the Format table's opcode cells `{}` do not match the Opcode section `{}`",
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
            None => diags.error(
                cell.loc,
                format!(
                    "field `{}` of the Format table has no bullet: expected `- **{}(type):** ...` in the Description section",
                    cell.name, cell.name
                ),
            ),
        }
    }
    for field in bullets.into_iter().flatten() {
        if !formats.is_empty() {
            // (A bullet per element of a written-out list has been taken by `list_bullet`.)
            diags.warning(
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

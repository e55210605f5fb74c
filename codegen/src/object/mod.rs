//! The object-format document (`spec/OBJECT_FORMAT.md`): its `struct` code blocks read into a
//! typed model ([`Format`]), from which [`emit`] generates the `.isa` container's reader and
//! writer (`visa_isa::object`).
//!
//! The notation (the document's "Notation" section): a block `name { FIELD; ... }` per record,
//! a field `TYPE name;`, `TYPE name[count];` (a table counted by an earlier field),
//! `TYPE name = VALUE;` (a fixed value) and an optional trailing `// TYPE before MAJOR.MINOR`
//! (another type in older files). A document is an object-format document when it has at least
//! one `struct` code block; such documents are not opcode documents (`parse::document_files`
//! leaves them out).

pub mod emit;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use crate::model::{Diagnostic, DiagnosticKind, Loc, Severity};

/// The info string of the code blocks that declare records.
pub const STRUCT_INFO: &str = "struct";

/// A field's stored type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    /// An integer of `size` bytes (1, 2 or 4), signed or not.
    Int {
        /// Bytes.
        size: u8,
        /// Signed (`B`, `W`, `D`).
        signed: bool,
    },
    /// Characters ending with a zero byte.
    Cstr,
    /// Another record.
    Record(String),
}

impl FieldType {
    fn parse(word: &str) -> Self {
        match word {
            "UB" => Self::Int {
                size: 1,
                signed: false,
            },
            "UW" => Self::Int {
                size: 2,
                signed: false,
            },
            "UD" => Self::Int {
                size: 4,
                signed: false,
            },
            "B" => Self::Int {
                size: 1,
                signed: true,
            },
            "W" => Self::Int {
                size: 2,
                signed: true,
            },
            "D" => Self::Int {
                size: 4,
                signed: true,
            },
            "CSTR" => Self::Cstr,
            other => Self::Record(other.to_string()),
        }
    }

    /// The notation's spelling.
    pub fn spelling(&self) -> String {
        match self {
            Self::Int { size, signed } => {
                let base = match size {
                    1 => "B",
                    2 => "W",
                    _ => "D",
                };
                if *signed {
                    base.to_string()
                } else {
                    format!("U{base}")
                }
            }
            Self::Cstr => "CSTR".to_string(),
            Self::Record(name) => name.clone(),
        }
    }
}

/// One field of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// Its type in current files.
    pub ty: FieldType,
    /// For a table, the earlier field that counts its elements.
    pub count: Option<String>,
    /// A fixed value a reader checks.
    pub fixed: Option<u64>,
    /// Another type in files older than the version: `(type, (major, minor))`.
    pub before: Option<(FieldType, (u8, u8))>,
    /// Where it is written.
    pub loc: Loc,
}

/// A record (`name { ... }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record's name.
    pub name: String,
    /// Its fields in storage order.
    pub fields: Vec<Field>,
    /// Where it is declared.
    pub loc: Loc,
}

impl Record {
    /// Whether field `name` counts a table of this record (it is then not kept in memory).
    pub fn is_count(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.count.as_deref() == Some(name))
    }
}

/// The records of an object-format document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Format {
    /// The document's path.
    pub file: String,
    /// Every record, in document order.
    pub records: Vec<Record>,
}

impl Format {
    /// The record called `name`.
    pub fn record(&self, name: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.name == name)
    }
}

/// The object-format document of `dir` (the first markdown file, in name order, with a `struct`
/// code block) and its text.
pub fn format_document_in(dir: &std::path::Path) -> Option<(std::path::PathBuf, String)> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    paths.sort();
    paths.into_iter().find_map(|path| {
        let text = std::fs::read_to_string(&path).ok()?;
        is_format_document(&text).then_some((path, text))
    })
}

/// Whether `text` is an object-format document (it has a `struct` code block).
pub fn is_format_document(text: &str) -> bool {
    Parser::new(text).any(|event| {
        matches!(event, Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
            if info.split_whitespace().next() == Some(STRUCT_INFO))
    })
}

/// Reads the records of an object-format document. Every problem (a line that is not a field,
/// a table counted by no earlier integer field, a record type that is not declared, a name
/// declared twice) is an error naming its `file:line:col`.
pub fn parse(file: &str, text: &str) -> Result<Format, Vec<Diagnostic>> {
    let mut format = Format {
        file: file.to_string(),
        records: Vec::new(),
    };
    let mut errors = Vec::new();
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| line_starts.partition_point(|&s| s <= offset) as u32;
    let mut in_block = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split_whitespace().next() == Some(STRUCT_INFO) =>
            {
                // The block's text starts on the line after the fence.
                in_block = Some(line_of(range.start) + 1);
            }
            Event::Text(body) => {
                if let Some(first_line) = in_block {
                    parse_block(file, &body, first_line, &mut format, &mut errors);
                }
            }
            Event::End(TagEnd::CodeBlock) => in_block = None,
            _ => {}
        }
    }
    check(&format, &mut errors);
    if format.records.is_empty() {
        errors.push(error(
            file,
            Loc::new(1, 1),
            "no `struct` code block".to_string(),
        ));
    }
    if errors.is_empty() {
        Ok(format)
    } else {
        Err(errors)
    }
}

fn error(file: &str, loc: Loc, message: String) -> Diagnostic {
    Diagnostic {
        file: file.to_string(),
        loc,
        severity: Severity::Error,
        message,
        kind: DiagnosticKind::KeptAsText,
    }
}

fn parse_block(
    file: &str,
    body: &str,
    first_line: u32,
    format: &mut Format,
    errors: &mut Vec<Diagnostic>,
) {
    let mut current: Option<Record> = None;
    for (line_no, raw) in (first_line..).zip(body.lines()) {
        let indent = raw.len() - raw.trim_start().len();
        let loc = Loc::new(line_no, indent as u32 + 1);
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_suffix('{').map(str::trim) {
            if current.is_some() || !is_identifier(name) {
                errors.push(error(
                    file,
                    loc,
                    format!("expected a record `name {{`, found `{line}`"),
                ));
                continue;
            }
            current = Some(Record {
                name: name.to_string(),
                fields: Vec::new(),
                loc,
            });
            continue;
        }
        if line == "}" {
            match current.take() {
                Some(record) => format.records.push(record),
                None => errors.push(error(file, loc, "`}` closes no record".to_string())),
            }
            continue;
        }
        let Some(record) = current.as_mut() else {
            errors.push(error(file, loc, format!("`{line}` is outside a record")));
            continue;
        };
        match parse_field(line, loc) {
            Ok(field) => record.fields.push(field),
            Err(message) => errors.push(error(file, loc, message)),
        }
    }
    if let Some(record) = current {
        errors.push(error(
            file,
            record.loc,
            format!("record `{}` is not closed", record.name),
        ));
    }
}

fn is_identifier(word: &str) -> bool {
    !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !word.starts_with(|c: char| c.is_ascii_digit())
}

fn parse_number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

fn parse_field(line: &str, loc: Loc) -> Result<Field, String> {
    let (decl, comment) = match line.split_once("//") {
        Some((decl, comment)) => (decl.trim(), Some(comment.trim())),
        None => (line, None),
    };
    let decl = decl
        .strip_suffix(';')
        .ok_or_else(|| format!("expected `TYPE name;`, found `{line}`"))?
        .trim();
    let (decl, fixed) = match decl.split_once('=') {
        Some((decl, value)) => {
            let value = parse_number(value.trim())
                .ok_or_else(|| format!("`{}` is not a number", value.trim()))?;
            (decl.trim(), Some(value))
        }
        None => (decl, None),
    };
    let (ty, rest) = decl
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("expected `TYPE name;`, found `{line}`"))?;
    let rest = rest.trim();
    let (name, count) = match rest.split_once('[') {
        Some((name, count)) => {
            let count = count
                .strip_suffix(']')
                .ok_or_else(|| format!("expected `name[count]`, found `{rest}`"))?;
            (name.trim(), Some(count.trim().to_string()))
        }
        None => (rest, None),
    };
    if !is_identifier(ty) || !is_identifier(name) {
        return Err(format!("expected `TYPE name;`, found `{line}`"));
    }
    let before = match comment {
        None => None,
        Some(comment) => Some(parse_before(comment)?),
    };
    Ok(Field {
        name: name.to_string(),
        ty: FieldType::parse(ty),
        count,
        fixed,
        before,
        loc,
    })
}

/// `UW before 3.4`.
fn parse_before(comment: &str) -> Result<(FieldType, (u8, u8)), String> {
    let bad = || format!("expected `// TYPE before MAJOR.MINOR`, found `// {comment}`");
    let mut words = comment.split_whitespace();
    let (Some(ty), Some("before"), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(bad());
    };
    let (major, minor) = version.split_once('.').ok_or_else(bad)?;
    let version = (
        major.parse().map_err(|_| bad())?,
        minor.parse().map_err(|_| bad())?,
    );
    let ty = FieldType::parse(ty);
    if !matches!(ty, FieldType::Int { .. }) {
        return Err(bad());
    }
    Ok((ty, version))
}

/// Cross-record rules: names unique, tables counted by an earlier integer field of the record,
/// record types declared, fixed values and older types only on integer fields.
fn check(format: &Format, errors: &mut Vec<Diagnostic>) {
    let file = &format.file;
    for (i, record) in format.records.iter().enumerate() {
        if format.records[..i].iter().any(|r| r.name == record.name) {
            errors.push(error(
                file,
                record.loc,
                format!("record `{}` is declared twice", record.name),
            ));
        }
        for (j, field) in record.fields.iter().enumerate() {
            let earlier = &record.fields[..j];
            if earlier.iter().any(|f| f.name == field.name) {
                errors.push(error(
                    file,
                    field.loc,
                    format!("field `{}` is declared twice", field.name),
                ));
            }
            if let FieldType::Record(name) = &field.ty
                && format.record(name).is_none()
            {
                errors.push(error(
                    file,
                    field.loc,
                    format!("type `{name}` is not a declared record"),
                ));
            }
            if let Some(count) = &field.count {
                let counted = earlier.iter().find(|f| &f.name == count);
                match counted {
                    Some(f)
                        if matches!(f.ty, FieldType::Int { signed: false, .. })
                            && f.count.is_none()
                            && f.fixed.is_none() =>
                    {
                        if record
                            .fields
                            .iter()
                            .filter(|g| g.count.as_deref() == Some(count))
                            .count()
                            > 1
                        {
                            errors.push(error(
                                file,
                                field.loc,
                                format!("`{count}` counts more than one table"),
                            ));
                        }
                    }
                    _ => errors.push(error(
                        file,
                        field.loc,
                        format!(
                            "`{count}` is not an earlier unsigned integer field of `{}`",
                            record.name
                        ),
                    )),
                }
            } else if !matches!(field.ty, FieldType::Int { .. })
                && !matches!(field.ty, FieldType::Record(_))
            {
                errors.push(error(
                    file,
                    field.loc,
                    format!("`{}`: a CSTR field must be a table", field.name),
                ));
            }
            if (field.fixed.is_some() || field.before.is_some())
                && (!matches!(field.ty, FieldType::Int { .. }) || field.count.is_some())
            {
                errors.push(error(
                    file,
                    field.loc,
                    format!(
                        "`{}`: a fixed value or an older type needs a single integer field",
                        field.name
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# T\n\n```struct\nouter {\n    UD magic = 0x41;\n    UW n; // UB before 3.7\n    inner items[n];\n}\n```\n\n```struct\ninner {\n    W x;\n    UB len;\n    UB bytes[len];\n}\n```\n";

    #[test]
    fn records_fields_counts_and_versions_are_read() {
        let format = parse("t.md", DOC).expect("parses");
        assert_eq!(format.records.len(), 2);
        let outer = &format.records[0];
        assert_eq!(outer.name, "outer");
        assert_eq!(outer.fields[0].fixed, Some(0x41));
        assert_eq!(
            outer.fields[1].before,
            Some((
                FieldType::Int {
                    size: 1,
                    signed: false
                },
                (3, 7)
            ))
        );
        assert_eq!(outer.fields[2].count.as_deref(), Some("n"));
        assert!(outer.is_count("n"));
        assert_eq!(outer.fields[1].loc, Loc::new(6, 5));
        assert_eq!(
            format.records[1].fields[0].ty,
            FieldType::Int {
                size: 2,
                signed: true
            }
        );
        assert!(is_format_document(DOC));
        assert!(!is_format_document("## Opcode\n\n  ADD = 0x01\n"));
    }

    #[test]
    fn mistakes_are_errors_with_their_line() {
        let bad = "```struct\nr {\n    UB items[later];\n    UW later;\n    nothing x;\n    UB y\n}\n```\n";
        let errors = parse("b.md", bad).expect_err("rejected");
        let lines: Vec<u32> = errors.iter().map(|e| e.loc.line).collect();
        assert!(lines.contains(&3), "{errors:?}");
        assert!(lines.contains(&5), "{errors:?}");
        assert!(lines.contains(&6), "{errors:?}");
    }

    #[test]
    fn the_projects_document_parses() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/OBJECT_FORMAT.md");
        let text = std::fs::read_to_string(path).expect("spec/OBJECT_FORMAT.md");
        let format = parse(path, &text).unwrap_or_else(|e| panic!("{e:?}"));
        let names: Vec<&str> = format.records.iter().map(|r| r.name.as_str()).collect();
        for needed in [
            "common_isa_header",
            "kernel_info",
            "kernel_data",
            "function_data",
            "var_info",
            "input_info",
            "attribute_info",
        ] {
            assert!(names.contains(&needed), "{needed} missing from {names:?}");
        }
    }
}

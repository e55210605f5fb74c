//! Structural variants of an opcode document: the same facts written differently (lists indented
//! more or less, description lists added, unknown sections, sections in another order, heading
//! levels shifted, tables with an extra column or alignment markers, HTML comments, tabs,
//! trailing spaces, CRLF line ends, optional sections removed, fences with or without a
//! language). A variant must give the same opcodes, encodings, bitfield codes and syntax as the
//! original ([`signature`]), with warnings at most.
//!
//! Used by `codegen/tests/structural_variants.rs` (fixed seed) and by the `spec_variants` fuzz
//! target (`fuzz/`), which includes this file. It needs nothing but `std` and `visa-codegen`.
#![allow(dead_code)] // each user takes what it needs

use visa_codegen::model::{Document, Platform, SyntaxTemplate};

/// A small deterministic generator (xorshift64*): the variants depend on the seed only.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The kinds of variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transform {
    /// One level of nested list items indented 2 or 4 columns deeper.
    IndentDeeper,
    /// One level of nested list items indented 2 or 4 columns less (never below 0).
    IndentShallower,
    /// A description list (`- 2D_array: ...`) under some field bullets.
    DescriptionUnderFields,
    /// A description item under some codes, indented deeper than the code.
    DescriptionUnderCodes,
    /// A section the parser does not know, before a top-level heading or at the end.
    UnknownSection,
    /// The top-level sections shuffled.
    ReorderSections,
    /// Every heading one level deeper (or, when all allow it, one level higher).
    ShiftHeadings,
    /// An empty column at the end of every Format table.
    ExtraColumn,
    /// Alignment markers (`:--`, `:-:`, `--:`) in the delimiter rows of the Format tables.
    AlignmentRow,
    /// HTML comments (one-line and multi-line) between blocks.
    HtmlComments,
    /// Leading runs of four spaces as tabs, and tabs after list markers.
    Tabs,
    /// Spaces and tabs at the end of lines.
    TrailingSpaces,
    /// CRLF line ends.
    Crlf,
    /// Optional sections removed (Semantics, Notes, Properties, Operand type maps, Examples).
    RemoveOptionalSections,
    /// A language added to fences that have none, removed from those that have one.
    FenceLanguages,
}

impl Transform {
    pub const ALL: [Transform; 15] = [
        Transform::IndentDeeper,
        Transform::IndentShallower,
        Transform::DescriptionUnderFields,
        Transform::DescriptionUnderCodes,
        Transform::UnknownSection,
        Transform::ReorderSections,
        Transform::ShiftHeadings,
        Transform::ExtraColumn,
        Transform::AlignmentRow,
        Transform::HtmlComments,
        Transform::Tabs,
        Transform::TrailingSpaces,
        Transform::Crlf,
        Transform::RemoveOptionalSections,
        Transform::FenceLanguages,
    ];
}

/// A line of the document with what the variants need to know about it.
#[derive(Debug, Clone)]
struct Line {
    text: String,
    /// Inside a fenced block, or a fence line itself.
    fenced: bool,
    /// A markdown heading: its level.
    heading: Option<usize>,
    /// The title of the section the line is in (lower case; "" before the first heading).
    section: String,
    /// A table row (`|` first).
    table: bool,
}

fn indent_of(text: &str) -> usize {
    text.len() - text.trim_start_matches(' ').len()
}

fn is_item(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ")) && t.len() > 2
}

/// A field bullet `- **Name(type):**`.
fn is_field_bullet(text: &str) -> bool {
    let t = text.trim_start();
    is_item(t) && t[2..].trim_start().starts_with("**") && t.contains("):**")
}

/// A code item `- 0b01: ...` (possibly with platform tags first).
fn is_code_item(text: &str) -> bool {
    if !is_item(text) {
        return false;
    }
    let mut rest = text.trim_start()[2..].trim_start();
    while rest.starts_with('{') {
        match rest.find('}') {
            Some(close) => rest = rest[close + 1..].trim_start(),
            None => return false,
        }
    }
    let Some((token, _)) = rest.split_once(':') else {
        return false;
    };
    let token = token.trim();
    let digits = token
        .strip_prefix("0b")
        .or_else(|| token.strip_prefix("0x"))
        .unwrap_or(token);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit())
}

fn split(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    let mut section = String::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = raw.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        let is_fence_line = marker.len() >= 3
            && marker
                .chars()
                .all(|c| c == marker.chars().next().unwrap_or('`'));
        let fenced = fence.is_some() || is_fence_line;
        match (&fence, is_fence_line) {
            (None, true) => fence = Some(marker.clone()),
            (Some(open), true) if marker.starts_with(open.as_str()) && trimmed.trim() == marker => {
                fence = None
            }
            _ => {}
        }
        let heading = (!fenced && raw.starts_with('#'))
            .then(|| raw.chars().take_while(|&c| c == '#').count())
            .filter(|&n| n <= 6 && raw[n..].starts_with(' '));
        if let Some(level) = heading {
            section = raw[level..]
                .trim()
                .trim_end_matches('#')
                .trim()
                .to_ascii_lowercase();
        }
        out.push(Line {
            text: raw.to_string(),
            fenced,
            heading,
            section: section.clone(),
            table: !fenced && trimmed.starts_with('|'),
        });
    }
    out
}

fn join(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` with `transform` applied (choices drawn from `rng`).
pub fn apply(text: &str, transform: Transform, rng: &mut Rng) -> String {
    let mut lines = split(text);
    match transform {
        Transform::IndentDeeper | Transform::IndentShallower => {
            let deeper = transform == Transform::IndentDeeper;
            // The indentation levels of nested items in the Description section.
            let mut levels: Vec<usize> = lines
                .iter()
                .filter(|l| !l.fenced && l.section == "description" && is_item(&l.text))
                .map(|l| indent_of(&l.text))
                .filter(|&i| i > 0)
                .collect();
            levels.sort_unstable();
            levels.dedup();
            if levels.is_empty() {
                return join(&lines);
            }
            let level = levels[rng.below(levels.len())];
            let by = if rng.chance(50) { 2 } else { 4 };
            for line in lines.iter_mut().filter(|l| {
                !l.fenced
                    && l.section == "description"
                    && is_item(&l.text)
                    && indent_of(&l.text) == level
            }) {
                let body = line.text.trim_start_matches(' ').to_string();
                let indent = if deeper {
                    level + by
                } else {
                    level.saturating_sub(by)
                };
                line.text = format!("{}{body}", " ".repeat(indent));
            }
        }
        Transform::DescriptionUnderFields | Transform::DescriptionUnderCodes => {
            let fields = transform == Transform::DescriptionUnderFields;
            let mut out = Vec::new();
            for line in lines {
                let target = !line.fenced
                    && line.section == "description"
                    && if fields {
                        is_field_bullet(&line.text)
                    } else {
                        is_code_item(&line.text)
                    };
                let indent = indent_of(&line.text) + 2;
                out.push(line.clone());
                if target && rng.chance(60) {
                    let items: &[&str] = if fields {
                        &[
                            "- 2D_array: the array index, not normalized",
                            "- Other surface types: the normalized coordinate",
                        ]
                    } else {
                        &["- Note: as on every platform"]
                    };
                    for item in items {
                        out.push(Line {
                            text: format!("{}{item}", " ".repeat(indent)),
                            ..line.clone()
                        });
                    }
                }
            }
            lines = out;
        }
        Transform::UnknownSection => {
            let top = top_level(&lines);
            let starts: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].heading == Some(top))
                .collect();
            let hashes = "#".repeat(top);
            let section = [
                String::new(),
                format!("{hashes} Restrictions"),
                String::new(),
                "    Applies to every platform; nothing more to add.".to_string(),
                String::new(),
            ];
            let at = if starts.is_empty() || rng.chance(25) {
                lines.len()
            } else {
                starts[rng.below(starts.len())]
            };
            let new: Vec<Line> = section
                .iter()
                .map(|text| Line {
                    text: text.clone(),
                    fenced: false,
                    heading: None,
                    section: String::new(),
                    table: false,
                })
                .collect();
            lines.splice(at..at, new);
        }
        Transform::ReorderSections => {
            let top = top_level(&lines);
            let first = lines.iter().position(|l| l.heading == Some(top));
            let Some(first) = first else {
                return join(&lines);
            };
            let mut sections: Vec<Vec<Line>> = Vec::new();
            for line in lines.drain(first..) {
                if line.heading == Some(top) || sections.is_empty() {
                    sections.push(Vec::new());
                }
                if let Some(last) = sections.last_mut() {
                    last.push(line);
                }
            }
            // Each section ends with a blank line so that it cannot run into the next.
            for section in &mut sections {
                if section.last().is_some_and(|l| !l.text.trim().is_empty()) {
                    section.push(Line {
                        text: String::new(),
                        fenced: false,
                        heading: None,
                        section: String::new(),
                        table: false,
                    });
                }
            }
            for i in (1..sections.len()).rev() {
                let j = rng.below(i + 1);
                sections.swap(i, j);
            }
            lines.extend(sections.into_iter().flatten());
        }
        Transform::ShiftHeadings => {
            let levels: Vec<usize> = lines.iter().filter_map(|l| l.heading).collect();
            let up = levels.iter().all(|&l| l > 1) && rng.chance(50);
            let fits = levels.iter().all(|&l| l < 6);
            for line in lines.iter_mut() {
                if let Some(level) = line.heading {
                    if up {
                        line.text = line.text[1..].to_string();
                    } else if fits {
                        line.text = format!("#{}", line.text);
                    }
                    let _ = level;
                }
            }
        }
        Transform::ExtraColumn => {
            for line in lines
                .iter_mut()
                .filter(|l| l.table && matches!(l.section.as_str(), "format" | "condition"))
            {
                let text = line.text.trim_end().to_string();
                if !text.ends_with('|') {
                    continue;
                }
                let delimiter = text.trim_matches('|').split('|').all(|c| {
                    !c.trim().is_empty() && c.trim().chars().all(|ch| ch == '-' || ch == ':')
                });
                line.text = format!("{text}{}", if delimiter { " --- |" } else { " |" });
            }
        }
        Transform::AlignmentRow => {
            for line in lines
                .iter_mut()
                .filter(|l| l.table && matches!(l.section.as_str(), "format" | "condition"))
            {
                let text = line.text.trim().to_string();
                let cells: Vec<&str> = text.trim_matches('|').split('|').collect();
                let delimiter = cells
                    .iter()
                    .all(|c| !c.trim().is_empty() && c.trim().chars().all(|ch| ch == '-'));
                if delimiter {
                    let marks = [":--", ":-:", "--:", "---"];
                    let row: Vec<&str> = cells.iter().map(|_| marks[rng.below(4)]).collect();
                    line.text = format!("| {} |", row.join(" | "));
                }
            }
        }
        Transform::HtmlComments => {
            let mut out = Vec::new();
            let count = lines.len();
            for (i, line) in lines.into_iter().enumerate() {
                // Between blocks: before a heading or a blank line, outside fences and tables.
                let boundary = !line.fenced
                    && !line.table
                    && (line.heading.is_some() || line.text.trim().is_empty());
                if boundary && i > 0 && i + 1 < count && rng.chance(30) {
                    let comment = if rng.chance(50) {
                        vec!["<!-- editor's note: nothing to see here -->".to_string()]
                    } else {
                        vec![
                            "<!--".to_string(),
                            "  - **Hidden(ub):** a commented-out bullet".to_string(),
                            "  ## Not a heading".to_string(),
                            "-->".to_string(),
                        ]
                    };
                    if line.heading.is_some() {
                        // A comment directly before a heading, then a blank line.
                        for text in comment {
                            out.push(Line {
                                text,
                                ..line.clone()
                            });
                        }
                        out.push(Line {
                            text: String::new(),
                            heading: None,
                            ..line.clone()
                        });
                    } else {
                        out.push(line.clone());
                        for text in comment {
                            out.push(Line {
                                text,
                                heading: None,
                                ..line.clone()
                            });
                        }
                        out.push(Line {
                            text: String::new(),
                            heading: None,
                            ..line.clone()
                        });
                        continue;
                    }
                }
                out.push(line);
            }
            lines = out;
        }
        Transform::Tabs => {
            let marker_tabs = rng.chance(50);
            for line in lines.iter_mut() {
                let indent = indent_of(&line.text);
                let tabs = indent / 4;
                let mut text = format!("{}{}", "\t".repeat(tabs), &line.text[tabs * 4..]);
                if marker_tabs && !line.fenced && is_item(&line.text) {
                    let at = text.len() - text.trim_start().len();
                    text.replace_range(at + 1..at + 2, "\t");
                }
                line.text = text;
            }
        }
        Transform::TrailingSpaces => {
            for line in lines.iter_mut() {
                if rng.chance(40) {
                    let tail = ["  ", " ", "\t", "   "][rng.below(4)];
                    line.text.push_str(tail);
                }
            }
        }
        Transform::Crlf => {
            return join(&lines).replace('\n', "\r\n");
        }
        Transform::RemoveOptionalSections => {
            let optional = [
                "semantics",
                "notes",
                "properties",
                "operand type maps",
                "examples",
            ];
            let remove: Vec<&str> = optional
                .iter()
                .copied()
                .filter(|_| rng.chance(60))
                .collect();
            let mut out = Vec::new();
            let mut skipping: Option<usize> = None;
            for line in lines {
                if let Some(level) = line.heading {
                    match skipping {
                        Some(skip) if level > skip => continue,
                        _ => skipping = None,
                    }
                    if remove.contains(&line.section.as_str()) {
                        skipping = Some(level);
                        continue;
                    }
                }
                if skipping.is_none() {
                    out.push(line);
                }
            }
            lines = out;
        }
        Transform::FenceLanguages => {
            let mut open = false;
            for line in lines.iter_mut() {
                let trimmed = line.text.trim_start();
                if !(trimmed.starts_with("```") || trimmed.starts_with("~~~")) {
                    continue;
                }
                if open {
                    open = false;
                    continue;
                }
                open = true;
                let indent = &line.text[..line.text.len() - trimmed.len()];
                let marker = &trimmed[..3];
                let info = trimmed[3..].trim();
                line.text = if info.is_empty() {
                    format!("{indent}{marker}text")
                } else {
                    format!("{indent}{marker}")
                };
            }
        }
    }
    join(&lines)
}

/// The smallest heading level of the document (the sections reordering and insertion work on).
fn top_level(lines: &[Line]) -> usize {
    lines.iter().filter_map(|l| l.heading).min().unwrap_or(2)
}

/// Applies `count` transforms drawn from `rng`; returns the text and the transforms.
pub fn variant(text: &str, count: usize, rng: &mut Rng) -> (String, Vec<Transform>) {
    let mut text = text.to_string();
    let mut applied = Vec::new();
    let mut crlf = false;
    for _ in 0..count {
        let transform = Transform::ALL[rng.below(Transform::ALL.len())];
        // CRLF last: the other transforms work on LF lines.
        if transform == Transform::Crlf {
            crlf = true;
        } else {
            text = apply(&text, transform, rng);
        }
        applied.push(transform);
    }
    if crlf {
        text = text.replace('\n', "\r\n");
    }
    (text, applied)
}

fn platforms(list: &[Platform]) -> Vec<String> {
    list.iter()
        .map(|p| format!("{}{:?}", p.name, p.bound))
        .collect()
}

/// What a variant must keep: opcodes, encodings (Format tables: conditions and cells; fields:
/// types and what the generator reads from their text), bitfield codes and syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub opcodes: Vec<(String, u32)>,
    pub formats: Vec<FormatSignature>,
    pub fields: Vec<FieldSignature>,
    pub syntax: Vec<(String, Option<SyntaxTemplate>)>,
}

/// A Format table: its condition, its cells (name, optional, list count) and how many cells
/// could not be read.
pub type FormatSignature = (Option<String>, Vec<(String, bool, Option<String>)>, usize);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSignature {
    pub name: String,
    pub ty: String,
    pub allowed_types: Vec<String>,
    pub operand_classes: Vec<String>,
    pub range: Option<(i64, i64)>,
    pub values: Vec<(u64, String, Vec<String>)>,
    pub ranges: Vec<(u64, u64, String)>,
    pub bitfields: Vec<BitSignature>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSignature {
    pub hi: u32,
    pub lo: u32,
    /// The sub-field's name as the syntax binding reads it (the text before its first `:`).
    pub name: String,
    pub platforms: Vec<String>,
    pub codes: Vec<(u64, String, Vec<String>)>,
    pub ranges: Vec<(u64, u64, String)>,
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn signature(doc: &Document) -> Signature {
    let codes = |list: &[visa_codegen::model::CodeValue]| {
        list.iter()
            .map(|c| (c.code, words(&c.label), platforms(&c.platforms)))
            .collect::<Vec<_>>()
    };
    let ranges = |list: &[visa_codegen::model::CodeRange]| {
        list.iter()
            .map(|r| (r.first, r.last, words(&r.label)))
            .collect::<Vec<_>>()
    };
    Signature {
        opcodes: doc
            .opcodes
            .iter()
            .map(|o| (o.name.clone(), o.value))
            .collect(),
        formats: doc
            .formats
            .iter()
            .map(|t| {
                (
                    t.condition.as_deref().map(words),
                    t.fields
                        .iter()
                        .map(|f| (f.name.clone(), f.optional, f.repeat.clone()))
                        .collect(),
                    t.unread_cells.len(),
                )
            })
            .collect(),
        fields: doc
            .fields
            .iter()
            .map(|f| FieldSignature {
                name: f.name.clone(),
                ty: f.ty.token().to_string(),
                allowed_types: f
                    .allowed_types
                    .iter()
                    .map(|t| format!("{}{:?}", t.name, platforms(&t.platforms)))
                    .collect(),
                operand_classes: f.operand_classes.clone(),
                range: f.range,
                values: codes(&f.values),
                ranges: ranges(&f.ranges),
                bitfields: f
                    .bitfields
                    .iter()
                    .map(|b| BitSignature {
                        hi: b.hi,
                        lo: b.lo,
                        name: b
                            .description
                            .lines()
                            .next()
                            .and_then(|first| first.split_once(':'))
                            .map(|(head, _)| words(head))
                            .unwrap_or_default(),
                        platforms: platforms(&b.platforms),
                        codes: codes(&b.values),
                        ranges: ranges(&b.ranges),
                    })
                    .collect(),
            })
            .collect(),
        syntax: doc
            .syntax
            .iter()
            .map(|s| (words(&s.text), s.template.clone()))
            .collect(),
    }
}

//! The `## Format` table (and its `### CONDITION` variants), read from the raw source lines.
//!
//! GFM drops the cells of a row that is wider than its header (OWORD_LD_UNALIGNED has such a
//! row), so the rows are split here rather than taken from pulldown-cmark's table events.

use super::diag::Diags;
use super::inline::{collapse_whitespace, list_item, parse_int};
use super::keep_line;
use super::text::Line;
use crate::model::{DiagnosticKind, ExtraText, FormatField, FormatTable, Loc, OpcodeDef};

/// Parses every table in `lines`. `condition_heading` is set for a `### CONDITION` sub-section:
/// its non-table lines form the condition text. Other text is kept as text of the section.
pub(crate) fn tables(
    lines: &[Line<'_>],
    condition_heading: Option<Loc>,
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Vec<FormatTable> {
    let mut out = Vec::new();
    let mut condition: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        if is_table_line(line) {
            let start = i;
            while lines.get(i).is_some_and(is_table_line) {
                i += 1;
            }
            let rows = lines.get(start..i).unwrap_or(&[]);
            let cond = condition_heading.map(|_| condition.join("; "));
            if let Some(table) = table(rows, cond, diags) {
                out.push(table);
            }
            continue;
        }
        if !line.is_blank() && !line.is_fence {
            if condition_heading.is_some() {
                let text = list_item(line.text).unwrap_or(line.trimmed());
                condition.push(collapse_whitespace(text));
            } else {
                diags.warning(
                    line.loc_of_content(),
                    format!(
                        "text outside the table in the Format section: `{}`: kept as text",
                        line.trimmed()
                    ),
                );
                keep_line(extra, "Format", line);
            }
        }
        i += 1;
    }
    let empty = lines.iter().all(|l| l.is_blank() || l.is_fence);
    let has_table_lines = lines.iter().any(is_table_line);
    if has_table_lines {
        // Malformed tables have been reported already.
    } else if empty && condition_heading.is_none() {
        let loc = lines.first().map_or(Loc::new(1, 1), |l| Loc::new(l.no, 1));
        diags.warn(
            DiagnosticKind::FormatTable,
            loc,
            "the Format section is empty: the instruction has no operand fields",
        );
    } else {
        let loc = condition_heading
            .or_else(|| lines.first().map(|l| Loc::new(l.no, 1)))
            .unwrap_or(Loc::new(1, 1));
        diags.warn(
            DiagnosticKind::FormatTable,
            loc,
            "expected a Format table (`| 0x.. (NAME) | Field | ... |`)",
        );
    }
    out
}

fn is_table_line(line: &Line<'_>) -> bool {
    !line.in_fence && line.trimmed().starts_with('|') && line.trimmed() != "|"
}

/// A cell: its trimmed text and the byte offset of that text in the line.
struct Cell<'a> {
    text: &'a str,
    offset: usize,
}

fn cell(line: &str, from: usize, to: usize) -> Cell<'_> {
    let raw = line.get(from..to).unwrap_or("");
    let lead = raw.len() - raw.trim_start().len();
    Cell {
        text: raw.trim(),
        offset: from + lead,
    }
}

fn split_cells(line: &str) -> Vec<Cell<'_>> {
    let mut cells = Vec::new();
    let mut start: Option<usize> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '|' if !escaped => {
                if let Some(s) = start {
                    cells.push(cell(line, s, i));
                }
                start = Some(i + 1);
            }
            _ => {}
        }
        escaped = false;
    }
    // Text after the last pipe is a cell of a row written without its closing pipe.
    if let Some(s) = start.filter(|&s| !line[s..].trim().is_empty()) {
        cells.push(cell(line, s, line.len()));
    }
    cells
}

fn is_delimiter_row(cells: &[Cell<'_>]) -> bool {
    !cells.is_empty()
        && cells.iter().all(|c| {
            let t = c.text.trim_start_matches(':').trim_end_matches(':');
            !t.is_empty() && t.chars().all(|ch| ch == '-')
        })
}

fn table(rows: &[Line<'_>], condition: Option<String>, diags: &mut Diags) -> Option<FormatTable> {
    let header = rows.first()?;
    let loc = header.loc_of_content();
    let body_start = match rows.get(1) {
        Some(second) if is_delimiter_row(&split_cells(second.text)) => 2,
        Some(second) => {
            diags.warn(DiagnosticKind::FormatTable,
                second.loc_of_content(),
                "no delimiter row such as `| --- | --- |` under the table header: the rows are read all the same",
            );
            1
        }
        None => 1,
    };
    let body = rows.get(body_start..).unwrap_or(&[]);
    if body
        .iter()
        .all(|row| is_delimiter_row(&split_cells(row.text)))
    {
        diags.warn(
            DiagnosticKind::FormatTable,
            loc,
            "the Format table has no rows (truncated table?)",
        );
        return None;
    }
    let mut opcodes: Vec<OpcodeDef> = Vec::new();
    let mut fields: Vec<FormatField> = Vec::new();
    let mut unread_cells: Vec<Loc> = Vec::new();
    let mut first_row = true;
    for row in body {
        let cells = split_cells(row.text);
        if is_delimiter_row(&cells) {
            diags.warn(
                DiagnosticKind::FormatTable,
                row.loc_of_content(),
                "a second delimiter row in the Format table: ignored",
            );
            continue;
        }
        let row_index = usize::from(!first_row);
        first_row = false;
        for (cell_index, cell) in cells.iter().enumerate() {
            let cell_loc = row.loc_at(cell.offset);
            if row_index == 0 && cell_index == 0 && !looks_like_opcode_cell(cell.text) {
                diags.warn(DiagnosticKind::FormatTable,
                    cell_loc,
                    format!(
                        "expected an opcode cell such as `0x4e(SVM)` at the start of the Format table, found `{}` (the Opcode section gives the opcode)",
                        cell.text
                    ),
                );
            }
            if cell.text.is_empty() {
                continue;
            }
            if looks_like_opcode_cell(cell.text) {
                match opcode_cell(cell.text) {
                    Some((name, value)) => opcodes.push(OpcodeDef {
                        name,
                        value,
                        loc: cell_loc,
                    }),
                    None => diags.warn(DiagnosticKind::FormatTable,
                        cell_loc,
                        format!(
                            "bad opcode cell `{}` (expected `0x..(NAME)` with a value of one byte): ignored, the Opcode section gives the opcode",
                            cell.text
                        ),
                    ),
                }
                continue;
            }
            let (name, optional) = match cell.text.strip_suffix('*') {
                Some(rest) => (rest.strip_suffix('\\').unwrap_or(rest).trim(), true),
                None => (cell.text, false),
            };
            if !is_field_name(name) {
                diags.warn(DiagnosticKind::FormatTable,
                    cell_loc,
                    format!(
                        "`{}` in the Format table is not a field name: the instruction's encoding is incomplete",
                        cell.text
                    ),
                );
                unread_cells.push(cell_loc);
                continue;
            }
            // A conditional table may name a field twice: the layout writes it again.
            let repeat_allowed = condition.is_some();
            if let Some(first) = fields
                .iter()
                .find(|f| f.name == name)
                .filter(|_| !repeat_allowed)
            {
                diags.warn(DiagnosticKind::FormatTable,
                    cell_loc,
                    format!(
                        "field `{name}` appears twice in the Format table (first at {}:{}): the instruction's encoding is incomplete",
                        first.loc.line, first.loc.col
                    ),
                );
                unread_cells.push(cell_loc);
                continue;
            }
            fields.push(FormatField {
                name: name.to_string(),
                optional,
                repeat: None,
                loc: cell_loc,
            });
        }
    }
    let fields = collapse_lists(fields, &mut unread_cells, diags);
    Some(FormatTable {
        condition,
        opcodes,
        fields,
        unread_cells,
        loc,
    })
}

fn looks_like_opcode_cell(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit()) && text.ends_with(')') && text.contains('(')
}

fn opcode_cell(text: &str) -> Option<(String, u32)> {
    let open = text.find('(')?;
    let value = parse_int(&text[..open])?;
    let value = u8::try_from(value).ok()?;
    let name = text.get(open + 1..text.len() - 1)?.trim();
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (name.to_string(), u32::from(value)))
}

/// A list written out as cells: `Name(Count-1)` is the last element of a list field `Name`
/// whose length is the value of the field `Count`, and the cells right before it named `Name`
/// followed by digits or `N` (`Label0 | LabelN`) are its first elements. Returns the list's
/// name and its count field.
fn list_tail(cell: &str) -> Option<(&str, &str)> {
    let (base, rest) = cell.split_once('(')?;
    let count = rest.strip_suffix("-1)")?.trim();
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (word(base) && word(count)).then_some((base, count))
}

/// Whether `cell` is a leading element of the list `base`: `base` then digits or `N`.
pub(crate) fn is_list_element(cell: &str, base: &str) -> bool {
    crate::model::list_of_element(cell).is_some_and(|list| list.eq_ignore_ascii_case(base))
}

/// Folds each written-out list (`Label0 | LabelN | Label(Num_labels-1)`) into one field with
/// [`FormatField::repeat`] set. The count field must come earlier in the table: a decoder
/// reads it before the elements.
fn collapse_lists(
    fields: Vec<FormatField>,
    unread_cells: &mut Vec<Loc>,
    diags: &mut Diags,
) -> Vec<FormatField> {
    let mut out: Vec<FormatField> = Vec::with_capacity(fields.len());
    for field in fields {
        let Some((base, count)) = list_tail(&field.name) else {
            out.push(field);
            continue;
        };
        if !out.iter().any(|f| f.name.eq_ignore_ascii_case(count)) {
            diags.warn(DiagnosticKind::FormatTable,
                field.loc,
                format!(
                    "the list `{}` counts its elements with `{count}`, which is not an earlier field of the Format table: the instruction's encoding is incomplete",
                    field.name
                ),
            );
            unread_cells.push(field.loc);
            continue;
        }
        let mut first_loc = field.loc;
        while let Some(last) = out.last().filter(|f| is_list_element(&f.name, base)) {
            first_loc = last.loc;
            out.pop();
        }
        out.push(FormatField {
            name: base.to_string(),
            optional: field.optional,
            repeat: Some(count.to_string()),
            loc: first_loc,
        });
    }
    out
}

/// Field names are words; the last cell of a written-out list (`Label(Num_labels-1)`) also has
/// parentheses and a minus.
fn is_field_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '(' | ')' | '-'))
}

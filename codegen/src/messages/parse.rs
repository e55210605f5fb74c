//! `spec/messages/*.md` -> [`MessageDoc`], with pulldown-cmark. What does not fit the format is
//! a warning at its `file:line:col`; a document without shared functions or fields is left out.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::{MessageCode, MessageDoc, MessageField, Word};
use crate::model::{Diagnostic, DiagnosticKind, Loc, Severity};

pub(super) fn diagnostic(file: &str, loc: Loc, message: String) -> Diagnostic {
    Diagnostic {
        file: file.to_string(),
        loc,
        severity: Severity::Warning,
        message,
        kind: DiagnosticKind::Unreadable,
    }
}

fn loc_of(text: &str, offset: usize) -> Loc {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    Loc::new(line as u32, col as u32)
}

/// A bullet of the Fields section: its text, where it starts, and its depth.
struct Item {
    depth: usize,
    text: String,
    at: usize,
}

/// Parses one message document.
pub fn parse_message_doc(file: &str, text: &str) -> (Option<MessageDoc>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut title = String::new();
    let mut section = String::new();
    let mut heading: Option<String> = None;
    let mut rows: Vec<(Vec<String>, usize)> = Vec::new();
    let mut row: Option<(Vec<String>, usize)> = None;
    let mut cell: Option<String> = None;
    let mut in_head = false;
    let mut items: Vec<Item> = Vec::new();
    let mut depth = 0usize;
    let mut item_stack: Vec<usize> = Vec::new();
    let mut sfid_text = String::new();
    for (event, range) in
        Parser::new_ext(text, pulldown_cmark::Options::ENABLE_TABLES).into_offset_iter()
    {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(level)) => {
                let h = heading.take().unwrap_or_default();
                if level == pulldown_cmark::HeadingLevel::H1 && title.is_empty() {
                    title = h;
                } else {
                    section = h.trim().to_ascii_lowercase();
                }
            }
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) => row = Some((Vec::new(), range.start)),
            Event::End(TagEnd::TableRow) => rows.extend(row.take()),
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                if let (Some(c), Some((cells, _))) = (cell.take(), row.as_mut()) {
                    cells.push(c.trim().to_string());
                }
            }
            Event::Start(Tag::List(_)) if section == "fields" => depth += 1,
            Event::End(TagEnd::List(_)) if section == "fields" => depth = depth.saturating_sub(1),
            Event::Start(Tag::Item) if section == "fields" => {
                item_stack.push(items.len());
                items.push(Item {
                    depth,
                    text: String::new(),
                    at: range.start,
                });
            }
            Event::End(TagEnd::Item) if section == "fields" => {
                item_stack.pop();
            }
            Event::Text(t) | Event::Code(t) => {
                let t = t.as_ref();
                if let Some(h) = heading.as_mut() {
                    h.push_str(t);
                } else if let Some(c) = cell.as_mut() {
                    c.push_str(t);
                } else if let Some(&i) = item_stack.last() {
                    items[i].text.push_str(t);
                } else if section == "shared functions" {
                    sfid_text.push_str(t);
                    sfid_text.push('\n');
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(&i) = item_stack.last() {
                    items[i].text.push(' ');
                }
            }
            _ => {}
        }
        let _ = in_head;
    }
    let shared_functions = shared_functions(file, text, &sfid_text, &mut diags);
    let mut fields = format_fields(file, text, &rows, &mut diags);
    describe_fields(file, text, &items, &mut fields, &mut diags);
    if shared_functions.is_empty() || fields.is_empty() {
        diags.push(diagnostic(
            file,
            Loc::new(1, 1),
            "left out: a message document needs `## Shared functions` and a `## Format` table"
                .into(),
        ));
        return (None, diags);
    }
    let module = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("messages")
        .to_ascii_lowercase();
    (
        Some(MessageDoc {
            file: file.to_string(),
            module,
            title: title.trim().to_string(),
            shared_functions,
            fields,
        }),
        diags,
    )
}

fn parse_number(text: &str) -> Option<u64> {
    let t = text.trim();
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = t.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else {
        t.parse().ok()
    }
}

/// `name = 0xN` lines.
fn shared_functions(
    file: &str,
    text: &str,
    lines: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, u8)> {
    let mut out = Vec::new();
    for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let parsed = line.split_once('=').and_then(|(name, value)| {
            let code = u8::try_from(parse_number(value)?)
                .ok()
                .filter(|c| *c < 16)?;
            Some((name.trim().to_string(), code))
        });
        match parsed {
            Some(entry) => out.push(entry),
            None => diags.push(diagnostic(
                file,
                loc_of(text, text.find(line).unwrap_or(0)),
                format!("expected `name = 0xN` (an SFID below 16), found `{line}`"),
            )),
        }
    }
    out
}

/// `Desc[5..0]`, `ExDesc[31]`, `Payload[63..0]`.
fn bit_range(cell: &str) -> Option<(Word, u32, u32)> {
    let (word, rest) = cell.split_once('[')?;
    let word = match word.trim() {
        "Desc" => Word::Desc,
        "ExDesc" => Word::ExDesc,
        "Payload" => Word::Payload,
        _ => return None,
    };
    let inner = rest.strip_suffix(']')?;
    let (hi, lo) = match inner.split_once("..") {
        Some((hi, lo)) => (hi.trim().parse().ok()?, lo.trim().parse().ok()?),
        None => {
            let b = inner.trim().parse().ok()?;
            (b, b)
        }
    };
    let limit = if word == Word::Payload { 1023 } else { 31 };
    (hi >= lo && hi <= limit && hi - lo < 64).then_some((word, hi, lo))
}

fn format_fields(
    file: &str,
    text: &str,
    rows: &[(Vec<String>, usize)],
    diags: &mut Vec<Diagnostic>,
) -> Vec<MessageField> {
    let mut out: Vec<MessageField> = Vec::new();
    for (cells, at) in rows {
        let [bits, name] = cells.as_slice() else {
            diags.push(diagnostic(
                file,
                loc_of(text, *at),
                "a Format row has two cells: bits and field".into(),
            ));
            continue;
        };
        if bits.eq_ignore_ascii_case("bits") {
            continue; // the header row
        }
        match bit_range(bits) {
            Some((word, hi, lo)) if !out.iter().any(|f| &f.name == name) => out.push(MessageField {
                name: name.clone(),
                word,
                hi,
                lo,
                description: String::new(),
                codes: Vec::new(),
                used_by: Vec::new(),
                when: None,
                visa: None,
                on: Vec::new(),
            }),
            Some(_) => diags.push(diagnostic(file, loc_of(text, *at), format!("field `{name}` is listed twice"))),
            None => diags.push(diagnostic(
                file,
                loc_of(text, *at),
                format!("`{bits}` is not a bit range (`Desc[hi..lo]`, `ExDesc[n]`, `Payload[hi..lo]`, at most 64 bits)"),
            )),
        }
    }
    out
}

/// The bullets of `## Fields`: `**Name:** description` at depth 1, codes below.
fn describe_fields(
    file: &str,
    text: &str,
    items: &[Item],
    fields: &mut [MessageField],
    diags: &mut Vec<Diagnostic>,
) {
    let mut current: Option<usize> = None;
    for item in items {
        if item.depth == 1 {
            let Some((name, description)) = item.text.split_once(':') else {
                diags.push(diagnostic(
                    file,
                    loc_of(text, item.at),
                    "expected `**Name:** description`".into(),
                ));
                current = None;
                continue;
            };
            current = fields.iter().position(|f| f.name == name.trim());
            match current {
                Some(i) => {
                    let mut description = description.trim().to_string();
                    if let Some(at) = description.find("When:") {
                        let rest = description[at + "When:".len()..].trim().to_string();
                        description.truncate(at);
                        let rest = rest.split(". ").next().unwrap_or("").trim_end_matches('.');
                        match rest.split_once(" in ") {
                            Some((field, tokens)) => {
                                fields[i].when = Some((
                                    field.trim().to_string(),
                                    tokens.split(',').map(|t| t.trim().to_string()).collect(),
                                ))
                            }
                            None => diags.push(diagnostic(
                                file,
                                loc_of(text, item.at),
                                format!("expected `When: Field in a, b`, found `When: {rest}`"),
                            )),
                        }
                    }
                    if let Some(at) = description.find("On: ") {
                        let rest = description[at + "On: ".len()..].to_string();
                        let list = rest.split(". ").next().unwrap_or("").trim_end_matches('.');
                        fields[i].on = list.split(',').map(|t| t.trim().to_string()).collect();
                        let after = rest
                            .find(". ")
                            .map_or(String::new(), |e| rest[e + 2..].to_string());
                        description = format!(
                            "{}. {after}",
                            description[..at].trim().trim_end_matches('.')
                        );
                    }
                    if let Some(at) = description.find("vISA: ") {
                        let rest = description[at + "vISA: ".len()..].to_string();
                        let template = rest
                            .split(". ")
                            .next()
                            .unwrap_or("")
                            .trim()
                            .trim_end_matches('.');
                        fields[i].visa = Some(template.to_string());
                        let after = rest
                            .find(". ")
                            .map_or(String::new(), |e| rest[e + 2..].to_string());
                        description = format!(
                            "{}. {after}",
                            description[..at].trim().trim_end_matches('.')
                        );
                    }
                    if let Some(at) = description.find("Used by:") {
                        fields[i].used_by = description[at + "Used by:".len()..]
                            .trim()
                            .trim_end_matches('.')
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect();
                        fields[i].description =
                            description[..at].trim().trim_end_matches('.').to_string();
                    } else {
                        fields[i].description = description;
                    }
                }
                None => diags.push(diagnostic(
                    file,
                    loc_of(text, item.at),
                    format!("`{}` is not a field of the Format table", name.trim()),
                )),
            }
            continue;
        }
        let Some(i) = current else { continue };
        let code = item.text.split_once(':').and_then(|(value, label)| {
            let value = parse_number(value)?;
            let label = label.trim().to_string();
            let token = label.split_whitespace().next()?.to_string();
            Some(MessageCode {
                value,
                token,
                label,
            })
        });
        let width = fields[i].hi - fields[i].lo + 1;
        match code {
            Some(code) if width >= 64 || code.value < (1u64 << width) => fields[i].codes.push(code),
            _ => diags.push(diagnostic(
                file,
                loc_of(text, item.at),
                format!(
                    "`{}` is not a code of `{}` (`0bN: token - text`, within its bits)",
                    item.text, fields[i].name
                ),
            )),
        }
    }
}

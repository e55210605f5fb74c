//! Source text handling: line splitting, block structure (via pulldown-cmark) and sections.
//!
//! The documents are parsed line by line because their list nesting is unreliable (flattened web
//! copies, bullets inside indented code blocks). pulldown-cmark supplies what it is good at: which
//! lines are ATX/setext headings and which lines sit inside fenced code blocks.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag};

use super::diag::Diags;
use crate::model::Loc;

/// One source line (line terminator removed).
#[derive(Debug, Clone)]
pub(crate) struct Line<'a> {
    /// 1-based line number in the original file.
    pub no: u32,
    pub text: &'a str,
    /// Inside a fenced code block (fence lines excluded).
    pub in_fence: bool,
    /// An opening or closing fence line.
    pub is_fence: bool,
    /// Part of an HTML comment block (`<!-- ... -->` on lines of its own): not content.
    pub is_comment: bool,
}

impl Line<'_> {
    /// Indentation width (a tab advances to the next multiple of 4).
    pub fn indent(&self) -> usize {
        indent_width(self.text)
    }

    pub fn trimmed(&self) -> &str {
        self.text.trim()
    }

    /// Location of the first non-blank character (or column 1 for a blank line).
    pub fn loc_of_content(&self) -> Loc {
        let leading = self.text.len() - self.text.trim_start().len();
        self.loc_at(leading)
    }

    /// Location of byte offset `byte` of this line.
    pub fn loc_at(&self, byte: usize) -> Loc {
        Loc::new(self.no, col_of(self.text, byte))
    }

    /// Location of the sub-slice `part`, which must point into this line (else the line start).
    pub fn loc_of(&self, part: &str) -> Loc {
        let start = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        if at >= start && at <= start + self.text.len() {
            self.loc_at(at - start)
        } else {
            self.loc_of_content()
        }
    }

    /// A line that carries nothing: blank, an HTML comment, or a lone `|` left over from a
    /// damaged table copy.
    pub fn is_blank(&self) -> bool {
        let t = self.trimmed();
        t.is_empty() || t == "|" || self.is_comment
    }
}

/// 1-based character column of byte offset `byte` in `text` (clamped to the text).
pub(crate) fn col_of(text: &str, byte: usize) -> u32 {
    let mut end = byte.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    u32::try_from(text[..end].chars().count() + 1).unwrap_or(u32::MAX)
}

pub(crate) fn indent_width(text: &str) -> usize {
    let mut width = 0;
    for c in text.chars() {
        match c {
            ' ' => width += 1,
            '\t' => width = (width / 4 + 1) * 4,
            _ => break,
        }
    }
    width
}

/// A heading and the lines up to the next heading.
#[derive(Debug, Clone)]
pub(crate) struct Section {
    pub level: u8,
    pub title: String,
    pub loc: Loc,
    /// Indices into the line vector of the body (heading line excluded).
    pub body: Range<usize>,
}

/// The document split into lines and sections.
pub(crate) struct Source<'a> {
    pub lines: Vec<Line<'a>>,
    pub sections: Vec<Section>,
}

/// Splits `text` (BOM already removed) into lines and sections, reporting unterminated fences.
pub(crate) fn scan<'a>(text: &'a str, diags: &mut Diags) -> Source<'a> {
    let mut lines: Vec<Line<'a>> = text
        .split('\n')
        .enumerate()
        .map(|(i, raw)| Line {
            no: u32::try_from(i + 1).unwrap_or(u32::MAX),
            text: raw.strip_suffix('\r').unwrap_or(raw),
            in_fence: false,
            is_fence: false,
            is_comment: false,
        })
        .collect();
    // A trailing newline does not start another line.
    if lines.len() > 1 && lines.last().is_some_and(|l| l.text.is_empty()) {
        lines.pop();
    }
    let line_starts = line_starts(text);

    // An unterminated fence or HTML comment swallows the rest of the file; report it,
    // neutralise the opening line and scan again so that the headings after it are still found.
    let mut neutralised: Vec<usize> = Vec::new();
    let blocks = loop {
        let blocks = markdown_blocks(text, &line_starts, &neutralised);
        set_fences(&mut lines, &blocks.fences, &neutralised);
        let open_fence = blocks
            .fences
            .iter()
            .find(|f| !f.closed)
            .map(|f| (f.lines.start, "unterminated code fence: expected a closing ``` before the end of the file; the rest is read as text"));
        let open = open_fence.or_else(|| {
            unterminated_comment(&lines).map(|i| {
                (i, "unterminated HTML comment: expected `-->` before the end of the file; the line is read as text")
            })
        });
        match open {
            Some((first, message)) if neutralised.len() < 64 && !neutralised.contains(&first) => {
                if let Some(line) = lines.get(first) {
                    diags.warning(line.loc_of_content(), message);
                }
                neutralised.push(first);
            }
            _ => break blocks,
        }
    };
    mark_comments(&mut lines, &neutralised);
    let mut sections = Vec::new();
    for (pos, &(level, index)) in blocks.headings.iter().enumerate() {
        let Some(line) = lines.get(index) else {
            continue;
        };
        let end = blocks
            .headings
            .get(pos + 1)
            .map_or(lines.len(), |&(_, next)| next);
        let title = line
            .trimmed()
            .trim_start_matches('#')
            .trim_end_matches('#')
            .trim()
            .to_string();
        sections.push(Section {
            level,
            title,
            loc: line.loc_of_content(),
            body: (index + 1).min(end)..end,
        });
    }
    Source { lines, sections }
}

struct Fence {
    /// Line indices covered, fence lines included.
    lines: Range<usize>,
    closed: bool,
}

struct Blocks {
    /// (heading level, line index)
    headings: Vec<(u8, usize)>,
    fences: Vec<Fence>,
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

fn line_index(line_starts: &[usize], byte: usize) -> usize {
    line_starts
        .partition_point(|&start| start <= byte)
        .saturating_sub(1)
}

fn markdown_blocks(text: &str, line_starts: &[usize], neutralised: &[usize]) -> Blocks {
    let owned;
    let input = if neutralised.is_empty() {
        text
    } else {
        // Replace the fence characters of neutralised lines by spaces (same byte length, so
        // offsets stay valid).
        let mut bytes = text.as_bytes().to_vec();
        for &index in neutralised {
            let start = line_starts.get(index).copied().unwrap_or(bytes.len());
            let end = line_starts.get(index + 1).copied().unwrap_or(bytes.len());
            for b in bytes.iter_mut().take(end).skip(start) {
                if matches!(*b, b'`' | b'~' | b'<') {
                    *b = b' ';
                }
            }
        }
        owned = String::from_utf8_lossy(&bytes).into_owned();
        owned.as_str()
    };
    let mut headings = Vec::new();
    let mut fences = Vec::new();
    for (event, range) in Parser::new_ext(input, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                headings.push((level as u8, line_index(line_starts, range.start)));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                let first = line_index(line_starts, range.start);
                let last = line_index(line_starts, range.end.saturating_sub(1).max(range.start));
                let closed = last > first && is_closing_fence(input, line_starts, first, last);
                fences.push(Fence {
                    lines: first..last + 1,
                    closed,
                });
            }
            _ => {}
        }
    }
    Blocks { headings, fences }
}

/// Whether line `last` closes the fence opened on line `first`.
fn is_closing_fence(text: &str, line_starts: &[usize], first: usize, last: usize) -> bool {
    let line = |i: usize| {
        let start = line_starts.get(i).copied().unwrap_or(text.len());
        let end = line_starts.get(i + 1).copied().unwrap_or(text.len());
        text.get(start..end).unwrap_or("").trim()
    };
    let open = line(first);
    let close = line(last);
    let Some(fence_char) = open.chars().next() else {
        return false;
    };
    let open_len = open.chars().take_while(|&c| c == fence_char).count();
    let close_len = close.chars().take_while(|&c| c == fence_char).count();
    close_len >= open_len && close.chars().all(|c| c == fence_char)
}

/// Whether a line opens an HTML comment block: `<!--` first on the line.
fn opens_comment(line: &Line<'_>) -> bool {
    !line.in_fence && !line.is_fence && line.trimmed().starts_with("<!--")
}

/// Marks fence lines and the lines inside fences. A neutralised fence line is still a fence
/// line, not content.
fn set_fences(lines: &mut [Line<'_>], fences: &[Fence], neutralised: &[usize]) {
    for line in lines.iter_mut() {
        line.in_fence = false;
        line.is_fence = false;
    }
    for fence in fences {
        for i in fence.lines.clone() {
            if let Some(line) = lines.get_mut(i) {
                let edge = i == fence.lines.start || (fence.closed && i + 1 == fence.lines.end);
                line.is_fence = edge;
                line.in_fence = !edge;
            }
        }
    }
    for &i in neutralised {
        if let Some(line) = lines.get_mut(i).filter(|l| !opens_comment(l)) {
            line.is_fence = true;
        }
    }
}

/// The end of the HTML comment block opened on line `start`: the line holding `-->` after the
/// opening `<!--`.
fn comment_end(lines: &[Line<'_>], start: usize) -> Option<usize> {
    let first = lines.get(start)?;
    let after_open = first.trimmed().get(4..).unwrap_or("");
    if after_open.contains("-->") {
        return Some(start);
    }
    (start + 1..lines.len()).find(|&k| lines[k].text.contains("-->"))
}

/// The first HTML comment block that never closes, if any.
fn unterminated_comment(lines: &[Line<'_>]) -> Option<usize> {
    let mut i = 0;
    while i < lines.len() {
        if opens_comment(&lines[i]) {
            match comment_end(lines, i) {
                Some(end) => i = end + 1,
                None => return Some(i),
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Marks the lines of HTML comment blocks (from a line starting with `<!--` to the line holding
/// `-->`), outside fences; a neutralised (unterminated) opening line stays text.
fn mark_comments(lines: &mut [Line<'_>], neutralised: &[usize]) {
    let mut i = 0;
    while i < lines.len() {
        if !opens_comment(&lines[i]) || neutralised.contains(&i) {
            i += 1;
            continue;
        }
        let Some(end) = comment_end(lines, i) else {
            i += 1;
            continue;
        };
        for line in &mut lines[i..=end] {
            line.is_comment = true;
        }
        i = end + 1;
    }
}

/// The prose of a run of lines: fence lines, HTML comments and stray `|` lines dropped, common
/// indentation removed, surrounding blank lines trimmed.
pub(crate) fn prose(lines: &[Line<'_>]) -> String {
    let kept: Vec<&str> = lines
        .iter()
        .filter(|l| !l.is_fence && !l.is_comment && l.trimmed() != "|")
        .map(|l| l.text)
        .collect();
    let common = kept
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent_width(l))
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = kept
        .iter()
        .map(|l| strip_indent(l, common).trim_end().to_string())
        .collect();
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    // Collapse runs of blank lines into one.
    out.dedup_by(|a, b| a.is_empty() && b.is_empty());
    out.join("\n")
}

fn strip_indent(line: &str, width: usize) -> &str {
    let mut seen = 0;
    for (i, c) in line.char_indices() {
        if seen >= width {
            return &line[i..];
        }
        match c {
            ' ' => seen += 1,
            '\t' => seen = (seen / 4 + 1) * 4,
            _ => return &line[i..],
        }
    }
    ""
}

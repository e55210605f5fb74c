//! `## Examples`: fenced code blocks of assembly, each optionally after a sentence or two.

use super::diag::Diags;
use super::keep_line;
use super::text::{Line, prose};
use crate::model::{DiagnosticKind, Example, ExtraText};

/// The examples of the section body `lines`. Prose before a code block is its caption; prose
/// after the last block, and an empty block, are kept as text with a warning.
pub(crate) fn examples(
    lines: &[Line<'_>],
    extra: &mut Vec<ExtraText>,
    diags: &mut Diags,
) -> Vec<Example> {
    let mut out = Vec::new();
    let mut caption_start = 0;
    let mut i = 0;
    while i < lines.len() {
        let Some(fence) = lines.get(i).filter(|l| l.is_fence) else {
            i += 1;
            continue;
        };
        let start = i + 1;
        let end = start + lines[start..].iter().take_while(|l| l.in_fence).count();
        let code = prose(&lines[start..end]);
        let caption = captions(&lines[caption_start..i]);
        // The closing fence, when there is one.
        i = if lines.get(end).is_some_and(|l| l.is_fence) {
            end + 1
        } else {
            end
        };
        caption_start = i;
        if code.trim().is_empty() {
            diags.warn(
                DiagnosticKind::KeptAsText,
                fence.loc_of_content(),
                "empty code block in Examples: no example is read from it",
            );
            continue;
        }
        let loc = lines[start..end]
            .iter()
            .find(|l| !l.trimmed().is_empty())
            .map_or_else(|| fence.loc_of_content(), Line::loc_of_content);
        out.push(Example {
            caption,
            code,
            language: fence_info(fence.trimmed()).to_string(),
            loc,
        });
    }
    let trailing = lines[caption_start.min(lines.len())..]
        .iter()
        .filter(|l| !l.is_blank() && !l.is_fence);
    for (k, line) in trailing.enumerate() {
        if k == 0 {
            diags.warning(
                line.loc_of_content(),
                "text after the last code block of Examples introduces no example: kept as text",
            );
        }
        keep_line(extra, "Examples", line);
    }
    out
}

/// The prose before a code block: paragraphs separated by a blank line, each on one line.
fn captions(lines: &[Line<'_>]) -> String {
    prose(lines)
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The info string of an opening fence line: ```` ```visaasm ```` gives `visaasm`.
fn fence_info(fence: &str) -> &str {
    fence
        .trim_start_matches(['`', '~'])
        .split_whitespace()
        .next()
        .unwrap_or("")
}

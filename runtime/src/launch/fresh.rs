//! What a thread of the launch loop must get afresh from the template, found once per launch.
//!
//! The launch loop (`range`) runs a task's threads one after another on one register file.
//! A byte the kernel writes before anything reads it needs no reset between two threads: the
//! value the previous thread left is overwritten before it can be seen (read, or captured at
//! the end); which bytes those are is `first_writes`. Everything else is restored from the
//! template, except what the thread start writes anyway (ids, SVM pointers).

use std::ops::Range;

use crate::first_writes::written_first;
use crate::program::Program;

/// The register-file byte ranges a thread of the launch loop copies from the template when it
/// starts: every byte but those each thread writes before reading them ([`written_first`]),
/// those its start writes anyway (`rewritten`: its ids and per-lane SVM pointers) and, when
/// every byte its threads may write is known (`known_writes`), those no thread writes: they
/// keep the template's value from one thread to the next.
pub(super) fn restored_ranges(
    program: &Program,
    lanes: u32,
    rewritten: &[Range<usize>],
    known_writes: Option<&[Range<usize>]>,
) -> Vec<Range<usize>> {
    let mut fresh = written_first(program, lanes).to_vec();
    for range in rewritten {
        // (The thread start writes nothing outside the file.)
        if let Some(bytes) = fresh.get_mut(range.clone()) {
            bytes.fill(true);
        }
    }
    if let Some(writes) = known_writes {
        let mut written = vec![false; fresh.len()];
        for range in writes {
            let len = written.len();
            if let Some(bytes) = written.get_mut(range.start.min(len)..range.end.min(len)) {
                bytes.fill(true);
            }
        }
        for (fresh, written) in fresh.iter_mut().zip(written) {
            *fresh |= !written;
        }
    }
    // Bytes of no variable (alignment gaps): nothing writes them (every access stays inside
    // its variable), so they keep the template's value.
    let mut in_a_variable = vec![false; fresh.len()];
    for var in &program.layout.vars {
        let start = var.offset as usize;
        let end = start + var.size as usize;
        if let Some(bytes) = in_a_variable.get_mut(start..end.min(fresh.len())) {
            bytes.fill(true);
        }
    }
    for (fresh, in_a_variable) in fresh.iter_mut().zip(in_a_variable) {
        *fresh |= !in_a_variable;
    }
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for (byte, fresh) in fresh.iter().enumerate() {
        if *fresh {
            continue;
        }
        match ranges.last_mut() {
            // Ranges close together are copied as one (copying a fresh byte from the template
            // is harmless: the thread start comes after, the thread's own write before any
            // read), one call instead of several.
            Some(last) if byte - last.end < MERGE_GAP => last.end = byte + 1,
            _ => ranges.push(byte..byte + 1),
        }
    }
    ranges
}

/// Restored ranges at most this many bytes apart are restored as one.
const MERGE_GAP: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::LoadOptions;

    const DECLS: &str = ".decl P v_type=G type=uq num_elts=16 align=GRF\n\
        .decl A v_type=G type=d num_elts=16 align=GRF\n\
        .decl B v_type=G type=d num_elts=16 align=GRF\n";

    #[test]
    fn threads_restore_what_they_may_read_first_and_nothing_else() {
        let source = format!(
            "{DECLS}svm_gather.4.1 (M1, 16) P.0 A.0\n\
             add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>\n"
        );
        let program = Program::from_text(&source, &LoadOptions::default()).unwrap();
        let layout = &program.layout;
        let place = |name: &str| {
            let var = &layout.vars[layout.top_level[name]];
            var.offset as usize..(var.offset + var.size) as usize
        };
        // `P` rewritten by the thread start, `A` gathered first: only `B` is restored.
        assert_eq!(
            restored_ranges(&program, 0xffff, &[place("P")], None),
            vec![place("B")]
        );
        // Without the start's pointers, `P` is restored too (merged with `B` when near).
        let ranges = restored_ranges(&program, 0xffff, &[], None);
        let restored: usize = ranges.iter().map(|r| r.len()).sum();
        assert!(ranges.iter().any(|r| r.contains(&place("P").start)));
        assert!(restored >= 128 + 64, "{ranges:?}");
    }
}

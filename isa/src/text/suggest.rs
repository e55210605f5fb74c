//! "Did you mean": the known word nearest to a misspelt one, for mnemonics (the parser), and
//! variable and label names (the checker). `visa check`, `visa run` and `isa!` show the same
//! suggestions because they come from here.

/// The candidate nearest to `word` by edit distance (ASCII case ignored), if it is close enough
/// to be a typo: at most a third of the candidate's length (at least 1) apart. Names shorter
/// than three characters are never suggested (`W` for `V` is a guess, not a typo). Ties go to
/// the first candidate.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate.chars().count() < 3 {
            continue;
        }
        let limit = (candidate.len() / 3).max(1);
        // Lengths alone rule out most candidates without computing a distance.
        if candidate.len().abs_diff(word.len()) > limit {
            continue;
        }
        let distance = edit_distance(&word, &candidate.to_ascii_lowercase());
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
        .filter(|c| !c.eq_ignore_ascii_case(&word))
}

/// The mnemonic of `table` nearest to `word` (see [`nearest`]).
pub fn nearest_mnemonic(
    table: &'static [crate::desc::InstrDesc],
    word: &str,
) -> Option<&'static str> {
    nearest(
        word,
        table
            .iter()
            .flat_map(|d| d.syntax.iter().map(|s| s.mnemonic)),
    )
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_matched_and_strangers_are_not() {
        let names = ["counter", "Index", "LOOP_END", "V"];
        assert_eq!(nearest("W", names), None, "too short to tell a typo");
        assert_eq!(nearest("countr", names), Some("counter"));
        assert_eq!(
            nearest("index", names),
            None,
            "the same name in another case"
        );
        assert_eq!(nearest("indx", names), Some("Index"));
        assert_eq!(nearest("LOOP_EDN", names), Some("LOOP_END"));
        assert_eq!(nearest("zzz", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn mnemonics_come_from_the_table() {
        let table = crate::INSTRUCTIONS;
        assert_eq!(nearest_mnemonic(table, "ad"), Some("add"));
        assert_eq!(nearest_mnemonic(table, "svm_gahter"), Some("svm_gather"));
        assert_eq!(nearest_mnemonic(table, "frobnicate"), None);
    }
}

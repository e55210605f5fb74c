//! Finding the syntax templates of a mnemonic.
//!
//! Every instruction line names its mnemonic; scanning all templates of the table for it was the
//! largest single cost of parsing. For the generated table the templates are indexed once, sorted
//! by lower-case mnemonic and found by binary search (a few comparisons of short keys, cheaper
//! than hashing them); other tables are scanned.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::desc::{InstrDesc, SyntaxDesc};

/// A template with the index of its table entry.
pub(crate) type Template = (usize, &'static SyntaxDesc);

/// (lower-case mnemonic, its templates in table order), sorted by mnemonic.
type Index = Vec<(Vec<u8>, Vec<Template>)>;

static GENERATED: LazyLock<Index> = LazyLock::new(|| build(crate::INSTRUCTIONS));

fn build(table: &'static [InstrDesc]) -> Index {
    let mut index = Index::new();
    for (i, desc) in table.iter().enumerate() {
        for syntax in desc.syntax {
            let key = syntax.mnemonic.to_ascii_lowercase().into_bytes();
            match index.binary_search_by(|(k, _)| k.as_slice().cmp(&key)) {
                Ok(at) => index[at].1.push((i, syntax)),
                Err(at) => index.insert(at, (key, vec![(i, syntax)])),
            }
        }
    }
    index
}

/// The templates whose mnemonic is `mnemonic` (ASCII case-insensitive), in table order.
pub(crate) fn templates(table: &'static [InstrDesc], mnemonic: &str) -> Cow<'static, [Template]> {
    if std::ptr::eq(table, crate::INSTRUCTIONS) {
        let mut buffer = [0u8; 32];
        let lower = match buffer.get_mut(..mnemonic.len()) {
            Some(lower) => {
                lower.copy_from_slice(mnemonic.as_bytes());
                lower.make_ascii_lowercase();
                Cow::Borrowed(&*lower)
            }
            None => Cow::Owned(mnemonic.to_ascii_lowercase().into_bytes()),
        };
        return match GENERATED.binary_search_by(|(key, _)| key.as_slice().cmp(&lower)) {
            Ok(at) => Cow::Borrowed(GENERATED[at].1.as_slice()),
            Err(_) => Cow::Borrowed(&[]),
        };
    }
    Cow::Owned(
        table
            .iter()
            .enumerate()
            .flat_map(|(i, d)| d.syntax.iter().map(move |s| (i, s)))
            .filter(|(_, s)| s.mnemonic.eq_ignore_ascii_case(mnemonic))
            .collect(),
    )
}

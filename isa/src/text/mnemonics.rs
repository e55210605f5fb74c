//! Finding the syntax templates of a mnemonic.
//!
//! Every instruction line names its mnemonic; scanning all templates of the table for it was the
//! largest single cost of parsing. For the generated table the templates are indexed once, by
//! lower-case mnemonic (hashed with FNV-1a: the keys are short, SipHash's set-up dominated);
//! other tables are scanned.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

use crate::desc::{InstrDesc, SyntaxDesc};

/// A template with the index of its table entry.
pub(crate) type Template = (usize, &'static SyntaxDesc);

/// Lower-case mnemonic -> its templates in table order.
type Index = HashMap<Vec<u8>, Vec<Template>, BuildHasherDefault<Fnv1a>>;

/// The 64-bit FNV-1a hash.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

static GENERATED: LazyLock<Index> = LazyLock::new(|| build(crate::INSTRUCTIONS));

fn build(table: &'static [InstrDesc]) -> Index {
    let mut index = Index::default();
    for (i, desc) in table.iter().enumerate() {
        for syntax in desc.syntax {
            let key = syntax.mnemonic.to_ascii_lowercase().into_bytes();
            index.entry(key).or_default().push((i, syntax));
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
        return match GENERATED.get(&*lower) {
            Some(templates) => Cow::Borrowed(templates.as_slice()),
            None => Cow::Borrowed(&[]),
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

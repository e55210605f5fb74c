//! Hardware message descriptors (`raw_send`, `raw_sends`): one module per document of
//! `spec/messages/` (generated: typed getters and setters, open enums, field tables), and the
//! support types and bit helpers they use. [`find`] gives the document of an SFID.

/// Which word of a message a field sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// The message descriptor.
    Desc,
    /// The extended message descriptor.
    ExDesc,
    /// The first payload register (bits counted from its first byte).
    Payload,
}

impl Word {
    /// How the documents write it (`Desc`, `ExDesc`, `Payload`).
    pub fn name(self) -> &'static str {
        match self {
            Word::Desc => "Desc",
            Word::ExDesc => "ExDesc",
            Word::Payload => "Payload",
        }
    }
}

/// One code of a coded field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// Its value.
    pub value: u64,
    /// The first word of its label.
    pub token: &'static str,
    /// The label.
    pub label: &'static str,
}

/// One field of a message document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldInfo {
    /// Its name.
    pub name: &'static str,
    /// Its word.
    pub word: Word,
    /// Highest bit.
    pub hi: u32,
    /// Lowest bit.
    pub lo: u32,
    /// What it means.
    pub description: &'static str,
    /// Its codes (empty for a number).
    pub codes: &'static [CodeInfo],
    /// The operation tokens that read it (`atomic_*` matches a prefix); empty: every operation.
    pub used_by: &'static [&'static str],
    /// It applies only when the field of the first name holds one of these code tokens.
    pub when: Option<(&'static str, &'static [&'static str])>,
    /// The vISA instruction's tokens that correspond (`lsc_<LscSubOp>`, `<CachingL1>.<CachingL3>`).
    pub visa: Option<&'static str>,
    /// The shared functions that have the field (empty: every one of its document).
    pub on: &'static [&'static str],
}

impl FieldInfo {
    /// Whether the operation of token `op` reads this field.
    pub fn used_by(&self, op: &str) -> bool {
        self.used_by.is_empty()
            || self.used_by.iter().any(|u| match u.strip_suffix('*') {
                Some(prefix) => op.starts_with(prefix),
                None => *u == op,
            })
    }

    /// Whether shared function `sfid` (its name) has the field.
    pub fn on(&self, sfid: &str) -> bool {
        self.on.is_empty() || self.on.contains(&sfid)
    }

    /// Its value in `word` (a descriptor word; payload fields need [`payload_bits`]).
    pub fn read(&self, word: u64) -> u64 {
        bits(word, self.hi, self.lo)
    }

    /// The code of `value`, if the document gives one.
    pub fn code(&self, value: u64) -> Option<&'static CodeInfo> {
        self.codes.iter().find(|c| c.value == value)
    }
}

/// Bits `hi..=lo` of `word` (`hi - lo < 64`).
pub const fn bits(word: u64, hi: u32, lo: u32) -> u64 {
    let width = hi - lo + 1;
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (word >> lo) & mask
}

/// `word` with bits `hi..=lo` replaced by `value` (its excess bits dropped).
pub const fn with_bits(word: u64, hi: u32, lo: u32, value: u64) -> u64 {
    let width = hi - lo + 1;
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (word & !(mask << lo)) | ((value & mask) << lo)
}

/// Bits `hi..=lo` of a payload (little-endian bytes), `None` when it is too short.
pub fn payload_bits(payload: &[u8], hi: u32, lo: u32) -> Option<u64> {
    let last = usize::try_from(hi / 8).ok()?;
    if last >= payload.len() || hi < lo || hi - lo >= 64 {
        return None;
    }
    let first = (lo / 8) as usize;
    let mut wide: u128 = 0;
    for (k, byte) in payload[first..=last].iter().enumerate() {
        wide |= u128::from(*byte) << (8 * k);
    }
    let shifted = wide >> (lo % 8);
    let width = hi - lo + 1;
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    Some(shifted as u64 & mask)
}

/// One document: its shared functions (name, SFID) and its fields.
pub type Document = (&'static [(&'static str, u8)], &'static [FieldInfo]);

include!(concat!(env!("OUT_DIR"), "/messages.rs"));

/// The document (its shared functions and fields) that covers SFID `sfid`, or the SFID of the
/// name `name` (`ugm`, in any case).
pub fn find(sfid: u8) -> Option<(&'static str, &'static [FieldInfo])> {
    DOCUMENTS.iter().find_map(|(sfids, fields)| {
        sfids
            .iter()
            .find(|(_, code)| *code == sfid)
            .map(|(name, _)| (*name, *fields))
    })
}

/// The SFID of a shared function's name (`ugm`, `gtwy`; any case).
pub fn sfid_named(name: &str) -> Option<u8> {
    DOCUMENTS
        .iter()
        .flat_map(|(sfids, _)| sfids.iter())
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, code)| *code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_helpers_agree() {
        assert_eq!(bits(0x0242_0203, 5, 0), 3);
        assert_eq!(bits(0x0242_0203, 28, 25), 1);
        assert_eq!(bits(0x0242_0203, 24, 20), 4);
        assert_eq!(with_bits(0, 24, 20, 4), 0x40_0000);
        let payload = [0x11u8, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0xFF];
        assert_eq!(payload_bits(&payload, 63, 0), Some(0x8877_6655_4433_2211));
        assert_eq!(payload_bits(&payload, 71, 64), Some(0xFF));
        assert_eq!(payload_bits(&payload, 79, 72), None);
    }

    #[test]
    fn the_example_descriptor_decodes_as_iga_prints_it() {
        // iga64 -p=xehpc -Xdsd ugm "(1)" 0x0 0x2420203: load_block2d.ugm.d16.a64.uc.uc, mlen 1, rlen 4.
        let d = lsc::Descriptor {
            desc: 0x0242_0203,
            ex_desc: 0,
        };
        assert_eq!(d.opcode(), lsc::Opcode::LoadBlock2d);
        assert_eq!(d.data_size(), lsc::DataSize::D16);
        assert_eq!(d.caching().token(), Some("uc.uc"));
        assert_eq!((d.mlen(), d.rlen()), (1, 4));
        let mut e = lsc::Descriptor::default();
        e.set_opcode(lsc::Opcode::LoadBlock2d);
        e.set_data_size(lsc::DataSize::D16);
        e.set_caching(lsc::Caching::UcUc);
        e.set_mlen(1);
        e.set_rlen(4);
        assert_eq!(e, d);
        assert_eq!(find(0xF).map(|(n, _)| n), Some("ugm"));
        assert_eq!(sfid_named("GTWY"), Some(3));
    }
}

//! Every generated bitfield type: documented codes round-trip, every other value of the field's
//! range is rejected. Expectations come from the table data (the documents), not from the
//! generated code under test.

use visa_isa::desc::CodeDesc;
use visa_isa::fields::{BITFIELD_TYPES, FIELD_TYPES};

fn width_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Values to try for a sub-field of `width` bits: all of them up to 16 bits, else the codes,
/// their neighbours and the extremes.
fn candidates(width: u32, codes: &[CodeDesc]) -> Vec<u64> {
    if width <= 16 {
        return (0..=width_mask(width)).collect();
    }
    let mut values = vec![0, 1, width_mask(width), width_mask(width) / 2];
    for c in codes {
        values.extend([c.code, c.code.wrapping_add(1), c.code.wrapping_sub(1)]);
    }
    values
}

#[test]
fn code_enums_accept_exactly_the_documented_codes() {
    assert!(!BITFIELD_TYPES.is_empty());
    for info in BITFIELD_TYPES {
        let width = info.hi - info.lo + 1;
        for v in candidates(width, info.codes) {
            match info.codes.iter().find(|c| c.code == v) {
                Some(code) => {
                    assert_eq!((info.round_trip)(v), Ok(v), "{} code {v:#x}", info.name);
                    assert_eq!(
                        (info.display)(v).as_deref(),
                        Some(code.label),
                        "{}",
                        info.name
                    );
                }
                None => assert!(
                    (info.round_trip)(v).is_err(),
                    "{} accepted undocumented {v:#x}",
                    info.name
                ),
            }
        }
        // Just past the sub-field's range.
        if width < 64 {
            assert!(
                (info.round_trip)(width_mask(width) + 1).is_err(),
                "{}",
                info.name
            );
        }
    }
}

fn documented(parts: &[(u32, u32, Option<&'static [CodeDesc]>)], value: u64) -> bool {
    let mut covered = 0u64;
    for &(hi, lo, codes) in parts {
        let mask = width_mask(hi - lo + 1);
        covered |= mask << lo;
        let code = (value >> lo) & mask;
        if let Some(codes) = codes
            && !codes.iter().any(|c| c.code == code)
        {
            return false;
        }
    }
    value & !covered == 0
}

#[test]
fn field_structs_accept_exactly_the_documented_combinations() {
    for info in FIELD_TYPES {
        let values: Vec<u64> = if info.width <= 16 {
            (0..=width_mask(info.width)).collect()
        } else {
            let mut v = vec![0, 1, width_mask(info.width)];
            for &(_, lo, codes) in info.parts {
                v.extend(codes.unwrap_or_default().iter().map(|c| c.code << lo));
            }
            v
        };
        let mut accepted = 0;
        for v in values {
            if documented(info.parts, v) {
                accepted += 1;
                assert_eq!((info.round_trip)(v), Ok(v), "{} value {v:#x}", info.name);
                let expected: Vec<String> = info
                    .parts
                    .iter()
                    .map(|&(hi, lo, codes)| {
                        let code = (v >> lo) & width_mask(hi - lo + 1);
                        match codes {
                            Some(codes) => codes
                                .iter()
                                .find(|c| c.code == code)
                                .unwrap()
                                .label
                                .to_string(),
                            None => code.to_string(),
                        }
                    })
                    .collect();
                assert_eq!(
                    (info.display)(v),
                    Some(expected.join(", ")),
                    "{}",
                    info.name
                );
            } else {
                assert!(
                    (info.round_trip)(v).is_err(),
                    "{} accepted undocumented {v:#x}",
                    info.name
                );
            }
        }
        assert!(accepted > 0, "{} accepts nothing", info.name);
    }
}

#[test]
fn exec_size_displays_its_labels() {
    // Every per-field struct whose parts are an execution size (Bit[2..0] numbers, Bit[7..4]
    // masks) shows `<size label>, <mask label>`.
    for info in FIELD_TYPES {
        let [(2, 0, Some(sizes)), (7, 4, Some(masks))] = info.parts else {
            continue;
        };
        let (Some(size), Some(mask)) = (
            sizes.iter().find(|c| c.text == "16"),
            masks.iter().find(|c| c.text == "m1_nm"),
        ) else {
            continue;
        };
        let value = size.code | (mask.code << 4);
        assert_eq!(
            (info.display)(value),
            Some(format!("{}, {}", size.label, mask.label))
        );
    }
}

//! Names <-> indices. Assembly names its variables, labels and surfaces; the binary form stores
//! indices into per-kind tables (4_visa_header.md). Predefined variables and surfaces have fixed
//! indices; other names get the next free index of their kind in order of first use.

use std::collections::HashMap;

/// The per-kind symbol tables of a vISA object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// General variables (`V`), indices from 32 (0..=20 predefined, 21..=31 reserved).
    General,
    /// Address variables (`A`).
    Address,
    /// Predicate variables (`P`); index 0 means "no predicate".
    Predicate,
    /// Sampler variables (`S`).
    Sampler,
    /// Surface variables (`T`); 0..=5 predefined.
    Surface,
    /// Labels.
    Label,
    /// Functions (call targets named by integer fields that are not labels).
    Function,
}

impl SymbolKind {
    /// Every kind.
    pub const ALL: [SymbolKind; 7] = [
        Self::General,
        Self::Address,
        Self::Predicate,
        Self::Sampler,
        Self::Surface,
        Self::Label,
        Self::Function,
    ];

    /// Largest index the binary form can hold for this kind.
    pub const fn max_id(self) -> u32 {
        match self {
            Self::General => u32::MAX,
            Self::Address | Self::Predicate => 4095,
            Self::Sampler => 31,
            Self::Surface => 255,
            Self::Label | Self::Function => 0xffff,
        }
    }

    /// The first index given to a name that is not predefined.
    pub const fn first_free(self) -> u32 {
        match self {
            Self::General => 32,
            Self::Predicate => 1,
            Self::Surface => 6,
            Self::Address | Self::Sampler | Self::Label | Self::Function => 0,
        }
    }

    /// The table that an integer field bound to an operand placeholder indexes, from the
    /// field's name: `Surface` -> surfaces, `Sampler` -> samplers, `Label` -> labels,
    /// `variable` -> general variables, anything else (`Func_id` ...) -> functions.
    pub fn for_reference_field(field: &str) -> Self {
        let has = |word: &str| {
            field
                .as_bytes()
                .windows(word.len())
                .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
        };
        if has("surface") {
            Self::Surface
        } else if has("sampler") {
            Self::Sampler
        } else if has("label") {
            Self::Label
        } else if has("variable") {
            // LIFETIME's `variable`: the compiler writes the general variable's number.
            Self::General
        } else {
            Self::Function
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::General => "general variable",
            Self::Address => "address variable",
            Self::Predicate => "predicate variable",
            Self::Sampler => "sampler",
            Self::Surface => "surface",
            Self::Label => "label",
            Self::Function => "function",
        })
    }
}

/// Predefined general variables by index (names as the Intel compiler prints them).
const PREDEFINED_GENERAL: &[&str] = crate::rules::PREDEFINED_VARIABLE_NUMBERS;

/// Other spellings of predefined general variables (the specification's names).
const GENERAL_ALIASES: [(&str, u32); 3] = [
    ("%tm", 6),
    ("%implicit_arg_ptr", 18),
    ("%implicit_local_id_buf_ptr", 19),
];

/// Predefined surfaces by index.
const PREDEFINED_SURFACES: [&str; 6] = crate::rules::PREDEFINED_SURFACE_NAMES;

/// Other spellings of predefined surfaces.
const SURFACE_ALIASES: [(&str, u32); 4] = [("T0", 0), ("T3", 3), ("T4", 4), ("T5", 5)];

/// Indices below this are stored in a vector indexed by id (decoding names every operand, so
/// this lookup is hot); larger ones, which only `define` can create, in a map.
const DENSE_IDS: u32 = 4096;

/// Names by index: `dense[id]` for small indices, `sparse` for the rest. Each index lives in
/// exactly one of the two (and `dense` never ends in `None`), so the derived equality is the
/// equality of the mappings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Names {
    dense: Vec<Option<String>>,
    sparse: HashMap<u32, String>,
}

impl Names {
    fn get(&self, id: u32) -> Option<&str> {
        if id < DENSE_IDS {
            self.dense.get(id as usize)?.as_deref()
        } else {
            self.sparse.get(&id).map(String::as_str)
        }
    }

    fn contains(&self, id: u32) -> bool {
        self.get(id).is_some()
    }

    /// Sets the name of `id`; returns the name it replaces.
    fn insert(&mut self, id: u32, name: String) -> Option<String> {
        if id < DENSE_IDS {
            let index = id as usize;
            if self.dense.len() <= index {
                self.dense.resize(index + 1, None);
            }
            self.dense.get_mut(index)?.replace(name)
        } else {
            self.sparse.insert(id, name)
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Table {
    by_id: Names,
    by_name: HashMap<String, u32>,
    next: u32,
}

impl Table {
    fn with(first_free: u32) -> Self {
        Self {
            next: first_free,
            ..Self::default()
        }
    }

    fn insert(&mut self, id: u32, name: &str) {
        if !self.by_id.contains(id) {
            self.by_id.insert(id, name.to_string());
        }
        self.by_name.insert(name.to_string(), id);
    }
}

/// Symbol tables for encoding (names are given indices) and decoding (indices are named).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolTable {
    tables: [Table; 7],
}

impl Default for SymbolTable {
    fn default() -> Self {
        Self::new()
    }
}

/// A kind's index space is full.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("too many {kind}s: `{name}` does not fit (at most {max} + 1)", max = kind.max_id())]
pub struct SymbolLimit {
    /// The kind.
    pub kind: SymbolKind,
    /// The name that did not fit.
    pub name: String,
}

impl SymbolTable {
    /// Tables holding only the predefined variables and surfaces.
    pub fn new() -> Self {
        let mut tables = SymbolKind::ALL.map(|k| Table::with(k.first_free()));
        let [general, _, _, _, surface, _, _] = &mut tables;
        for (id, name) in (0u32..).zip(PREDEFINED_GENERAL.iter().copied()) {
            general.insert(id, name);
        }
        for (name, id) in GENERAL_ALIASES {
            general.insert(id, name);
        }
        for (id, name) in (0u32..).zip(PREDEFINED_SURFACES) {
            surface.insert(id, name);
        }
        for (name, id) in SURFACE_ALIASES {
            surface.insert(id, name);
        }
        Self { tables }
    }

    fn table(&self, kind: SymbolKind) -> Option<&Table> {
        self.tables.get(kind.slot())
    }

    /// The index of `name`, if known.
    pub fn id(&self, kind: SymbolKind, name: &str) -> Option<u32> {
        self.table(kind)?.by_name.get(name).copied()
    }

    /// The name of index `id`, if known.
    pub fn name(&self, kind: SymbolKind, id: u32) -> Option<&str> {
        self.table(kind)?.by_id.get(id)
    }

    /// The index of `name`, giving it the next free index when it is new.
    pub fn intern(&mut self, kind: SymbolKind, name: &str) -> Result<u32, SymbolLimit> {
        let limit = || SymbolLimit {
            kind,
            name: name.to_string(),
        };
        let table = self.tables.get_mut(kind.slot()).ok_or_else(limit)?;
        if let Some(&id) = table.by_name.get(name) {
            return Ok(id);
        }
        while table.by_id.contains(table.next) {
            table.next = table.next.checked_add(1).ok_or_else(limit)?;
        }
        let id = table.next;
        if id > kind.max_id() {
            return Err(limit());
        }
        table.insert(id, name);
        Ok(id)
    }

    /// Gives `name` a chosen index (declarations read from a binary header); replaces an
    /// earlier name of that index.
    pub fn define(&mut self, kind: SymbolKind, id: u32, name: &str) {
        if let Some(table) = self.tables.get_mut(kind.slot()) {
            if let Some(old) = table.by_id.insert(id, name.to_string()) {
                table.by_name.remove(&old);
            }
            table.by_name.insert(name.to_string(), id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_names_have_fixed_indices() {
        let syms = SymbolTable::new();
        assert_eq!(syms.id(SymbolKind::General, "%null"), Some(0));
        assert_eq!(syms.id(SymbolKind::General, "%r0"), Some(7));
        assert_eq!(syms.id(SymbolKind::General, "%tm"), Some(6));
        assert_eq!(syms.name(SymbolKind::General, 6), Some("%tsc"));
        assert_eq!(syms.id(SymbolKind::Surface, "%bss"), Some(4));
        assert_eq!(syms.id(SymbolKind::Surface, "T5"), Some(5));
        assert_eq!(syms.name(SymbolKind::Surface, 5), Some("%scratch"));
    }

    #[test]
    fn new_names_take_the_next_free_index() {
        let mut syms = SymbolTable::new();
        assert_eq!(syms.intern(SymbolKind::General, "V40"), Ok(32));
        assert_eq!(syms.intern(SymbolKind::General, "V41"), Ok(33));
        assert_eq!(syms.intern(SymbolKind::General, "V40"), Ok(32));
        assert_eq!(syms.intern(SymbolKind::Surface, "T6"), Ok(6));
        assert_eq!(syms.intern(SymbolKind::Predicate, "P1"), Ok(1));
        assert_eq!(syms.name(SymbolKind::General, 33), Some("V41"));
    }

    #[test]
    fn index_spaces_are_bounded() {
        let mut syms = SymbolTable::new();
        for i in 0..32 {
            assert_eq!(syms.intern(SymbolKind::Sampler, &format!("S{i}")), Ok(i));
        }
        let err = syms
            .intern(SymbolKind::Sampler, "one_too_many")
            .unwrap_err();
        assert_eq!(err.kind, SymbolKind::Sampler);
    }

    #[test]
    fn large_and_small_indices_name_and_compare_alike() {
        let mut a = SymbolTable::new();
        a.define(SymbolKind::General, 100_000, "far");
        a.define(SymbolKind::General, 40, "near");
        assert_eq!(a.name(SymbolKind::General, 100_000), Some("far"));
        assert_eq!(a.name(SymbolKind::General, 40), Some("near"));
        assert_eq!(a.name(SymbolKind::General, 39), None);
        assert_eq!(a.name(SymbolKind::General, 99_999), None);
        // Same mapping built in the other order: equal tables.
        let mut b = SymbolTable::new();
        b.define(SymbolKind::General, 40, "near");
        b.define(SymbolKind::General, 100_000, "far");
        assert_eq!(a, b);
        // Redefining an index replaces its name in both directions.
        b.define(SymbolKind::General, 100_000, "other");
        assert_eq!(b.id(SymbolKind::General, "far"), None);
        assert_ne!(a, b);
        // Interning skips defined indices.
        a.define(SymbolKind::General, 32, "taken");
        assert_eq!(a.intern(SymbolKind::General, "fresh"), Ok(33));
    }
}

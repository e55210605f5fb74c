//! The stable JSON shape printed by `visa spec dump --json`: one [`DumpDocument`] per document.
//!
//! It is a flattened view of the model (bitfields listed per document with the field they belong
//! to, properties as a key -> value map) that scripts can rely on.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Document, Platform, PlatformBound, TypeName};

/// One document as `visa spec dump --json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpDocument {
    /// The document's path.
    pub file: String,
    /// Line of the `## Opcode` heading.
    pub line: u32,
    /// Opcode names joined with `_` (`SVM_GATHER`).
    pub name: String,
    /// The opcodes, parent first.
    pub opcodes: Vec<DumpOpcode>,
    /// Fields in encoding order.
    pub fields: Vec<DumpField>,
    /// Every `Bit[..]` sub-field, with the field it belongs to, in field order.
    pub bitfields: Vec<DumpBitField>,
    /// The Text section's statements as written.
    pub syntax: Vec<String>,
    /// The Properties bullets, key to value.
    pub properties: BTreeMap<String, String>,
    /// The `### CONDITION` texts of the Format tables (empty for a single unconditional table).
    pub conditions: Vec<String>,
}

/// An opcode declared in the Opcode section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpOpcode {
    /// The opcode's name.
    pub name: String,
    /// The opcode byte.
    pub value: u32,
}

/// A field of the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpField {
    /// The field's name.
    pub name: String,
    /// The type token (`ub`, `vec_operand`, ... or as written).
    #[serde(rename = "type")]
    pub ty: String,
    /// Marked `*` in the Format table: present only under a condition.
    pub optional: bool,
    /// From "Must have type ..." (platform tags written as `{XEHP+}BF`).
    pub allowed_types: Vec<String>,
    /// From "Operand class: ...".
    pub operand_classes: Vec<String>,
    /// Value list directly under the field (not under a `Bit[..]` item).
    pub values: Vec<DumpValue>,
    /// `[lo, hi]` from "Valid values are [lo-hi]".
    pub range: Option<(i64, i64)>,
    /// A list field (`Name0 | NameN | Name(Count-1)`): the field that holds its length.
    pub repeat: Option<String>,
}

/// A `Bit[hi..lo]` sub-field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpBitField {
    /// The field the sub-field belongs to.
    pub field: String,
    /// Highest bit (inclusive).
    pub hi: u32,
    /// Lowest bit (inclusive).
    pub lo: u32,
    /// The text after `Bit[..]:`.
    pub description: String,
    /// Platform tags, written as in the documents.
    pub platforms: Vec<String>,
    /// The codes of the sub-field.
    pub values: Vec<DumpValue>,
}

/// One code of a field or sub-field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpValue {
    /// The code's value.
    pub code: u64,
    /// The text after the code, platform tags removed.
    pub label: String,
    /// Platform tags, written as in the documents.
    pub platforms: Vec<String>,
}

/// A platform tag as the documents write it: `{XEHP+}`, `{-XEHP}`, `{XEHP}`.
pub fn platform_text(platform: &Platform) -> String {
    match platform.bound {
        PlatformBound::Since => format!("{{{}+}}", platform.name),
        PlatformBound::Before => format!("{{-{}}}", platform.name),
        PlatformBound::Only => format!("{{{}}}", platform.name),
    }
}

fn type_text(ty: &TypeName) -> String {
    let tags: String = ty.platforms.iter().map(platform_text).collect();
    format!("{tags}{}", ty.name)
}

impl DumpDocument {
    /// The JSON view of `doc`.
    pub fn new(doc: &Document) -> Self {
        let cell = |name: &str| {
            doc.formats
                .iter()
                .flat_map(|t| &t.fields)
                .find(|f| f.name == name)
        };
        let optional = |name: &str| cell(name).is_some_and(|f| f.optional);
        let repeat = |name: &str| cell(name).and_then(|f| f.repeat.clone());
        let values = |list: &[crate::model::CodeValue]| -> Vec<DumpValue> {
            list.iter()
                .map(|v| DumpValue {
                    code: v.code,
                    label: v.label.clone(),
                    platforms: v.platforms.iter().map(platform_text).collect(),
                })
                .collect()
        };
        Self {
            file: doc.file.clone(),
            line: doc.line,
            name: doc.full_name(),
            opcodes: doc
                .opcodes
                .iter()
                .map(|o| DumpOpcode {
                    name: o.name.clone(),
                    value: o.value,
                })
                .collect(),
            fields: doc
                .fields
                .iter()
                .map(|f| DumpField {
                    name: f.name.clone(),
                    ty: f.ty.token().to_string(),
                    optional: optional(&f.name),
                    allowed_types: f.allowed_types.iter().map(type_text).collect(),
                    operand_classes: f.operand_classes.clone(),
                    values: values(&f.values),
                    range: f.range,
                    repeat: repeat(&f.name),
                })
                .collect(),
            bitfields: doc
                .fields
                .iter()
                .flat_map(|f| {
                    f.bitfields.iter().map(|b| DumpBitField {
                        field: f.name.clone(),
                        hi: b.hi,
                        lo: b.lo,
                        description: b.description.clone(),
                        platforms: b.platforms.iter().map(platform_text).collect(),
                        values: values(&b.values),
                    })
                })
                .collect(),
            syntax: doc.syntax.iter().map(|s| s.text.clone()).collect(),
            properties: doc
                .properties
                .iter()
                .map(|p| (p.key.clone(), p.value.clone()))
                .collect(),
            conditions: doc
                .formats
                .iter()
                .filter_map(|t| t.condition.clone())
                .collect(),
        }
    }
}

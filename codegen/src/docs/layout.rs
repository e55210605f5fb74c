//! Byte layout of an encoding: where each field of a Format table starts in the binary form.
//!
//! Opcode cells are one byte each. Fixed-size fields (`ub`, `uw`, `ud`, `d`, `uq`) have a known
//! size; operands (and unknown field types) have a variable size, so every field after the first
//! variable-size one has an offset of "fixed bytes + var". Optional fields (`Name*`, present only
//! under a condition) are counted as present; offsets after one are marked with `*`.

use crate::model::{Document, FieldType, FormatTable};

/// The size in bytes of a field type, or `None` when it varies (operands, unknown tokens).
pub fn fixed_size(ty: &FieldType) -> Option<u32> {
    match ty {
        FieldType::Ub => Some(1),
        FieldType::Uw => Some(2),
        FieldType::Ud | FieldType::D => Some(4),
        FieldType::Uq => Some(8),
        FieldType::Scalar | FieldType::VecOperand | FieldType::RawOperand | FieldType::Other(_) => {
            None
        }
    }
}

/// Where a cell starts: a byte count, plus a variable part when a variable-size cell precedes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offset {
    /// Bytes from the start of the instruction that are known statically.
    pub fixed: u32,
    /// A variable-size field (an operand) comes before this row: the offset is at least `fixed`.
    pub after_variable: bool,
    /// An optional field precedes: the offset holds when it is present.
    pub after_optional: bool,
}

impl std::fmt::Display for Offset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fixed)?;
        if self.after_variable {
            f.write_str("+var")?;
        }
        if self.after_optional {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// What a row of the encoding table describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowKind {
    /// An opcode or sub-operation byte with its value.
    Opcode {
        /// The byte's value.
        value: u32,
    },
    /// A named field; `ty` is `None` when the document has no bullet for it.
    Field {
        /// The field's type token, `None` when the document does not describe the field.
        ty: Option<FieldType>,
        /// Marked `*` in the Format table: present only under a condition.
        optional: bool,
    },
}

/// One row of the encoding table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The opcode or field name as the Format table writes it.
    pub name: String,
    /// What the row encodes.
    pub kind: RowKind,
    /// Size in bytes, `None` for variable-size cells.
    pub size: Option<u32>,
    /// Where the row starts in the encoded instruction.
    pub offset: Offset,
    /// A list field: the field that holds its length (each element is `element_size` bytes).
    pub repeat: Option<(String, Option<u32>)>,
}

impl Row {
    /// The size column: bytes, `var`, or `2 × Num_labels` for a list.
    pub fn size_text(&self) -> String {
        match (&self.repeat, self.size) {
            (Some((count, Some(each))), _) => format!("{each} × {count}"),
            (Some((count, None)), _) => format!("var × {count}"),
            (None, Some(bytes)) => bytes.to_string(),
            (None, None) => "var".to_string(),
        }
    }
}

/// Lays out one Format table of `doc`: opcode bytes first, then fields in encoding order.
pub fn layout(doc: &Document, table: &FormatTable) -> Vec<Row> {
    let mut rows = Vec::with_capacity(table.opcodes.len() + table.fields.len());
    let mut offset = Offset {
        fixed: 0,
        after_variable: false,
        after_optional: false,
    };
    let mut push = |name: String, kind: RowKind, size: Option<u32>, repeat: Option<String>| {
        let optional = matches!(kind, RowKind::Field { optional: true, .. });
        // A list's total size depends on its count: what follows it is at a variable offset.
        let repeat = repeat.map(|count| (count, size));
        let size = if repeat.is_some() { None } else { size };
        rows.push(Row {
            name,
            kind,
            size,
            offset,
            repeat,
        });
        match size {
            Some(bytes) => offset.fixed = offset.fixed.saturating_add(bytes),
            None => offset.after_variable = true,
        }
        offset.after_optional |= optional;
    };
    for opcode in &table.opcodes {
        push(
            opcode.name.clone(),
            RowKind::Opcode {
                value: opcode.value,
            },
            Some(1),
            None,
        );
    }
    for cell in &table.fields {
        let ty = doc.field(&cell.name).map(|f| f.ty.clone());
        let size = ty.as_ref().and_then(fixed_size);
        push(
            cell.name.clone(),
            RowKind::Field {
                ty,
                optional: cell.optional,
            },
            size,
            cell.repeat.clone(),
        );
    }
    rows
}

//! Proptest strategies that build random valid instructions from an instruction table entry:
//! documented codes for coded fields, operands of the forms each field kind allows.
#![allow(dead_code)]

use proptest::prelude::*;
use visa_isa::ast::{
    ElemType, FieldValue, Immediate, Instruction, Operand, PredControl, Predicate, Region, SrcMod,
};
use visa_isa::bits;
use visa_isa::codec::SymbolKind;
use visa_isa::codec::operand::canonical_bits;
use visa_isa::desc::{FieldDesc, FieldKind, FieldRole, InstrDesc, LayoutDesc, SuffixDesc};

const GENERAL: &[&str] = &["V32", "V33", "data", "%null", "%r0", "%arg"];
const ADDRESS: &[&str] = &["A0", "A1", "addr"];
const PREDICATE: &[&str] = &["P1", "P2", "flag"];
const SURFACE: &[&str] = &["%slm", "%bss", "%scratch", "T6", "T7", "surf"];
const OTHER_NAMES: &[&str] = &["target", "L1", "BB_2"];

fn name(pool: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(pool).prop_map(str::to_string).boxed()
}

fn modifier() -> impl Strategy<Value = SrcMod> {
    prop::sample::select(
        &[
            SrcMod::None,
            SrcMod::Abs,
            SrcMod::Neg,
            SrcMod::NegAbs,
            SrcMod::Not,
        ][..],
    )
}

const REGION_PARAMS: &[u16] = &[0, 1, 2, 4, 8, 16, 32];

fn region() -> impl Strategy<Value = Option<Region>> {
    let param = prop::sample::select(REGION_PARAMS);
    prop::option::of((
        prop::option::of(param.clone()),
        prop::option::of(param.clone()),
        param,
    ))
    .prop_map(|r| r.map(|(vs, width, hs)| Region { vs, width, hs }))
}

fn immediate() -> impl Strategy<Value = Immediate> {
    let types: Vec<ElemType> = ElemType::ALL
        .into_iter()
        .filter(|t| *t != ElemType::Bool)
        .collect();
    (prop::sample::select(types), any::<u64>()).prop_map(|(ty, raw)| Immediate {
        bits: canonical_bits(ty, raw),
        ty,
    })
}

fn indirect_type() -> impl Strategy<Value = ElemType> {
    prop::sample::select(ElemType::ALL.to_vec())
}

/// Any vector operand form.
pub fn vector_operand() -> BoxedStrategy<Operand> {
    prop_oneof![
        (modifier(), name(GENERAL), 0u32..256, 0u32..256, region()).prop_map(
            |(modifier, var, row, col, region)| Operand::General {
                modifier,
                var,
                row,
                col,
                region,
                ty: None
            }
        ),
        (
            modifier(),
            name(ADDRESS),
            0u32..256,
            -32768i32..32768,
            region(),
            indirect_type()
        )
            .prop_map(|(modifier, addr, addr_elem, offset, region, ty)| {
                Operand::Indirect {
                    modifier,
                    addr,
                    addr_elem,
                    offset,
                    region,
                    ty,
                }
            }),
        // The width is stored as an execution-size code: 1, 2, 4, 8 or 16.
        (name(ADDRESS), 0u32..256, 0u32..5).prop_map(|(var, elem, width_code)| Operand::Address {
            var,
            elem,
            width: 1 << width_code
        }),
        (name(GENERAL), any::<i32>()).prop_map(|(var, offset)| Operand::AddressOf { var, offset }),
        immediate().prop_map(Operand::Immediate),
        name(PREDICATE).prop_map(|var| Operand::Predicate { var }),
        name(SURFACE).prop_map(Operand::Name),
    ]
    .boxed()
}

fn raw_operand() -> BoxedStrategy<Operand> {
    (name(GENERAL), 0u32..65536)
        .prop_map(|(var, offset)| Operand::Raw { var, offset })
        .boxed()
}

fn predicate() -> BoxedStrategy<Option<Predicate>> {
    let control =
        prop::sample::select(&[PredControl::None, PredControl::Any, PredControl::All][..]);
    prop::option::of((name(PREDICATE), any::<bool>(), control))
        .prop_map(|p| {
            p.map(|(name, inverse, control)| Predicate {
                name,
                inverse,
                control,
            })
        })
        .boxed()
}

/// A random documented value of a coded field: one listed code per sub-field.
fn coded_value(field: &'static FieldDesc) -> BoxedStrategy<u64> {
    if !field.bitfields.is_empty() {
        let parts: Vec<BoxedStrategy<u64>> = field
            .bitfields
            .iter()
            .map(|b| {
                let lo = b.lo;
                if b.codes.is_empty() {
                    let width = b.hi - b.lo + 1;
                    let max = if width >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << width) - 1
                    };
                    (0..=max).prop_map(move |v| v << lo).boxed()
                } else {
                    prop::sample::select(b.codes)
                        .prop_map(move |c| c.code << lo)
                        .boxed()
                }
            })
            .collect();
        return parts
            .prop_map(|p| p.into_iter().fold(0, |a, b| a | b))
            .boxed();
    }
    if !field.values.is_empty() {
        return prop::sample::select(field.values)
            .prop_map(|c| c.code)
            .boxed();
    }
    let max = match field.kind.bits() {
        Some(64) | None => u64::MAX,
        Some(bits) => (1u64 << bits) - 1,
    };
    (0..=max).boxed()
}

fn field_value(field: &'static FieldDesc) -> BoxedStrategy<FieldValue> {
    if field.repeat.is_some() {
        // A list field: 1 to 8 elements (the count field is set to the length afterwards).
        return prop::collection::vec(element_value(field), 1..=8)
            .prop_map(FieldValue::List)
            .boxed();
    }
    let value = element_value(field);
    if field.optional {
        prop_oneof![Just(FieldValue::Absent), value].boxed()
    } else {
        value
    }
}

/// A value of the field's kind and role: the whole field, or one element of a list field.
fn element_value(field: &'static FieldDesc) -> BoxedStrategy<FieldValue> {
    match (field.role, field.kind) {
        (FieldRole::Predicate, _) => predicate().prop_map(FieldValue::Pred).boxed(),
        (FieldRole::ExecSize, _) => coded_value(field)
            .prop_map(move |v| match bits::bits_to_exec(field, v) {
                Ok(exec) => FieldValue::Exec(exec),
                Err(_) => FieldValue::Int(v),
            })
            .boxed(),
        (FieldRole::Reference, _) => {
            let pool = match SymbolKind::for_reference_field(field.name) {
                SymbolKind::Surface => SURFACE,
                _ => OTHER_NAMES,
            };
            name(pool)
                .prop_map(|n| FieldValue::Operand(Operand::Name(n)))
                .boxed()
        }
        (_, FieldKind::RawOperand) => raw_operand().prop_map(FieldValue::Operand).boxed(),
        (_, FieldKind::Scalar | FieldKind::VecOperand) => {
            vector_operand().prop_map(FieldValue::Operand).boxed()
        }
        _ => coded_value(field).prop_map(FieldValue::Int).boxed(),
    }
}

/// Whether every field of the entry has a binary encoding.
pub fn encodable(desc: &InstrDesc) -> bool {
    desc.fields.iter().all(|f| f.kind != FieldKind::Other)
}

/// Whether a value written in an optional cell of a layout would be written as the left-out
/// zero (the field's unwritten value, `%null`, the immediate `0:ud`), and so read back as left
/// out.
fn reads_as_left_out(field: &FieldDesc, value: &FieldValue) -> bool {
    match value {
        FieldValue::Int(v) => *v == field.unwritten,
        FieldValue::Operand(Operand::Raw { var, offset: 0 }) => var == "%null",
        FieldValue::Operand(Operand::Immediate(imm)) => imm.bits == 0 && imm.ty == ElemType::Ud,
        _ => false,
    }
}

/// The strategies of the fields of an instruction written in `layout`: the cells' fields as in
/// [`field_value`] (an optional cell: left out, or a value that does not read as left out), the
/// fields the condition allows one value only that value, the others their unwritten value.
fn layout_fields(
    desc: &'static InstrDesc,
    layout: &'static LayoutDesc,
) -> Vec<BoxedStrategy<FieldValue>> {
    desc.fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let unwritten = field.unwritten_value();
            if let Some(test) = layout.when.iter().find(|t| t.field == i) {
                // The tested bits take one of the allowed values; a sub-field test keeps the
                // other bits random.
                let mask = test.mask;
                return (prop::sample::select(test.values), coded_value(field))
                    .prop_map(move |(v, rest)| FieldValue::Int(v | (rest & !mask)))
                    .boxed();
            }
            match layout.cells.iter().find(|c| c.field == i) {
                None => Just(unwritten).boxed(),
                Some(cell) if cell.optional => prop_oneof![
                    Just(unwritten),
                    element_value(field)
                        .prop_filter("reads as left out", move |v| !reads_as_left_out(field, v)),
                ]
                .boxed(),
                Some(_) => element_value(field),
            }
        })
        .collect()
}

/// A random valid instruction for table entry `index`.
pub fn instruction(index: usize, desc: &'static InstrDesc) -> BoxedStrategy<Instruction> {
    if !desc.layouts.is_empty() {
        // One of the layouts, and an instruction that is written in it (the first layout whose
        // condition holds).
        return prop::sample::select(desc.layouts)
            .prop_flat_map(move |layout| {
                let layout: &'static LayoutDesc = desc
                    .layouts
                    .iter()
                    .find(|l| **l == layout)
                    .expect("a layout of the entry");
                layout_fields(desc, layout).prop_map(move |fields| (layout, fields))
            })
            .prop_filter("written in an earlier layout", move |(layout, fields)| {
                desc.layouts.iter().find(|l| holds(l, fields)) == Some(*layout)
            })
            .prop_map(move |(_, fields)| Instruction::built(index, false, fields))
            .boxed();
    }
    let fields: Vec<BoxedStrategy<FieldValue>> = desc.fields.iter().map(field_value).collect();
    let saturates = desc.syntax.iter().any(|s| {
        s.suffixes
            .iter()
            .any(|x| matches!(x, SuffixDesc::Optional(SuffixDesc::Literal("sat"))))
    });
    let sat_field = desc
        .fields
        .iter()
        .position(|f| f.kind == FieldKind::VecOperand)
        .filter(|_| saturates);
    (fields, any::<bool>(), name(GENERAL))
        .prop_map(move |(mut fields, saturate, var)| {
            let saturate = saturate && sat_field.is_some();
            for (i, field) in desc.fields.iter().enumerate() {
                let len = match fields.get(i) {
                    Some(FieldValue::List(items)) => items.len() as u64,
                    _ => continue,
                };
                if let Some(slot) = field.repeat.and_then(|c| fields.get_mut(c)) {
                    *slot = FieldValue::Int(len);
                }
            }
            if saturate && let Some(slot) = sat_field.and_then(|i| fields.get_mut(i)) {
                // The destination of a saturating instruction: a plain general operand.
                *slot = FieldValue::Operand(Operand::General {
                    modifier: SrcMod::None,
                    var,
                    row: 0,
                    col: 0,
                    region: Some(Region {
                        vs: None,
                        width: None,
                        hs: 1,
                    }),
                    ty: None,
                });
            }
            Instruction::built(index, saturate, fields)
        })
        .boxed()
}

/// Whether `fields` meet the layout's condition.
fn holds(layout: &LayoutDesc, fields: &[FieldValue]) -> bool {
    layout.when.iter().all(|t| match fields.get(t.field) {
        Some(FieldValue::Int(v)) => t.values.contains(&(v & t.mask)),
        _ => false,
    })
}

/// A random valid instruction of any encodable table entry.
pub fn any_instruction() -> BoxedStrategy<Instruction> {
    let entries: Vec<(usize, &'static InstrDesc)> = visa_isa::INSTRUCTIONS
        .iter()
        .enumerate()
        .filter(|(_, d)| encodable(d))
        .collect();
    prop::sample::select(entries)
        .prop_flat_map(|(i, d)| instruction(i, d))
        .boxed()
}

//! `parse(format(i)) == i` for random instructions of every opcode of the generated table,
//! built from each entry's syntax templates (documented codes, operands of allowed kinds).

use proptest::prelude::*;
use visa_isa::ast::*;
use visa_isa::desc::{Binding, FieldDesc, FieldKind, FieldRole, InstrDesc, SuffixDesc, SyntaxDesc};
use visa_isa::{INSTRUCTIONS, text};

const TYPES: [ElemType; 12] = [
    ElemType::Ub,
    ElemType::B,
    ElemType::Uw,
    ElemType::W,
    ElemType::Ud,
    ElemType::D,
    ElemType::Uq,
    ElemType::Q,
    ElemType::Hf,
    ElemType::F,
    ElemType::Df,
    ElemType::Bf,
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        // (`V0` is the compiler's name of `%null`: it reads back as `%null`.)
        "[A-Z][A-Za-z0-9_]{0,6}".prop_filter("the null operand's numbered name", |n| n != "V0"),
        Just("%null".to_string()),
        Just("%r0".to_string()),
        "%[0-9]",
    ]
}

fn elem_type() -> impl Strategy<Value = ElemType> {
    proptest::sample::select(&TYPES[..])
}

fn src_region() -> impl Strategy<Value = Region> {
    (
        proptest::sample::select(vec![0u16, 1, 2, 4, 8, 16, 32]),
        proptest::sample::select(vec![1u16, 2, 4, 8, 16]),
        proptest::sample::select(vec![0u16, 1, 2, 4]),
    )
        .prop_map(|(vs, w, hs)| Region {
            vs: Some(vs),
            width: Some(w),
            hs,
        })
}

fn dst_region() -> impl Strategy<Value = Region> {
    proptest::sample::select(vec![1u16, 2, 4]).prop_map(|hs| Region {
        vs: None,
        width: None,
        hs,
    })
}

fn modifier() -> impl Strategy<Value = SrcMod> {
    proptest::sample::select(vec![
        SrcMod::None,
        SrcMod::Abs,
        SrcMod::Neg,
        SrcMod::NegAbs,
        SrcMod::Not,
    ])
}

/// Bits as the parser stores them: the type's width, sign-extended for signed integers.
fn immediate() -> impl Strategy<Value = Immediate> {
    let types = vec![
        ElemType::Ub,
        ElemType::B,
        ElemType::Uw,
        ElemType::W,
        ElemType::Ud,
        ElemType::D,
        ElemType::Uq,
        ElemType::Q,
        ElemType::Hf,
        ElemType::F,
        ElemType::Df,
        ElemType::Bf,
        ElemType::V,
        ElemType::Uv,
        ElemType::Vf,
    ];
    (proptest::sample::select(types), any::<u64>()).prop_map(|(ty, raw)| {
        let bits = match ty {
            ElemType::Ub | ElemType::B => 8,
            ElemType::Uw | ElemType::W | ElemType::Hf | ElemType::Bf => 16,
            ElemType::Uq | ElemType::Q | ElemType::Df => 64,
            _ => 32,
        };
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let mut v = raw & mask;
        if ty.is_signed_int() && ty != ElemType::V && bits < 64 && (v >> (bits - 1)) & 1 == 1 {
            v |= !mask;
        }
        Immediate { bits: v, ty }
    })
}

fn is_dst(field: &FieldDesc) -> bool {
    field.name.to_ascii_lowercase().starts_with("dst")
}

fn has_class(field: &FieldDesc, class: &str) -> bool {
    field
        .operand_classes
        .iter()
        .any(|c| c.word().eq_ignore_ascii_case(class))
}

/// An operand of a form the field's operand classes allow.
fn operand(field: &'static FieldDesc) -> BoxedStrategy<Operand> {
    if field.kind == FieldKind::RawOperand {
        // `%null` is written `%null.0` only (the compiler's grammar).
        return (name(), 0u32..4096)
            .prop_map(|(var, offset)| {
                let offset = if var == "%null" { 0 } else { offset };
                Operand::Raw { var, offset }
            })
            .boxed();
    }
    let dst = is_dst(field);
    let region = if dst {
        dst_region().boxed()
    } else {
        src_region().boxed()
    };
    let mods = if dst {
        Just(SrcMod::None).boxed()
    } else {
        modifier().boxed()
    };
    let mut forms: Vec<BoxedStrategy<Operand>> = vec![
        (
            mods.clone(),
            name(),
            0u32..64,
            0u32..64,
            region.clone(),
            proptest::option::of(elem_type()),
        )
            .prop_map(|(modifier, var, row, col, region, ty)| Operand::General {
                modifier,
                var,
                row,
                col,
                region: Some(region),
                ty,
            })
            .boxed(),
    ];
    if has_class(field, "indirect") {
        let region = if dst {
            dst_region().boxed()
        } else {
            prop_oneof![
                src_region(),
                (proptest::sample::select(vec![1u16, 2, 4, 8, 16]), 0u16..5).prop_map(|(w, hs)| {
                    Region {
                        vs: None,
                        width: Some(w),
                        hs,
                    }
                })
            ]
            .boxed()
        };
        forms.push(
            (mods, name(), 0u32..16, -512i32..512, region, elem_type())
                .prop_map(
                    |(modifier, addr, addr_elem, offset, region, ty)| Operand::Indirect {
                        modifier,
                        addr,
                        addr_elem,
                        offset,
                        region: Some(region),
                        ty,
                    },
                )
                .boxed(),
        );
    }
    if field
        .operand_classes
        .iter()
        .any(|c| c.accepts(visa_isa::desc::OperandClass::Immediate))
    {
        forms.push(immediate().prop_map(Operand::Immediate).boxed());
    }
    if has_class(field, "state") && !has_class(field, "address") {
        // A surface or sampler with its element index: `%bss(0)`, `T6(1)`.
        forms.push(
            (name(), 0u32..16)
                .prop_map(|(var, elem)| Operand::Address {
                    var,
                    elem,
                    width: 1,
                })
                .boxed(),
        );
    }
    if has_class(field, "predicate") {
        forms.push(name().prop_map(|var| Operand::Predicate { var }).boxed());
    }
    if has_class(field, "address") {
        forms.push(
            (name(), 0u32..16, 1u32..17)
                .prop_map(|(var, elem, width)| Operand::Address { var, elem, width })
                .boxed(),
        );
        forms.push(
            (name(), -64i32..64)
                .prop_map(|(var, offset)| Operand::AddressOf { var, offset })
                .boxed(),
        );
    }
    proptest::strategy::Union::new(forms).boxed()
}

/// Resolves a whole-field binding to the field's only coded sub-field, as the assembler does.
fn codes_of(desc: &InstrDesc, b: Binding) -> (u32, Vec<u64>) {
    let field = &desc.fields[b.field];
    let bitfield = b.bitfield.or_else(|| {
        let coded: Vec<usize> = field
            .bitfields
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.codes.is_empty())
            .map(|(i, _)| i)
            .collect();
        (field.values.is_empty() && coded.len() == 1).then(|| coded[0])
    });
    match bitfield {
        Some(i) => (
            field.bitfields[i].lo,
            field.bitfields[i].codes.iter().map(|c| c.code).collect(),
        ),
        None => (0, field.values.iter().map(|c| c.code).collect()),
    }
}

fn set(fields: &mut [FieldValue], desc: &InstrDesc, b: Binding, code: u64) {
    let (lo, _) = codes_of(desc, b);
    if let FieldValue::Int(v) = &mut fields[b.field] {
        *v |= code << lo;
    }
}

/// One decision of the generator, applied to the field values in order.
#[derive(Debug, Clone)]
enum Step {
    Set(Binding, u64),
    Value(usize, FieldValue),
}

/// A random instruction written with template `syntax` of entry `index`.
fn instruction(index: usize, syntax: &'static SyntaxDesc) -> BoxedStrategy<Instruction> {
    let desc: &'static InstrDesc = &INSTRUCTIONS[index];
    // What the parser gives a field the template does not write (its unwritten value).
    let base: Vec<FieldValue> = desc.fields.iter().map(|f| f.unwritten_value()).collect();
    let mut steps: Vec<BoxedStrategy<Step>> = Vec::new();
    if let Some(p) = syntax.predicate {
        steps.push(
            proptest::option::of((name(), any::<bool>(), 0u8..3))
                .prop_map(move |pred| {
                    Step::Value(
                        p,
                        FieldValue::Pred(pred.map(|(name, inverse, c)| Predicate {
                            name,
                            inverse,
                            control: [PredControl::None, PredControl::Any, PredControl::All]
                                [c as usize],
                        })),
                    )
                })
                .boxed(),
        );
    }
    if let Some((b, code)) = syntax.mnemonic_sets {
        steps.push(Just(Step::Set(b, code)).boxed());
    }
    for suffix in syntax.suffixes {
        let (element, optional) = match suffix {
            SuffixDesc::Optional(inner) => (*inner, true),
            other => (other, false),
        };
        match *element {
            SuffixDesc::Field(b) => {
                let (_, codes) = codes_of(desc, b);
                let codes = if codes.is_empty() {
                    vec![0, 1, 2, 3]
                } else {
                    codes
                };
                let codes = if optional {
                    codes.into_iter().filter(|c| *c != 0).chain([0]).collect()
                } else {
                    codes
                };
                steps.push(
                    proptest::sample::select(codes)
                        .prop_map(move |c| Step::Set(b, c))
                        .boxed(),
                );
            }
            SuffixDesc::Sets { binding, code, .. } => {
                steps.push(Just(Step::Set(binding, code)).boxed());
            }
            SuffixDesc::Hex { binding, .. } => {
                let bits = desc.fields[binding.field].kind.bits().unwrap_or(8);
                let max = if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                steps.push((0..=max).prop_map(move |v| Step::Set(binding, v)).boxed());
            }
            SuffixDesc::Letters(letters) => {
                for &(_, binding) in letters {
                    steps.push(
                        any::<bool>()
                            .prop_map(move |on| Step::Set(binding, u64::from(on)))
                            .boxed(),
                    );
                }
            }
            SuffixDesc::Flag { binding, text } => {
                let (_, codes) = codes_of(desc, binding);
                let on = desc.fields[binding.field]
                    .bitfields
                    .iter()
                    .flat_map(|bf| bf.codes)
                    .chain(desc.fields[binding.field].values)
                    .find(|c| c.text.eq_ignore_ascii_case(text))
                    .map_or(1, |c| c.code);
                let _ = codes;
                steps.push(
                    any::<bool>()
                        .prop_map(move |w| Step::Set(binding, if w { on } else { 0 }))
                        .boxed(),
                );
            }
            _ => {}
        }
    }
    if let Some(b) = syntax.exec_size {
        let field = &desc.fields[b.field];
        if field.role == FieldRole::ExecSize && b.bitfield.is_none() {
            let sizes: Vec<u32> = field
                .bitfields
                .iter()
                .find(|x| x.lo == 0)
                .map(|x| x.codes.iter().filter_map(|c| c.text.parse().ok()).collect())
                .unwrap_or_default();
            let masks: Vec<u64> = field
                .bitfields
                .iter()
                .find(|x| x.lo == 4)
                .map(|x| x.codes.iter().map(|c| c.code).collect())
                .unwrap_or_default();
            steps.push(
                (
                    proptest::sample::select(sizes),
                    proptest::sample::select(masks),
                )
                    .prop_map(move |(size, mask)| {
                        Step::Value(
                            b.field,
                            FieldValue::Exec(ExecSize {
                                size,
                                mask_offset: (mask & 7) as u8,
                                no_mask: mask & 8 != 0,
                                mask_written: true,
                            }),
                        )
                    })
                    .boxed(),
            );
        } else {
            let (_, codes) = codes_of(desc, b);
            steps.push(
                proptest::sample::select(codes)
                    .prop_map(move |c| Step::Set(b, c))
                    .boxed(),
            );
        }
    }
    // Optional operands may be left out only at the end of the line.
    let first_optional_tail = syntax
        .operands
        .iter()
        .rposition(|(_, optional)| !optional)
        .map_or(0, |i| i + 1);
    let tail_len = syntax.operands.len() - first_optional_tail;
    let written_tail = 0..=tail_len;
    let operands: Vec<(usize, BoxedStrategy<FieldValue>)> = syntax
        .operands
        .iter()
        .map(|&(fi, _)| {
            let field: &'static FieldDesc = &desc.fields[fi];
            let value = if field.repeat.is_some() {
                // A list of names, 0 to 6 of them (the count field follows below).
                proptest::collection::vec(name(), 0..=6)
                    .prop_map(|names| {
                        FieldValue::List(
                            names
                                .into_iter()
                                .map(|n| FieldValue::Operand(Operand::Name(n)))
                                .collect(),
                        )
                    })
                    .boxed()
            } else if field.role == FieldRole::Operand {
                operand(field).prop_map(FieldValue::Operand).boxed()
            } else if field.role == FieldRole::Value {
                // `Operand class: number`: a plain number.
                (0u64..100_000).prop_map(FieldValue::Int).boxed()
            } else if has_class(field, "string") {
                "[a-z][a-z0-9_./]{0,10}"
                    .prop_map(|n| FieldValue::Operand(Operand::Name(n)))
                    .boxed()
            } else {
                name()
                    .prop_map(|n| FieldValue::Operand(Operand::Name(n)))
                    .boxed()
            };
            (fi, value)
        })
        .collect();
    let indices: Vec<usize> = operands.iter().map(|(i, _)| *i).collect();
    let values: Vec<BoxedStrategy<FieldValue>> = operands.into_iter().map(|(_, v)| v).collect();
    (steps, values, written_tail, any::<bool>())
        .prop_map(move |(steps, values, keep_tail, saturate)| {
            let mut fields = base.clone();
            for step in steps {
                match step {
                    Step::Set(b, code) => set(&mut fields, desc, b, code),
                    Step::Value(i, v) => fields[i] = v,
                }
            }
            for (k, (fi, v)) in indices.iter().zip(values).enumerate() {
                if k < first_optional_tail + keep_tail {
                    // The text does not write a list's count: it is the list's length.
                    if let (FieldValue::List(items), Some(count)) = (&v, desc.fields[*fi].repeat)
                    {
                        fields[count] = FieldValue::Int(items.len() as u64);
                    }
                    fields[*fi] = v;
                }
            }
            let sat_allowed = syntax.suffixes.iter().any(|s| {
                matches!(s, SuffixDesc::Literal(w) if w.eq_ignore_ascii_case("sat"))
                    || matches!(s, SuffixDesc::Optional(SuffixDesc::Literal(w)) if w.eq_ignore_ascii_case("sat"))
            });
            Instruction {
                desc: index,
                saturate: saturate && sat_allowed,
                fields,
                span: Span::new(1, 1),
                field_spans: Vec::new(),
                element_spans: Vec::new(),
            }
        })
        .boxed()
}

fn any_instruction() -> BoxedStrategy<Instruction> {
    let all: Vec<BoxedStrategy<Instruction>> = INSTRUCTIONS
        .iter()
        .enumerate()
        .flat_map(|(i, d)| d.syntax.iter().map(move |s| instruction(i, s)))
        .collect();
    proptest::strategy::Union::new(all).boxed()
}

/// The parsed instruction without its field positions, after checking them: every written
/// value (operand, list, predicate, execution size) has a position on the line, and the text
/// there is that value's first character (not a blank, not the mnemonic).
fn value_with_positions_checked(mut parsed: Instruction, printed: &str) -> Instruction {
    let chars: Vec<char> = printed.chars().collect();
    let mnemonic_end = printed.find(' ').unwrap_or(printed.len());
    for (index, value) in parsed.fields.iter().enumerate() {
        let written = matches!(
            value,
            FieldValue::Operand(_)
                | FieldValue::List(_)
                | FieldValue::Pred(Some(_))
                | FieldValue::Exec(_)
        );
        let Some(span) = parsed.field_span(index) else {
            assert!(
                !written,
                "`{printed}`: field {index} ({value:?}) has no position"
            );
            continue;
        };
        assert_eq!(span.line, 1, "`{printed}`");
        let at = span.col as usize - 1;
        let c = chars.get(at).copied();
        assert!(
            c.is_some_and(|c| !c.is_whitespace()),
            "`{printed}`: field {index} at column {} is {c:?}",
            span.col
        );
        if !matches!(value, FieldValue::Pred(_)) {
            assert!(
                at > mnemonic_end || printed.starts_with('('),
                "`{printed}`: field {index}"
            );
        }
    }
    for span in &parsed.element_spans {
        let c = chars.get(span.col as usize - 1).copied();
        assert!(
            c.is_some_and(|c| !c.is_whitespace() && c != ','),
            "`{printed}`: {c:?}"
        );
    }
    assert_eq!(
        parsed.element_spans.len(),
        parsed.list_elements(),
        "`{printed}`"
    );
    parsed.field_spans.clear();
    parsed.element_spans.clear();
    parsed
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_of_format_is_identity(i in any_instruction()) {
        let printed = text::format_instruction(&i);
        let parsed = text::parse_instruction(&printed);
        prop_assert!(parsed.is_ok(), "{printed}: {}", parsed.unwrap_err());
        prop_assert_eq!(value_with_positions_checked(parsed.unwrap(), &printed), i, "{}", printed);
    }
}

/// Every instruction and every template of the table is exercised by the strategy above:
/// 200 instructions per template, each printed and parsed back.
#[test]
fn every_template_round_trips() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    assert!(!INSTRUCTIONS.is_empty());
    for (index, desc) in INSTRUCTIONS.iter().enumerate() {
        assert!(
            !desc.syntax.is_empty(),
            "{} has no syntax template",
            desc.name
        );
        for syntax in desc.syntax {
            let strategy = instruction(index, syntax);
            for _ in 0..200 {
                let i = strategy.new_tree(&mut runner).unwrap().current();
                let printed = text::format_instruction(&i);
                let parsed = text::parse_instruction(&printed)
                    .unwrap_or_else(|e| panic!("{}: `{printed}`: {e}", desc.name));
                let parsed = value_with_positions_checked(parsed, &printed);
                assert_eq!(parsed, i, "{}: `{printed}`", desc.name);
            }
        }
    }
}

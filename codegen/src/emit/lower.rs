//! Lowers parsed documents into what the emitters print: instructions with their fields
//! classified (predicate, exec size, operand, reference, value), syntax templates resolved to
//! field bindings (`brief/syntax-conventions.md`), and the bitfield types, deduplicated across
//! documents and named. Nothing here knows any instruction by name.
//!
//! Lowering never fails on a document: what it cannot generate is left out with a warning (a
//! document whose encoding is incomplete, one that reuses another's opcode or name, a syntax
//! template that binds to no field, a code range), and the rest is generated.

use std::collections::HashMap;

use crate::model::{
    Diagnostic, DiagnosticKind, Document, Field, FieldType, Loc, PatternPiece, Severity,
    SyntaxSuffix, SyntaxTemplate,
};

use super::ir::{
    Binding, FieldModel, InstrModel, Lowered, NumberStyle, Piece, Role, Suffix, SyntaxModel,
    Typing, coded_bindings, find_token,
};
use super::names;

/// The warnings of a lowering.
#[derive(Default)]
struct Warnings(Vec<Diagnostic>);

impl Warnings {
    /// Something not generated.
    fn push(&mut self, file: &str, loc: Loc, message: String) {
        self.push_kind(DiagnosticKind::NotGenerated, file, loc, message);
    }

    fn push_kind(&mut self, kind: DiagnosticKind, file: &str, loc: Loc, message: String) {
        self.0.push(Diagnostic {
            file: file.to_string(),
            loc,
            severity: Severity::Warning,
            message,
            kind,
        });
    }
}

/// Lowers every document that can be generated; the others are left out with a warning.
pub fn lower(docs: &[Document]) -> Lowered<'_> {
    let mut warnings = Warnings::default();
    let mut instrs = Vec::new();
    for doc in docs {
        if let Some(instr) = lower_document(doc, &mut warnings) {
            instrs.push(instr);
        }
    }
    let mut instrs = unique(instrs, &mut warnings);
    let (code_types, composites) = super::types::assign_types(&mut instrs);
    Lowered {
        instrs,
        code_types,
        composites,
        warnings: warnings.0,
    }
}

/// The instructions whose name, Rust name and opcode value no earlier document took; the others
/// are left out with a warning.
fn unique<'a>(instrs: Vec<InstrModel<'a>>, warnings: &mut Warnings) -> Vec<InstrModel<'a>> {
    let mut by_name: HashMap<String, &'a Document> = HashMap::new();
    let mut by_ident: HashMap<String, &'a Document> = HashMap::new();
    let mut by_code: HashMap<(u8, Option<u8>), &'a Document> = HashMap::new();
    let mut out = Vec::with_capacity(instrs.len());
    for instr in instrs {
        let clash = by_name
            .get(&instr.name)
            .map(|d| ("name", *d))
            .or_else(|| by_ident.get(&instr.ident).map(|d| ("Rust name", *d)))
            .or_else(|| {
                by_code
                    .get(&(instr.opcode, instr.subop))
                    .map(|d| ("opcode value", *d))
            });
        if let Some((what, other)) = clash {
            let loc = instr.doc.opcodes.first().map(|o| o.loc).unwrap_or_default();
            let message = format!(
                "the {what} of {} is already used by {} ({}): {} is left out of the generated code",
                instr.name,
                other.full_name(),
                other.file,
                instr.name
            );
            warnings.push(&instr.doc.file, loc, message);
            continue;
        }
        by_name.insert(instr.name.clone(), instr.doc);
        by_ident.insert(instr.ident.clone(), instr.doc);
        by_code.insert((instr.opcode, instr.subop), instr.doc);
        out.push(instr);
    }
    out
}

/// Why a document's encoding cannot be generated, with where: cells of its Format table that
/// could not be read, or a Format field without a type.
fn incomplete_encoding(doc: &Document) -> Option<(Loc, String)> {
    if let Some(&loc) = doc.formats.iter().flat_map(|t| &t.unread_cells).next() {
        return Some((
            loc,
            "a cell of its Format table is not a field (see the warning there)".to_string(),
        ));
    }
    doc.formats
        .iter()
        .flat_map(|t| &t.fields)
        .find(|cell| doc.field(&cell.name).is_none())
        .map(|cell| {
            (
                cell.loc,
                format!("the Format field `{}` has no type (no bullet)", cell.name),
            )
        })
}

fn lower_document<'a>(doc: &'a Document, warnings: &mut Warnings) -> Option<InstrModel<'a>> {
    let file = doc.file.as_str();
    let name = doc.full_name();
    let left_out = |warnings: &mut Warnings, loc: Loc, why: String| {
        let message = format!("{name} is left out of the generated code: {why}");
        warnings.push(file, loc, message);
    };
    let (opcode, subop) = match doc.opcodes.as_slice() {
        [] => {
            left_out(
                warnings,
                Loc::new(doc.line, 1),
                "it declares no opcode".to_string(),
            );
            return None;
        }
        [op] => (byte(op.value, op.loc, file, warnings)?, None),
        [op, sub] => (
            byte(op.value, op.loc, file, warnings)?,
            Some(byte(sub.value, sub.loc, file, warnings)?),
        ),
        [_, _, extra, ..] => {
            let why = "at most an opcode and one sub-operation are supported".to_string();
            left_out(warnings, extra.loc, why);
            return None;
        }
    };
    if let Some((loc, why)) = incomplete_encoding(doc) {
        left_out(warnings, loc, why);
        return None;
    }
    let mut fields = format_fields(doc);
    for field in fields.iter().filter_map(|f| f.bullet) {
        let ranges = field
            .ranges
            .iter()
            .map(|r| (r, format!("field `{}`", field.name)));
        let bit_ranges = field.bitfields.iter().flat_map(|b| {
            b.ranges.iter().map(move |r| {
                (
                    r,
                    format!("`Bit[{}..{}]` of field `{}`", b.hi, b.lo, field.name),
                )
            })
        });
        for (range, owner) in ranges.chain(bit_ranges) {
            let message = format!(
                "the code range {:#x}-{:#x} of {owner} is documentation only: its codes are not generated (list them one by one to generate them)",
                range.first, range.last
            );
            warnings.push(file, range.loc, message);
        }
    }
    let mut syntax = Vec::new();
    // A statement that does not parse as a template was reported by the parser.
    for line in &doc.syntax {
        let Some(template) = &line.template else {
            continue;
        };
        match resolve_template(template, &fields, &name, &line.text) {
            Ok(mut model) => {
                model.text = line.text.trim().to_string();
                syntax.push(model);
            }
            Err(message) => {
                let message = format!("syntax statement not generated: {message}");
                warnings.push_kind(DiagnosticKind::Syntax, file, line.loc, message);
            }
        }
    }
    classify(&mut fields, &syntax);
    let saturates = syntax.iter().any(|s| {
        s.suffixes.iter().any(
            |x| matches!(x, Suffix::Optional(inner) if **inner == Suffix::Literal("sat".into())),
        )
    });
    let rules = super::checks::rules(doc, &fields, &mut |loc, message| {
        warnings.push_kind(DiagnosticKind::CompilerChecks, file, loc, message);
    });
    for field in &mut fields {
        let Some(bullet) = field.bullet else { continue };
        let Some(token) = &bullet.unwritten else {
            continue;
        };
        match super::layouts::code_value(field, token) {
            Some(value) => field.unwritten = value,
            None => {
                let message = format!(
                    "`Unwritten value: {token}` names no code of {}: the field's unwritten value is 0",
                    field.name
                );
                warnings.push_kind(DiagnosticKind::FormatTable, file, bullet.loc, message);
            }
        }
    }
    let layouts = super::layouts::layouts(doc, &fields, &mut |loc, message| {
        warnings.push_kind(DiagnosticKind::FormatTable, file, loc, message);
    });
    let enforces = doc
        .compiler_checks
        .enforces
        .iter()
        .map(|(e, _)| e.clone())
        .collect();
    Some(InstrModel {
        doc,
        ident: names::instr_ident(&name),
        name,
        opcode,
        subop,
        fields,
        syntax,
        saturates,
        enforces,
        rules,
        layouts,
    })
}

fn byte(value: u32, loc: Loc, file: &str, warnings: &mut Warnings) -> Option<u8> {
    let byte = u8::try_from(value).ok();
    if byte.is_none() {
        let message =
            format!("opcode value {value:#x} does not fit in one byte: the document is left out");
        warnings.push(file, loc, message);
    }
    byte
}

/// The fields of every Format table, in encoding order, each once.
fn format_fields(doc: &Document) -> Vec<FieldModel<'_>> {
    let mut fields: Vec<FieldModel<'_>> = Vec::new();
    for table in &doc.formats {
        for cell in &table.fields {
            if fields
                .iter()
                .any(|f| f.name.eq_ignore_ascii_case(&cell.name))
            {
                continue;
            }
            let bullet = doc.field(&cell.name);
            let repeat = cell.repeat.as_ref().and_then(|count| {
                fields
                    .iter()
                    .position(|f| f.name.eq_ignore_ascii_case(count))
            });
            fields.push(FieldModel {
                name: cell.name.clone(),
                member: String::new(),
                kind: bullet.map_or(FieldType::Other("undocumented".into()), |b| b.ty.clone()),
                optional: cell.optional,
                bullet,
                role: Role::Value,
                typing: Typing::Int,
                repeat,
                unwritten: 0,
            });
        }
    }
    let mut members: Vec<String> = fields
        .iter()
        .map(|f| names::member_ident(&f.name, "field"))
        .map(|m| {
            // `saturate` and `generic` are members of every typed instruction or view.
            if m == "saturate" || m == "generic" {
                format!("{m}_field")
            } else {
                m
            }
        })
        .collect();
    names::dedupe(&mut members);
    for (field, member) in fields.iter_mut().zip(members) {
        field.member = member;
    }
    fields
}

fn resolve(fields: &[FieldModel<'_>], name: &str) -> Option<Binding> {
    let name = name.trim().trim_start_matches('<').trim_end_matches('>');
    if let Some(field) = fields
        .iter()
        .position(|f| f.name.eq_ignore_ascii_case(name))
    {
        // A field whose sub-fields are named (`Bit[4..0]: op: ...`) means the named sub-field.
        let named = fields[field].bullet.and_then(|b| {
            b.bitfields
                .iter()
                .position(|bf| names::description_names(&bf.description, name))
        });
        return Some(Binding {
            field,
            bitfield: named,
        });
    }
    fields.iter().enumerate().find_map(|(i, f)| {
        let bullet = f.bullet?;
        let j = bullet
            .bitfields
            .iter()
            .position(|b| names::description_names(&b.description, name))?;
        Some(Binding {
            field: i,
            bitfield: Some(j),
        })
    })
}

fn resolve_suffix(suffix: &SyntaxSuffix, fields: &[FieldModel<'_>]) -> Result<Suffix, String> {
    match suffix {
        SyntaxSuffix::Field { name } => super::bind::letters(fields, name)
            .or_else(|| resolve(fields, name).map(Suffix::Field))
            .ok_or_else(|| format!("suffix `.{name}` names no field or `name:` sub-field")),
        SyntaxSuffix::Literal { text } => Ok(resolve(fields, text)
            .map_or_else(|| Suffix::Literal(text.to_ascii_lowercase()), Suffix::Field)),
        SyntaxSuffix::Optional { inner } => match inner.as_ref() {
            SyntaxSuffix::Literal { text } if text.eq_ignore_ascii_case("sat") => {
                Ok(Suffix::Optional(Box::new(Suffix::Literal("sat".into()))))
            }
            SyntaxSuffix::Literal { text } => {
                let word = text.to_ascii_lowercase();
                coded_bindings(fields)
                    .into_iter()
                    .filter(|(_, width)| *width == 1)
                    .chain(coded_bindings(fields).into_iter().filter(|(b, _)| b.bitfield.is_none()))
                    .find(|(b, _)| find_token(fields, *b, &word).is_some())
                    .map(|(binding, _)| Suffix::Flag { text: word.clone(), binding })
                    .ok_or_else(|| {
                        format!("optional suffix `[.{text}]` matches no one-bit sub-field with a code `{word}`")
                    })
            }
            other => Ok(Suffix::Optional(Box::new(resolve_suffix(other, fields)?))),
        },
        SyntaxSuffix::Alternatives { options } => Ok(Suffix::Alternatives(
            options.iter().map(|o| o.to_ascii_lowercase()).collect(),
        )),
    }
}

fn suffix_bindings(suffix: &Suffix, out: &mut Vec<Binding>) {
    match suffix {
        Suffix::Field(b)
        | Suffix::Flag { binding: b, .. }
        | Suffix::Sets { binding: b, .. }
        | Suffix::Hex { binding: b, .. } => out.push(*b),
        Suffix::Letters(letters) => out.extend(letters.iter().map(|(_, b)| *b)),
        Suffix::Optional(inner) => suffix_bindings(inner, out),
        Suffix::Literal(_) | Suffix::Alternatives(_) => {}
    }
}

fn resolve_template(
    template: &SyntaxTemplate,
    fields: &[FieldModel<'_>],
    instr_name: &str,
    text: &str,
) -> Result<SyntaxModel, String> {
    let predicate = if template.predicate {
        let index = fields
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case("pred"));
        Some(index.ok_or("`[(<P>)]` is written but the Format table has no `Pred` field")?)
    } else {
        None
    };
    let suffixes = template
        .suffixes
        .iter()
        .map(|s| resolve_suffix(s, fields))
        .collect::<Result<Vec<_>, _>>()?;
    let suffixes = super::bind::glue_hex(suffixes, text);
    let exec_size = match &template.exec_size {
        Some(name) => Some(
            resolve(fields, name)
                .ok_or_else(|| format!("`(<{name}>)` names no field or `{name}:` sub-field"))?,
        ),
        None => None,
    };
    let mut operands = Vec::new();
    let mut layout = Vec::new();
    let mut pattern_bound = Vec::new();
    let composite = template.operands.iter().any(|o| !o.pattern.is_empty());
    for operand in &template.operands {
        if composite {
            let pieces = if operand.pattern.is_empty() {
                let plain = PatternPiece::Field {
                    name: operand.name.clone(),
                    style: None,
                    default: None,
                };
                match operand.optional {
                    true => vec![PatternPiece::Optional {
                        pieces: vec![plain],
                    }],
                    false => vec![plain],
                }
            } else {
                operand.pattern.clone()
            };
            let resolved = resolve_pieces(&pieces, fields, false, &mut operands)?;
            pieces_bindings(&resolved, &mut pattern_bound);
            layout.push(resolved);
            continue;
        }
        match resolve(fields, &operand.name) {
            Some(Binding {
                field,
                bitfield: None,
            }) => {
                let is_list = fields.get(field).is_some_and(|f| f.repeat.is_some());
                if operand.list != is_list {
                    return Err(if is_list {
                        format!(
                            "`<{}>` is a list field: write its elements as `(<{0}0>, <{0}1>, ...)`",
                            operand.name
                        )
                    } else {
                        format!(
                            "the list `({}0, ...)` names a field that is not a list (`Name0 | NameN | Name(Count-1)` in the Format table)",
                            operand.name
                        )
                    });
                }
                operands.push((field, operand.optional));
            }
            Some(_) => {
                return Err(format!(
                    "operand `<{}>` names a sub-field, not a field",
                    operand.name
                ));
            }
            None => return Err(format!("operand `<{}>` names no field", operand.name)),
        }
    }
    let mnemonic = template.mnemonic.to_ascii_lowercase();
    let mut bound: Vec<Binding> = Vec::new();
    suffixes.iter().for_each(|s| suffix_bindings(s, &mut bound));
    bound.extend(exec_size);
    bound.extend(predicate.map(|field| Binding {
        field,
        bitfield: None,
    }));
    bound.extend(operands.iter().map(|&(field, _)| Binding {
        field,
        bitfield: None,
    }));
    bound.extend(pattern_bound);
    let (suffixes, mnemonic_sets) =
        super::bind::choose_codes(suffixes, fields, &bound, &mnemonic, instr_name);
    Ok(SyntaxModel {
        text: String::new(),
        mnemonic,
        predicate,
        suffixes,
        exec_size,
        operands,
        mnemonic_sets,
        layout,
    })
}

/// Binds the pieces of a composite operand; the operand fields they write go to `operands`
/// (optional when inside a `[...]` group).
fn resolve_pieces(
    pieces: &[PatternPiece],
    fields: &[FieldModel<'_>],
    optional: bool,
    operands: &mut Vec<(usize, bool)>,
) -> Result<Vec<Piece>, String> {
    let mut out = Vec::with_capacity(pieces.len());
    for piece in pieces {
        out.push(match piece {
            PatternPiece::Literal { text } => Piece::Literal(text.clone()),
            PatternPiece::Optional { pieces } => {
                Piece::Optional(resolve_pieces(pieces, fields, true, operands)?)
            }
            PatternPiece::Field {
                name,
                style,
                default,
            } => {
                let binding = resolve(fields, name)
                    .ok_or_else(|| format!("`<{name}>` in an operand names no field"))?;
                let field = &fields[binding.field];
                let is_operand = matches!(
                    field.kind,
                    FieldType::Scalar | FieldType::VecOperand | FieldType::RawOperand
                );
                if is_operand {
                    if binding.bitfield.is_some() || field.repeat.is_some() {
                        return Err(format!(
                            "`<{name}>` in a composite operand names a sub-field or a list"
                        ));
                    }
                    if default.is_some() {
                        return Err(format!(
                            "`<{name}=...>`: an operand field has no default value"
                        ));
                    }
                    if !operands.iter().any(|&(f, _)| f == binding.field) {
                        operands.push((binding.field, optional));
                    }
                }
                let style = match style.as_deref() {
                    None => NumberStyle::Decimal,
                    Some("hex") => NumberStyle::Hex,
                    Some("+dec") => NumberStyle::SignedDecimal,
                    Some(_) => NumberStyle::SignedHex,
                };
                let default = match default {
                    None => None,
                    Some(_) if !optional => {
                        return Err(format!(
                            "`<{name}=...>`: a default is only meaningful inside `[...]`"
                        ));
                    }
                    Some(token) => Some(
                        find_token(fields, binding, &token.to_ascii_lowercase())
                            .or_else(|| super::layouts::parse_number(token))
                            .ok_or_else(|| {
                                format!("the default `{token}` of `<{name}>` is no code token and no number")
                            })?,
                    ),
                };
                Piece::Field {
                    binding,
                    style,
                    default,
                }
            }
        });
    }
    Ok(out)
}

fn pieces_bindings(pieces: &[Piece], out: &mut Vec<Binding>) {
    for piece in pieces {
        match piece {
            Piece::Literal(_) => {}
            Piece::Field { binding, .. } => out.push(*binding),
            Piece::Optional(inner) => pieces_bindings(inner, out),
        }
    }
}

/// Whether a field has the execution-size shape of syntax convention 3.
fn is_exec_shape(field: &Field) -> bool {
    // The size sub-field starts at bit 0 (Bit[2..0], or Bit[1..0] for GATHER's `Num_elts`).
    let size = field.bitfields.iter().find(|b| b.lo == 0 && b.hi <= 2);
    let mask = field.bitfields.iter().find(|b| b.lo == 4 && b.hi == 7);
    let (Some(size), Some(mask)) = (size, mask) else {
        return false;
    };
    let is_mask = |token: &str| {
        let rest = token.strip_prefix('m').unwrap_or("");
        let digits = rest.strip_suffix("_nm").unwrap_or(rest);
        digits.parse::<u8>().is_ok_and(|d| d >= 1)
    };
    size.values
        .iter()
        .all(|c| names::text_token(&c.label).parse::<u32>().is_ok())
        && mask
            .values
            .iter()
            .all(|c| is_mask(&names::text_token(&c.label)))
}

fn classify(fields: &mut [FieldModel<'_>], syntax: &[SyntaxModel]) {
    for (i, field) in fields.iter_mut().enumerate() {
        let bound_as_operand = syntax
            .iter()
            .any(|s| s.operands.iter().any(|&(f, _)| f == i));
        let bound_as_pred = syntax.iter().any(|s| s.predicate == Some(i));
        field.role = match field.kind {
            FieldType::Scalar | FieldType::VecOperand | FieldType::RawOperand => Role::Operand,
            FieldType::Other(_) => Role::Value,
            _ if bound_as_pred || field.name.eq_ignore_ascii_case("pred") => Role::Predicate,
            _ if field.bullet.is_some_and(is_exec_shape)
                && (field.name.eq_ignore_ascii_case("exec_size")
                    || syntax.iter().any(|s| {
                        s.exec_size
                            == Some(Binding {
                                field: i,
                                bitfield: None,
                            })
                    })) =>
            {
                Role::ExecSize
            }
            // `Operand class: number`: an integer written as a plain number (a count, a line).
            _ if bound_as_operand
                && field.bullet.is_some_and(|b| {
                    b.operand_classes
                        .iter()
                        .any(|c| c.trim().eq_ignore_ascii_case("number"))
                }) =>
            {
                Role::Value
            }
            _ if bound_as_operand => Role::Reference,
            _ => Role::Value,
        };
        field.typing = match (field.role, &field.kind) {
            (Role::Operand | Role::Reference, _) => Typing::Operand,
            (Role::Predicate, _) => Typing::Predicate,
            (_, FieldType::Other(_)) => Typing::Raw,
            _ => Typing::Int, // refined by `assign_types`
        };
    }
}

//! Lowers parsed documents into what the emitters print: instructions with their fields
//! classified (predicate, exec size, operand, reference, value), syntax templates resolved to
//! field bindings (`brief/syntax-conventions.md`), and the bitfield types, deduplicated across
//! documents and named. Nothing here knows any instruction by name.

use std::collections::HashMap;

use crate::model::{
    Diagnostic, Document, Field, FieldType, Loc, Severity, SyntaxSuffix, SyntaxTemplate,
};

use super::ir::{
    Binding, FieldModel, InstrModel, Lowered, Options, Role, Suffix, SyntaxModel, SyntaxPolicy,
    Typing, coded_bindings, find_token,
};
use super::names;

struct Diags {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl Diags {
    fn push(&mut self, severity: Severity, file: &str, loc: Loc, message: String) {
        let diag = Diagnostic {
            file: file.to_string(),
            loc,
            severity,
            message,
        };
        match severity {
            Severity::Error => self.errors.push(diag),
            Severity::Warning => self.warnings.push(diag),
        }
    }
}

/// Lowers every document; all document errors are reported together.
pub fn lower<'a>(docs: &'a [Document], options: Options) -> Result<Lowered<'a>, Vec<Diagnostic>> {
    let mut diags = Diags {
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let mut instrs = Vec::new();
    for doc in docs {
        if let Some(instr) = lower_document(doc, options, &mut diags) {
            instrs.push(instr);
        }
    }
    check_unique(&instrs, &mut diags);
    if !diags.errors.is_empty() {
        return Err(diags.errors);
    }
    let (code_types, composites) = super::types::assign_types(&mut instrs);
    Ok(Lowered {
        instrs,
        code_types,
        composites,
        warnings: diags.warnings,
    })
}

fn check_unique(instrs: &[InstrModel<'_>], diags: &mut Diags) {
    let mut by_name: HashMap<&str, &InstrModel<'_>> = HashMap::new();
    let mut by_ident: HashMap<&str, &InstrModel<'_>> = HashMap::new();
    let mut by_code: HashMap<(u8, Option<u8>), &InstrModel<'_>> = HashMap::new();
    for instr in instrs {
        let loc = instr.doc.opcodes.first().map(|o| o.loc).unwrap_or_default();
        let mut clash = |what: &str, other: &InstrModel<'_>| {
            let message = format!(
                "{what} of {} is already used by {} ({})",
                instr.name, other.name, other.doc.file
            );
            diags.push(Severity::Error, &instr.doc.file, loc, message);
        };
        if let Some(other) = by_name.insert(&instr.name, instr) {
            clash("the name", other);
        } else if let Some(other) = by_ident.insert(&instr.ident, instr) {
            clash("the Rust name", other);
        }
        if let Some(other) = by_code.insert((instr.opcode, instr.subop), instr) {
            clash("the opcode value", other);
        }
    }
}

fn lower_document<'a>(
    doc: &'a Document,
    options: Options,
    diags: &mut Diags,
) -> Option<InstrModel<'a>> {
    let file = doc.file.as_str();
    let heading = Loc::new(doc.line, 1);
    let (opcode, subop) = match doc.opcodes.as_slice() {
        [] => {
            let message = "the Opcode section declares no opcode".to_string();
            diags.push(Severity::Error, file, heading, message);
            return None;
        }
        [op] => (byte(op.value, op.loc, file, diags)?, None),
        [op, sub] => (
            byte(op.value, op.loc, file, diags)?,
            Some(byte(sub.value, sub.loc, file, diags)?),
        ),
        [_, _, extra, ..] => {
            let message = "at most an opcode and one sub-operation are supported".to_string();
            diags.push(Severity::Error, file, extra.loc, message);
            return None;
        }
    };
    let name = doc.full_name();
    let mut fields = format_fields(doc);
    let mut syntax = Vec::new();
    for line in &doc.syntax {
        let resolved = match &line.template {
            Some(template) => resolve_template(template, &fields, &name, &line.text),
            None => Err("the syntax line does not parse as a template".to_string()),
        };
        match resolved {
            Ok(mut model) => {
                model.text = line.text.trim().to_string();
                syntax.push(model);
            }
            Err(message) => {
                let severity = match options.unresolved_syntax {
                    SyntaxPolicy::Error => Severity::Error,
                    SyntaxPolicy::Warn => Severity::Warning,
                };
                diags.push(severity, file, line.loc, message);
            }
        }
    }
    classify(&mut fields, &syntax);
    let saturates = syntax.iter().any(|s| {
        s.suffixes.iter().any(
            |x| matches!(x, Suffix::Optional(inner) if **inner == Suffix::Literal("sat".into())),
        )
    });
    Some(InstrModel {
        doc,
        ident: names::instr_ident(&name),
        name,
        opcode,
        subop,
        fields,
        syntax,
        saturates,
    })
}

fn byte(value: u32, loc: Loc, file: &str, diags: &mut Diags) -> Option<u8> {
    match u8::try_from(value) {
        Ok(v) => Some(v),
        Err(_) => {
            let message = format!("opcode value {value:#x} does not fit in one byte");
            diags.push(Severity::Error, file, loc, message);
            None
        }
    }
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
            });
        }
    }
    let mut members: Vec<String> = fields
        .iter()
        .map(|f| names::member_ident(&f.name, "field"))
        .map(|m| {
            if m == "saturate" {
                "saturate_field".into()
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
    for operand in &template.operands {
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
    })
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

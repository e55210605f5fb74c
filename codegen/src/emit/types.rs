//! The generated bitfield types: every documented code set (a `Bit[..]` sub-field or a whole
//! field's value list) becomes one enum, shared by all documents that define it identically;
//! fields with several sub-fields get a struct over those enums. Names come from the field and
//! sub-field names; where two different definitions want the same name, the one used by more
//! instructions keeps it and the others are prefixed with their first instruction's name.

use std::collections::HashMap;

use crate::model::{CodeValue, Platform};

use super::ir::{CodeType, Composite, InstrModel, Member, MemberType, Role, Typing};
use super::names;

/// The identity of a set of codes: two documents defining the same sub-field identically share
/// one generated type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct CodeSetKey {
    field: String,
    hi: u32,
    lo: u32,
    whole: bool,
    codes: Vec<(u64, String, Vec<Platform>)>,
}

/// The identity of a per-field struct: field name, width and its sub-fields.
type CompositeKey = (String, u32, Vec<(u32, u32, MemberType)>);

/// Collects the code sets of every field, deduplicates and names them, and sets each field's
/// typing.
pub(crate) fn assign_types(instrs: &mut [InstrModel<'_>]) -> (Vec<CodeType>, Vec<Composite>) {
    let mut code_types: Vec<CodeType> = Vec::new();
    let mut code_index: HashMap<CodeSetKey, usize> = HashMap::new();
    let mut composites: Vec<Composite> = Vec::new();
    let mut composite_index: HashMap<CompositeKey, usize> = HashMap::new();
    // Preferred names, filled in as types are found; made unique afterwards.
    let mut code_preferred: Vec<(String, String)> = Vec::new(); // (preferred, first user ident)
    let mut composite_preferred: Vec<(String, String)> = Vec::new();

    for instr in instrs.iter_mut() {
        for field in instr.fields.iter_mut() {
            let plain = matches!(field.role, Role::Value | Role::ExecSize);
            if !plain || field.typing == Typing::Raw || field.repeat.is_some() {
                continue;
            }
            let (Some(bullet), Some(width)) = (field.bullet, field.width()) else {
                continue;
            };
            let field_ident = names::type_ident(&field.name, "F", "Field");
            let mut intern = |hi: u32,
                              lo: u32,
                              whole: bool,
                              description: &str,
                              platforms: &[Platform],
                              codes: &[CodeValue]| {
                let key = CodeSetKey {
                    field: field.name.to_ascii_lowercase(),
                    hi,
                    lo,
                    whole,
                    codes: codes
                        .iter()
                        .map(|c| (c.code, c.label.clone(), c.platforms.clone()))
                        .collect(),
                };
                let index = *code_index.entry(key).or_insert_with(|| {
                    let sub = if whole || (lo == 0 && bullet.bitfields.len() == 1) {
                        String::new()
                    } else {
                        names::type_ident(&names::subfield_name(description), "Bits", "Bits")
                    };
                    code_preferred.push((format!("{field_ident}{sub}"), instr.ident.clone()));
                    code_types.push(CodeType {
                        ident: String::new(),
                        field_name: field.name.clone(),
                        hi,
                        lo,
                        whole,
                        description: description.to_string(),
                        platforms: platforms.to_vec(),
                        codes: codes.to_vec(),
                        variants: Vec::new(),
                        users: Vec::new(),
                    });
                    code_types.len() - 1
                });
                if let Some(t) = code_types.get_mut(index) {
                    t.users.push(instr.name.clone());
                }
                index
            };
            if bullet.bitfields.is_empty() {
                if !bullet.values.is_empty() {
                    let t = intern(width - 1, 0, true, &bullet.description, &[], &bullet.values);
                    field.typing = Typing::Code(t);
                }
                continue;
            }
            if let [only] = bullet.bitfields.as_slice()
                && only.lo == 0
            {
                if !only.values.is_empty() {
                    let t = intern(
                        only.hi,
                        only.lo,
                        false,
                        &only.description,
                        &only.platforms,
                        &only.values,
                    );
                    field.typing = Typing::Code(t);
                }
                continue;
            }
            let mut members = Vec::new();
            for bitfield in &bullet.bitfields {
                let ty = if bitfield.values.is_empty() {
                    MemberType::Raw
                } else {
                    MemberType::Code(intern(
                        bitfield.hi,
                        bitfield.lo,
                        false,
                        &bitfield.description,
                        &bitfield.platforms,
                        &bitfield.values,
                    ))
                };
                members.push((bitfield.hi, bitfield.lo, ty));
            }
            let key = (field.name.to_ascii_lowercase(), width, members.clone());
            let index = *composite_index.entry(key).or_insert_with(|| {
                let mut idents: Vec<String> = bullet
                    .bitfields
                    .iter()
                    .map(|b| names::member_ident(&names::subfield_name(&b.description), "bits"))
                    .collect();
                names::dedupe(&mut idents);
                composite_preferred.push((field_ident.clone(), instr.ident.clone()));
                composites.push(Composite {
                    ident: String::new(),
                    field_name: field.name.clone(),
                    width,
                    members: members
                        .iter()
                        .zip(idents)
                        .map(|(&(hi, lo, ty), ident)| Member { ident, hi, lo, ty })
                        .collect(),
                    users: Vec::new(),
                });
                composites.len() - 1
            });
            if let Some(c) = composites.get_mut(index) {
                c.users.push(instr.name.clone());
            }
            field.typing = Typing::Composite(index);
        }
    }

    // Name the types: within a preferred name, the definition used most keeps it; the others are
    // prefixed with their first user's name. Code enums are named before per-field structs.
    let code_users: Vec<usize> = code_types.iter().map(|t| t.users.len()).collect();
    let composite_users: Vec<usize> = composites.iter().map(|c| c.users.len()).collect();
    let mut all_names = name_groups(&code_preferred, &code_users);
    all_names.extend(name_groups(&composite_preferred, &composite_users));
    names::dedupe(&mut all_names);
    let (code_names, composite_names) = all_names.split_at(code_types.len());
    for (t, name) in code_types.iter_mut().zip(code_names) {
        t.ident = name.clone();
        let mut variants: Vec<String> = t
            .codes
            .iter()
            .map(|c| names::variant_ident(&c.label, c.code))
            .collect();
        names::dedupe(&mut variants);
        t.variants = variants;
    }
    for (c, name) in composites.iter_mut().zip(composite_names) {
        c.ident = name.clone();
    }
    (code_types, composites)
}

fn name_groups(preferred: &[(String, String)], users: &[usize]) -> Vec<String> {
    let mut best: HashMap<&str, usize> = HashMap::new();
    for (i, (name, _)) in preferred.iter().enumerate() {
        let count = users.get(i).copied().unwrap_or(0);
        best.entry(name)
            .and_modify(|b| {
                if users.get(*b).copied().unwrap_or(0) < count {
                    *b = i;
                }
            })
            .or_insert(i);
    }
    preferred
        .iter()
        .enumerate()
        .map(|(i, (name, first_user))| {
            if best.get(name.as_str()) == Some(&i) {
                name.clone()
            } else {
                format!("{first_user}{name}")
            }
        })
        .collect()
}

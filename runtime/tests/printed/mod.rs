//! Kernels made from the single instruction lines the Intel compiler printed
//! (`../shared/asm-corpus/igc-printed.txt`): each line is wrapped in a kernel whose declarations
//! are inferred from its operands (general variables at their written `:type` or at a type the
//! corpus declares for the name, predicates, address variables, labels). Shared by the coverage
//! test and the rule-agreement test (`#[path]` module: not a test target of its own).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use visa_isa::ast::{ElemType, FieldValue, Instruction, Operand, StmtKind};

/// Bytes given to every inferred general variable: room for any row/column offset the corpus
/// uses.
const VARIABLE_BYTES: u32 = 2048;

/// Every type the corpus file declares for each name (`.decl NAME ... type=T`), distinct, in
/// file order. The file lists declarations of many tests, sorted: one name may have several.
pub fn declared_types(text: &str) -> BTreeMap<String, Vec<ElemType>> {
    let mut types: BTreeMap<String, Vec<ElemType>> = BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some(".decl") {
            continue;
        }
        let Some(name) = words.next() else { continue };
        let ty = words
            .find_map(|w| w.strip_prefix("type="))
            .and_then(ElemType::from_name);
        if let Some(ty) = ty {
            let list = types.entry(name.to_string()).or_default();
            if !list.contains(&ty) {
                list.push(ty);
            }
        }
    }
    types
}

/// Where a variable's type comes from when its operand does not write one: the corpus's own
/// declarations, then the instruction's first explicitly typed operand (also tried after the
/// declared types), then the first type the instruction's document supports.
struct TypeHints<'a> {
    declared: &'a BTreeMap<String, Vec<ElemType>>,
    fallback: ElemType,
}

/// At most this many assignments of declared types are tried for one line.
const MAX_ASSIGNMENTS: usize = 256;

#[derive(Default)]
pub struct Names {
    /// Each general variable with the types it may have (the first is tried first).
    general: BTreeMap<String, Vec<ElemType>>,
    predicates: BTreeSet<String>,
    addresses: BTreeSet<String>,
    labels: BTreeSet<String>,
}

impl Names {
    fn general(&mut self, var: &str, ty: Option<ElemType>, hints: &TypeHints) {
        if var.starts_with('%') {
            return;
        }
        // A name the corpus declares may also have the instruction's own type: the kernel the
        // compiler printed it from kept one float type throughout, as its verifier requires.
        let types = match (ty, hints.declared.get(var)) {
            (Some(ty), _) => vec![ty],
            (None, Some(declared)) if !declared.contains(&hints.fallback) => {
                let mut types = declared.clone();
                types.push(hints.fallback);
                types
            }
            (None, Some(declared)) => declared.clone(),
            (None, None) => vec![hints.fallback],
        };
        self.general.entry(var.to_string()).or_insert(types);
    }

    pub fn collect(&mut self, instr: &Instruction, declared: &BTreeMap<String, Vec<ElemType>>) {
        let desc = &visa_isa::INSTRUCTIONS[instr.desc];
        let written = instr.fields.iter().find_map(|f| match f {
            FieldValue::Operand(Operand::General { ty: Some(ty), .. }) => Some(*ty),
            _ => None,
        });
        let documented = desc
            .supported_types
            .iter()
            .find_map(|t| ElemType::from_name(&t.name.to_ascii_lowercase()));
        let hints = TypeHints {
            declared,
            fallback: written.or(documented).unwrap_or(ElemType::Ud),
        };
        for (field, value) in desc.fields.iter().zip(&instr.fields) {
            match value {
                FieldValue::Pred(Some(p)) => {
                    self.predicates.insert(p.name.clone());
                }
                FieldValue::Operand(op) => self.operand(field.name, op, &hints),
                _ => {}
            }
        }
    }

    fn operand(&mut self, field: &str, op: &Operand, hints: &TypeHints) {
        match op {
            Operand::General { var, ty, .. } => self.general(var, *ty, hints),
            Operand::Raw { var, .. } | Operand::AddressOf { var, .. } => {
                self.general(var, None, hints)
            }
            Operand::Indirect { addr, .. } => {
                self.addresses.insert(addr.clone());
            }
            // `%bss(0)`: a predefined state operand, not an address variable to declare.
            Operand::Address { var, .. } if !var.starts_with('%') => {
                self.addresses.insert(var.clone());
            }
            Operand::Predicate { var } => {
                self.predicates.insert(var.clone());
            }
            Operand::Name(name) if field.to_ascii_lowercase().contains("label") => {
                self.labels.insert(name.clone());
            }
            _ => {}
        }
    }

    /// The assignments of types to the general variables, in odometer order (the first
    /// declared type of every name first), at most [`MAX_ASSIGNMENTS`].
    pub fn assignments(&self) -> Vec<Vec<ElemType>> {
        let lists: Vec<&Vec<ElemType>> = self.general.values().collect();
        let mut digits = vec![0usize; lists.len()];
        let mut out = Vec::new();
        loop {
            out.push(lists.iter().zip(&digits).map(|(l, &d)| l[d]).collect());
            if out.len() == MAX_ASSIGNMENTS {
                return out;
            }
            // The next assignment: the first digit that can advance does, the ones before it
            // go back to 0; when none can, every assignment has been listed.
            let Some(k) = (0..lists.len()).find(|&k| digits[k] + 1 < lists[k].len()) else {
                return out;
            };
            digits[k] += 1;
            digits[..k].fill(0);
        }
    }

    pub fn declarations(&self, types: &[ElemType]) -> String {
        let mut out = String::new();
        for (name, ty) in self.general.keys().zip(types) {
            let elts = VARIABLE_BYTES / ty.size().max(1);
            out.push_str(&format!(
                ".decl {name} v_type=G type={ty} num_elts={elts} align=GRF\n"
            ));
        }
        for name in &self.predicates {
            out.push_str(&format!(".decl {name} v_type=P num_elts=32\n"));
        }
        for name in &self.addresses {
            out.push_str(&format!(".decl {name} v_type=A num_elts=16\n"));
        }
        out
    }
}

/// The candidate kernels of one instruction line: its mnemonic and one kernel text per
/// assignment of types to its variables (at most [`MAX_ASSIGNMENTS`]); `None` when the line is
/// not one instruction of the table.
pub fn kernels_for_line(
    line: &str,
    declared: &BTreeMap<String, Vec<ElemType>>,
) -> Option<(String, Vec<String>)> {
    let module = visa_isa::text::parse(line).ok()?;
    let instrs: Vec<&Instruction> = module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Instr(i) => Some(i),
            _ => None,
        })
        .collect();
    let [instr] = instrs.as_slice() else {
        return None;
    };
    let mnemonic = visa_isa::INSTRUCTIONS[instr.desc].name.to_ascii_lowercase();
    let mut names = Names::default();
    names.collect(instr, declared);
    let kernels = names
        .assignments()
        .into_iter()
        .map(|types| {
            let mut src = names.declarations(&types);
            src.push_str(line);
            src.push('\n');
            for label in &names.labels {
                src.push_str(&format!("{label}:\n"));
            }
            src
        })
        .collect();
    Some((mnemonic, kernels))
}

/// The instruction lines of the corpus text: 1-based line number and the trimmed line
/// (declarations, labels, comments and blank lines left out).
pub fn instruction_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| {
            !(line.is_empty()
                || line.starts_with('#')
                || line.starts_with('.')
                || line.ends_with(':'))
        })
        .map(|(number, line)| (number + 1, line))
}

/// The mnemonic of an instruction line: its first word after a predicate, without suffixes.
pub fn mnemonic_of(line: &str) -> &str {
    let rest = match line.strip_prefix('(') {
        Some(after) => after.split_once(')').map_or("", |(_, r)| r),
        None => line,
    };
    let word = rest.split_whitespace().next().unwrap_or("");
    word.split(['.', '(']).next().unwrap_or(word)
}

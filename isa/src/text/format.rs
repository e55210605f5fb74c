//! The formatter: prints the canonical text the Intel compiler prints
//! (`add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w`, `.decl V1 v_type=G type=d num_elts=16 align=GRF`).

use super::immediate::format_immediate;
use super::table::{
    binding_codes, binding_value, exec_mask_codes, has_class, is_exec_field, template_for,
};
use crate::ast::{
    Decl, DeclKind, ExecSize, FieldValue, Instruction, Module, Operand, PredControl, Predicate,
    Region, SrcMod, StmtKind,
};
use crate::desc::{Binding, FieldRole, InstrDesc, SuffixDesc};
use std::fmt::Write;

/// Prints a module, one statement per line; `{ }` scopes indent their contents.
pub fn format_module_with(table: &'static [InstrDesc], m: &Module) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for stmt in &m.stmts {
        if stmt.kind == StmtKind::ScopeClose {
            depth = depth.saturating_sub(1);
        }
        let indent = "    ".repeat(depth);
        let line = match &stmt.kind {
            StmtKind::Instr(i) => format!("    {}", format_instruction_with(table, i)),
            other => format_directive(other),
        };
        let _ = writeln!(out, "{indent}{line}");
        if stmt.kind == StmtKind::ScopeOpen {
            depth += 1;
        }
    }
    out
}

/// Prints a statement other than an instruction.
pub(crate) fn format_directive(kind: &StmtKind) -> String {
    match kind {
        StmtKind::Version { major, minor } => format!(".version {major}.{minor}"),
        StmtKind::Kernel { name } => format!(".kernel \"{name}\""),
        StmtKind::Function { name, global } => {
            format!(
                ".{} \"{name}\"",
                if *global {
                    "global_function"
                } else {
                    "function"
                }
            )
        }
        StmtKind::KernelAttr { name, value } => match value {
            Some(v) => format!(".kernel_attr {name}={v}"),
            None => format!(".kernel_attr {name}"),
        },
        StmtKind::Decl(d) => format_decl(d),
        StmtKind::Input { name, offset, size } => {
            format!(".input {name} offset={offset} size={size}")
        }
        StmtKind::Label { name } => format!("{name}:"),
        StmtKind::ScopeOpen => "{".to_string(),
        StmtKind::ScopeClose => "}".to_string(),
        StmtKind::Directive { name, args } if args.is_empty() => format!(".{name}"),
        StmtKind::Directive { name, args } => format!(".{name} {args}"),
        StmtKind::Instr(_) => String::new(),
    }
}

pub(crate) fn format_decl(d: &Decl) -> String {
    let mut s = format!(".decl {}", d.name);
    match &d.kind {
        DeclKind::General {
            ty,
            num_elts,
            align,
            alias,
        } => {
            let _ = write!(s, " v_type=G type={ty} num_elts={num_elts}");
            if let Some(a) = align {
                let _ = write!(s, " align={}", a.written);
            }
            if let Some((base, off)) = alias {
                let _ = write!(s, " alias=<{base}, {off}>");
            }
        }
        DeclKind::Address { num_elts } => {
            let _ = write!(s, " v_type=A num_elts={num_elts}");
        }
        DeclKind::Predicate { num_elts } => {
            let _ = write!(s, " v_type=P num_elts={num_elts}");
        }
        DeclKind::Sampler { num_elts, v_name } | DeclKind::Surface { num_elts, v_name } => {
            let kind = if matches!(d.kind, DeclKind::Sampler { .. }) {
                'S'
            } else {
                'T'
            };
            let _ = write!(s, " v_type={kind} num_elts={num_elts}");
            if let Some(v) = v_name {
                let _ = write!(s, " v_name={v}");
            }
        }
    }
    if !d.attrs.is_empty() {
        let attrs: Vec<String> = d
            .attrs
            .iter()
            .map(|(k, v)| match v {
                Some(v) => format!("{k}={v}"),
                None => k.clone(),
            })
            .collect();
        let _ = write!(s, " attrs={{{}}}", attrs.join(", "));
    }
    s
}

/// Prints one instruction with its table entry's first matching syntax template.
pub fn format_instruction_with(table: &'static [InstrDesc], i: &Instruction) -> String {
    let Some(desc) = table.get(i.desc) else {
        return format!("<instruction #{} not in the table>", i.desc);
    };
    let Some(syntax) = template_for(desc, &i.fields) else {
        return desc.name.to_ascii_lowercase();
    };
    let mut s = String::new();
    if let Some(Some(FieldValue::Pred(Some(p)))) = syntax.predicate.map(|k| i.fields.get(k)) {
        let _ = write!(s, "({}) ", format_predicate(p));
    }
    s.push_str(&syntax.mnemonic.to_ascii_lowercase());
    for suffix in syntax.suffixes {
        format_suffix(desc, i, suffix, &mut s);
    }
    if let Some(binding) = syntax.exec_size {
        let _ = write!(s, " ({})", format_exec(desc, i, binding));
    }
    for &(field_index, _) in syntax.operands {
        let field = desc.fields.get(field_index);
        let quoted =
            field.is_some_and(|f| f.role == FieldRole::Reference && has_class(f, "string"));
        // A state operand (surface or sampler element) is written `%bss(0)`, without a width.
        let state = field.is_some_and(|f| has_class(f, "state") && !has_class(f, "address"));
        match i.fields.get(field_index) {
            Some(FieldValue::Operand(Operand::Name(text))) if quoted => {
                let _ = write!(s, " \"{text}\"");
            }
            Some(FieldValue::Operand(Operand::Address {
                var,
                elem,
                width: 1,
            })) if state => {
                let _ = write!(s, " {var}({elem})");
            }
            Some(FieldValue::Operand(op)) => {
                let _ = write!(s, " {}", format_operand(op));
            }
            Some(FieldValue::Int(v)) => {
                let _ = write!(s, " {v}");
            }
            _ => {}
        }
    }
    s
}

fn code_text(desc: &InstrDesc, i: &Instruction, binding: Binding) -> Option<String> {
    let value = binding_value(desc, &i.fields, binding)?;
    let codes = binding_codes(desc, binding);
    if codes.is_empty() {
        return Some(value.to_string());
    }
    codes
        .iter()
        .find(|c| c.code == value)
        .map(|c| c.text.to_ascii_lowercase())
}

fn format_suffix(desc: &InstrDesc, i: &Instruction, suffix: &SuffixDesc, s: &mut String) {
    match suffix {
        SuffixDesc::Literal(w) if w.eq_ignore_ascii_case("sat") => {
            if i.saturate {
                s.push_str(".sat");
            }
        }
        SuffixDesc::Literal(w) => {
            let _ = write!(s, ".{}", w.to_ascii_lowercase());
        }
        SuffixDesc::Alternatives(ws) => {
            if let Some(w) = ws.first() {
                let _ = write!(s, ".{}", w.to_ascii_lowercase());
            }
        }
        SuffixDesc::Flag { text, binding } => {
            if binding_value(desc, &i.fields, *binding).is_some_and(|v| v != 0) {
                let _ = write!(s, ".{}", text.to_ascii_lowercase());
            }
        }
        SuffixDesc::Field(b) => {
            if let Some(t) = code_text(desc, i, *b) {
                let _ = write!(s, ".{t}");
            }
        }
        SuffixDesc::Sets { text, .. } => {
            let _ = write!(s, ".{}", text.to_ascii_lowercase());
        }
        SuffixDesc::Hex { prefix, binding } => {
            let value = binding_value(desc, &i.fields, *binding).unwrap_or(0);
            let _ = write!(s, ".{}{value:x}", prefix.to_ascii_lowercase());
        }
        SuffixDesc::Letters(letters) => {
            let set: String = letters
                .iter()
                .filter(|(_, b)| binding_value(desc, &i.fields, *b).is_some_and(|v| v != 0))
                .map(|(letter, _)| *letter)
                .collect();
            if !set.is_empty() {
                let _ = write!(s, ".{set}");
            }
        }
        SuffixDesc::Optional(inner) => match inner {
            SuffixDesc::Literal(w) if !w.eq_ignore_ascii_case("sat") => {}
            SuffixDesc::Field(b) if binding_value(desc, &i.fields, *b).is_none_or(|v| v == 0) => {}
            other => format_suffix(desc, i, other, s),
        },
    }
}

fn format_exec(desc: &InstrDesc, i: &Instruction, binding: Binding) -> String {
    match i.fields.get(binding.field) {
        Some(FieldValue::Exec(e)) => {
            let mask_codes = desc
                .fields
                .get(binding.field)
                .filter(|f| is_exec_field(f))
                .map_or(&[][..], exec_mask_codes);
            format_exec_size(e, mask_codes)
        }
        _ => code_text(desc, i, binding).unwrap_or_default(),
    }
}

fn format_exec_size(e: &ExecSize, mask_codes: &[crate::desc::CodeDesc]) -> String {
    let code = u64::from(e.mask_offset & 7) | if e.no_mask { 8 } else { 0 };
    let mask = mask_codes
        .iter()
        .find(|c| c.code == code)
        .map(|c| c.text.to_ascii_uppercase())
        .unwrap_or_else(|| {
            format!(
                "M{}{}",
                e.mask_offset + 1,
                if e.no_mask { "_NM" } else { "" }
            )
        });
    format!("{mask}, {}", e.size)
}

pub(crate) fn format_predicate(p: &Predicate) -> String {
    let control = match p.control {
        PredControl::None => "",
        PredControl::Any => ".any",
        PredControl::All => ".all",
    };
    format!("{}{}{control}", if p.inverse { "!" } else { "" }, p.name)
}

fn format_region(r: &Region) -> String {
    match (r.vs, r.width) {
        (Some(vs), Some(w)) => format!("<{vs};{w},{}>", r.hs),
        (None, Some(w)) => format!("<{w},{}>", r.hs),
        (Some(vs), None) => format!("<{vs};1,{}>", r.hs),
        (None, None) => format!("<{}>", r.hs),
    }
}

fn format_modifier(m: SrcMod) -> &'static str {
    match m {
        SrcMod::None => "",
        SrcMod::Abs => "(abs)",
        SrcMod::Neg => "(-)",
        SrcMod::NegAbs => "(-abs)",
        SrcMod::Not => "(~)",
    }
}

pub(crate) fn format_operand(op: &Operand) -> String {
    match op {
        Operand::General {
            modifier,
            var,
            row,
            col,
            region,
            ty,
        } => {
            let mut s = format!("{}{var}({row},{col})", format_modifier(*modifier));
            if let Some(r) = region {
                s.push_str(&format_region(r));
            }
            if let Some(t) = ty {
                let _ = write!(s, ":{t}");
            }
            s
        }
        Operand::Indirect {
            modifier,
            addr,
            addr_elem,
            offset,
            region,
            ty,
        } => {
            let region = region.as_ref().map(format_region).unwrap_or_default();
            format!(
                "{}r[{addr}({addr_elem}),{offset}]{region}:{ty}",
                format_modifier(*modifier)
            )
        }
        Operand::Address { var, elem, width } => format!("{var}({elem})<{width}>"),
        Operand::AddressOf { var, offset: 0 } => format!("&{var}"),
        Operand::AddressOf { var, offset } => format!("&{var}[{offset}]"),
        Operand::Immediate(imm) => format_immediate(imm),
        Operand::Raw { var, offset } => format!("{var}.{offset}"),
        Operand::Predicate { var } | Operand::Name(var) => var.clone(),
    }
}

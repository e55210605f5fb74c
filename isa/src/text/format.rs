//! The formatter: prints the canonical text the Intel compiler prints
//! (`add (M1, 16) V1(0,0)<1> V2(0,0)<1;1,0> 0x1:w`, `.decl V1 v_type=G type=d num_elts=16 align=GRF`).

use super::Comment;
use super::composite;
use super::immediate::{imm_bits, low_mask};
use super::table::{binding_codes, binding_value, exec_mask_codes, is_exec_field, template_for};
use crate::ast::{
    Decl, DeclKind, ElemType, ExecSize, FieldValue, Immediate, Instruction, Module, Operand,
    PredControl, Predicate, Region, SrcMod, StmtKind,
};
use crate::desc::{
    Binding, FieldKind, FieldRole, InstrDesc, NumberStyle, OperandClass, PieceDesc, SuffixDesc,
};
use std::fmt::Write;

/// Prints a module, one statement per line; `{ }` scopes indent their contents.
pub fn format_module_with(table: &'static [InstrDesc], m: &Module) -> String {
    print_module(table, m, None)
}

/// The indentation of a statement printed at scope depth `depth` (the depth before a `}` closes
/// it): four spaces per open scope, four more for instructions.
fn indent_of(kind: &StmtKind, depth: usize) -> usize {
    match kind {
        StmtKind::ScopeClose => depth.saturating_sub(1) * 4,
        StmtKind::Instr(_) => depth * 4 + 4,
        _ => depth * 4,
    }
}

/// Prints a module as [`format_module_with`] does, with `comments` (from the text the module was
/// parsed from, see [`super::parse_comments`]) put back by position, and one blank line where the
/// text had one or more between two statements or comments.
///
/// A comment that starts on the line where a statement or comment printed before it ends stays
/// on that printed line; any other comment gets lines of its own, indented as the statement after
/// it. Statement spans must be those of the parse (they order the two).
pub fn format_module_with_comments(
    table: &'static [InstrDesc],
    m: &Module,
    comments: &[Comment],
) -> String {
    print_module(table, m, Some(comments))
}

/// Prints a module; with `comments` (even none), keeps them and the text's blank lines.
fn print_module(table: &'static [InstrDesc], m: &Module, comments: Option<&[Comment]>) -> String {
    let keep_layout = comments.is_some();
    // About 48 bytes per printed instruction line; one reservation avoids most regrowth.
    let mut out = String::with_capacity(m.stmts.len() * 48);
    let mut depth = 0usize;
    // The source line the last printed item ends on (its printed line is open for a comment
    // that starts on the same source line).
    let mut last_line: Option<u32> = None;
    let mut comments = comments.unwrap_or(&[]).iter().peekable();
    let new_line = |out: &mut String, last_line: Option<u32>, line: u32, indent: usize| {
        if !out.is_empty() {
            out.push('\n');
        }
        if keep_layout && last_line.is_some_and(|last| line > last.saturating_add(1)) {
            out.push('\n');
        }
        out.extend(std::iter::repeat_n(' ', indent));
    };
    let put_comment =
        |out: &mut String, c: &Comment, indent: usize, last_line: &mut Option<u32>| {
            if *last_line == Some(c.span.line) {
                out.push(' ');
            } else {
                new_line(out, *last_line, c.span.line, indent);
            }
            out.push_str(&c.text);
            *last_line = Some(c.end_line);
        };
    for stmt in &m.stmts {
        let indent = indent_of(&stmt.kind, depth);
        while let Some(c) = comments.next_if(|c| c.span < stmt.span) {
            let comment_indent = if matches!(stmt.kind, StmtKind::ScopeClose) {
                depth * 4 + 4
            } else {
                indent
            };
            put_comment(&mut out, c, comment_indent, &mut last_line);
        }
        new_line(&mut out, last_line, stmt.span.line, indent);
        match &stmt.kind {
            StmtKind::Instr(i) => write_instruction(table, i, &mut out),
            other => out.push_str(&format_directive(other)),
        }
        last_line = Some(stmt.span.line);
        match stmt.kind {
            StmtKind::ScopeOpen => depth += 1,
            StmtKind::ScopeClose => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    for c in comments {
        put_comment(&mut out, c, depth * 4, &mut last_line);
    }
    if !out.is_empty() {
        out.push('\n');
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
    let mut s = String::with_capacity(48);
    write_instruction(table, i, &mut s);
    s
}

/// Appends one instruction to `s` (see [`format_instruction_with`]).
fn write_instruction(table: &'static [InstrDesc], i: &Instruction, s: &mut String) {
    let Some(desc) = table.get(i.desc) else {
        let _ = write!(s, "<instruction #{} not in the table>", i.desc);
        return;
    };
    let Some(syntax) = template_for(desc, &i.fields) else {
        push_lower(s, desc.name);
        return;
    };
    if let Some(Some(FieldValue::Pred(Some(p)))) = syntax.predicate.map(|k| i.fields.get(k)) {
        s.push('(');
        write_predicate(p, s);
        s.push_str(") ");
    }
    // The compiler's lexer reads a few mnemonics in one spelling only (spec/README.md).
    match desc.property("Printed mnemonic") {
        Some(printed) if printed.eq_ignore_ascii_case(syntax.mnemonic) => s.push_str(printed),
        _ => push_lower(s, syntax.mnemonic),
    }
    for (k, suffix) in syntax.suffixes.iter().enumerate() {
        // An optional field suffix holding 0 is printed when a later one is: the words keep
        // their positions (`.df.uc`).
        match suffix {
            SuffixDesc::Optional(SuffixDesc::Field(b))
                if binding_value(desc, &i.fields, *b) == Some(0)
                    && later_optional_field_set(desc, i, &syntax.suffixes[k + 1..]) =>
            {
                s.push('.');
                push_code_text(desc, i, *b, s);
            }
            _ => format_suffix(desc, i, suffix, s),
        }
    }
    if let Some(binding) = syntax.exec_size {
        s.push_str(" (");
        write_exec(desc, i, binding, s);
        s.push(')');
    }
    if !syntax.layout.is_empty() {
        for slot in syntax.layout {
            s.push(' ');
            write_pieces(desc, i, slot, s);
        }
        return;
    }
    for &(field_index, _) in syntax.operands {
        let Some(value) = i.fields.get(field_index) else {
            continue;
        };
        let field = desc.fields.get(field_index);
        match value {
            FieldValue::Operand(Operand::Name(text))
                if field.is_some_and(|f| {
                    f.role == FieldRole::Reference && f.has_class(OperandClass::String)
                }) =>
            {
                s.push_str(" \"");
                s.push_str(text);
                s.push('"');
            }
            // A state operand (surface or sampler element) is written `%bss(0)`, without a width.
            FieldValue::Operand(Operand::Address {
                var,
                elem,
                width: 1,
            }) if field.is_some_and(|f| {
                f.has_class(OperandClass::State) && !f.has_class(OperandClass::Address)
            }) =>
            {
                s.push(' ');
                s.push_str(var);
                s.push('(');
                push_uint(s, u64::from(*elem));
                s.push(')');
            }
            FieldValue::Operand(op) => {
                s.push(' ');
                write_operand(op, s);
            }
            // `Operand class: number, hex`: a number the compiler reads only in hexadecimal.
            FieldValue::Int(v) if field.is_some_and(|f| f.has_class(OperandClass::Hex)) => {
                // Lower case, as the compiler's disassembler prints it (`std::hex`).
                s.push_str(" 0x");
                push_hex(s, *v);
            }
            FieldValue::Int(v) => {
                s.push(' ');
                push_uint(s, *v);
            }
            FieldValue::List(items) => {
                s.push_str(" (");
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    match item {
                        FieldValue::Operand(op) => write_operand(op, s),
                        FieldValue::Int(v) => push_uint(s, *v),
                        _ => {}
                    }
                }
                s.push(')');
            }
            _ => {}
        }
    }
}

/// Whether one of `suffixes` is an optional field suffix holding a non-zero value.
fn later_optional_field_set(desc: &InstrDesc, i: &Instruction, suffixes: &[SuffixDesc]) -> bool {
    suffixes.iter().any(|x| {
        matches!(x, SuffixDesc::Optional(SuffixDesc::Field(b))
            if binding_value(desc, &i.fields, *b).is_some_and(|v| v != 0))
    })
}

/// Prints the pieces of a composite operand (`spec/README.md`, "Composite operands").
fn write_pieces(desc: &InstrDesc, i: &Instruction, pieces: &[PieceDesc], s: &mut String) {
    for piece in pieces {
        match piece {
            PieceDesc::Literal(text) => s.push_str(text),
            PieceDesc::Optional(inner) => {
                if !composite::left_out(desc, &i.fields, inner) {
                    write_pieces(desc, i, inner, s);
                }
            }
            PieceDesc::Field { binding, style, .. } => {
                if composite::is_operand(desc, *binding) {
                    match i.fields.get(binding.field) {
                        // A number written without a type reads as a `ud` immediate.
                        Some(FieldValue::Operand(Operand::Immediate(imm)))
                            if imm.ty == ElemType::Ud || imm.ty == ElemType::Uq =>
                        {
                            push_upper_hex(s, imm.bits);
                        }
                        // A variable from its start is written alone, as it was read.
                        Some(FieldValue::Operand(op)) if let Some(var) = op.whole_variable() => {
                            s.push_str(var)
                        }
                        Some(FieldValue::Operand(op)) => write_operand(op, s),
                        _ => {}
                    }
                    continue;
                }
                let value = binding_value(desc, &i.fields, *binding).unwrap_or(0);
                if !binding_codes(desc, *binding).is_empty() {
                    push_code_text(desc, i, *binding, s);
                    continue;
                }
                match style {
                    NumberStyle::Decimal
                        if desc
                            .fields
                            .get(binding.field)
                            .is_some_and(|f| f.kind == FieldKind::D) =>
                    {
                        let v = i64::from(value as u32 as i32);
                        if v < 0 {
                            s.push('-');
                        }
                        push_uint(s, v.unsigned_abs());
                    }
                    NumberStyle::Decimal => push_uint(s, value),
                    NumberStyle::Hex => push_upper_hex(s, value),
                    NumberStyle::SignedHex | NumberStyle::SignedDecimal => {
                        let signed = desc
                            .fields
                            .get(binding.field)
                            .is_some_and(|f| f.kind == FieldKind::D);
                        let v = if signed {
                            i64::from(value as u32 as i32)
                        } else {
                            value as i64
                        };
                        s.push(if v < 0 { '-' } else { '+' });
                        if *style == NumberStyle::SignedHex {
                            push_upper_hex(s, v.unsigned_abs());
                        } else {
                            push_uint(s, v.unsigned_abs());
                        }
                    }
                }
            }
        }
    }
}

/// Appends `0x` and `v` in upper-case hexadecimal, as the Intel compiler prints the numbers of
/// composite operands.
fn push_upper_hex(s: &mut String, v: u64) {
    s.push_str("0x");
    let start = s.len();
    push_hex(s, v);
    if let Some(tail) = s.get_mut(start..) {
        tail.make_ascii_uppercase();
    }
}

/// Appends `text` in lower case.
fn push_lower(s: &mut String, text: &str) {
    let start = s.len();
    s.push_str(text);
    if let Some(tail) = s.get_mut(start..) {
        tail.make_ascii_lowercase();
    }
}

/// Appends `text` in upper case.
fn push_upper(s: &mut String, text: &str) {
    let start = s.len();
    s.push_str(text);
    if let Some(tail) = s.get_mut(start..) {
        tail.make_ascii_uppercase();
    }
}

/// Appends `v` in decimal (without `core::fmt`, which dominates short outputs).
pub(crate) fn push_uint(s: &mut String, mut v: u64) {
    if v < 10 {
        s.push(char::from(b'0' + v as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    s.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Appends `v` in decimal with a `-` when negative.
fn push_int(s: &mut String, v: i64) {
    if v < 0 {
        s.push('-');
    }
    push_uint(s, v.unsigned_abs());
}

/// Appends `v` in lower-case hexadecimal, without a prefix.
fn push_hex(s: &mut String, mut v: u64) {
    let mut digits = [0u8; 16];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b"0123456789abcdef"[(v & 15) as usize];
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    s.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Prints an immediate as the Intel compiler does: the bit pattern in hex, then the type;
/// immediates narrower than 32 bits are shown as the 32-bit value the binary stores.
fn write_immediate(imm: &Immediate, s: &mut String) {
    let shown = imm_bits(imm.ty).max(32);
    s.push_str("0x");
    push_hex(s, imm.bits & low_mask(shown));
    s.push(':');
    s.push_str(imm.ty.name());
}

/// Appends the text of a binding's code (or its number when it has no codes).
fn push_code_text(desc: &InstrDesc, i: &Instruction, binding: Binding, s: &mut String) -> bool {
    let Some(value) = binding_value(desc, &i.fields, binding) else {
        return false;
    };
    let codes = binding_codes(desc, binding);
    if codes.is_empty() {
        push_uint(s, value);
        return true;
    }
    match codes.iter().find(|c| c.code == value) {
        Some(c) => {
            // A code labelled with several spellings prints the first as it is written
            // (`RGBA|rgba`: the compiler prints channel masks in upper case); any other in
            // lower case.
            let first = c.label.split('|').next().unwrap_or("").trim();
            if !c.also.is_empty() && first.eq_ignore_ascii_case(c.text) {
                s.push_str(first);
            } else {
                push_lower(s, c.text);
            }
            true
        }
        None => false,
    }
}

fn format_suffix(desc: &InstrDesc, i: &Instruction, suffix: &SuffixDesc, s: &mut String) {
    match suffix {
        SuffixDesc::Literal(w) if w.eq_ignore_ascii_case("sat") => {
            if i.saturate {
                s.push_str(".sat");
            }
        }
        SuffixDesc::Literal(w) => {
            s.push('.');
            push_lower(s, w);
        }
        SuffixDesc::Alternatives(ws) => {
            if let Some(w) = ws.first() {
                s.push('.');
                push_lower(s, w);
            }
        }
        SuffixDesc::Flag { text, binding } => {
            if binding_value(desc, &i.fields, *binding).is_some_and(|v| v != 0) {
                s.push('.');
                push_lower(s, text);
            }
        }
        SuffixDesc::Field(b) => {
            let before = s.len();
            s.push('.');
            if !push_code_text(desc, i, *b, s) {
                s.truncate(before);
            }
        }
        SuffixDesc::Sets { text, .. } => {
            s.push('.');
            push_lower(s, text);
        }
        SuffixDesc::Hex { prefix, binding } => {
            let value = binding_value(desc, &i.fields, *binding).unwrap_or(0);
            s.push('.');
            push_lower(s, prefix);
            push_hex(s, value);
        }
        SuffixDesc::Letters(letters) => {
            let mut set = letters
                .iter()
                .filter(|(_, b)| binding_value(desc, &i.fields, *b).is_some_and(|v| v != 0))
                .peekable();
            if set.peek().is_some() {
                s.push('.');
                for (letter, _) in set {
                    s.push_str(letter);
                }
            }
        }
        SuffixDesc::Optional(inner) => match inner {
            SuffixDesc::Literal(w) if !w.eq_ignore_ascii_case("sat") => {}
            SuffixDesc::Field(b) if binding_value(desc, &i.fields, *b).is_none_or(|v| v == 0) => {}
            other => format_suffix(desc, i, other, s),
        },
    }
}

fn write_exec(desc: &InstrDesc, i: &Instruction, binding: Binding, s: &mut String) {
    match i.fields.get(binding.field) {
        Some(FieldValue::Exec(e)) => {
            let mask_codes = desc
                .fields
                .get(binding.field)
                .filter(|f| is_exec_field(f))
                .map_or(&[][..], exec_mask_codes);
            write_exec_size(e, mask_codes, s);
        }
        _ => {
            push_code_text(desc, i, binding, s);
        }
    }
}

fn write_exec_size(e: &ExecSize, mask_codes: &[crate::desc::CodeDesc], s: &mut String) {
    let code = u64::from(e.mask_offset & 7) | if e.no_mask { 8 } else { 0 };
    match mask_codes.iter().find(|c| c.code == code) {
        Some(c) => push_upper(s, c.text),
        None => {
            s.push('M');
            push_uint(s, u64::from(e.mask_offset) + 1);
            if e.no_mask {
                s.push_str("_NM");
            }
        }
    }
    s.push_str(", ");
    push_uint(s, u64::from(e.size));
}

fn write_predicate(p: &Predicate, s: &mut String) {
    if p.inverse {
        s.push('!');
    }
    s.push_str(&p.name);
    s.push_str(match p.control {
        PredControl::None => "",
        PredControl::Any => ".any",
        PredControl::All => ".all",
    });
}

fn write_region(r: &Region, s: &mut String) {
    s.push('<');
    match (r.vs, r.width) {
        (Some(vs), Some(w)) => {
            push_uint(s, u64::from(vs));
            s.push(';');
            push_uint(s, u64::from(w));
            s.push(',');
        }
        (None, Some(w)) => {
            push_uint(s, u64::from(w));
            s.push(',');
        }
        (Some(vs), None) => {
            push_uint(s, u64::from(vs));
            s.push_str(";1,");
        }
        (None, None) => {}
    }
    push_uint(s, u64::from(r.hs));
    s.push('>');
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
    let mut s = String::new();
    write_operand(op, &mut s);
    s
}

/// Appends one operand in canonical form.
fn write_operand(op: &Operand, s: &mut String) {
    match op {
        Operand::General {
            modifier,
            var,
            row,
            col,
            region,
            ty,
        } => {
            s.push_str(format_modifier(*modifier));
            s.push_str(var);
            s.push('(');
            push_uint(s, u64::from(*row));
            s.push(',');
            push_uint(s, u64::from(*col));
            s.push(')');
            if let Some(r) = region {
                write_region(r, s);
            }
            if let Some(t) = ty {
                s.push(':');
                s.push_str(t.name());
            }
        }
        Operand::Indirect {
            modifier,
            addr,
            addr_elem,
            offset,
            region,
            ty,
        } => {
            s.push_str(format_modifier(*modifier));
            s.push_str("r[");
            s.push_str(addr);
            s.push('(');
            push_uint(s, u64::from(*addr_elem));
            s.push_str("),");
            push_int(s, i64::from(*offset));
            s.push(']');
            if let Some(r) = region {
                write_region(r, s);
            }
            s.push(':');
            s.push_str(ty.name());
        }
        Operand::Address { var, elem, width } => {
            s.push_str(var);
            s.push('(');
            push_uint(s, u64::from(*elem));
            s.push_str(")<");
            push_uint(s, u64::from(*width));
            s.push('>');
        }
        Operand::AddressOf { var, offset } => {
            s.push('&');
            s.push_str(var);
            if *offset != 0 {
                s.push('[');
                push_int(s, i64::from(*offset));
                s.push(']');
            }
        }
        Operand::Immediate(imm) => write_immediate(imm, s),
        Operand::Raw { var, offset } => {
            s.push_str(var);
            s.push('.');
            push_uint(s, u64::from(*offset));
        }
        Operand::Predicate { var } | Operand::Name(var) => s.push_str(var),
    }
}

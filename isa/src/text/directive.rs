//! Directives: `.version`, `.kernel`, `.function`/`.global_function`, `.kernel_attr`, `.input`,
//! `.decl`; any other directive is kept verbatim.

use super::TextError;
use super::cursor::Cursor;
use crate::ast::{Align, Decl, DeclKind, DeclSpans, ElemType, StmtKind};
use crate::rules;

/// Parses a directive; the cursor is on the `.`.
pub(crate) fn directive(cur: &mut Cursor) -> Result<StmtKind, TextError> {
    cur.expect('.')?;
    let name = cur.expect_name("a directive name")?;
    match name.as_str() {
        "version" => version(cur),
        "kernel" => Ok(StmtKind::Kernel {
            name: quoted_or_word(cur, "a kernel name")?,
        }),
        "function" | "global_function" => Ok(StmtKind::Function {
            name: quoted_or_word(cur, "a function name")?,
            global: name == "global_function",
        }),
        "kernel_attr" => kernel_attr(cur),
        "input" => input(cur),
        "decl" => decl(cur).map(StmtKind::Decl),
        _ => Ok(StmtKind::Directive {
            name,
            args: cur.rest(),
        }),
    }
}

fn end(cur: &mut Cursor) -> Result<(), TextError> {
    if cur.at_end() {
        Ok(())
    } else {
        Err(cur.error("end of line"))
    }
}

fn version(cur: &mut Cursor) -> Result<StmtKind, TextError> {
    cur.skip_ws();
    let at = cur.pos();
    let token = cur.number_token();
    let parsed = token
        .split_once('.')
        .and_then(|(major, minor)| Some((major.parse().ok()?, minor.parse().ok()?)));
    let Some((major, minor)) = parsed else {
        cur.reset(at);
        return Err(cur.error("a version number `major.minor`"));
    };
    end(cur)?;
    Ok(StmtKind::Version { major, minor })
}

/// `"name"` or a bare name.
fn quoted_or_word(cur: &mut Cursor, what: &str) -> Result<String, TextError> {
    cur.skip_ws();
    let name = if cur.peek() == Some('"') {
        let open = cur.span();
        cur.bump();
        let mut s = String::new();
        loop {
            match cur.bump() {
                Some('"') => break,
                Some(c) => s.push(c),
                None => {
                    return Err(TextError::new(
                        open,
                        "an unterminated string",
                        "a closing `\"`",
                    ));
                }
            }
        }
        s
    } else {
        let mut s = String::new();
        while let Some(c) = cur.peek().filter(|c| !c.is_whitespace() && *c != '"') {
            s.push(c);
            cur.bump();
        }
        if s.is_empty() {
            return Err(cur.error(what));
        }
        s
    };
    end(cur)?;
    Ok(name)
}

/// `.kernel_attr Name`, `Name=`, `Name="text"` or `Name=value`, as the compiler's grammar has
/// them (`DirectiveAttr`, visa/CISA.y): a value is one quoted string or one integer expression
/// (or, for this toolkit's own kernels, one word); nothing may follow it.
fn kernel_attr(cur: &mut Cursor) -> Result<StmtKind, TextError> {
    let name = cur.expect_name("an attribute name")?;
    if !cur.eat('=') {
        end(cur)?;
        return Ok(StmtKind::KernelAttr { name, value: None });
    }
    cur.skip_ws();
    if cur.at_end() {
        return Ok(StmtKind::KernelAttr { name, value: None });
    }
    let start = cur.pos();
    if cur.peek() == Some('"') {
        cur.bump();
        while cur.peek().is_some_and(|c| c != '"') {
            cur.bump();
        }
        if !cur.eat('"') {
            return Err(cur.error("a closing `\"`"));
        }
    } else if cur
        .peek()
        .is_some_and(|c| c.is_ascii_digit() || "(-~!".contains(c))
    {
        let mut text = String::new();
        while let Some(c) = cur.peek().filter(|c| is_integer_expression_char(*c)) {
            text.push(c);
            cur.bump();
        }
        if !is_integer_expression(&text) {
            cur.reset(start);
            return Err(cur.error("an integer expression"));
        }
    } else {
        while cur
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || "_.$@".contains(c))
        {
            cur.bump();
        }
    }
    let end_at = cur.pos();
    end(cur)?;
    cur.reset(start);
    let mut value = String::new();
    while cur.pos() < end_at {
        value.extend(cur.bump());
    }
    Ok(StmtKind::KernelAttr {
        name,
        value: Some(value.trim_end().to_string()),
    })
}

/// Whether `text` reads as an integer expression: operands (decimal or `0x` literals) joined by
/// operators, never two operands in a row (`192 192` is not one).
fn is_integer_expression(text: &str) -> bool {
    let mut operands = 0;
    let mut last_was_operand = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() {
            let mut word = String::from(c);
            while let Some(d) = chars.next_if(char::is_ascii_alphanumeric) {
                word.push(d);
            }
            let number = word.parse::<u64>().is_ok()
                || word
                    .strip_prefix("0x")
                    .or_else(|| word.strip_prefix("0X"))
                    .is_some_and(|h| u64::from_str_radix(h, 16).is_ok());
            if !number || last_was_operand {
                return false;
            }
            operands += 1;
            last_was_operand = true;
        } else if !c.is_whitespace() {
            last_was_operand = false;
        }
    }
    operands > 0
}

/// A character of an integer expression (`IntExp` of visa/CISA.y: decimal and hexadecimal
/// literals, operators, parentheses).
fn is_integer_expression_char(c: char) -> bool {
    c.is_ascii_hexdigit() || "xX+-*/%()~!<>=&|^?: \t".contains(c)
}

/// `key=` (the key is matched case-insensitively).
fn key(cur: &mut Cursor, keys: &[&str]) -> Result<String, TextError> {
    cur.skip_ws();
    let at = cur.pos();
    let k = cur.name().map(|k| k.to_ascii_lowercase());
    match k {
        Some(k) if keys.contains(&k.as_str()) => {
            cur.expect('=')?;
            Ok(k)
        }
        _ => {
            cur.reset(at);
            Err(cur.error(
                &keys
                    .iter()
                    .map(|k| format!("`{k}=`"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ))
        }
    }
}

fn input(cur: &mut Cursor) -> Result<StmtKind, TextError> {
    let name = cur.expect_name("an input variable name")?;
    let (mut offset, mut size) = (None, None);
    while !cur.at_end() {
        match key(cur, &["offset", "size"])?.as_str() {
            "offset" => offset = Some(cur.expect_u32("a byte offset")?),
            _ => size = Some(cur.expect_u32("a size in bytes")?),
        }
    }
    match (offset, size) {
        (Some(offset), Some(size)) => Ok(StmtKind::Input { name, offset, size }),
        _ => Err(cur.error("`offset=` and `size=`")),
    }
}

/// Everything a `.decl` line can say, before the variable kind decides which parts apply.
#[derive(Default)]
struct DeclParts {
    v_type: Option<char>,
    ty: Option<ElemType>,
    num_elts: Option<u32>,
    align: Option<Align>,
    alias: Option<(String, u32)>,
    attrs: Vec<(String, Option<String>)>,
    v_name: Option<String>,
}

const DECL_KEYS: &[&str] = &[
    "v_type", "type", "num_elts", "align", "alias", "attrs", "v_name",
];

fn decl(cur: &mut Cursor) -> Result<Decl, TextError> {
    cur.skip_ws();
    let mut spans = DeclSpans {
        name: cur.span(),
        ..DeclSpans::default()
    };
    let name = cur.expect_name("a variable name")?;
    let mut parts = DeclParts::default();
    let mut v_type_at = cur.span();
    let mut written: Vec<(String, crate::ast::Span)> = Vec::new();
    while !cur.at_end() {
        cur.skip_ws();
        let key_at = cur.span();
        let k = key(cur, DECL_KEYS)?;
        written.push((k.clone(), key_at));
        match k.as_str() {
            "type" => spans.ty = key_at,
            "num_elts" => spans.num_elts = key_at,
            "alias" => spans.alias = key_at,
            _ => {}
        }
        cur.skip_ws();
        let at = cur.pos();
        match k.as_str() {
            "v_type" => {
                v_type_at = cur.span();
                let v = cur.name().unwrap_or_default().to_ascii_uppercase();
                match v.as_str() {
                    "G" | "A" | "P" | "S" | "T" => parts.v_type = v.chars().next(),
                    _ => {
                        cur.reset(at);
                        return Err(cur.error("a variable kind (G, A, P, S, T)"));
                    }
                }
            }
            "type" => {
                let t = cur.name().and_then(|t| ElemType::from_name(&t));
                if t.is_none() {
                    cur.reset(at);
                    return Err(cur.error(
                        "an element type (ub, b, uw, w, ud, d, uq, q, hf, f, df, bf, bool)",
                    ));
                }
                parts.ty = t;
            }
            "num_elts" => parts.num_elts = Some(cur.expect_u32("a number of elements")?),
            "align" => parts.align = Some(align(cur)?),
            "alias" => {
                cur.expect('<')?;
                let base = cur.expect_name("the aliased variable")?;
                cur.expect(',')?;
                let off = cur.expect_u32("a byte offset")?;
                cur.expect('>')?;
                parts.alias = Some((base, off));
            }
            "attrs" => parts.attrs = attrs(cur)?,
            _ => parts.v_name = Some(cur.expect_name("a name")?),
        }
    }
    if let Some(kind) = parts.v_type {
        decl_order(kind, &written, cur)?;
    }
    let num_elts = parts.num_elts.unwrap_or(1);
    let kind = match parts.v_type {
        Some('G') => DeclKind::General {
            ty: parts
                .ty
                .ok_or_else(|| cur.error("`type=` for a general variable"))?,
            num_elts,
            align: parts.align,
            alias: parts.alias,
        },
        Some('A') => DeclKind::Address { num_elts },
        Some('P') => DeclKind::Predicate { num_elts },
        Some('S') => DeclKind::Sampler {
            num_elts,
            v_name: parts.v_name,
        },
        Some(_) => DeclKind::Surface {
            num_elts,
            v_name: parts.v_name,
        },
        None => {
            return Err(TextError::new(
                v_type_at,
                "no `v_type=`",
                "`v_type=` (G, A, P, S or T)",
            ));
        }
    };
    Ok(Decl {
        name,
        kind,
        attrs: parts.attrs,
        spans,
    })
}

/// The parts of a `.decl` of each variable kind, in the only order the compiler's grammar reads
/// them (`DeclVariable`, `DeclAddress`, ..., visa/CISA.y, the same in IGC 1.0.12504 and today):
/// the required ones, then the optional ones.
fn decl_parts(kind: char) -> (&'static [&'static str], &'static [&'static str]) {
    match kind {
        'G' => (
            &["v_type", "type", "num_elts"],
            &["align", "alias", "attrs"],
        ),
        'A' | 'P' => (&["v_type", "num_elts"], &["attrs"]),
        _ => (&["v_type", "num_elts"], &["v_name", "attrs"]),
    }
}

/// The parts written (`key=` and where) follow [`decl_parts`]: each required one, in order,
/// then optional ones in order, none twice, no other.
fn decl_order(
    kind: char,
    written: &[(String, crate::ast::Span)],
    cur: &mut Cursor,
) -> Result<(), TextError> {
    let (required, optional) = decl_parts(kind);
    let order: Vec<&str> = required.iter().chain(optional).copied().collect();
    let mut next = 0;
    for (key, at) in written {
        let position = order[next..].iter().position(|k| k == key);
        let skipped_required = position.is_some_and(|p| next + p > next && next < required.len());
        match position {
            Some(p) if !skipped_required => next += p + 1,
            _ => {
                let expected = order.get(next).copied().unwrap_or("the end of the line");
                let expected = if next < order.len() {
                    format!(
                        "`{expected}=` (the compiler reads a `.decl` in the order {})",
                        order
                            .iter()
                            .map(|k| format!("{k}="))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                } else {
                    expected.to_string()
                };
                return Err(TextError::new(*at, format!("`{key}=`"), expected));
            }
        }
    }
    if next < required.len() {
        return Err(cur.error(&format!("`{}=`", required[next])));
    }
    Ok(())
}

fn align(cur: &mut Cursor) -> Result<Align, TextError> {
    cur.skip_ws();
    let at = cur.pos();
    let word = cur.number_token();
    if let Some((_, named)) = rules::alignment_named(word) {
        return Ok(Align {
            written: word.to_string(),
            bytes: named.bytes,
            grfs: named.grfs,
        });
    }
    match word.parse::<u32>() {
        Ok(bytes) if bytes > 0 => Ok(Align {
            written: word.to_string(),
            bytes,
            grfs: 0,
        }),
        _ => {
            cur.reset(at);
            Err(cur.error("an alignment (byte, word, dword, qword, oword, GRF, GRFx2, hword, wordx32, wordx64 or a number)"))
        }
    }
}

/// `{Name, Name=value}`.
fn attrs(cur: &mut Cursor) -> Result<Vec<(String, Option<String>)>, TextError> {
    cur.expect('{')?;
    let mut out = Vec::new();
    if cur.eat('}') {
        return Ok(out);
    }
    loop {
        let name = cur.expect_name("an attribute name")?;
        let value = if cur.eat('=') {
            cur.skip_ws();
            let mut v = String::new();
            while let Some(c) = cur
                .peek()
                .filter(|c| !matches!(c, ',' | '}') && !c.is_whitespace())
            {
                v.push(c);
                cur.bump();
            }
            if v.is_empty() {
                return Err(cur.error("an attribute value"));
            }
            Some(v)
        } else {
            None
        };
        out.push((name, value));
        if cur.eat('}') {
            return Ok(out);
        }
        cur.expect(',')?;
    }
}

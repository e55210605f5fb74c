//! Instructions, read by following the syntax templates of the instruction table:
//! `[(<P>)] MNEMONIC[.suffixes] [(<exec_size>)] <operands>`.

use super::TextError;
use super::composite::Reader;
use super::cursor::{Cursor, is_name_char, parse_uint};
use super::mnemonics;
use super::operand::{self, Parsed};
use super::table::{self, binding_codes, code_list, is_exec_field, set_binding};
use crate::ast::{ExecSize, FieldValue, Instruction, Operand, PredControl, Predicate, Span};
use crate::desc::{Binding, FieldKind, FieldRole, InstrDesc, OperandClass, SuffixDesc, SyntaxDesc};

/// One `.word` after the mnemonic, with where it starts.
struct Suffix<'a> {
    text: &'a str,
    pos: usize,
    /// Written with spaces around its dot (`raw_sends .15 .1`): only a plain number may be.
    spaced: bool,
}

/// `(!P1.any)` at the start of an instruction, and where its variable is written.
fn predicate(cur: &mut Cursor<'_>) -> Result<(Predicate, Span), TextError> {
    cur.expect('(')?;
    let inverse = cur.eat('!') || cur.eat('~');
    cur.skip_ws();
    let at = cur.span();
    let name = cur.expect_name("a predicate variable")?;
    let control = if cur.eat('.') {
        if cur.eat_word("any") {
            PredControl::Any
        } else if cur.eat_word("all") {
            PredControl::All
        } else {
            return Err(cur.error("`any` or `all`"));
        }
    } else {
        PredControl::None
    };
    cur.expect(')')?;
    let predicate = Predicate {
        name,
        inverse,
        control,
    };
    Ok((predicate, at))
}

fn is_suffix_char(c: char) -> bool {
    is_name_char(c) || c == '<' || c == '>'
}

/// Parses one instruction at the cursor (to the end of the line).
pub(crate) fn instruction(
    table: &'static [InstrDesc],
    cur: &mut Cursor<'_>,
) -> Result<Instruction, TextError> {
    cur.skip_ws();
    let span = cur.span();
    let pred = if cur.peek() == Some('(') {
        Some(predicate(cur)?)
    } else {
        None
    };
    cur.skip_ws();
    let mnemonic_pos = cur.pos();
    while cur
        .peek()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        cur.bump();
    }
    let mnemonic = cur.slice(mnemonic_pos, cur.pos());
    if !mnemonic.starts_with(|c: char| c.is_ascii_alphabetic()) {
        cur.reset(mnemonic_pos);
        return Err(cur.error("an instruction mnemonic"));
    }
    let mut suffixes = Vec::new();
    loop {
        let before = cur.pos();
        if cur.peek() == Some('.') && cur.peek_at(1).is_some_and(is_suffix_char) {
            cur.bump();
            let pos = cur.pos();
            while cur.peek().is_some_and(is_suffix_char) {
                cur.bump();
            }
            suffixes.push(Suffix {
                text: cur.slice(pos, cur.pos()),
                pos,
                spaced: false,
            });
            continue;
        }
        // The compiler's lexer reads each suffix as a token of its own, so blanks may come
        // before one: a word suffix (`lsc_load .ugm`, `add .sat`) reads as if written without
        // them. A numeric suffix is two tokens, `.` and a number, with blanks allowed around
        // the dot (`raw_sends .15 .1 .0 .4`); such a suffix must bind to a plain number
        // (`apply`).
        let blanks = |cur: &mut Cursor<'_>| {
            while matches!(cur.peek(), Some(' ' | '\t')) {
                cur.bump();
            }
        };
        blanks(cur);
        if cur.peek() == Some('.')
            && cur
                .peek_at(1)
                .is_some_and(|c| is_suffix_char(c) && !c.is_ascii_digit())
        {
            continue;
        }
        if cur.eat('.') {
            blanks(cur);
            let pos = cur.pos();
            while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                cur.bump();
            }
            if cur.pos() > pos && !cur.peek().is_some_and(is_suffix_char) {
                suffixes.push(Suffix {
                    text: cur.slice(pos, cur.pos()),
                    pos,
                    spaced: true,
                });
                continue;
            }
        }
        cur.reset(before);
        break;
    }
    let after_mnemonic = cur.pos();
    let candidates = mnemonics::templates(table, mnemonic);
    if candidates.is_empty() {
        cur.reset(mnemonic_pos);
        return Err(TextError::new(
            cur.span(),
            format!("`{mnemonic}`"),
            "an instruction mnemonic",
        )
        .suggesting(super::suggest::nearest_mnemonic(table, mnemonic)));
    }
    let mut best: Option<TextError> = None;
    for &(desc_index, syntax) in candidates.iter() {
        cur.reset(after_mnemonic);
        let attempt = Attempt {
            desc: &table[desc_index],
            syntax,
            cur: &mut *cur,
        };
        match attempt.run(pred.as_ref(), &suffixes) {
            Ok(Matched {
                saturate,
                fields,
                field_spans,
                element_spans,
            }) => {
                return Ok(Instruction {
                    desc: desc_index,
                    saturate,
                    fields,
                    span,
                    field_spans,
                    element_spans,
                });
            }
            Err(e) => {
                if best.as_ref().is_none_or(|b| e.span > b.span) {
                    best = Some(e);
                }
            }
        }
    }
    Err(best.unwrap_or_else(|| cur.error("an instruction")))
}

/// Parsing the rest of a line against one syntax template.
struct Attempt<'c, 'a> {
    desc: &'static InstrDesc,
    syntax: &'static SyntaxDesc,
    cur: &'c mut Cursor<'a>,
}

/// A line matched against a template: the values of the entry's fields and where each was
/// written.
struct Matched {
    saturate: bool,
    fields: Vec<FieldValue>,
    field_spans: Vec<Span>,
    element_spans: Vec<Span>,
}

/// What matching the suffixes decided.
#[derive(Default, Clone)]
struct SuffixMatch {
    saturate: bool,
    sets: Vec<(Binding, u64)>,
}

impl Attempt<'_, '_> {
    fn run(
        mut self,
        pred: Option<&(Predicate, Span)>,
        suffixes: &[Suffix<'_>],
    ) -> Result<Matched, TextError> {
        let desc = self.desc;
        let mut fields: Vec<FieldValue> = desc
            .fields
            .iter()
            .map(crate::desc::FieldDesc::unwritten_value)
            .collect();
        let mut field_spans = vec![Span::default(); fields.len()];
        let mut element_spans = Vec::new();
        if let Some((p, at)) = pred {
            match self
                .syntax
                .predicate
                .and_then(|i| Some((fields.get_mut(i)?, i)))
            {
                Some((slot, i)) => {
                    *slot = FieldValue::Pred(Some(p.clone()));
                    field_spans[i] = *at;
                }
                None => {
                    return Err(TextError::new(
                        *at,
                        "a predicate",
                        format!(
                            "no predicate (`{}` cannot be predicated)",
                            self.syntax.mnemonic
                        ),
                    ));
                }
            }
        }
        if let Some((binding, code)) = self.syntax.mnemonic_sets {
            set_binding(desc, &mut fields, binding, code);
        }
        let mut deepest: Deepest = (0, Vec::new());
        let matched = match_suffixes(
            desc,
            self.syntax.suffixes,
            suffixes,
            0,
            SuffixMatch::default(),
            &mut deepest,
        );
        let Some(found) = matched else {
            let (index, expected) = deepest;
            let (span, what) = match suffixes.get(index) {
                Some(s) => (
                    self.cur.span_at(s.pos.saturating_sub(1)),
                    format!("`.{}`", s.text),
                ),
                None => (self.cur.span(), "end of mnemonic".to_string()),
            };
            let mut texts: Vec<String> = Vec::new();
            for element in expected {
                let text =
                    element.map_or_else(|| "no further suffix".into(), |e| describe(desc, e));
                if !texts.contains(&text) {
                    texts.push(text);
                }
            }
            let expected = if texts.is_empty() {
                "no further suffix".to_string()
            } else {
                texts.join(" or ")
            };
            return Err(TextError::new(span, what, expected));
        };
        for (binding, code) in &found.sets {
            set_binding(desc, &mut fields, *binding, *code);
        }
        if let Some(binding) = self.syntax.exec_size {
            self.cur.skip_ws();
            if let Some(slot) = field_spans.get_mut(binding.field) {
                *slot = self.cur.span();
            }
            self.exec(binding, &mut fields)?;
        }
        if !self.syntax.layout.is_empty() {
            let mut reader = Reader::new(desc, self.cur, fields, field_spans);
            reader.read(self.syntax.layout)?;
            return Ok(Matched {
                saturate: found.saturate,
                fields: reader.fields,
                field_spans: reader.spans,
                element_spans,
            });
        }
        for &(field_index, optional) in self.syntax.operands {
            let Some(field) = desc.fields.get(field_index) else {
                continue;
            };
            if self.cur.at_end() {
                if optional {
                    continue;
                }
                let name = field.name.to_ascii_lowercase();
                let expected = match field.repeat {
                    Some(_) => format!("the list <{name}> in parentheses, `({name}0, ...)`"),
                    None => format!("operand <{name}>"),
                };
                return Err(self.cur.error(&expected));
            }
            self.cur.skip_ws();
            field_spans[field_index] = self.cur.span();
            let value = match field.repeat {
                Some(count) => {
                    let items = self.list(field_index, &mut element_spans)?;
                    if let Some(slot) = fields.get_mut(count) {
                        *slot = FieldValue::Int(items.len() as u64);
                    }
                    FieldValue::List(items)
                }
                None => self.operand(field_index)?,
            };
            if let Some(slot) = fields.get_mut(field_index) {
                *slot = value;
            }
        }
        if !self.cur.at_end() {
            return Err(self.cur.error("end of line"));
        }
        Ok(Matched {
            saturate: found.saturate,
            fields,
            field_spans,
            element_spans,
        })
    }

    /// `(M1_NM, 16)` / `(16)` for an execution-size field; `(<token>)` for other bindings.
    fn exec(&mut self, binding: Binding, fields: &mut [FieldValue]) -> Result<(), TextError> {
        let desc = self.desc;
        self.cur.expect('(')?;
        let field = desc.fields.get(binding.field);
        if let Some(field) = field.filter(|f| binding.bitfield.is_none() && is_exec_field(f)) {
            let mask_codes = table::exec_mask_codes(field);
            let size_codes = table::exec_size_codes(field);
            self.cur.skip_ws();
            let at = self.cur.pos();
            let mut mask = None;
            if let Some(word) = self.cur.name_str() {
                match mask_codes
                    .iter()
                    .find(|c| c.text.eq_ignore_ascii_case(word))
                {
                    Some(c) => mask = Some(c.code),
                    None => {
                        self.cur.reset(at);
                        return Err(self.cur.error(&format!(
                            "an execution mask ({})",
                            mask_codes_upper(mask_codes)
                        )));
                    }
                }
                self.cur.expect(',')?;
            }
            self.cur.skip_ws();
            let size_at = self.cur.pos();
            let size_text = self.cur.number_token();
            let size = size_codes.iter().find(|c| c.text == size_text);
            let Some(size) = size.and_then(|c| c.text.parse::<u32>().ok()) else {
                self.cur.reset(size_at);
                return Err(self
                    .cur
                    .error(&format!("an execution size ({})", code_list(size_codes))));
            };
            self.cur.expect(')')?;
            let mask_code = mask.unwrap_or(0);
            if let Some(slot) = fields.get_mut(binding.field) {
                *slot = FieldValue::Exec(ExecSize {
                    size,
                    mask_offset: (mask_code & 7) as u8,
                    no_mask: mask_code & 8 != 0,
                    mask_written: mask.is_some(),
                });
            }
            return Ok(());
        }
        let codes = binding_codes(desc, binding);
        self.cur.skip_ws();
        let at = self.cur.pos();
        let token = self.cur.number_token();
        let code = if codes.is_empty() {
            parse_uint(token)
        } else {
            codes.iter().find(|c| c.is_written(token)).map(|c| c.code)
        };
        let Some(code) = code else {
            self.cur.reset(at);
            let expected = if codes.is_empty() {
                "a number".to_string()
            } else {
                format!("one of {}", code_list(codes))
            };
            return Err(self.cur.error(&expected));
        };
        set_binding(desc, fields, binding, code);
        self.cur.expect(')')
    }

    /// The elements of list field `field_index`: `(a, b, c)`, commas optional as the Intel
    /// assembler has them; the list may be empty.
    fn list(
        &mut self,
        field_index: usize,
        element_spans: &mut Vec<Span>,
    ) -> Result<Vec<FieldValue>, TextError> {
        self.cur.skip_ws();
        self.cur.expect('(')?;
        let mut items = Vec::new();
        loop {
            self.cur.skip_ws();
            if self.cur.eat(')') {
                return Ok(items);
            }
            if !items.is_empty() && self.cur.eat(',') {
                self.cur.skip_ws();
            }
            if self.cur.at_end() {
                return Err(self.cur.error("`)` closing the list"));
            }
            element_spans.push(self.cur.span());
            items.push(self.operand(field_index)?);
        }
    }

    /// One operand for field `field_index`.
    fn operand(&mut self, field_index: usize) -> Result<FieldValue, TextError> {
        let Some(field) = self.desc.fields.get(field_index) else {
            return Ok(FieldValue::Absent);
        };
        self.cur.skip_ws();
        let at = self.cur.pos();
        if field.role == FieldRole::Reference && field.has_class(OperandClass::String) {
            return match self.cur.quoted()? {
                Some(text) => Ok(FieldValue::Operand(Operand::Name(text))),
                None => Err(self.cur.error("a quoted string")),
            };
        }
        let parsed = operand::operand(self.cur)?;
        if field.role == FieldRole::Value {
            // `Operand class: number`: a plain number (a count, a size, a line number).
            return match parsed {
                Parsed::Untyped(v) => Ok(FieldValue::Int(v)),
                _ => {
                    self.cur.reset(at);
                    Err(self.cur.error("a number"))
                }
            };
        }
        let integer_field = !table::is_operand_field(field);
        Ok(match parsed {
            Parsed::Operand(op) => FieldValue::Operand(op),
            Parsed::Bare(name)
                if field.kind != FieldKind::RawOperand
                    && field.has_class(OperandClass::Predicate) =>
            {
                FieldValue::Operand(Operand::Predicate { var: name })
            }
            Parsed::Bare(name) => FieldValue::Operand(Operand::Name(name)),
            Parsed::Untyped(v) if integer_field => FieldValue::Int(v),
            Parsed::Untyped(_) => {
                self.cur.reset(at);
                let _ = self.cur.number_token();
                return Err(self.cur.error("a type suffix (`:ud`, `:f`, ...)"));
            }
        })
    }
}

fn mask_codes_upper(codes: &[crate::desc::CodeDesc]) -> String {
    code_list(codes).to_ascii_uppercase()
}

/// The furthest written-suffix index a match attempt reached, and the template elements expected
/// there (`None`: no further suffix). Described only when the match fails.
type Deepest = (usize, Vec<Option<&'static SuffixDesc>>);

/// Matches written suffixes against template suffixes, with backtracking over optional ones.
fn match_suffixes(
    desc: &InstrDesc,
    template: &'static [SuffixDesc],
    written: &[Suffix<'_>],
    index: usize,
    acc: SuffixMatch,
    deepest: &mut Deepest,
) -> Option<SuffixMatch> {
    let Some((first, rest)) = template.split_first() else {
        if written.is_empty() {
            return Some(acc);
        }
        note(deepest, index, None);
        return None;
    };
    let element = match first {
        SuffixDesc::Optional(inner) => inner,
        other => other,
    };
    let optional = matches!(
        first,
        SuffixDesc::Optional(_) | SuffixDesc::Flag { .. } | SuffixDesc::Letters(_)
    );
    if let Some((head, tail)) = written.split_first() {
        let mut next = acc.clone();
        if (!head.spaced || plain_number(desc, element))
            && apply(desc, element, head.text, &mut next)
        {
            if let Some(r) = match_suffixes(desc, rest, tail, index + 1, next, deepest) {
                return Some(r);
            }
        } else {
            note(deepest, index, Some(element));
        }
    } else {
        note(deepest, index, Some(element));
    }
    if optional {
        match_suffixes(desc, rest, written, index, acc, deepest)
    } else {
        None
    }
}

fn note(deepest: &mut Deepest, index: usize, expected: Option<&'static SuffixDesc>) {
    if index > deepest.0 {
        *deepest = (index, Vec::new());
    }
    let same = |e: &Option<&SuffixDesc>| match (e, expected) {
        (Some(a), Some(b)) => std::ptr::eq(*a, b),
        (None, None) => true,
        _ => false,
    };
    if index == deepest.0 && !deepest.1.iter().any(same) {
        deepest.1.push(expected);
    }
}

/// Whether a template suffix element reads a plain number (a field without codes), the one kind
/// the compiler also reads with blanks around its dot.
fn plain_number(desc: &InstrDesc, element: &SuffixDesc) -> bool {
    match element {
        SuffixDesc::Field(binding) => binding_codes(desc, *binding).is_empty(),
        SuffixDesc::Optional(inner) => plain_number(desc, inner),
        _ => false,
    }
}

/// Applies one template suffix element to a written suffix; false when it does not match.
fn apply(desc: &InstrDesc, element: &SuffixDesc, text: &str, acc: &mut SuffixMatch) -> bool {
    match element {
        SuffixDesc::Literal(word) => {
            if !word.eq_ignore_ascii_case(text) {
                return false;
            }
            if word.eq_ignore_ascii_case("sat") {
                acc.saturate = true;
            }
            true
        }
        SuffixDesc::Alternatives(words) => words.iter().any(|w| w.eq_ignore_ascii_case(text)),
        SuffixDesc::Flag {
            text: word,
            binding,
        } => {
            if !word.eq_ignore_ascii_case(text) {
                return false;
            }
            let code = binding_codes(desc, *binding)
                .iter()
                .find(|c| c.text.eq_ignore_ascii_case(word))
                .map_or(1, |c| c.code);
            acc.sets.push((*binding, code));
            true
        }
        SuffixDesc::Field(binding) => {
            let codes = binding_codes(desc, *binding);
            let code = if codes.is_empty() {
                parse_uint(text)
            } else {
                codes.iter().find(|c| c.is_written(text)).map(|c| c.code)
            };
            match code {
                Some(code) => {
                    acc.sets.push((*binding, code));
                    true
                }
                None => false,
            }
        }
        SuffixDesc::Sets {
            text: word,
            binding,
            code,
        } => {
            let matched = word.eq_ignore_ascii_case(text);
            if matched {
                acc.sets.push((*binding, *code));
            }
            matched
        }
        SuffixDesc::Hex { prefix, binding } => {
            let digits = text
                .get(..prefix.len())
                .filter(|p| p.eq_ignore_ascii_case(prefix))
                .and_then(|_| text.get(prefix.len()..))
                .filter(|d| !d.is_empty());
            let value = digits.and_then(|d| u64::from_str_radix(d, 16).ok());
            match value.filter(|v| table::binding_fits(desc, *binding, *v)) {
                Some(value) => {
                    acc.sets.push((*binding, value));
                    true
                }
                None => false,
            }
        }
        SuffixDesc::Letters(letters) => match split_letters(letters, text) {
            Some(set) => {
                acc.sets.extend(set.into_iter().map(|b| (b, 1)));
                true
            }
            None => false,
        },
        SuffixDesc::Optional(inner) => apply(desc, inner, text, acc),
    }
}

/// The flags a letters suffix names (`ER` -> E and R), each letter at most once and in the
/// documented order; None when the text is not such a word.
fn split_letters(letters: &[(&str, Binding)], text: &str) -> Option<Vec<Binding>> {
    let mut rest = text;
    let mut set = Vec::new();
    for (letter, binding) in letters {
        if let Some(head) = rest.get(..letter.len())
            && head.eq_ignore_ascii_case(letter)
        {
            rest = rest.get(letter.len()..).unwrap_or("");
            set.push(*binding);
        }
    }
    (rest.is_empty() && !set.is_empty()).then_some(set)
}

/// What a template suffix element accepts, for messages.
fn describe(desc: &InstrDesc, element: &SuffixDesc) -> String {
    match element {
        SuffixDesc::Literal(w) => format!("`.{w}`"),
        SuffixDesc::Alternatives(ws) => ws
            .iter()
            .map(|w| format!("`.{w}`"))
            .collect::<Vec<_>>()
            .join(" or "),
        SuffixDesc::Flag { text, .. } | SuffixDesc::Sets { text, .. } => format!("`.{text}`"),
        SuffixDesc::Hex { prefix, .. } => format!("`.{prefix}` followed by a hex value"),
        SuffixDesc::Letters(letters) => {
            let all: Vec<&str> = letters.iter().map(|(l, _)| *l).collect();
            format!("flag letters in the order {}", all.join(""))
        }
        SuffixDesc::Field(b) => {
            let codes = binding_codes(desc, *b);
            if codes.is_empty() {
                "a numeric suffix".to_string()
            } else {
                format!("a suffix ({})", code_list(codes))
            }
        }
        SuffixDesc::Optional(inner) => describe(desc, inner),
    }
}

//! The codes pass: the code rules of a document's `Compiler checks` property (spec/README.md),
//! typed by the generator ([`crate::desc::CheckRule`]): which codes, values or declared types a
//! field may hold, or whether an operand is `%null`, when other fields hold given codes.
//! `DataSize in d32, d64 when DataElemsPerAddr not in 1` reads: when the vector size is not 1,
//! the element size is d32 or d64; `BlockHeight at most 32` bounds a number. Nothing here knows
//! an instruction: the rules are the document's. A rule about the platform itself
//! (`platform in pvc+`) is the [`super::platform`] pass's.

use super::InstrCtx;
use super::rule;

/// Every code rule about a field.
pub(super) fn check(ctx: &mut InstrCtx) {
    for r in ctx.desc.rules {
        if r.test.field().is_some() {
            rule::report(ctx, r);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::ElemType;
    use crate::desc::{Enforce, RuleTest};
    use crate::rules::Platform;

    /// The generator checked that every rule names a field and codes of it; what it cannot
    /// know is checked here: every type name of a rule or phrase is an element type, every
    /// platform name a platform.
    #[test]
    fn the_rules_of_the_documents_name_existing_types_and_platforms() {
        let mut rules = 0;
        let mut problems = Vec::new();
        for desc in crate::INSTRUCTIONS {
            let mut types: Vec<&str> = Vec::new();
            let mut platforms: Vec<&str> = Vec::new();
            for rule in desc.rules {
                rules += 1;
                for test in std::iter::once(&rule.test).chain(rule.when) {
                    match *test {
                        RuleTest::HasType { types: t, .. } => types.extend(t),
                        RuleTest::Platform { listed, .. } => {
                            platforms.extend(listed.iter().map(|p| p.name))
                        }
                        _ => {}
                    }
                }
            }
            for enforce in desc.enforces {
                match *enforce {
                    Enforce::NoMaskForDstTypes(t) => types.extend(t),
                    Enforce::DstTypesNotOn {
                        types: t,
                        platforms: p,
                    } => {
                        types.extend(t);
                        platforms.extend(p);
                    }
                    _ => {}
                }
            }
            let bad_types = types.iter().filter(|t| ElemType::from_name(t).is_none());
            let bad_platforms = platforms.iter().filter(|p| Platform::parse(p).is_none());
            problems.extend(bad_types.map(|t| format!("{}: `{t}` is no type", desc.name)));
            problems.extend(bad_platforms.map(|p| format!("{}: `{p}` is no platform", desc.name)));
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(rules >= 30, "only {rules} code rules");
    }

    /// Every item of every `Compiler checks` property became a typed phrase or rule: none was
    /// dropped between the document and the table.
    #[test]
    fn every_item_of_compiler_checks_is_in_the_table() {
        for desc in crate::INSTRUCTIONS {
            let text = desc.property("Compiler checks").unwrap_or("");
            let items = text.split(';').filter(|i| !i.trim().is_empty()).count();
            assert_eq!(
                items,
                desc.enforces.len() + desc.rules.len(),
                "{}: `{text}`",
                desc.name
            );
        }
    }
}

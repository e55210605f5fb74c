//! The platform pass: what a document's `Compiler checks` says holds only on some platforms:
//! `dst types T, U not on P, Q` and the code rules about the platform itself
//! (`platform in pvc+`, `platform not in tgllp when Dst has type DF`). Without a platform
//! named, none of them breaks.

use super::InstrCtx;
use super::rule;
use super::types::named;
use crate::desc::Enforce;
use crate::rules::Platform;

/// The platform rules of the instruction, when a platform is named.
pub(super) fn check(ctx: &mut InstrCtx) {
    let Some(platform) = ctx.scopes.platform else {
        return;
    };
    let desc = ctx.desc;
    for enforce in desc.enforces {
        if let Enforce::DstTypesNotOn { types, platforms } = *enforce
            && platforms
                .iter()
                .any(|p| Platform::parse(p.trim()) == Some(platform))
            && let Some(dst) = ctx.dst_type()
            && named(types, dst)
        {
            ctx.field = ctx.dst_field();
            ctx.error(format!(
                "a {dst} destination is not allowed on {}",
                platform.name()
            ));
        }
    }
    for r in desc.rules {
        if r.test.field().is_none() {
            rule::report(ctx, r);
        }
    }
}

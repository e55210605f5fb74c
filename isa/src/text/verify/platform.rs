//! The platform pass: what a document's `Compiler checks` says holds only on some platforms:
//! `dst types T, U not on P, Q` and the code rules about the platform itself
//! (`platform in pvc+`, `platform not in tgllp when Dst has type DF`). Without a platform
//! named, none of them breaks.

use super::InstrCtx;
use super::codes;
use super::types::named;
use crate::desc::{Enforce, PlatformBound, PlatformDesc};
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
    for rule in desc.rules {
        if rule.test.field().is_none() {
            codes::report(ctx, rule);
        }
    }
}

/// Whether `platform` is one of the listed: `P`, `P+` (P or newer), `-P` (older than P).
pub(super) fn listed(listed: &[PlatformDesc], platform: Platform) -> bool {
    listed.iter().any(|p| {
        Platform::parse(p.name).is_some_and(|named| match p.bound {
            PlatformBound::Since => platform >= named,
            PlatformBound::Before => platform < named,
            PlatformBound::Only => platform == named,
        })
    })
}

/// The platforms as the document writes them (`pvc+`, `-xehp`), comma-separated.
pub(super) fn written(listed: &[PlatformDesc]) -> String {
    let names: Vec<String> = listed
        .iter()
        .map(|p| match p.bound {
            PlatformBound::Since => format!("{}+", p.name),
            PlatformBound::Before => format!("-{}", p.name),
            PlatformBound::Only => p.name.to_string(),
        })
        .collect();
    names.join(", ")
}

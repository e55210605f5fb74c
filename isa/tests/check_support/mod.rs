//! The checker's errors as text, for the checker's tests (a `#[path]` module of theirs).

use visa_isa::ast::Module;
use visa_isa::rules::Platform;
use visa_isa::text::{self, CheckOptions};

/// The errors of `module` checked for `platform` (`None`: no platform named).
pub fn check_errors(module: &Module, platform: Option<&str>) -> Vec<String> {
    let options = CheckOptions {
        platform: platform.and_then(Platform::parse),
        ..Default::default()
    };
    text::check_with_options(visa_isa::INSTRUCTIONS, module, &options)
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect()
}

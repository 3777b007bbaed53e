//! `EXPORTCHECK-shared-exports-ignored`: the shared directory of cross-process checking
//! (`features::cross_process::state`) has a file the layer cannot trust, or this process's file cannot
//! be written. A warning: fewer imports are checked, none wrongly.

use crate::finding::{Finding, Outcome};
use crate::vuid;

/// One finding per warning the shared directory gave.
#[cold]
pub fn ignored(command: &'static str, warnings: Vec<String>) -> Outcome {
    let mut outcome = Outcome::default();
    for warning in warnings {
        outcome.push(Finding::new(
            vuid::SHARED_EXPORTS_IGNORED,
            command,
            "shared_exports_dir",
            format!("{command}(): {warning}."),
        ));
    }
    outcome
}

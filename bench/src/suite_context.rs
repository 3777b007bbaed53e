//! What a child's suites (`suite_calls`, `suite_memory`) run with: below them and `child.rs`,
//! which makes it and runs them.

use crate::model::{Config, Driver, Mode};

/// What a child's measurements need.
pub struct Ctx {
    pub entry: ash::Entry,
    pub driver: Driver,
    pub config: Config,
    pub mode: Mode,
    /// File name of the driver's library (to tell driver functions from layer functions).
    pub driver_library: String,
}

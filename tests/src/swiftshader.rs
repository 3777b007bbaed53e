//! SwiftShader (Google's CPU Vulkan driver, as Debian's chromium-common ships it): instances on
//! it. Like lavapipe it exports memory as a memfd and accepts an opaque-fd import smaller than
//! the export; unlike lavapipe it sets FD_CLOEXEC, exports binary semaphores as opaque fds too,
//! and keeps an imported fd open (as the memory's own) until the memory is freed.

use crate::app::{Instance, Options};
use crate::env::Driver;

/// Options for an instance on SwiftShader.
pub fn options() -> Options {
    Options {
        driver: Driver::SwiftShader,
        ..Options::default()
    }
}

/// An instance on SwiftShader, sharing the process with other tests.
pub fn instance() -> Instance {
    Instance::with(options())
}

/// An instance on SwiftShader for a test that no other test of the binary may run alongside
/// (one that reasons about fd numbers, or uses freed handles).
pub fn exclusive() -> Instance {
    Instance::exclusive_with(options())
}

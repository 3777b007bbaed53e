//! The external semaphore and fence capability queries, and semaphores created exportable as
//! the driver reports (if any), over Mesa's lavapipe: the layer is silent
//! (`exportcheck_tests::sync_capabilities`). The negative cases are
//! test_driver_sync_capabilities.rs.

use exportcheck_tests::sync_capabilities::queries_and_exportable_semaphores_are_silent;
use exportcheck_tests::Instance;

#[test]
fn a_valid_app_hears_nothing() {
    let inst = Instance::new();
    queries_and_exportable_semaphores_are_silent(&inst);
}

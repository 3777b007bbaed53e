//! The external semaphore and fence capability queries, and semaphores created exportable as
//! the driver reports, over SwiftShader (which exports binary semaphores as opaque fds): the
//! layer is silent (`exportcheck_tests::sync_capabilities`). The negative cases are
//! test_driver_sync_capabilities.rs.

use exportcheck_tests::swiftshader;
use exportcheck_tests::sync_capabilities::queries_and_exportable_semaphores_are_silent;

#[test]
fn a_valid_app_hears_nothing() {
    let inst = swiftshader::instance();
    let exportable = queries_and_exportable_semaphores_are_silent(&inst);
    assert!(exportable >= 1, "SwiftShader exports OPAQUE_FD semaphores");
}

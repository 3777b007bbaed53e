//! The import side: the same piglit test with Mesa's OpenGL running on zink (OpenGL on Vulkan,
//! here on lavapipe) instead of llvmpipe. piglit's Vulkan code exports the memory as an opaque fd,
//! and zink imports it with its own `VkDevice`: `vkAllocateMemory` with `VkImportMemoryFdInfoKHR`
//! (and a `VkMemoryDedicatedAllocateInfo` for the image), through the same layers. Both devices
//! run under exportcheck, so every export and every import of the run is checked.
//!
//! On zink + lavapipe (Mesa 22.3) a few of the test's 32 cases fail or skip with or without any
//! layer (zink's OpenGL, not the memory sharing): the test asserts that the program's results
//! are exactly the same with our layer as without it, rather than that it passes.

use std::path::Path;

use super::common::texts;
use super::setup::{self, HELPER, OURS};
use super::{assert_exports_checked_and_clean, run_under_exportcheck, run_without_exportcheck};

/// OpenGL on zink, without a window system (kopper needs one).
fn zink_env() -> [(&'static str, &'static Path); 3] {
    [
        ("LIBGL_ALWAYS_SOFTWARE", Path::new("1")),
        ("GALLIUM_DRIVER", Path::new("zink")),
        ("LIBGL_KOPPER_DISABLE", Path::new("true")),
    ]
}

/// piglit's result lines (`PIGLIT: {...}`), one per case and the overall result.
fn results(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("PIGLIT: "))
        .collect()
}

#[test]
fn piglit_on_zink_imports_what_it_exports_and_exportcheck_finds_nothing_against_it() {
    let test = "ext_external_objects-vk-image-overwrite";
    let dir = setup::temp_dir();

    let helper_dir = setup::helper_manifest_dir(dir.path());
    let without = run_without_exportcheck(
        test,
        &helper_dir.display().to_string(),
        &[HELPER],
        &zink_env(),
    );
    let (stdout_without, stderr_without) = texts(&without);
    assert_eq!(
        setup::device_stacks(&stderr_without),
        [[HELPER], [HELPER]],
        "two devices, piglit's and zink's (is OpenGL on zink?):\n{stderr_without}"
    );
    let expected = results(&stdout_without);
    let passed = expected.iter().filter(|l| l.contains("\"pass\"")).count();
    assert!(
        passed >= 20,
        "zink should pass most cases without any layer ({passed}):\n{stdout_without}"
    );

    let (with, report) = run_under_exportcheck(test, dir.path(), &[OURS, HELPER], &zink_env());
    let (stdout_with, stderr_with) = texts(&with);
    assert_eq!(
        setup::device_stacks(&stderr_with),
        [[OURS, HELPER], [OURS, HELPER]],
        "exportcheck must see both devices' calls, the exports and zink's imports:\n{stderr_with}"
    );
    assert_eq!(
        results(&stdout_with),
        expected,
        "the program's results changed under exportcheck:\n{stderr_with}"
    );
    assert_exports_checked_and_clean(test, &report);
}

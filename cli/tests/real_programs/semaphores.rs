//! Shared semaphores: piglit's tests that pass semaphores between Vulkan and OpenGL, with the
//! Vulkan side on SwiftShader (which exports and imports opaque-fd binary semaphores) and OpenGL
//! on zink over SwiftShader. piglit creates its semaphores with `VkExportSemaphoreCreateInfo`
//! and exports them (`vkGetSemaphoreFdKHR`); OpenGL imports them (`GL_EXT_semaphore_fd`), which
//! zink does with a `VkDevice` of its own (`vkImportSemaphoreFdKHR`), then waits on and signals
//! them in its submissions. Both devices run under exportcheck.
//!
//! The tests must pass as they do without any layer, the report must hold nothing at all, and it
//! must count the exports and imports the layer intercepted (`sync_sharing_calls`): two
//! semaphores per test, each exported by piglit and imported by zink.

use std::path::Path;

use super::common::texts;
use super::setup::{self, KHRONOS, OURS};
use super::{assert_passed, run_under_exportcheck, run_without_exportcheck};

/// The piglit tests that share semaphores and pass on zink + SwiftShader (with the override
/// below) without any layer.
const SEMAPHORE_TESTS: &[&str] = &[
    "ext_external_objects-vk-semaphores",
    "ext_external_objects-vk-semaphores-2",
    "ext_external_objects-vk-image-display",
];

/// Vulkan on SwiftShader; OpenGL on zink over it, without a window system. Zink on SwiftShader
/// offers no OpenGL 3.0 compatibility context, which the tests ask for (they skip:
/// `eglCreateContext` fails with `EGL_BAD_MATCH`): `MESA_GL_VERSION_OVERRIDE` offers one.
fn swiftshader_zink_env() -> [(&'static str, &'static Path); 5] {
    [
        ("VK_DRIVER_FILES", Path::new(setup::swiftshader())),
        ("LIBGL_ALWAYS_SOFTWARE", Path::new("1")),
        ("GALLIUM_DRIVER", Path::new("zink")),
        ("LIBGL_KOPPER_DISABLE", Path::new("true")),
        ("MESA_GL_VERSION_OVERRIDE", Path::new("3.0COMPAT")),
    ]
}

/// piglit's result lines (`PIGLIT: {...}`).
fn results(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("PIGLIT: "))
        .collect()
}

#[test]
fn piglit_shares_semaphores_with_zink_on_swiftshader_and_exportcheck_sees_them_and_finds_nothing() {
    for test in SEMAPHORE_TESTS {
        let dir = setup::temp_dir();
        let without = run_without_exportcheck(test, "", &[], &swiftshader_zink_env());
        assert_passed(test, &without);
        let (stdout_without, stderr_without) = texts(&without);
        assert_eq!(
            setup::device_stacks(&stderr_without).len(),
            2,
            "{test}: two devices, piglit's and zink's (is OpenGL on zink?):\n{stderr_without}"
        );

        let (with, report) =
            run_under_exportcheck(test, dir.path(), &[OURS], &swiftshader_zink_env());
        assert_passed(test, &with);
        let (stdout_with, stderr_with) = texts(&with);
        assert_eq!(
            results(&stdout_with),
            results(&stdout_without),
            "{test}: the program's results changed under exportcheck:\n{stderr_with}"
        );
        assert_eq!(
            setup::device_stacks(&stderr_with),
            [[OURS], [OURS]],
            "{test}: exportcheck must see both devices, piglit's exports and zink's imports:\n\
             {stderr_with}"
        );
        assert!(stderr_with.contains("exportcheck: PASSED"), "{stderr_with}");
        // SwiftShader's exports keep the driver contract too: nothing to set aside.
        assert_eq!(
            report["findings"],
            serde_json::json!([]),
            "{test}: {report:#}"
        );
        let processes = report["processes"].as_array().expect("processes");
        assert_eq!(processes.len(), 1, "{test}: {processes:?}");
        assert_eq!(
            processes[0]["sync_sharing_calls"],
            serde_json::json!({"vkGetSemaphoreFdKHR": 2, "vkImportSemaphoreFdKHR": 2}),
            "{test}: the layer must have intercepted piglit's two semaphore exports and zink's \
             two imports: {processes:?}"
        );
    }
}

/// The Khronos layer below ours sees our layer's own calls too: its messages must be the same
/// with ours as without it. (It reports piglit's own mistakes, e.g. semaphores destroyed while a
/// submission that waits on them may be pending, `VUID-vkDestroySemaphore-semaphore-01137`, which
/// exportcheck does not check.)
#[test]
fn the_khronos_layer_below_ours_says_the_same_about_piglits_shared_semaphores() {
    for test in SEMAPHORE_TESTS {
        let dir = setup::temp_dir();
        let mut env = swiftshader_zink_env().to_vec();

        let log_without = dir.path().join("khronos-without.txt");
        let settings = setup::khronos_settings(&dir.path().join("without"), &log_without);
        env.push(("VK_LAYER_SETTINGS_PATH", &settings));
        let out =
            run_without_exportcheck(test, "/usr/share/vulkan/explicit_layer.d", &[KHRONOS], &env);
        assert_passed(test, &out);
        assert_eq!(
            setup::device_stacks(&texts(&out).1),
            [[KHRONOS], [KHRONOS]],
            "{test}"
        );
        let without = setup::khronos_ids(&log_without);
        assert!(
            without
                .iter()
                .any(|id| id == "UNASSIGNED-khronos-validation-createinstance-status-message"),
            "{test}: the Khronos layer did not log: {without:?}"
        );

        let log_with = dir.path().join("khronos-with.txt");
        let settings = setup::khronos_settings(&dir.path().join("with"), &log_with);
        env.pop();
        env.push(("VK_LAYER_SETTINGS_PATH", &settings));
        let (out, report) = run_under_exportcheck(test, dir.path(), &[OURS, KHRONOS], &env);
        assert_passed(test, &out);
        assert_eq!(
            setup::device_stacks(&texts(&out).1),
            [[OURS, KHRONOS], [OURS, KHRONOS]],
            "{test}"
        );
        assert_eq!(
            report["findings"],
            serde_json::json!([]),
            "{test}: {report:#}"
        );
        assert_eq!(
            setup::khronos_ids(&log_with),
            without,
            "{test}: the Khronos layer's messages changed with our layer present"
        );
    }
}

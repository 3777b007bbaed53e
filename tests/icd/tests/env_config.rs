//! `EXPORTCHECK_TEST_ICD_CONFIG` end to end. One test, in a process of its own: it changes the
//! environment, which every instance created meanwhile would read.

#![warn(clippy::undocumented_unsafe_blocks)]

mod common;

use ash::vk;
use common::*;

fn memory_type_count(instance: &ash::Instance) -> u32 {
    let pd = physical_device(instance);
    // SAFETY: valid instance and physical device.
    unsafe { instance.get_physical_device_memory_properties(pd) }.memory_type_count
}

#[test]
fn environment_configuration_is_read_at_instance_creation() {
    entry();
    let var = exportcheck_test_icd::CONFIG_ENV;

    // Inline JSON.
    std::env::set_var(
        var,
        r#"{"memory_types": [{"flags": ["DEVICE_LOCAL"], "heap": 0}]}"#,
    );
    let instance = create_instance(None).expect("instance");
    assert_eq!(memory_type_count(&instance), 1);

    // A file; the first instance keeps its snapshot.
    let path =
        std::env::temp_dir().join(format!("exportcheck-icd-env-{}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"{"memory_types": [{"flags": 1, "heap": 0}, {"flags": 6, "heap": 0}], "misbehave": {"invalid_fd": true}}"#,
    )
    .unwrap();
    std::env::set_var(var, &path);
    let second = create_instance(None).expect("instance from file");
    assert_eq!(memory_type_count(&second), 2);
    assert_eq!(memory_type_count(&instance), 1);

    // A chained configuration wins over the environment.
    let third = create_instance(Some("{}")).expect("chained");
    assert_eq!(memory_type_count(&third), 3);

    // Bad JSON: the driver refuses the instance (the loader then reports that no driver is
    // compatible).
    std::env::set_var(var, "{\"memory_types\": oops}");
    let err = create_instance(None).err().expect("bad JSON must fail");
    assert!(
        err == vk::Result::ERROR_INCOMPATIBLE_DRIVER
            || err == vk::Result::ERROR_INITIALIZATION_FAILED,
        "{err:?}"
    );

    std::env::remove_var(var);
    std::fs::remove_file(&path).unwrap();
    // The counters (alone in this process: nothing else creates instances meanwhile).
    let counters = Counters::get();
    counters.reset();
    assert_eq!(counters.count("vkCreateInstance"), 0);
    let defaults = create_instance(None).expect("defaults");
    assert_eq!(memory_type_count(&defaults), 3);
    assert_eq!(counters.count("vkCreateInstance"), 1);
    assert_eq!(counters.count("vkGetPhysicalDeviceMemoryProperties"), 1);
    assert_eq!(counters.count("exportcheck_test_icd_call_count"), 0);
    for i in [instance, second, third, defaults] {
        destroy_instance(&i);
    }
}

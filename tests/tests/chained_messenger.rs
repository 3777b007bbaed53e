//! A debug-utils messenger chained to `VkInstanceCreateInfo::pNext` is, by the spec, active only
//! during `vkCreateInstance` and `vkDestroyInstance`: it hears what the layer says while the
//! instance is created (the settings messages), and nothing after. An app with a chained and a
//! created messenger (the usual setup) gets each message once; an app with only a chained one
//! finds its later findings on stderr, as an app without any messenger does.

use ash::vk::{self, Handle};
use exportcheck_tests::child::{self, Child};
use exportcheck_tests::ids::*;
use exportcheck_tests::{
    expect, fds, Captured, Device, Instance, Options, FAILED, OPAQUE_FD, SENTINEL, SIZE,
};

/// `report_flags` with `info`: the layer announces its active settings during vkCreateInstance.
const ANNOUNCE: &[(&str, &str)] = &[("report_flags", "error,warn,info")];

/// The INFO message of the active settings, announced during vkCreateInstance.
const ACTIVE_SETTINGS: &str = "active settings: report_flags = error,warn,info; ";

/// Exports `memory` (allocated without VkExportMemoryAllocateInfo) as OPAQUE_FD: 00671, not
/// blocked (lavapipe answers VK_SUCCESS with fd -1).
fn bad_export(dev: &Device, memory: vk::DeviceMemory) {
    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    fds::close_if_open(fd);
}

/// Asserts that `inst` received exactly one settings message: the INFO of the active settings.
#[track_caller]
fn announced_once(inst: &Instance) -> Captured {
    let settings = inst.settings_messages();
    assert_eq!(settings.len(), 1, "settings messages: {settings:#?}");
    let m = settings.into_iter().next().expect("one");
    assert_eq!(m.severity, vk::DebugUtilsMessageSeverityFlagsEXT::INFO);
    expect::mentions(&m, &[ACTIVE_SETTINGS]);
    m
}

#[test]
fn a_chained_and_a_created_messenger_get_each_message_once() {
    let inst = Instance::with(Options {
        messenger: true,
        messenger_in_create_info: true,
        layer_settings: ANNOUNCE,
        ..Options::default()
    });
    // During vkCreateInstance only the chained messenger existed: the announcement, once.
    announced_once(&inst);
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    bad_export(&dev, mem);
    // After it, only the created one is active: the finding, once.
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    bad_export(&dev, mem);
    expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
    assert!(inst.settings_messages().is_empty());
    dev.free(mem);
    drop(dev);
}

#[test]
fn a_finding_for_every_instance_reaches_each_once_and_no_chained_messenger() {
    // Exclusive: a finding about an unknown VkDevice goes to every live instance.
    let both = Instance::exclusive_with(Options {
        messenger: true,
        messenger_in_create_info: true,
        ..Options::default()
    });
    let chained_only = both.another(Options {
        messenger: false,
        messenger_in_create_info: true,
        ..Options::default()
    });
    let dev = both.fd_device();
    let mem = dev.allocate(SIZE, Some(OPAQUE_FD));
    // SAFETY: the PFN type of vkGetMemoryFdKHR.
    let get_fd: vk::PFN_vkGetMemoryFdKHR = unsafe { both.device_fn(&dev, c"vkGetMemoryFdKHR") };
    let info = vk::MemoryGetFdInfoKHR::default()
        .memory(mem)
        .handle_type(OPAQUE_FD);
    let mut fd = SENTINEL;
    // SAFETY: a garbage VkDevice on purpose; the layer must not dereference it. Other pointers
    // are valid.
    let r = unsafe { get_fd(vk::Device::from_raw(0x1234), &info, &mut fd) };
    assert_eq!(r, FAILED);
    assert_eq!(fd, SENTINEL);
    expect::unknown_device(
        &[&both],
        GET_FD,
        FD_DEVICE_PARAM,
        &["device (0x1234) is not a VkDevice created through this layer"],
    );
    let heard = chained_only.messages();
    assert!(
        heard.is_empty(),
        "a chained messenger is inactive after vkCreateInstance: {heard:#?}"
    );
    dev.free(mem);
    drop(dev);
    drop(chained_only);
}

/// The child of [`a_messenger_chained_alone_hears_vk_create_instance_and_stderr_the_rest`]: an
/// app with only a chained messenger and `report_flags` with `info`.
fn chained_alone_child() {
    let inst = Instance::with(Options {
        messenger: false,
        messenger_in_create_info: true,
        layer_settings: ANNOUNCE,
        ..Options::default()
    });
    announced_once(&inst);
    let dev = inst.fd_device();
    let mem = dev.allocate(SIZE, None);
    bad_export(&dev, mem);
    let heard = inst.messages();
    assert!(
        heard.is_empty(),
        "a chained messenger is inactive after vkCreateInstance: {heard:#?}"
    );
    dev.free(mem);
    drop(dev);
}

#[test]
fn a_messenger_chained_alone_hears_vk_create_instance_and_stderr_the_rest() {
    if child::is_child() {
        return chained_alone_child();
    }
    let run = Child::new("chained-alone").run();
    let lines = run.stderr_layer_lines();
    // The announcement reached the chained messenger, active during vkCreateInstance, so it is
    // not on stderr; the finding made after it had no active messenger, so it is.
    assert_eq!(lines.len(), 1, "one line, the finding:\n{}", run.stderr);
    let head =
        format!("exportcheck: Validation Error: [ {FD_HANDLE_TYPE_00671} ] vkGetMemoryFdKHR(): ");
    assert!(lines[0].starts_with(&head), "{}", run.stderr);
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
}

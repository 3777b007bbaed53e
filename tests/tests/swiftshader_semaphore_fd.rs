//! vkGetSemaphoreFdKHR end to end over SwiftShader, a real driver that exports binary semaphores
//! as opaque fds: a semaphore created exportable as one exports silently (the other cases are
//! test_driver_semaphore_fd.rs).

use ash::vk::{self, Handle};
use exportcheck_tests::expect;
use exportcheck_tests::ids::*;
use exportcheck_tests::swiftshader::exclusive;

const OPAQUE: vk::ExternalSemaphoreHandleTypeFlags =
    vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD;

#[test]
fn an_opaque_fd_export_as_created_is_silent() {
    let inst = exclusive();
    let dev = inst.device(&[
        ash::khr::external_semaphore::NAME,
        ash::khr::external_semaphore_fd::NAME,
    ]);
    let mut export = vk::ExportSemaphoreCreateInfo::default().handle_types(OPAQUE);
    let create = vk::SemaphoreCreateInfo::default().push_next(&mut export);
    // SAFETY: a live device and a valid create info.
    let s = unsafe { dev.device.create_semaphore(&create, None) }.expect("vkCreateSemaphore");
    let get = ash::khr::external_semaphore_fd::Device::new(&inst.instance, &dev.device);
    let info = vk::SemaphoreGetFdInfoKHR::default()
        .semaphore(s)
        .handle_type(OPAQUE);
    // SAFETY: a live info structure.
    let fd = unsafe { get.get_semaphore_fd(&info) }.expect("vkGetSemaphoreFdKHR");
    assert!(fd >= 0, "{fd}");
    // SAFETY: the descriptor the driver gave the app, closed once.
    unsafe { libc::close(fd) };
    expect::silent(&inst, GET_SEMAPHORE_FD);
    assert_ne!(s.as_raw(), 0);
    // SAFETY: a semaphore of the device that no queue uses.
    unsafe { dev.device.destroy_semaphore(s, None) };
}

//! Fences for the end-to-end tests of the fence sharing commands: a device with the fence
//! extensions, fences made, exported and destroyed as a test asks.

use crate::app::{Device, Instance};
use crate::expect;
use crate::ids::GET_FENCE_FD;
use ash::vk::{self, Handle};
use std::ffi::{c_int, CStr};

/// A handle-type set of `VkExternalFenceHandleTypeFlags`.
pub type Types = vk::ExternalFenceHandleTypeFlags;

/// A device with `VK_KHR_external_fence` and `extensions` (`VK_KHR_external_fence_fd`,
/// `VK_KHR_external_fence_win32`).
pub fn fence_device(inst: &Instance, extensions: &[&CStr]) -> Device {
    let mut all = vec![ash::khr::external_fence::NAME];
    all.extend_from_slice(extensions);
    inst.device(&all)
}

/// How a test fence is made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Made {
    /// Created signaled (`VK_FENCE_CREATE_SIGNALED_BIT`).
    pub signaled: bool,
    /// `VkExportFenceCreateInfo::handleTypes`, when chained.
    pub export: Option<Types>,
    /// A `VkExportFenceWin32HandleInfoKHR` chained.
    pub win32_info: bool,
}

/// `vkCreateFence` as `made` says (a create info the test driver accepts).
pub fn create(dev: &Device, made: Made) -> vk::Fence {
    let mut exportable = vk::ExportFenceCreateInfo::default();
    let mut win32 = vk::ExportFenceWin32HandleInfoKHR::default();
    let mut info = vk::FenceCreateInfo::default();
    if made.signaled {
        info = info.flags(vk::FenceCreateFlags::SIGNALED);
    }
    if let Some(types) = made.export {
        exportable = exportable.handle_types(types);
        info = info.push_next(&mut exportable);
    }
    if made.win32_info {
        info = info.push_next(&mut win32);
    }
    // SAFETY: a live device and a create info whose chain lives through the call.
    unsafe { dev.device.create_fence(&info, None) }.expect("vkCreateFence")
}

/// A fence, signaled or not, exportable as `export` when given.
pub fn fence(dev: &Device, signaled: bool, export: Option<Types>) -> vk::Fence {
    let made = Made {
        signaled,
        export,
        win32_info: false,
    };
    create(dev, made)
}

pub fn destroy(dev: &Device, fence: vk::Fence) {
    // SAFETY: a fence of the device that no queue uses.
    unsafe { dev.device.destroy_fence(fence, None) };
}

/// `vkResetFences` of `fence`.
pub fn reset(dev: &Device, fence: vk::Fence) {
    // SAFETY: a fence of the device that no queue uses (its signal, if any, completed).
    unsafe { dev.device.reset_fences(&[fence]) }.expect("vkResetFences");
}

/// How the messages name a fence: `VkFence 0x<handle>`.
pub fn fence_name(fence: vk::Fence) -> String {
    format!("VkFence 0x{:x}", fence.as_raw())
}

/// The `VK_KHR_external_fence_fd` commands, as `vkGetDeviceProcAddr` gives them.
pub fn fd_loader(inst: &Instance, dev: &Device) -> ash::khr::external_fence_fd::Device {
    ash::khr::external_fence_fd::Device::new(&inst.instance, &dev.device)
}

/// The `VK_KHR_external_fence_win32` commands, as `vkGetDeviceProcAddr` gives them.
pub fn win32_loader(inst: &Instance, dev: &Device) -> ash::khr::external_fence_win32::Device {
    ash::khr::external_fence_win32::Device::new(&inst.instance, &dev.device)
}

/// `vkGetFenceFdKHR` of `fence` as `handle_type`: its result, and the fd (-1 unless it
/// succeeded).
pub fn get_fd(inst: &Instance, dev: &Device, fence: vk::Fence, t: Types) -> (vk::Result, c_int) {
    let get = fd_loader(inst, dev).fp().get_fence_fd_khr;
    let info = vk::FenceGetFdInfoKHR::default().fence(fence).handle_type(t);
    let mut fd: c_int = -1;
    // SAFETY: a live info structure and output pointer.
    let r = unsafe { get(dev.handle(), &info, &mut fd) };
    (r, if r == vk::Result::SUCCESS { fd } else { -1 })
}

/// An fd of `fence` exported as `t`: a valid export (the test's setup), silent.
pub fn export_fd(inst: &Instance, dev: &Device, fence: vk::Fence, t: Types) -> c_int {
    let (r, fd) = get_fd(inst, dev, fence, t);
    assert_eq!(r, vk::Result::SUCCESS, "vkGetFenceFdKHR");
    expect::silent(inst, GET_FENCE_FD);
    fd
}

/// `vkImportFenceFdKHR` of `fd` as an `OPAQUE_FD` (permanent) into `into`, through the
/// `vkGetDeviceProcAddr` pointer: the result. An fd the call did not take is closed.
pub fn import_opaque_fd(inst: &Instance, dev: &Device, into: vk::Fence, fd: c_int) -> vk::Result {
    let info = vk::ImportFenceFdInfoKHR::default()
        .fence(into)
        .handle_type(Types::OPAQUE_FD)
        .fd(fd);
    // SAFETY: a live info structure.
    let r = unsafe { (fd_loader(inst, dev).fp().import_fence_fd_khr)(dev.handle(), &info) };
    if r != vk::Result::SUCCESS {
        crate::fds::close_if_open(fd);
    }
    r
}

//! `VkImportAndroidHardwareBufferInfoANDROID` at `vkAllocateMemory`
//! (VK_ANDROID_external_memory_android_hardware_buffer): what a layer can know of it for certain
//! is whether the device may take it (`VUID-VkMemoryAllocateInfo-pNext-pNext`). The rules about
//! the buffer itself (its description, usage, size, memory types) need the Android runtime and
//! the driver's answer for that buffer: catalogued not checkable. Called from
//! `import_handles.rs`, with its own bit.

use super::common::{structure_unavailable, Broken};
use crate::args::HandleImports;
use crate::finding::{Finding, Outcome};
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// `VUID-VkMemoryAllocateInfo-pNext-pNext` for the structure.
const UNAVAILABLE: Broken = Broken::bit(23);
/// Every bit of this file's rules (a test in `import_handles.rs` keeps them clear of the
/// others').
pub const BITS: Broken = UNAVAILABLE;

/// The rules the chain's `VkImportAndroidHardwareBufferInfoANDROID` breaks (none without one).
pub fn evaluate(device: &DeviceFacts, imports: &HandleImports) -> Broken {
    let enabled = device
        .extensions
        .android_external_memory_android_hardware_buffer;
    Broken::NONE.with(UNAVAILABLE, imports.android && !enabled)
}

/// The findings of the rules in `broken` ([`evaluate`]'s bits; the others are ignored).
pub fn describe(
    device: &DeviceFacts,
    broken: Broken,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    if broken.has(UNAVAILABLE) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_PNEXT,
            "pAllocateInfo->pNext",
            structure_unavailable(
                &vk_names::handle(vk::ObjectType::DEVICE, device.handle),
                "VkImportAndroidHardwareBufferInfoANDROID",
                "VK_ANDROID_external_memory_android_hardware_buffer",
            ),
        ));
    }
}

//! An Android hardware buffer import at `vkAllocateMemory`, against the driver's answer for the
//! buffer: the layer asks `vkGetAndroidHardwareBufferPropertiesANDROID` itself (through the next
//! layer, as the Khronos layer does), once plainly for the size and memory types, and once with
//! `VkAndroidHardwareBufferFormatPropertiesANDROID` chained only when a dedicated image's format
//! is to be compared (some drivers leave `allocationSize` unset when format properties are
//! chained). A query that fails judges nothing. The rules are `rules::import::import_android_properties`.

use crate::args::{ChainRead, HandleImports};
use crate::boundary;
use crate::finding::Outcome;
use crate::rules::import::import_android_properties::{self, AndroidImport, BufferProperties};
use crate::state::{AllocationFacts, DeviceState};
use ash::vk::{self, Handle};

/// Before the call goes down, for a chain with a `VkImportAndroidHardwareBufferInfoANDROID`:
/// its findings added to the call's.
#[inline(never)]
pub fn check(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    handles: &HandleImports,
    call: &mut Outcome,
) {
    // The one import operation of the call, of a non-NULL buffer, on a device that takes it.
    let enabled = state
        .facts
        .extensions
        .android_external_memory_android_hardware_buffer;
    if !enabled || handles.android_buffer == 0 || chain.import_operations != 1 {
        return;
    }
    let image = chain.dedicated_info.map_or(0, |(image, _)| image);
    let image_format = match image {
        0 => None,
        _ => state
            .resources
            .image(image)
            .and_then(|found| found.facts)
            .map(|f| f.format),
    };
    let import = AndroidImport {
        buffer: handles.android_buffer,
        size: facts.size,
        memory_type_index: facts.memory_type_index,
        image,
        image_format,
    };
    let compare_format = image_format.is_some_and(|f| f != vk::Format::UNDEFINED);
    let Some(answer) = ask_driver(state, handles.android_buffer, compare_format) else {
        return;
    };
    let broken = import_android_properties::evaluate(&import, &answer);
    if broken.is_empty() {
        return;
    }
    call.absorb(boundary::contain("vkAllocateMemory", || {
        import_android_properties::describe(state.handle(), &import, &answer, broken)
    }));
}

/// The driver's answer for `buffer`, with its format when `format` is asked; `None` when a
/// query fails or the next layer lacks the command.
fn ask_driver(state: &DeviceState, buffer: u64, format: bool) -> Option<BufferProperties> {
    let get = state.next.get_android_hardware_buffer_properties?;
    let device = vk::Device::from_raw(state.handle());
    let buffer = buffer as usize as *const vk::AHardwareBuffer;
    let mut properties = vk::AndroidHardwareBufferPropertiesANDROID::default();
    // SAFETY: a live device that enabled the extension, the buffer the app is importing (a
    // valid import needs a valid buffer for Vulkan, which is what this query takes), and an
    // output structure of ours.
    let result = unsafe { get(device, buffer, &mut properties) };
    if result != vk::Result::SUCCESS {
        return None;
    }
    let mut answer = BufferProperties {
        allocation_size: properties.allocation_size,
        memory_type_bits: properties.memory_type_bits,
        format: None,
    };
    if format {
        let mut format_properties = vk::AndroidHardwareBufferFormatPropertiesANDROID::default();
        let mut with_format =
            vk::AndroidHardwareBufferPropertiesANDROID::default().push_next(&mut format_properties);
        // SAFETY: as above, with an output chain of ours.
        let result = unsafe { get(device, buffer, &mut with_format) };
        if result == vk::Result::SUCCESS {
            answer.format = Some(format_properties.format);
        }
    }
    Some(answer)
}

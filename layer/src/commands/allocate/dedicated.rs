//! `VkMemoryDedicatedAllocateInfo` at `vkAllocateMemory`: the rules of `rules::allocate::dedicated`, with
//! what the layer knows of the image or buffer it names: whether it is a live one of this device
//! or of another (`state::resources`, `registry::find_resource_elsewhere`), its create
//! flags, and the driver's `VkMemoryRequirements::size` for it, asked by the layer once per
//! resource when the size rules apply.

use crate::args::ChainRead;
use crate::boundary;
use crate::finding::Outcome;
use crate::raw;
use crate::rules::allocate::android_export_size::exports_android_hardware_buffer;
use crate::rules::allocate::dedicated::{self, Dedicated, Named};
use crate::state::registry::{find_resource_elsewhere, ResourceElsewhere};
use crate::state::resources::{Found, ImageFacts};
use crate::state::{AllocationFacts, DeviceState};
use crate::vk_ext;
use ash::vk::{self, Handle};

/// Before the call goes down, when the chain has a `VkMemoryDedicatedAllocateInfo` naming
/// `image` or `buffer` (`p_allocate_info`: the app's structure, which `read_allocate_info` read
/// as valid): its findings added to the call's. The test for the structure is inline: an
/// allocation that is not dedicated makes no call.
#[inline(always)]
pub fn check(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    call: &mut Outcome,
) {
    if let Some(named) = chain.dedicated_info {
        check_dedicated(state, (facts, chain), named, p_allocate_info, call);
    }
}

/// [`check`] of a chain whose `VkMemoryDedicatedAllocateInfo` names `image` and `buffer`.
#[inline(never)]
fn check_dedicated(
    state: &DeviceState,
    (facts, chain): (&AllocationFacts, &ChainRead),
    (image, buffer): (u64, u64),
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    call: &mut Outcome,
) {
    let size = size_judged(facts, chain, image);
    let (image_flags, image_is) = image_known(state, image, size.is_some());
    let (buffer_flags, buffer_is) = buffer_known(state, buffer, size.is_some());
    let mut d = Dedicated {
        image,
        buffer,
        image_flags,
        buffer_flags,
        image_is,
        buffer_is,
        size,
        android_export_size: exports_android_hardware_buffer(facts).then_some(facts.size),
    };
    let mut broken = dedicated::evaluate(&d);
    if broken.is_empty() {
        return;
    }
    // An imported Android hardware buffer or QNX Screen buffer: the size rules exclude it.
    if broken.has(dedicated::DedicatedRules::TOO_SMALL)
        // SAFETY: the app's argument, which `read_allocate_info` read as valid.
        && unsafe { raw::has_platform_buffer_import(p_allocate_info) }
    {
        d.size = None;
        broken = dedicated::evaluate(&d);
        if broken.is_empty() {
            return;
        }
    }
    let mut outcome = boundary::contain("vkAllocateMemory", || {
        dedicated::describe(state.handle(), &d, broken)
    });
    outcome.blocked |= dedicated::blocks(broken);
    call.absorb(outcome);
}

/// `allocationSize`, when `VUID-VkMemoryDedicatedAllocateInfo-image-02964` and `-buffer-02965`
/// apply: "the memory is not an imported Android Hardware Buffer or an imported QNX Screen
/// buffer" (an import of any other handle type is judged: a `DMA_BUF` or `OPAQUE_FD` import
/// dedicated to a resource must be as large as it), and not an Android hardware buffer export
/// dedicated to an image, whose allocationSize must be 0 (`VUID-VkMemoryAllocateInfo-pNext-01874`;
/// the Khronos layer ignores the size there too). A QNX Screen buffer import (a structure the
/// first read does not read) is found by [`check`] only when a size rule would be reported.
///
/// Nor is an import whose `allocationSize` the implementation ignores and takes from the handle
/// (`D3D11_TEXTURE`, `D3D11_TEXTURE_KMT`, `D3D12_RESOURCE`, and the Metal types, whose texture
/// import dedicated to an image must even give 0: `VUID-VkMemoryAllocateInfo-pNext-10397`), as
/// the Khronos layer ignores it; nor a chain of several import operations (06657), whose imported
/// handle type is not one.
fn size_judged(facts: &AllocationFacts, chain: &ChainRead, image: u64) -> Option<u64> {
    use vk::ExternalMemoryHandleTypeFlags as T;
    let size_not_given = T::ANDROID_HARDWARE_BUFFER_ANDROID
        | T::D3D11_TEXTURE
        | T::D3D11_TEXTURE_KMT
        | T::D3D12_RESOURCE
        | vk_ext::HANDLE_TYPE_MTLBUFFER
        | vk_ext::HANDLE_TYPE_MTLTEXTURE
        | vk_ext::HANDLE_TYPE_MTLHEAP;
    let android_image = image != 0 && exports_android_hardware_buffer(facts);
    let ignored = facts.import.is_some_and(|t| t.intersects(size_not_given));
    let unclear = chain.import_operations > 1;
    (!ignored && !unclear && !android_image).then_some(facts.size)
}

/// What a handle that is not a live resource of `state` is.
fn elsewhere(state: &DeviceState, ty: vk::ObjectType, handle: u64, sees_every: bool) -> Named {
    if !sees_every {
        return Named::Unjudged;
    }
    match find_resource_elsewhere(state, ty, handle) {
        ResourceElsewhere::OtherDevice(owner) => Named::OtherDevice(owner),
        ResourceElsewhere::Nowhere => Named::NotLive,
        ResourceElsewhere::Unknown => Named::Unjudged,
    }
}

fn image_known(
    state: &DeviceState,
    image: u64,
    ask_size: bool,
) -> (Option<vk::ImageCreateFlags>, Named) {
    if image == 0 {
        return (None, Named::Unjudged);
    }
    let ty = vk::ObjectType::IMAGE;
    let Some(found) = state.resources.image(image) else {
        return (None, elsewhere(state, ty, image, state.sees_every_image()));
    };
    let flags = found.facts.map(|f| f.flags);
    let requirement = match found {
        Found {
            requirement: Some(size),
            ..
        } => Some(size),
        Found {
            facts: Some(facts), ..
        } if ask_size && may_ask_image_requirements(&facts) => ask_image_requirement(state, image),
        _ => None,
    };
    (flags, Named::Live { requirement })
}

/// Whether `vkGetImageMemoryRequirements` is a valid call for the image: not disjoint
/// (`VUID-vkGetImageMemoryRequirements-image-01588`), and not made for an Android hardware
/// buffer or a QNX Screen buffer, whose requirements may be asked only once bound (`-04004`,
/// `-08960`); nor, to be safe, for an OHOS native buffer, the same kind of platform buffer.
fn may_ask_image_requirements(facts: &ImageFacts) -> bool {
    let bound_first = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID
        | vk::ExternalMemoryHandleTypeFlags::SCREEN_BUFFER_QNX
        | vk_ext::HANDLE_TYPE_OH_NATIVE_BUFFER;
    !facts.flags.contains(vk::ImageCreateFlags::DISJOINT)
        && facts.external.is_some_and(|t| !t.intersects(bound_first))
}

/// The driver's `VkMemoryRequirements::size` of a live image of the device (asked through the
/// next layer, without a lock held), kept with the image.
fn ask_image_requirement(state: &DeviceState, image: u64) -> Option<u64> {
    let get = state.next.get_image_memory_requirements?;
    let mut requirements = vk::MemoryRequirements::default();
    // SAFETY: a live device, a live image of it that may be asked (`may_ask_image_requirements`),
    // and an output structure of ours.
    unsafe {
        get(
            vk::Device::from_raw(state.handle()),
            vk::Image::from_raw(image),
            &mut requirements,
        )
    };
    let size = requirements.size;
    state
        .resources
        .set_requirement(vk::ObjectType::IMAGE, image, size);
    (size != 0).then_some(size)
}

fn buffer_known(
    state: &DeviceState,
    buffer: u64,
    ask_size: bool,
) -> (Option<vk::BufferCreateFlags>, Named) {
    if buffer == 0 {
        return (None, Named::Unjudged);
    }
    let ty = vk::ObjectType::BUFFER;
    let Some(found) = state.resources.buffer(buffer) else {
        return (
            None,
            elsewhere(state, ty, buffer, state.sees_every_buffer()),
        );
    };
    let requirement = match found.requirement {
        Some(size) => Some(size),
        None if ask_size => ask_buffer_requirement(state, buffer),
        None => None,
    };
    (found.facts.map(|f| f.flags), Named::Live { requirement })
}

/// The driver's `VkMemoryRequirements::size` of a live buffer of the device, kept with it.
fn ask_buffer_requirement(state: &DeviceState, buffer: u64) -> Option<u64> {
    let get = state.next.get_buffer_memory_requirements?;
    let mut requirements = vk::MemoryRequirements::default();
    // SAFETY: a live device, a live buffer of it, and an output structure of ours.
    unsafe {
        get(
            vk::Device::from_raw(state.handle()),
            vk::Buffer::from_raw(buffer),
            &mut requirements,
        )
    };
    let size = requirements.size;
    state
        .resources
        .set_requirement(vk::ObjectType::BUFFER, buffer, size);
    (size != 0).then_some(size)
}

//! `vkGetMemoryAndroidHardwareBufferANDROID`: the descriptor. Its rules are
//! `rules::export::get_memory_android_hardware_buffer`. The info structure has no `handleType`: it is read as the
//! command's one handle type. For 01883 the device remembers memory whose dedicated image is not
//! bound to it yet (in its record's rare facts, `state::live_memory`): [`after_allocate`] makes the entries.

use crate::args::{ChainRead, StructArg};
use crate::boundary::Down;
use crate::features::driver_contract::rules::Returned;
use crate::finding::Outcome;
use crate::handle_kinds::Memory;
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::rules::export::get_memory_android_hardware_buffer;
use crate::rules::export::{ExportCommand, InfoFields};
use crate::state::resources::driver_answers::ResourceQuery;
use crate::state::{AllocationFacts, DeviceState, MemoryRecord};
use ash::vk;

/// After `vkAllocateMemory` of `memory` succeeded: memory exported as an Android hardware buffer
/// and dedicated to an image by a `VkMemoryDedicatedAllocateInfo` waits for that image to be bound to it, when the layer sees every
/// bind of that image (it intercepts the device's image commands, and the image is one it tracks,
/// made for external memory; a sparse image is bound by the queue, which the layer does not see).
pub fn after_allocate(
    state: &DeviceState,
    memory: u64,
    facts: &AllocationFacts,
    chain: &ChainRead,
) {
    let exports_ahb = facts
        .export
        .is_some_and(|types| types.contains(get_memory_android_hardware_buffer::HANDLE_TYPE));
    // Only a `VkMemoryDedicatedAllocateInfo` counts: the rule does not name the NV structure.
    let Some((image, _)) = chain.dedicated_info else {
        return;
    };
    if !exports_ahb || image == 0 || !state.intercepts_images() {
        return;
    }
    let trackable = state
        .resources
        .export_query(vk::ObjectType::IMAGE, image)
        .is_some_and(|query| match query {
            ResourceQuery::Image(i) => !i.flags.contains(vk::ImageCreateFlags::SPARSE_BINDING),
            ResourceQuery::Buffer(_) => false,
        });
    if trackable {
        state
            .memories
            .update_rare(memory, |rare| rare.unbound_dedicated_image = Some(image));
    }
}

pub struct GetMemoryAndroidHardwareBuffer;

type Info = vk::MemoryGetAndroidHardwareBufferInfoANDROID<'static>;

impl ExportEntry for GetMemoryAndroidHardwareBuffer {
    type Args = (*const Info, *mut *mut vk::AHardwareBuffer);
    type Own = get_memory_android_hardware_buffer::GetMemoryAndroidHardwareBufferRules;
    type Object = Memory;
    type Learnt = ();
    const RULES: &'static ExportCommand<Self::Own> = &get_memory_android_hardware_buffer::COMMAND;

    #[inline(always)]
    unsafe fn read(&(p_info, p_buffer): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe {
            export::read_info(Self::RULES, p_info, |i| {
                (
                    i.p_next,
                    i.memory,
                    get_memory_android_hardware_buffer::HANDLE_TYPE,
                )
            })
        };
        (info, p_buffer.is_null())
    }

    #[inline(always)]
    fn evaluate_history(state: &DeviceState, _: &InfoFields, memory: &MemoryRecord) -> Self::Own {
        let image = state.memories.rare(memory).unbound_dedicated_image;
        get_memory_android_hardware_buffer::evaluate_history(image)
    }

    fn describe_history(
        state: &DeviceState,
        memory: &MemoryRecord,
        broken: Self::Own,
        outcome: &mut Outcome,
    ) {
        let image = state.memories.rare(memory).unbound_dedicated_image;
        get_memory_android_hardware_buffer::describe_history(memory, image, broken, outcome);
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info, p_buffer): Self::Args,
        judged: &Judged<'_, Memory>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = s.next.get_memory_android_hardware_buffer?;
        let output = (
            Returned::AndroidHardwareBuffer,
            p_buffer.cast::<usize>().cast_const(),
        );
        // SAFETY: the output pointer passed the gate and is pointer-sized; the app's own
        // arguments, which passed the gate, go to the next layer's entry point.
        Some(unsafe {
            export::call_down_returning(s, Self::RULES, (judged, down), output, || {
                next(device, p_info, p_buffer)
            })
        })
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_memory_android_hardware_buffer_android(
    device: vk::Device,
    p_info: *const Info,
    p_buffer: *mut *mut vk::AHardwareBuffer,
) -> vk::Result {
    // SAFETY: the app's arguments to this command.
    unsafe { export::run::<GetMemoryAndroidHardwareBuffer>(device, (p_info, p_buffer)) }
}

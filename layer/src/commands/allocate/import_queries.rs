//! An import of a host pointer or a Zircon VMO at `vkAllocateMemory`, against the memory types
//! the driver says the handle can be imported as: the layer asks
//! `vkGetMemoryHostPointerPropertiesEXT` / `vkGetMemoryZirconHandlePropertiesFUCHSIA` itself
//! (through the next layer, as the Khronos layer does), only for such an import, and only where
//! its own call is valid: the extension enabled, the handle type the query takes, a non-NULL
//! pointer aligned to `minImportedHostPointerAlignment` (a misaligned one is
//! `VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749` already) or a handle other than
//! `ZX_HANDLE_INVALID`. A query that fails judges nothing. The rule is
//! `rules::import::import_type_bits`.

use crate::args::{ChainRead, HandleImports};
use crate::boundary;
use crate::finding::Outcome;
use crate::rules::import::import_type_bits::{self, Asked};
use crate::rules::query::get_memory_host_pointer_properties::{misaligned, HOST_TYPES};
use crate::state::{AllocationFacts, DeviceState};
use ash::vk::{self, Handle};
use std::ffi::c_void;

const ZIRCON_VMO: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::ZIRCON_VMO_FUCHSIA;

/// Before the call goes down, for a chain with a `VkImportMemoryHostPointerInfoEXT`: its
/// findings added to the call's.
#[inline(never)]
pub fn check_host(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    call: &mut Outcome,
) {
    let Some((handle_type, pointer)) = chain.host.import() else {
        return;
    };
    let one_host_type = handle_type.as_raw().is_power_of_two() && HOST_TYPES.contains(handle_type);
    let alignment = state.facts.host_pointer_alignment;
    let askable = state.facts.extensions.ext_external_memory_host
        && one_host_type
        && pointer != 0
        && alignment.is_some()
        && !misaligned(pointer, alignment);
    let Some(get) = state
        .next
        .get_memory_host_pointer_properties
        .filter(|_| askable)
    else {
        return;
    };
    let mut properties = vk::MemoryHostPointerPropertiesEXT::default();
    // SAFETY: a live device that enabled VK_EXT_external_memory_host, a host-pointer handle
    // type, the app's own non-NULL pointer aligned as the query needs (the import needs it to
    // be host memory too), and an output structure of ours.
    let result = unsafe {
        get(
            vk::Device::from_raw(state.handle()),
            handle_type,
            pointer as usize as *const c_void,
            &mut properties,
        )
    };
    let asked = Asked::HostPointer(handle_type, pointer);
    judge(
        state,
        facts,
        asked,
        (result, properties.memory_type_bits),
        call,
    );
}

/// Before the call goes down, for a chain with a `VkImportMemoryZirconHandleInfoFUCHSIA`:
/// its findings added to the call's.
#[inline(never)]
pub fn check_zircon(
    state: &DeviceState,
    facts: &AllocationFacts,
    handles: &HandleImports,
    call: &mut Outcome,
) {
    let Some((handle_type, handle)) = handles.zircon else {
        return;
    };
    let askable = state.facts.extensions.fuchsia_external_memory
        && handle_type == ZIRCON_VMO
        && handle != vk::zx_handle_t::default();
    let Some(get) = state
        .next
        .get_memory_zircon_handle_properties
        .filter(|_| askable)
    else {
        return;
    };
    let mut properties = vk::MemoryZirconHandlePropertiesFUCHSIA::default();
    // SAFETY: a live device that enabled VK_FUCHSIA_external_memory, the one handle type the
    // query takes, the app's own handle (not ZX_HANDLE_INVALID), and an output structure of ours.
    let result = unsafe {
        get(
            vk::Device::from_raw(state.handle()),
            handle_type,
            handle,
            &mut properties,
        )
    };
    let asked = Asked::ZirconVmo(handle);
    judge(
        state,
        facts,
        asked,
        (result, properties.memory_type_bits),
        call,
    );
}

/// The import's memory type against the driver's answer: its finding added to the call's (the
/// test inline in each check, the finding made out of line: a valid import has none).
#[inline(always)]
fn judge(
    state: &DeviceState,
    facts: &AllocationFacts,
    asked: Asked,
    (result, memory_type_bits): (vk::Result, u32),
    call: &mut Outcome,
) {
    let index = facts.memory_type_index;
    if result == vk::Result::SUCCESS && import_type_bits::evaluate(index, memory_type_bits) {
        add_finding(state, asked, (index, memory_type_bits), call);
    }
}

/// The finding of an import whose memory type the driver's answer does not allow.
#[cold]
#[inline(never)]
fn add_finding(
    state: &DeviceState,
    asked: Asked,
    (index, memory_type_bits): (u32, u32),
    call: &mut Outcome,
) {
    let outcome = boundary::contain("vkAllocateMemory", || Outcome {
        findings: vec![import_type_bits::describe(
            state.handle(),
            asked,
            index,
            memory_type_bits,
        )],
        ..Outcome::default()
    });
    call.absorb(outcome);
}

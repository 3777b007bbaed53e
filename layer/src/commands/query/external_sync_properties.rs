//! `vkGetPhysicalDeviceExternalSemaphoreProperties`, `vkGetPhysicalDeviceExternalFenceProperties`
//! and their `KHR` names (`rules::query::external_sync_properties`): read and evaluate; only
//! when a rule is broken describe, report (through the physical device's instance) and decide;
//! call down under the name the app called, with its own arguments. Nothing is recorded.

use crate::boundary;
use crate::next_layer::InstanceDispatch;
use crate::pipeline::policy::{decide_for_instance, Decision};
use crate::raw;
use crate::rules::query::external_sync_properties::{
    describe, evaluate, SyncQueryCall, SyncQueryCommand, SyncQueryRules, FENCE, SEMAPHORE,
};
use crate::state::registry::INSTANCES;
use crate::state::InstanceState;
use ash::vk::{self, Handle};

/// The next layer's entry point of one of the queries.
type QueryFn<I, P> = unsafe extern "system" fn(vk::PhysicalDevice, *const I, *mut P);

/// One query, from the app's call to the driver.
///
/// # Safety
/// `physical_device` is one the loader handed the layer (its trampoline unwrapped it); the
/// pointers are the app's: NULL or readable as the command's structures.
unsafe fn run<I: Copy, P>(
    called: &'static str,
    cmd: &'static SyncQueryCommand,
    physical_device: vk::PhysicalDevice,
    p_info: *const I,
    p_properties: *mut P,
    next: fn(&InstanceDispatch) -> Option<QueryFn<I, P>>,
) {
    boundary::ffi_down(called, (), |down| {
        if physical_device == vk::PhysicalDevice::null() {
            return;
        }
        // SAFETY: a physical device of the loader's (this function's contract): a dispatchable
        // object whose first word is its instance's dispatch key.
        let key = unsafe { raw::dispatch_key(physical_device.as_raw()) };
        let Some(instance) = INSTANCES.get(key) else {
            return;
        };
        let call = SyncQueryCall {
            called,
            physical_device: physical_device.as_raw(),
            // SAFETY: the app's pointers (this function's contract).
            info: unsafe { raw::read_sync_query_info(p_info, cmd.info_s_type, cmd.semaphore) },
            // SAFETY: as above; an output structure starts with sType and pNext, and only
            // those are read.
            output: unsafe {
                raw::read_struct(
                    p_properties.cast_const().cast::<vk::BaseOutStructure<'_>>(),
                    cmd.output_s_type,
                )
            }
            .map(|header| !header.p_next.is_null()),
        };
        let broken = evaluate(cmd, &call);
        if !broken.is_empty() && judge(cmd, &instance, &call, broken) == Decision::Skip {
            return;
        }
        let Some(next) = next(&instance.next) else {
            return;
        };
        // SAFETY: the app's own arguments, which passed the gate, to the next layer.
        unsafe { next(physical_device, p_info, p_properties) };
        down.went(());
    })
}

/// The cold path: the findings, reported, and the decision.
#[cold]
#[inline(never)]
fn judge(
    cmd: &SyncQueryCommand,
    instance: &InstanceState,
    call: &SyncQueryCall,
    broken: SyncQueryRules,
) -> Decision {
    let outcome = boundary::contain(call.called, || describe(cmd, call, broken));
    decide_for_instance(instance, call.called, &outcome)
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_physical_device_external_semaphore_properties(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    p_properties: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    // SAFETY: this function's contract.
    unsafe {
        run(
            "vkGetPhysicalDeviceExternalSemaphoreProperties",
            &SEMAPHORE,
            physical_device,
            p_info,
            p_properties,
            |next| next.get_physical_device_external_semaphore_properties,
        )
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_physical_device_external_semaphore_properties_khr(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    p_properties: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    // SAFETY: this function's contract.
    unsafe {
        run(
            "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
            &SEMAPHORE,
            physical_device,
            p_info,
            p_properties,
            |next| next.get_physical_device_external_semaphore_properties_khr,
        )
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_physical_device_external_fence_properties(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    p_properties: *mut vk::ExternalFenceProperties<'_>,
) {
    // SAFETY: this function's contract.
    unsafe {
        run(
            "vkGetPhysicalDeviceExternalFenceProperties",
            &FENCE,
            physical_device,
            p_info,
            p_properties,
            |next| next.get_physical_device_external_fence_properties,
        )
    }
}

/// # Safety
/// The app's arguments (the loader's contract).
pub unsafe extern "system" fn get_physical_device_external_fence_properties_khr(
    physical_device: vk::PhysicalDevice,
    p_info: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    p_properties: *mut vk::ExternalFenceProperties<'_>,
) {
    // SAFETY: this function's contract.
    unsafe {
        run(
            "vkGetPhysicalDeviceExternalFencePropertiesKHR",
            &FENCE,
            physical_device,
            p_info,
            p_properties,
            |next| next.get_physical_device_external_fence_properties_khr,
        )
    }
}

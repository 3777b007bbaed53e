//! Buffers and images, for exported and imported memory: their create infos are recorded (after
//! `vkCreateBuffer`/`vkCreateImage` succeeded), and memory bound to them
//! (`vkBind{Buffer,Image}Memory` and their `2` variants) is judged against them
//! (`rules::resources::bind_handle_types`, `rules::resources::resource_export`). Every call goes down as the app made
//! it.

use crate::boundary;
use crate::commands::record_after::call_down_and_record;
use crate::finding::{ObjectRef, Outcome};
use crate::pipeline::policy::{decide, Decision};
use crate::raw::{self, resources as read};
use crate::rules::common::describe_allocation;
use crate::rules::resources::bind_handle_types;
use crate::rules::resources::resource_export::{self, ResourceUse};
use crate::state::registry::DEVICES;
use crate::state::resources::driver_answers::ResourceQuery;
use crate::state::{
    DeviceState, ExternalMemorySupport, HandleTypeSupport, MemoryLookup, MemoryRecord,
};
use ash::vk::{self, Handle};
use std::sync::Arc;

/// The driver's answers for exporting or importing `types` (those valid on the device: others were reported
/// at allocation, and asking about them would be an invalid call of our own) for the resource
/// `query` asks about.
pub fn support_for(
    state: &DeviceState,
    query: &ResourceQuery,
    types: vk::ExternalMemoryHandleTypeFlags,
) -> ExternalMemorySupport {
    let mut support = ExternalMemorySupport::default();
    let mut rest = (types & state.facts.handle_types).as_raw();
    while rest != 0 {
        let bit = vk::ExternalMemoryHandleTypeFlags::from_raw(rest & rest.wrapping_neg());
        rest &= rest - 1;
        let answer = state
            .resources
            .answer(query, bit, || ask_driver(state, query, bit));
        support.set(bit, answer);
    }
    support
}

/// One query of the driver (through the next layer) about `bit` for `query`.
fn ask_driver(
    state: &DeviceState,
    query: &ResourceQuery,
    bit: vk::ExternalMemoryHandleTypeFlags,
) -> HandleTypeSupport {
    let queries = &state.queries;
    let unknown = HandleTypeSupport {
        result: vk::Result::SUCCESS,
        // Not asked: taken as supported for export and import, so nothing is reported.
        features: vk::ExternalMemoryFeatureFlags::from_raw(
            vk::ExternalMemoryFeatureFlags::EXPORTABLE.as_raw()
                | vk::ExternalMemoryFeatureFlags::IMPORTABLE.as_raw(),
        ),
        compatible: vk::ExternalMemoryHandleTypeFlags::from_raw(u32::MAX),
    };
    match query {
        ResourceQuery::Buffer(buffer) => {
            let Some(get) = queries.external_buffer else {
                return unknown;
            };
            let info = vk::PhysicalDeviceExternalBufferInfo::default()
                .flags(buffer.flags)
                .usage(buffer.usage)
                .handle_type(bit);
            let mut properties = vk::ExternalBufferProperties::default();
            // SAFETY: a live physical device, an input and an output structure of ours.
            unsafe { get(state.physical_device, &info, &mut properties) };
            let p = properties.external_memory_properties;
            HandleTypeSupport {
                result: vk::Result::SUCCESS,
                features: p.external_memory_features,
                compatible: p.compatible_handle_types,
            }
        }
        ResourceQuery::Image(image) => {
            let Some(get) = queries.image_format else {
                return unknown;
            };
            let mut external_info =
                vk::PhysicalDeviceExternalImageFormatInfo::default().handle_type(bit);
            let mut stencil = vk::ImageStencilUsageCreateInfo::default();
            let formats = image.view_formats.clone().unwrap_or_default();
            let mut format_list = vk::ImageFormatListCreateInfo::default().view_formats(&formats);
            let mut info = vk::PhysicalDeviceImageFormatInfo2::default()
                .format(image.format)
                .ty(image.image_type)
                .tiling(image.tiling)
                .usage(image.usage)
                .flags(image.flags)
                .push_next(&mut external_info);
            if let Some(usage) = image.stencil_usage {
                stencil.stencil_usage = usage;
                info = info.push_next(&mut stencil);
            }
            if image.view_formats.is_some() {
                info = info.push_next(&mut format_list);
            }
            let mut external = vk::ExternalImageFormatProperties::default();
            let mut properties = vk::ImageFormatProperties2::default().push_next(&mut external);
            // SAFETY: a live physical device, an input chain and an output chain of ours.
            let result = unsafe { get(state.physical_device, &info, &mut properties) };
            let p = external.external_memory_properties;
            HandleTypeSupport {
                result,
                features: p.external_memory_features,
                compatible: p.compatible_handle_types,
            }
        }
    }
}

/// How messages describe a resource's create info, as its export query holds it (flags none as
/// `0`).
pub(super) fn describe_resource(query: &ResourceQuery) -> String {
    fn flags(value: impl std::fmt::Debug, empty: bool) -> String {
        if empty {
            "0".to_owned()
        } else {
            format!("{value:?}")
        }
    }
    match query {
        ResourceQuery::Buffer(b) => format!(
            "flags {}, usage {}",
            flags(b.flags, b.flags.is_empty()),
            flags(b.usage, b.usage.is_empty())
        ),
        ResourceQuery::Image(i) => format!(
            "format {:?}, imageType {:?}, tiling {:?}, usage {}, flags {}",
            i.format,
            i.image_type,
            i.tiling,
            flags(i.usage, i.usage.is_empty()),
            flags(i.flags, i.flags.is_empty())
        ),
    }
}

/// The driver's query that answers `query`, by name.
pub(super) fn query_name(query: &ResourceQuery) -> &'static str {
    match query {
        ResourceQuery::Buffer(_) => "vkGetPhysicalDeviceExternalBufferProperties",
        ResourceQuery::Image(_) => "vkGetPhysicalDeviceImageFormatProperties2",
    }
}

/// Judges exported memory against the resource it is for (see `rules::resources::resource_export`).
/// `memory` is the handle (`None` at `vkAllocateMemory`, where the memory is not made yet) and
/// how messages describe it, which runs only when there is something to report.
pub fn judge(
    state: &DeviceState,
    command: &'static str,
    field: String,
    memory: (Option<u64>, impl FnOnce() -> String),
    export: vk::ExternalMemoryHandleTypeFlags,
    dedicated: bool,
    resource: (vk::ObjectType, u64, &ResourceQuery),
) -> Outcome {
    let (ty, handle, query) = resource;
    let (memory, memory_info) = memory;
    let support = support_for(state, query, export);
    let broken = resource_export::evaluate(&support, dedicated);
    if broken.is_empty() {
        return Outcome::default();
    }
    boundary::contain(command, || {
        resource_export::describe(
            &ResourceUse {
                command,
                field: field.clone(),
                device: state.handle(),
                memory,
                resource: ObjectRef { ty, handle },
                resource_info: describe_resource(query),
                query: query_name(query),
                memory_info: memory_info(),
                export,
                dedicated,
                support: &support,
            },
            broken,
        )
    })
}

/// The handle types the live buffer (`BUFFER`) or image (`IMAGE`) `handle` of the device was
/// created for, when the layer read its create info to the end.
fn resource_handle_types(
    state: &DeviceState,
    ty: vk::ObjectType,
    handle: u64,
) -> Option<vk::ExternalMemoryHandleTypeFlags> {
    if ty == vk::ObjectType::BUFFER {
        state.resources.buffer(handle)?.facts?.external
    } else {
        state.resources.image(handle)?.facts?.external
    }
}

/// The handle types of exported or imported memory against those of the resource it is bound to
/// (`rules::resources::bind_handle_types`).
fn judge_handle_types(
    state: &DeviceState,
    command: &'static str,
    field: &str,
    (ty, resource): (vk::ObjectType, u64),
    record: &MemoryRecord,
) -> Outcome {
    let Some(resource_types) = resource_handle_types(state, ty, resource) else {
        return Outcome::default(); // Not a resource of the device the layer knows in full.
    };
    let export = record.export().unwrap_or_default();
    let import = record.import_operation();
    let broken = bind_handle_types::evaluate(export, import, resource_types);
    if broken.is_empty() {
        return Outcome::default();
    }
    boundary::contain(command, || {
        bind_handle_types::describe(
            &bind_handle_types::Binding {
                command,
                field: field.to_owned(),
                device: state.handle(),
                memory: record.memory,
                memory_info: describe_allocation(record),
                export,
                import,
                resource: ObjectRef {
                    ty,
                    handle: resource,
                },
                resource_types,
            },
            broken,
        )
    })
}

/// Judges each binding of exported or imported live memory of the device: its handle types
/// against the resource's, and for exported, not dedicated memory, what the driver says of the
/// export for a tracked resource of type `ty`; reports; whether the call goes down.
fn judge_bindings(
    state: &DeviceState,
    command: &'static str,
    ty: vk::ObjectType,
    bindings: &[(String, read::Binding)],
) -> bool {
    let mut outcome = Outcome::default();
    for (field, (resource, memory)) in bindings {
        let MemoryLookup::Live(record) = crate::state::lookup::lookup_memory(state, *memory) else {
            continue; // Not this layer's rule (memory-parameter is the Khronos layer's).
        };
        if !record.is_shared() {
            continue; // Neither exported nor imported: nothing to judge.
        }
        let found = judge_handle_types(state, command, field, (ty, *resource), &record);
        outcome.findings.extend(found.findings);
        let Some(export) = record.export().filter(|t| !t.is_empty()) else {
            continue;
        };
        if record.facts().dedicated {
            continue; // Judged at vkAllocateMemory, against the resource it is dedicated to.
        }
        let Some(query) = state.resources.export_query(ty, *resource) else {
            continue;
        };
        let found = judge(
            state,
            command,
            field.clone(),
            (Some(*memory), || describe_allocation(&record)),
            export,
            false,
            (ty, *resource, &query),
        );
        outcome.findings.extend(found.findings);
    }
    decide(state, command, &outcome) == Decision::CallDown
}

fn device_state(device: vk::Device) -> Option<Arc<DeviceState>> {
    DEVICES.get(device.as_raw())
}

/// The body of `vkDestroyBuffer` and `vkDestroyImage`: the resource (and its debug name) is
/// forgotten, then the call goes down.
fn forget_and_destroy(
    command: &'static str,
    device: vk::Device,
    ty: vk::ObjectType,
    handle: u64,
    call_down: impl FnOnce(&DeviceState),
) {
    boundary::ffi_down(command, (), |down| {
        let Some(state) = device_state(device) else {
            return;
        };
        state.resources.remove(ty, handle);
        state.names.remove(&(ty, handle));
        if ty == vk::ObjectType::IMAGE {
            state.memories.forget_unbound_image(Some(handle));
        }
        call_down(&state);
        down.went(());
    })
}

/// The body of the bind commands: each binding judged, reported, and the call goes down as the
/// app made it unless the app's callback asked to skip it. `count` is how many bindings the
/// call makes (the layer may have read fewer: those it could not read are not judged).
fn judge_and_bind(
    command: &'static str,
    device: vk::Device,
    (ty, count): (vk::ObjectType, usize),
    bindings: impl FnOnce() -> Vec<(String, read::Binding)>,
    call_down: impl FnOnce(&DeviceState) -> Option<vk::Result>,
) -> vk::Result {
    boundary::ffi_down(command, vk::Result::ERROR_UNKNOWN, |down| {
        let Some(state) = device_state(device) else {
            return vk::Result::ERROR_DEVICE_LOST;
        };
        let bindings = bindings();
        if !judge_bindings(&state, command, ty, &bindings) {
            return Decision::SKIPPED_RESULT;
        }
        let Some(result) = call_down(&state) else {
            return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
        };
        let result = down.went(result);
        if ty == vk::ObjectType::IMAGE {
            images_bound(&state, &bindings, count);
        }
        result
    })
}

/// Images of `bindings` went down to be bound (whatever the driver answered: the layer only
/// keeps what it is sure of): their dedicated memory no longer waits for them.
fn images_bound(state: &DeviceState, bindings: &[(String, read::Binding)], count: usize) {
    let memories = &state.memories;
    if !memories.has_unbound_images() {
        return;
    }
    if bindings.len() != count {
        memories.forget_unbound_image(None);
        return;
    }
    for (_, (image, memory)) in bindings {
        memories.bound_image(*image, *memory);
    }
}

pub unsafe extern "system" fn create_buffer(
    device: vk::Device,
    p_create_info: *const vk::BufferCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_buffer: *mut vk::Buffer,
) -> vk::Result {
    call_down_and_record(
        "vkCreateBuffer",
        device,
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.create_buffer?(device, p_create_info, p_allocator, p_buffer) }),
        |state| {
            // SAFETY: the create info the driver just accepted; *p_buffer was written.
            let created = unsafe { read::read_buffer_create_info(p_create_info) };
            // SAFETY: as above.
            let Some(buffer) = (unsafe { raw::read_out(p_buffer) }) else {
                return;
            };
            state.resources.insert_buffer(buffer.as_raw(), created);
        },
    )
}

pub unsafe extern "system" fn create_image(
    device: vk::Device,
    p_create_info: *const vk::ImageCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_image: *mut vk::Image,
) -> vk::Result {
    call_down_and_record(
        "vkCreateImage",
        device,
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.create_image?(device, p_create_info, p_allocator, p_image) }),
        |state| {
            // SAFETY: the create info the driver just accepted; *p_image was written.
            let created = unsafe { read::read_image_create_info(p_create_info) };
            // SAFETY: as above.
            let Some(image) = (unsafe { raw::read_out(p_image) }) else {
                return;
            };
            state.resources.insert_image(image.as_raw(), created);
        },
    )
}

pub unsafe extern "system" fn destroy_buffer(
    device: vk::Device,
    buffer: vk::Buffer,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    let ty = vk::ObjectType::BUFFER;
    forget_and_destroy("vkDestroyBuffer", device, ty, buffer.as_raw(), |s| {
        if let Some(next) = s.next.destroy_buffer {
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            unsafe { next(device, buffer, p_allocator) }
        }
    })
}

pub unsafe extern "system" fn destroy_image(
    device: vk::Device,
    image: vk::Image,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    let ty = vk::ObjectType::IMAGE;
    forget_and_destroy("vkDestroyImage", device, ty, image.as_raw(), |s| {
        if let Some(next) = s.next.destroy_image {
            // SAFETY: the app's arguments, passed unchanged to the next layer.
            unsafe { next(device, image, p_allocator) }
        }
    })
}

pub unsafe extern "system" fn bind_buffer_memory(
    device: vk::Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    judge_and_bind(
        "vkBindBufferMemory",
        device,
        (vk::ObjectType::BUFFER, 1),
        || vec![("memory".to_owned(), (buffer.as_raw(), memory.as_raw()))],
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.bind_buffer_memory?(device, buffer, memory, offset) }),
    )
}

pub unsafe extern "system" fn bind_image_memory(
    device: vk::Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    judge_and_bind(
        "vkBindImageMemory",
        device,
        (vk::ObjectType::IMAGE, 1),
        || vec![("memory".to_owned(), (image.as_raw(), memory.as_raw()))],
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.bind_image_memory?(device, image, memory, offset) }),
    )
}

/// The bindings of a `2` command's array, each with its field path.
fn indexed(bindings: Vec<(usize, read::Binding)>) -> Vec<(String, read::Binding)> {
    bindings
        .into_iter()
        .map(|(i, b)| (format!("pBindInfos[{i}].memory"), b))
        .collect()
}

pub unsafe extern "system" fn bind_buffer_memory2(
    device: vk::Device,
    count: u32,
    p_bind_infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    judge_and_bind(
        "vkBindBufferMemory2",
        device,
        (vk::ObjectType::BUFFER, count as usize),
        || {
            let s_type = vk::StructureType::BIND_BUFFER_MEMORY_INFO;
            // SAFETY: the app's array of `count` structures, each read after its sType.
            indexed(unsafe {
                read::read_bind_infos(p_bind_infos, count, s_type, read::buffer_binding)
            })
        },
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.bind_buffer_memory2?(device, count, p_bind_infos) }),
    )
}

pub unsafe extern "system" fn bind_image_memory2(
    device: vk::Device,
    count: u32,
    p_bind_infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    judge_and_bind(
        "vkBindImageMemory2",
        device,
        (vk::ObjectType::IMAGE, count as usize),
        || {
            let s_type = vk::StructureType::BIND_IMAGE_MEMORY_INFO;
            // SAFETY: the app's array of `count` structures, each read after its sType.
            indexed(unsafe {
                read::read_bind_infos(p_bind_infos, count, s_type, read::image_binding)
            })
        },
        // SAFETY: the app's arguments, passed unchanged to the next layer.
        |s| Some(unsafe { s.next.bind_image_memory2?(device, count, p_bind_infos) }),
    )
}

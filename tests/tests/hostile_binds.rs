//! The bind matrix, end to end: the real loader, the layer and the project's test driver
//! (`tests/icd`). Memory exported (`VkExportMemoryAllocateInfo::handleTypes`: none, 0,
//! OPAQUE_FD, DMA_BUF, both, the Android hardware buffer type) and imported (nothing, an opaque
//! fd, an Android hardware buffer), bound to a buffer or image created with each of
//! `VkExternalMemory{Buffer,Image}CreateInfo::handleTypes` none, OPAQUE_FD, DMA_BUF, the Android
//! type and OPAQUE_FD | DMA_BUF, by each of `vkBindBufferMemory`, `vkBindBufferMemory2`,
//! `vkBindImageMemory` and `vkBindImageMemory2`. Each case must yield exactly the IDs the model
//! of the rules (`tests/model`, `expected_bind`) gives, the call going down once; every handle
//! type of the test driver is exportable and importable for every buffer and image, compatible
//! with every other and never dedicated-only, so no other bind-time rule speaks. See
//! docs/reliability.md.
//!
//! Not here: a DMA_BUF import (the test driver's DMA_BUF export is a memfd, which the layer
//! judges as no dma-buf: tests/tests/test_driver_fd.rs); the unknown sides (NULL, freed, foreign
//! memory or resources: other rules', not judged by these).

use ash::vk;
use exportcheck_tests::calls::Called;
use exportcheck_tests::hostile::{self, Expected, Matrix};
use exportcheck_tests::ids::BIND_BUFFER;
use exportcheck_tests::model::handle_type::{ANDROID_HARDWARE_BUFFER, DMA_BUF, OPAQUE_FD};
use exportcheck_tests::model::{expected_bind, Bind, Binding, Bound, BoundMemory, MemoryImport};
use exportcheck_tests::{Device, SIZE};
use std::ffi::{c_void, CStr};

const USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::TRANSFER_SRC;
const SAMPLED: vk::ImageUsageFlags = vk::ImageUsageFlags::SAMPLED;

fn flags(bits: u32) -> vk::ExternalMemoryHandleTypeFlags {
    vk::ExternalMemoryHandleTypeFlags::from_raw(bits)
}

/// How the memory of a case is imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Import {
    Nothing,
    OpaqueFd,
    AndroidHardwareBuffer,
}

/// Memory of the case, and the memory it was imported from (if any), both to free.
struct CaseMemory {
    memory: vk::DeviceMemory,
    source: Option<vk::DeviceMemory>,
}

/// `vkAllocateMemory` of `SIZE` bytes of type 0: exported as `export` (with a
/// `VkExportMemoryAllocateInfo`) and imported as `import` says, from fresh memory of the device.
fn allocate(dev: &Device, export: Option<u32>, import: Import) -> CaseMemory {
    let mut export_info = vk::ExportMemoryAllocateInfo::default();
    let mut fd_import = vk::ImportMemoryFdInfoKHR::default();
    let mut android_import = vk::ImportAndroidHardwareBufferInfoANDROID::default();
    let mut info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0);
    if let Some(types) = export {
        export_info = export_info.handle_types(flags(types));
        info = info.push_next(&mut export_info);
    }
    let source = match import {
        Import::Nothing => None,
        Import::OpaqueFd => {
            let source = dev.allocate(SIZE, Some(flags(OPAQUE_FD)));
            let (r, fd) = dev.get_fd(source, flags(OPAQUE_FD));
            assert_eq!(r, vk::Result::SUCCESS, "the opaque fd export");
            fd_import = fd_import.handle_type(flags(OPAQUE_FD)).fd(fd);
            info = info.push_next(&mut fd_import);
            Some(source)
        }
        Import::AndroidHardwareBuffer => {
            let source = dev.allocate(SIZE, Some(flags(ANDROID_HARDWARE_BUFFER)));
            let get = dev
                .android_hardware_buffer
                .expect("vkGetMemoryAndroidHardwareBufferANDROID is enabled");
            let get_info = vk::MemoryGetAndroidHardwareBufferInfoANDROID::default().memory(source);
            let mut buffer: *mut c_void = std::ptr::null_mut();
            // SAFETY: a live info structure and output pointer.
            let r = unsafe { get(dev.handle(), &get_info, &mut buffer) };
            assert_eq!(r, vk::Result::SUCCESS, "the Android hardware buffer export");
            android_import = android_import.buffer(buffer.cast());
            info = info.push_next(&mut android_import);
            Some(source)
        }
    };
    let memory = dev.allocate_with(&info).expect("the case's memory");
    CaseMemory { memory, source }
}

/// The driver's entry point of `bind` (its call counter).
fn counted(bind: Bind) -> &'static CStr {
    match bind {
        Bind::BufferMemory => c"vkBindBufferMemory",
        Bind::BufferMemory2 => c"vkBindBufferMemory2",
        Bind::ImageMemory => c"vkBindImageMemory",
        Bind::ImageMemory2 => c"vkBindImageMemory2",
    }
}

/// Binds `memory` to a fresh buffer or image of `resource_types` (none: made without the
/// structure) by `bind`; destroys the resource after.
fn bind_to_new_resource(
    dev: &Device,
    bind: Bind,
    resource_types: Option<u32>,
    memory: vk::DeviceMemory,
) -> Called {
    let result = if bind.is_image() {
        let image = match resource_types {
            Some(t) => dev.external_image(SAMPLED, flags(t)),
            None => dev.plain_image(SAMPLED),
        };
        let r = if bind.takes_infos() {
            dev.bind_images2(&[(image, memory)])
        } else {
            dev.bind_image(image, memory)
        };
        dev.destroy_image(image);
        r
    } else {
        let buffer = match resource_types {
            Some(t) => dev.external_buffer(USAGE, flags(t)),
            None => dev.plain_buffer(USAGE),
        };
        let r = if bind.takes_infos() {
            dev.bind_buffers2(&[(buffer, memory)])
        } else {
            dev.bind_buffer(buffer, memory)
        };
        dev.destroy_buffer(buffer);
        r
    };
    Called {
        result: Some(result),
        written: result == vk::Result::SUCCESS,
        output: 0,
    }
}

#[test]
fn bind_matrix() {
    let inst = hostile::instance();
    let dev = hostile::export_device(&inst);
    inst.messages();
    // The memory: each export alone, then imports with the exports a driver takes beside them.
    let exports = [
        None,
        Some(0),
        Some(OPAQUE_FD),
        Some(DMA_BUF),
        Some(OPAQUE_FD | DMA_BUF),
        Some(ANDROID_HARDWARE_BUFFER),
    ];
    let mut memories: Vec<(Option<u32>, Import)> =
        exports.iter().map(|&e| (e, Import::Nothing)).collect();
    for export in [None, Some(OPAQUE_FD), Some(DMA_BUF)] {
        memories.push((export, Import::OpaqueFd));
    }
    for export in [None, Some(OPAQUE_FD)] {
        memories.push((export, Import::AndroidHardwareBuffer));
    }
    let resources = [
        None,
        Some(OPAQUE_FD),
        Some(DMA_BUF),
        Some(ANDROID_HARDWARE_BUFFER),
        Some(OPAQUE_FD | DMA_BUF),
    ];
    let mut cases = 0;
    let mut reported = 0;
    for bind in Bind::ALL {
        let mut m = Matrix::new(&inst, bind.name(), counted(bind));
        for &(export, import) in &memories {
            for resource in resources {
                let made = allocate(&dev, export, import);
                inst.messages();
                let binding = Binding {
                    bind,
                    memory: Bound::Known(BoundMemory {
                        export,
                        import: match import {
                            Import::Nothing => MemoryImport::None,
                            Import::OpaqueFd => MemoryImport::Handle(OPAQUE_FD),
                            Import::AndroidHardwareBuffer => MemoryImport::AndroidHardwareBuffer,
                        },
                    }),
                    resource: Bound::Known(resource.unwrap_or(0)),
                };
                let model = expected_bind(&binding);
                reported += usize::from(!model.is_silent());
                let field = if bind.takes_infos() {
                    format!("{}(): pBindInfos[0].memory: ", bind.name())
                } else {
                    format!("{}(): memory: ", bind.name())
                };
                let expected =
                    Expected::from_model(model, Some(vk::Result::SUCCESS)).mentioning(field);
                m.case(
                    format!(
                        "memory {{ export: {export:?}, import: {import:?} }}, resource handleTypes {resource:?}"
                    ),
                    expected,
                    || bind_to_new_resource(&dev, bind, resource, made.memory),
                );
                dev.free(made.memory);
                if let Some(source) = made.source {
                    dev.free(source);
                }
            }
        }
        cases += m.finish();
    }
    assert_eq!(cases, 4 * 11 * 5);
    // Each rule in each form is reached, and most cases are silent.
    assert!(reported > 40 && reported < cases, "{reported} of {cases}");
}

/// An opaque-fd import followed in the chain by an import structure that imports nothing (a
/// `VkImportMemoryZirconHandleInfoFUCHSIA` of `handleType` 0, valid: "If handleType is not 0")
/// is still one import operation of OPAQUE_FD, and 02985 holds for a buffer without that type,
/// whatever the structures' order. (The layer once recorded the chain's last import structure's
/// type, 0 here, and said nothing.)
#[test]
fn an_fd_import_before_an_import_structure_that_imports_nothing_is_judged() {
    let inst = hostile::instance();
    let dev = hostile::export_device(&inst);
    let source = dev.allocate(SIZE, Some(flags(OPAQUE_FD)));
    let (r, fd) = dev.get_fd(source, flags(OPAQUE_FD));
    assert_eq!(r, vk::Result::SUCCESS);
    let mut nothing = vk::ImportMemoryZirconHandleInfoFUCHSIA::default();
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(flags(OPAQUE_FD))
        .fd(fd);
    // `push_next` prepends: the chain is the fd import, then the Zircon structure.
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE)
        .memory_type_index(0)
        .push_next(&mut nothing)
        .push_next(&mut import);
    let memory = dev.allocate_with(&info).expect("the import");
    assert!(inst.messages().is_empty(), "a valid chain");
    let binding = Binding {
        bind: Bind::BufferMemory,
        memory: Bound::Known(BoundMemory {
            export: None,
            import: MemoryImport::Handle(OPAQUE_FD),
        }),
        resource: Bound::Known(0),
    };
    let mut m = Matrix::new(&inst, BIND_BUFFER, c"vkBindBufferMemory");
    m.case(
        "an fd import, then a Zircon import structure of handleType 0",
        Expected::from_model(expected_bind(&binding), Some(vk::Result::SUCCESS)),
        || bind_to_new_resource(&dev, Bind::BufferMemory, None, memory),
    );
    m.finish();
    dev.free(memory);
    dev.free(source);
}

//! The instruction counts of the import paths and of the export and handle-property commands
//! added with the whole sharing surface (`instructions.rs` counts the first ones): each sets up
//! what its call needs on the test driver, then counts the call (`counted::count`).

use crate::counted::{count, ChildCounts, Op, ALLOCATION_SIZE};
use crate::model::Config;
use crate::sharing_ops::device_fn;
use crate::vkctx::Vk;
use ash::vk;
use std::ffi::CStr;

type Types = vk::ExternalMemoryHandleTypeFlags;

/// The command `name`, as the app gets it, or the operation is recorded as skipped.
pub(crate) fn command<F: Copy>(vk: &Vk, op: Op, name: &CStr, out: &mut ChildCounts) -> Option<F> {
    // SAFETY: every caller names the command whose PFN type `F` is.
    let f = unsafe { device_fn::<F>(vk, name) };
    if f.is_none() {
        let name = name.to_string_lossy();
        out.skipped
            .insert(op, format!("vkGetDeviceProcAddr({name}) returns NULL"));
    }
    f
}

/// Memory of the plain type exportable as `types`.
fn exportable(vk: &Vk, types: Types) -> Result<vk::DeviceMemory, String> {
    vk.allocate_exportable(types, ALLOCATION_SIZE)
        .map_err(|e| format!("vkAllocateMemory ({types:?}): {e:?}"))
}

/// Counts `op` (one of those this module knows).
pub fn count_op(
    vk: &Vk,
    config: Config,
    op: Op,
    n: u64,
    out: &mut ChildCounts,
) -> Result<(), String> {
    match op {
        Op::ExportAhb => {
            let name = c"vkGetMemoryAndroidHardwareBufferANDROID";
            let Some(f) = command(vk, op, name, out) else {
                return Ok(());
            };
            let memory = exportable(vk, Types::ANDROID_HARDWARE_BUFFER_ANDROID)?;
            let r = count(config, op, n, out, &mut || match vk.export_ahb(f, memory) {
                Ok(_) => vk::Result::SUCCESS,
                Err(e) => e,
            });
            vk.free(memory);
            r
        }
        Op::QueryAhbProperties => {
            let export = c"vkGetMemoryAndroidHardwareBufferANDROID";
            let query = c"vkGetAndroidHardwareBufferPropertiesANDROID";
            let (Some(e), Some(f)) = (command(vk, op, export, out), command(vk, op, query, out))
            else {
                return Ok(());
            };
            let memory = exportable(vk, Types::ANDROID_HARDWARE_BUFFER_ANDROID)?;
            let buffer = vk.export_ahb(e, memory).map_err(|e| format!("{e:?}"))?;
            let r = count(config, op, n, out, &mut || {
                vk.query_ahb_properties(f, buffer.cast_const())
            });
            vk.free(memory);
            r
        }
        Op::QueryWin32Properties => {
            let export = c"vkGetMemoryWin32HandleKHR";
            let query = c"vkGetMemoryWin32HandlePropertiesKHR";
            let (Some(e), Some(f)) = (command(vk, op, export, out), command(vk, op, query, out))
            else {
                return Ok(());
            };
            // A non-opaque handle type (VUID-vkGetMemoryWin32HandlePropertiesKHR-handleType-00666).
            let t = Types::D3D12_RESOURCE;
            let memory = exportable(vk, t)?;
            let handle = vk
                .export_win32_khr(e, memory, t)
                .map_err(|e| format!("{e:?}"))?;
            let r = count(config, op, n, out, &mut || {
                vk.query_win32_properties(f, t, handle)
            });
            vk.free(memory);
            r
        }
        Op::QueryZirconProperties => {
            let export = c"vkGetMemoryZirconHandleFUCHSIA";
            let query = c"vkGetMemoryZirconHandlePropertiesFUCHSIA";
            let (Some(e), Some(f)) = (command(vk, op, export, out), command(vk, op, query, out))
            else {
                return Ok(());
            };
            let memory = exportable(vk, Types::ZIRCON_VMO_FUCHSIA)?;
            let handle = vk
                .zircon_handle_of(e, memory)
                .map_err(|e| format!("{e:?}"))?;
            let r = count(config, op, n, out, &mut || {
                vk.query_zircon_properties(f, handle)
            });
            vk.free(memory);
            r
        }
        Op::ImportFd => {
            let memory = exportable(vk, Types::OPAQUE_FD)?;
            let r = count(config, op, n, out, &mut || {
                vk.export_import_free(memory, ALLOCATION_SIZE)
            });
            vk.free(memory);
            r
        }
        Op::ImportHostPointer => {
            // Host memory aligned to minImportedHostPointerAlignment, a multiple of it long
            // (VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749, -allocationSize-01745).
            let alignment = vk.min_imported_host_pointer_alignment();
            if !alignment.is_power_of_two() {
                return Err(format!("minImportedHostPointerAlignment is {alignment}"));
            }
            let size = ALLOCATION_SIZE.div_ceil(alignment) * alignment;
            let mut buffer = vec![0u8; (size + alignment) as usize];
            let offset = buffer.as_ptr().align_offset(alignment as usize);
            let pointer = buffer[offset..].as_mut_ptr().cast();
            // A memory type the driver says the pointer can be imported as
            // (VUID-VkMemoryAllocateInfo-memoryTypeIndex-01744), asked once, outside the count.
            let memory_type = vk.host_pointer_memory_type(pointer)?;
            let r = count(config, op, n, out, &mut || {
                vk.import_host_and_free(pointer, size, memory_type)
            });
            drop(buffer);
            r
        }
        _ => Err(format!("{op:?} is counted by instructions.rs")),
    }
}

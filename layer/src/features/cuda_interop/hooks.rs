//! The layer's side of the CUDA hook table (`exportcheck_cuda_abi::hooks::CudaHooks`): what the
//! interposer calls around each intercepted CUDA call. The hooks only observe: nothing here
//! changes an argument or a result, and no panic leaves them (`boundary`).
//!
//! Findings go through the layer's reporting: to the app's debug messengers when it has a Vulkan
//! instance, else with the settings of the environment and the settings file (stderr, the
//! process report and its journal, which the first hook call opens: a CUDA-only process of
//! `exportcheck run` is in the run's report too).

use crate::boundary;
use crate::features::cross_process::state as shared_exports;
use crate::features::cuda_interop::rules::{
    self, Mapped, MemoryImport, SemaphoreImport, VulkanSide,
};
use crate::features::cuda_interop::state::{self, MemoryImportRecord, Pending};
use crate::features::fd_ownership::rules::{self as fd_rules, Reimport};
use crate::features::fd_ownership::state::{self as consumed_fds, ImportKind, ImportedInto};
use crate::features::import_matching::hooks::{shared_export_of, shared_semaphore_export_of};
use crate::features::import_matching::state::opaque_exports::{self, ExportOrigin};
use crate::features::import_matching::state::semaphore_exports::{self, SemaphoreOrigin};
use crate::finding::{ObjectRef, Outcome};
use crate::raw;
use crate::report::{self, cuda_calls, cuda_calls::CudaCommand};
use crate::settings::{sources, Settings};
use crate::state::registry::DEVICES;
use crate::vuid;
use ash::vk;
use exportcheck_cuda_abi::hooks::{CudaDevice, CudaHooks, ReachedThrough, HOOKS_VERSION};
use exportcheck_cuda_abi::*;
use std::ffi::c_uint;
use std::sync::OnceLock;

/// The table `exportcheck_cuda_hooks` returns.
pub static HOOKS: CudaHooks = CudaHooks {
    version: HOOKS_VERSION,
    import_memory_before,
    import_memory_after,
    mapped_buffer,
    mapped_mipmapped_array,
    destroy_memory,
    import_semaphore_before,
    import_semaphore_after,
    signal_semaphores,
    wait_semaphores,
    destroy_semaphore,
};

/// The settings findings are reported with when the process has no Vulkan instance (the
/// environment's and the settings file's, as an instance without `VkLayerSettingsCreateInfoEXT`
/// would have): read at the first hook call, which also turns the process report on and opens the
/// shared exports directory if no instance did.
fn settings() -> &'static Settings {
    static SETTINGS: OnceLock<Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| {
        let env = sources::from_env(|name| std::env::var(name).ok());
        let file = sources::from_file(&sources::settings_file_path(
            std::env::var("VK_LAYER_SETTINGS_PATH").ok(),
        ));
        let (settings, _warnings) = Settings::resolve(&[env, file]);
        if let Some(dir) = &settings.shared_exports_dir {
            if !shared_exports::enabled() {
                let _ = shared_exports::configure(dir);
            }
        }
        report::process_report::enable(&settings);
        settings
    })
}

fn deliver(command: &'static str, outcome: &Outcome) {
    if !outcome.findings.is_empty() {
        boundary::contain_report(
            command,
            || report::report_process_wide(outcome, settings()),
            |internal| report::report_process_wide(internal, settings()),
        );
    }
}

/// Runs a hook's body: the process's settings first, then `body`'s findings reported; a panic
/// in the body becomes an internal-error finding, and none anywhere leaves the hook.
fn observe(command: CudaCommand, body: impl FnOnce() -> Outcome) {
    cuda_calls::count(command);
    let name = command.name();
    boundary::ffi(name, (), || {
        let _ = settings();
        let outcome = boundary::contain(name, body);
        deliver(name, &outcome);
    });
}

fn device_of(device: *const CudaDevice) -> Option<(i32, [u8; 16])> {
    // SAFETY: the interposer passes NULL or its own CudaDevice.
    let device = unsafe { raw::read_out(device) }?;
    (device.known == 1).then_some((device.ordinal, device.uuid.bytes))
}

/// The Vulkan memory export `fd` is (this process's, else one the shared directory records).
fn memory_export_of(command: &'static str, fd: i32) -> Option<ExportOrigin> {
    opaque_exports::origin_of(fd).or_else(|| {
        let report = |command: &'static str, outcome: &Outcome| deliver(command, outcome);
        shared_export_of(
            fd,
            vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
            command,
            &report,
        )
    })
}

/// The Vulkan semaphore export `fd` is (this process's, else one the shared directory records).
fn semaphore_export_of(command: &'static str, fd: i32) -> Option<SemaphoreOrigin> {
    semaphore_exports::origin_of(fd).or_else(|| {
        let report = |command: &'static str, outcome: &Outcome| deliver(command, outcome);
        shared_semaphore_export_of(fd, command, &report)
    })
}

/// A Vulkan object of this process as the messages name it: handle and debug name.
fn named(device: u64, object: ObjectRef) -> String {
    let name = DEVICES
        .get(device)
        .and_then(|d| d.name_of(object))
        .map(|n| format!(" \"{n}\""))
        .unwrap_or_default();
    format!(
        "{}{name}",
        crate::vk_names::handle(object.ty, object.handle)
    )
}

fn describe_memory(origin: &ExportOrigin) -> String {
    let dedicated = match origin.dedicated_to {
        Some((ty, handle)) => format!("dedicated to {}", crate::vk_names::handle(ty, handle)),
        None => "not dedicated".to_owned(),
    };
    let memory = ObjectRef::memory(origin.memory);
    match origin.exporter {
        None => format!(
            "{} of {} (allocationSize {}, {dedicated}), exported by vkGetMemoryFdKHR in this \
             process",
            named(origin.device, memory),
            crate::vk_names::handle(vk::ObjectType::DEVICE, origin.device),
            origin.size
        ),
        Some(e) => format!(
            "VkDeviceMemory {:#x} of VkDevice {:#x} (allocationSize {}, {dedicated}) in process \
             {} ({}), exported by its vkGetMemoryFdKHR",
            origin.memory,
            origin.device,
            origin.size,
            e.pid,
            e.name()
        ),
    }
}

fn describe_semaphore(origin: &SemaphoreOrigin) -> String {
    let kind = if origin.timeline {
        "timeline"
    } else {
        "binary"
    };
    let semaphore = ObjectRef {
        ty: vk::ObjectType::SEMAPHORE,
        handle: origin.semaphore,
    };
    match origin.process {
        None => format!(
            "{} ({kind}) of {}, exported by vkGetSemaphoreFdKHR in this process",
            named(origin.device, semaphore),
            crate::vk_names::handle(vk::ObjectType::DEVICE, origin.device)
        ),
        Some(e) => format!(
            "VkSemaphore {:#x} ({kind}) of VkDevice {:#x} in process {} ({}), exported by its \
             vkGetSemaphoreFdKHR",
            origin.semaphore,
            origin.device,
            e.pid,
            e.name()
        ),
    }
}

/// `EXPORTCHECK-cuda-fd-imported-twice`: `fd` an earlier successful import took.
fn consumed(command: &'static str, field: &'static str, fd: i32) -> Outcome {
    let Some((into, by)) = consumed_fds::imported_into(fd) else {
        return Outcome::default();
    };
    let at = Reimport {
        id: vuid::CUDA_FD_IMPORTED_TWICE,
        command,
        field: field.into(),
        object: None,
    };
    fd_rules::imported_twice(0, &at, fd, into, by)
}

unsafe extern "C" fn import_memory_before(
    desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
    device: *const CudaDevice,
    _through: ReachedThrough,
) -> u64 {
    let mut token = 0;
    observe(CudaCommand::ImportExternalMemory, || {
        // SAFETY: the app's pointer, NULL or a descriptor (CUDA reads it the same way).
        let Some(desc) = (unsafe { raw::read_out(desc) }) else {
            return Outcome::default();
        };
        if desc.type_ != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD {
            return Outcome::default();
        }
        // SAFETY: an OPAQUE_FD descriptor's handle is its fd.
        let fd = unsafe { desc.handle.fd };
        if fd < 0 {
            return Outcome::default();
        }
        let command = rules::IMPORT_MEMORY;
        let mut outcome = consumed(command, "memHandleDesc->handle.fd", fd);
        let reused = !outcome.findings.is_empty();
        let import = MemoryImport {
            fd,
            size: desc.size,
            flags: desc.flags,
            device: device_of(device),
        };
        let mut record = MemoryImportRecord {
            declared: desc.size,
            allocation: None,
            vulkan: None,
        };
        if let Some(origin) = memory_export_of(command, fd) {
            let vulkan = describe_memory(&origin);
            if origin.created_here {
                let side = VulkanSide { described: &vulkan };
                outcome
                    .findings
                    .extend(rules::memory_import(&import, &origin, &side));
                record.allocation = Some(origin.size);
            }
            record.vulkan = Some(vulkan);
        } else if let Some(semaphore) = semaphore_export_of(command, fd) {
            let exported = format!(
                "the OPAQUE_FD export of a semaphore, {}",
                describe_semaphore(&semaphore)
            );
            let field = "memHandleDesc->handle.fd";
            outcome.push(rules::wrong_kind(command, field, fd, "memory", &exported));
        }
        token = state::begin(Pending {
            fd,
            held: consumed_fds::before_import(fd),
            reused,
            memory: Some(record),
        });
        outcome
    });
    token
}

/// After a successful import of `fd` (what `pending` holds) into `handle`: the fd is the CUDA
/// driver's now. For an fd an earlier import had taken (`EXPORTCHECK-cuda-fd-imported-twice`,
/// said already), what became of the earlier import's number is that one misuse's consequence,
/// not another finding; the number is held again all the same, so that the earlier importer's
/// own close of it later closes nothing of the app's.
fn took_fd(pending: Pending, kind: ImportKind, handle: u64) {
    if let Some(held) = pending.held {
        let into = ImportedInto {
            device: 0,
            object: handle,
            kind,
        };
        let lost = consumed_fds::remember_replacing(pending.fd, held, into);
        if pending.reused {
            return;
        }
        let command = kind.command();
        deliver(command, &fd_rules::closed_after_import(0, command, &lost));
    }
}

/// After an import of `pending`'s fd failed. NVIDIA's driver closes an fd it refuses (measured:
/// driver 580, `CUDA_ERROR_UNKNOWN`): for an fd an earlier import had taken, whose number the
/// layer held, the number is held again, silently (the one misuse was reported already).
fn failed(pending: &Pending) {
    if pending.reused {
        consumed_fds::hold_again(pending.fd);
    }
}

unsafe extern "C" fn import_memory_after(
    token: u64,
    result: CUresult,
    ext_mem_out: *const CUexternalMemory,
) {
    boundary::ffi(rules::IMPORT_MEMORY, (), || {
        let Some(pending) = state::finish(token) else {
            return;
        };
        if result != CUDA_SUCCESS {
            failed(&pending);
            return;
        }
        // SAFETY: the app's output pointer, which CUDA has just written.
        let Some(handle) = (unsafe { raw::read_out(ext_mem_out) }) else {
            return;
        };
        let handle = handle as u64;
        if let Some(record) = pending.memory.clone() {
            state::memory_imported(handle, record);
        }
        took_fd(pending, ImportKind::CudaMemory, handle);
    });
}

fn judge_mapping(
    command: CudaCommand,
    field: &'static str,
    ext_mem: CUexternalMemory,
    offset: u64,
    size: u64,
) {
    observe(command, || {
        let Some(import) = state::memory_import(ext_mem as u64) else {
            return Outcome::default();
        };
        let mapped = Mapped {
            declared: import.declared,
            allocation: import.allocation,
        };
        let vulkan = import.vulkan.as_deref();
        let mut outcome = Outcome::default();
        if let Some(f) = rules::mapped_range(command.name(), field, offset, size, mapped, vulkan) {
            outcome.push(f);
        }
        outcome
    });
}

unsafe extern "C" fn mapped_buffer(
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC,
) {
    // SAFETY: the app's pointer, NULL or a descriptor.
    let desc = unsafe { raw::read_out(desc) };
    let (offset, size) = desc.map_or((0, 0), |d| (d.offset, d.size));
    let command = CudaCommand::ExternalMemoryGetMappedBuffer;
    if desc.is_none() {
        observe(command, Outcome::default);
        return;
    }
    judge_mapping(command, "bufferDesc->offset, size", ext_mem, offset, size);
}

unsafe extern "C" fn mapped_mipmapped_array(
    ext_mem: CUexternalMemory,
    desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
) {
    // SAFETY: the app's pointer, NULL or a descriptor.
    let desc = unsafe { raw::read_out(desc) };
    let command = CudaCommand::ExternalMemoryGetMappedMipmappedArray;
    match desc {
        Some(d) => judge_mapping(command, "mipmapDesc->offset", ext_mem, d.offset, 0),
        None => observe(command, Outcome::default),
    }
}

/// The import `handle` (of `kind`) is destroyed: the numbers of its fd the process closed since.
fn forget(kind: ImportKind, handle: u64) -> Outcome {
    let lost = consumed_fds::forget_object(ImportedInto {
        device: 0,
        object: handle,
        kind,
    });
    let command = match kind {
        ImportKind::CudaSemaphore => "cuDestroyExternalSemaphore",
        _ => "cuDestroyExternalMemory",
    };
    fd_rules::closed_after_import(0, command, &lost)
}

unsafe extern "C" fn destroy_memory(ext_mem: CUexternalMemory, result: CUresult) {
    observe(CudaCommand::DestroyExternalMemory, || {
        if result != CUDA_SUCCESS {
            return Outcome::default();
        }
        state::memory_destroyed(ext_mem as u64);
        forget(ImportKind::CudaMemory, ext_mem as u64)
    });
}

unsafe extern "C" fn import_semaphore_before(
    desc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
    device: *const CudaDevice,
    _through: ReachedThrough,
) -> u64 {
    let mut token = 0;
    observe(CudaCommand::ImportExternalSemaphore, || {
        // SAFETY: the app's pointer, NULL or a descriptor.
        let Some(desc) = (unsafe { raw::read_out(desc) }) else {
            return Outcome::default();
        };
        let timeline = match desc.type_ {
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD => false,
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD => true,
            _ => return Outcome::default(),
        };
        // SAFETY: an fd descriptor's handle is its fd.
        let fd = unsafe { desc.handle.fd };
        if fd < 0 {
            return Outcome::default();
        }
        let command = rules::IMPORT_SEMAPHORE;
        let field = "semHandleDesc->handle.fd";
        let mut outcome = consumed(command, field, fd);
        let reused = !outcome.findings.is_empty();
        let import = SemaphoreImport {
            fd,
            timeline,
            device: device_of(device),
        };
        if let Some(origin) = semaphore_export_of(command, fd) {
            let vulkan = describe_semaphore(&origin);
            let side = VulkanSide { described: &vulkan };
            outcome
                .findings
                .extend(rules::semaphore_import(&import, &origin, &side));
        } else if let Some(memory) = memory_export_of(command, fd) {
            let exported = format!(
                "the OPAQUE_FD export of memory, {}",
                describe_memory(&memory)
            );
            outcome.push(rules::wrong_kind(
                command,
                field,
                fd,
                "a semaphore",
                &exported,
            ));
        }
        token = state::begin(Pending {
            fd,
            held: consumed_fds::before_import(fd),
            reused,
            memory: None,
        });
        outcome
    });
    token
}

unsafe extern "C" fn import_semaphore_after(
    token: u64,
    result: CUresult,
    ext_sem_out: *const CUexternalSemaphore,
) {
    boundary::ffi(rules::IMPORT_SEMAPHORE, (), || {
        let Some(pending) = state::finish(token) else {
            return;
        };
        if result != CUDA_SUCCESS {
            failed(&pending);
            return;
        }
        // SAFETY: the app's output pointer, which CUDA has just written.
        if let Some(handle) = unsafe { raw::read_out(ext_sem_out) } {
            took_fd(pending, ImportKind::CudaSemaphore, handle as u64);
        }
    });
}

unsafe extern "C" fn signal_semaphores(
    _sems: *const CUexternalSemaphore,
    _params: *const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
    _count: c_uint,
) {
    observe(CudaCommand::SignalExternalSemaphoresAsync, Outcome::default);
}

unsafe extern "C" fn wait_semaphores(
    _sems: *const CUexternalSemaphore,
    _params: *const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
    _count: c_uint,
) {
    observe(CudaCommand::WaitExternalSemaphoresAsync, Outcome::default);
}

unsafe extern "C" fn destroy_semaphore(ext_sem: CUexternalSemaphore, result: CUresult) {
    observe(CudaCommand::DestroyExternalSemaphore, || {
        if result != CUDA_SUCCESS {
            return Outcome::default();
        }
        forget(ImportKind::CudaSemaphore, ext_sem as u64)
    });
}

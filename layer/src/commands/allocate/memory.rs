//! `vkAllocateMemory` and `vkFreeMemory`: they feed the memory map.

use crate::args::FdImport;
use crate::boundary;
use crate::commands::allocate::android_imports;
use crate::commands::allocate::dedicated;
use crate::commands::allocate::import_queries;
use crate::commands::allocate::import_support;
use crate::commands::allocate::memory_lifecycle::{self, Imported};
use crate::commands::resources;
use crate::fault_injection;
use crate::features::fd_leaks::hooks as fd_leaks;
use crate::features::import_matching::hooks as import_matching;
use crate::finding::Outcome;
use crate::pipeline::policy::{decide, reject_unknown_device, Decision};
use crate::raw::{self, AllocateInfoRead, ChainRead};
use crate::rules::allocate::alloc::{self, AllocateRules};
use crate::rules::allocate::alloc_count;
use crate::rules::import::import_handles;
use crate::state::lookup::lookup_dead_memory;
use crate::state::registry::{record_allocation, take_allocation};
use crate::state::this_thread::with_device;
use crate::state::{AllocationFacts, DeviceState, MemoryLookup, PackedAllocation};
use crate::vuid;
use ash::vk::{self, Handle};

const ALLOCATE: &str = "vkAllocateMemory";
const FREE: &str = "vkFreeMemory";

pub unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    boundary::ffi_down(ALLOCATE, vk::Result::ERROR_UNKNOWN, |down| {
        // 1. Validate.
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state, _memo| {
                let Some(state) = state else {
                    return reject_unknown_device(
                        ALLOCATE,
                        vuid::ALLOC_DEVICE_PARAM,
                        device.as_raw(),
                    );
                };
                // SAFETY: the app's argument; NULL, sType and the chain are checked while reading.
                let mut info = unsafe { raw::read_allocate_info(p_allocate_info) };
                if let AllocateInfoRead::Valid(facts, chain) = &mut info {
                    ask_whether_import_fd_is_open(chain);
                    if facts.size == 0 {
                        // SAFETY: the app's argument, which `read_allocate_info` has just read as
                        // valid.
                        chain.unread_sharing = unsafe { raw::has_unread_sharing(p_allocate_info) };
                    }
                }
                // The common call has nothing to report and is neither dedicated nor an import:
                // it skips the full check.
                let live = state.memories.live();
                let broken = alloc::evaluate_allocate(&state.facts, &info, p_memory.is_null())
                    .and(alloc_count::evaluate(&state.facts, live));
                let uncommon = match &info {
                    AllocateInfoRead::Valid(_, chain) => {
                        chain.dedicated_to.is_some()
                            | chain.dedicated_info.is_some()
                            | chain.import_fd.is_some()
                            | chain.handle_imports
                            | chain.host.imported
                    }
                    _ => false,
                };
                if (!broken.is_empty() || uncommon || fault_injection::injecting_panics())
                    && judge_allocate(state, &info, (broken, live), p_allocate_info)
                        == Decision::Skip
                {
                    return Decision::SKIPPED_RESULT;
                }
                let Some(next) = state.next.allocate_memory else {
                    return vk::Result::ERROR_INITIALIZATION_FAILED;
                };
                // Before the call: a successful import hands the fd to the driver, which may close it.
                let imported = match &info {
                    AllocateInfoRead::Valid(_, chain) if chain.import_fd.is_some() => {
                        before_fd_import(state, chain)
                    }
                    _ => Imported {
                        held: None,
                        file: None,
                    },
                };
                // 2. Call down. From here on, a panic returns the driver's result.
                // SAFETY: the app's arguments, as checked, passed to the next layer's own entry
                // point.
                let result =
                    down.went(unsafe { next(device, p_allocate_info, p_allocator, p_memory) });
                // 3. Record after success: the allocation first, so that a later free is known.
                if result == vk::Result::SUCCESS {
                    // SAFETY: NULL (nothing is read) or the handle the driver has just written.
                    let memory = unsafe { raw::read_out(p_memory) }.unwrap_or_default();
                    if let AllocateInfoRead::Valid(facts, chain) = &info {
                        let type_flags = state.facts.type_flags(facts.memory_type_index);
                        let mut allocation = PackedAllocation::pack(facts, type_flags);
                        if chain.import_operations == 1 {
                            allocation = with_import_operation(allocation, p_allocate_info);
                        }
                        let memory = memory.as_raw();
                        memory_lifecycle::allocated(
                            state,
                            memory,
                            allocation,
                            (facts, chain),
                            imported,
                        );
                    }
                    fault_injection::inject_panic(fault_injection::Site::After, ALLOCATE);
                }
                result
            },
        )
    })
}

/// Before an fd import goes down: the layer's hold of the open file description it hands over,
/// and what the leak check remembers of it.
#[cold]
#[inline(never)]
fn before_fd_import(state: &DeviceState, chain: &ChainRead) -> Imported {
    let fd = chain.import_fd.filter(FdImport::imports).map(|i| i.fd);
    Imported {
        held: import_matching::before_import(chain),
        file: fd_leaks::import_identity(state, fd),
    }
}

/// `allocation`, made by exactly one import operation, knowing its handle type for the bind rules
/// (`rules::resources::bind_handle_types`), when the recorded import structure (the chain's last
/// that defines an import, whatever the order: `raw::create_info::note_import`) is certainly the
/// one that defines it: one of a non-zero type other than an Android hardware
/// buffer's (a structure of type 0 defines no import); for that type, a
/// `VkImportAndroidHardwareBufferInfoANDROID` with a buffer (a second read of the chain: one with
/// a NULL buffer imports nothing, and another structure naming that type is no such import).
#[cold]
#[inline(never)]
fn with_import_operation(
    allocation: PackedAllocation,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
) -> PackedAllocation {
    let Some(handle_type) = allocation.facts().import.filter(|t| !t.is_empty()) else {
        return allocation;
    };
    if handle_type == vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID {
        // SAFETY: the app's argument, which `read_allocate_info` read as valid; the call has not
        // returned to the app yet.
        let handles = unsafe { raw::read_handle_imports(p_allocate_info) };
        if handles.android_buffer == 0 {
            return allocation;
        }
    }
    allocation.with_import_operation(handle_type)
}

/// The full check of a `vkAllocateMemory` call that breaks a rule of the structures' values or
/// is dedicated or an import: every check's findings gathered, reported together, and one
/// decision whether it goes down (a check that blocks the call hides no other's findings).
#[inline(never)]
fn judge_allocate(
    state: &DeviceState,
    info: &AllocateInfoRead,
    (broken, live): (AllocateRules, u64),
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
) -> Decision {
    let mut call = Outcome::default();
    if !broken.is_empty() || fault_injection::injecting_panics() {
        call = boundary::contain(ALLOCATE, || {
            let mut outcome = alloc::describe_allocate(&state.facts, info, broken);
            alloc_count::describe(&state.facts, live, broken.count(), &mut outcome);
            outcome
        });
        call.blocked |= alloc::blocks(broken);
    }
    if let AllocateInfoRead::Valid(facts, chain) = info {
        judge_dedicated_and_import(state, facts, chain, p_allocate_info, &mut call);
        judge_dedicated(state, facts, chain, &mut call);
    }
    if call.findings.is_empty() {
        return Decision::CallDown; // A valid import or dedicated allocation: the common case.
    }
    decide(state, ALLOCATE, &call)
}

/// The `VkMemoryDedicatedAllocateInfo` rules, the fd import checked against what the layer saw
/// (exports, consumed fds), the Win32, Zircon, Metal and Android import structures, and an
/// Android hardware buffer, host pointer or Zircon VMO import against the driver's answer for it,
/// a dedicated fd or Win32 import against its resource's import support: their findings added to
/// the call's.
fn judge_dedicated_and_import(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    call: &mut Outcome,
) {
    dedicated::check(state, facts, chain, p_allocate_info, call);
    import_matching::check_import(state, facts, chain, call);
    if chain.host.imported {
        import_queries::check_host(state, facts, chain, call);
    }
    if !chain.handle_imports {
        import_support::check(state, chain, None, call);
        return;
    }
    // SAFETY: the app's argument, which `read_allocate_info` has just read as valid.
    let handles = unsafe { raw::read_handle_imports(p_allocate_info) };
    let allocation = import_handles::Allocation::of(facts, chain.dedicated_info);
    let broken = import_handles::evaluate(&state.facts, &allocation, &handles);
    if !broken.is_empty() {
        call.absorb(boundary::contain(ALLOCATE, || {
            import_handles::describe(&state.facts, &allocation, &handles, broken)
        }));
    }
    if handles.android_buffer != 0 {
        android_imports::check(state, facts, chain, &handles, call);
    }
    if handles.zircon.is_some() {
        import_queries::check_zircon(state, facts, &handles, call);
    }
    import_support::check(state, chain, handles.win32, call);
    import_matching::check_global_share_import(state, facts, chain, &handles, call);
}

/// What the OS says of the fd an fd import names (one `fcntl`, only when the chain imports one):
/// the rules are pure and take it as an argument.
#[inline(always)]
fn ask_whether_import_fd_is_open(chain: &mut ChainRead) {
    if let Some(import) = chain.import_fd.as_mut().filter(|i| i.imports()) {
        import.open = crate::os::is_open(import.fd);
        if import.open == Some(true) {
            ask_what_the_file_is(import);
        }
    }
}

/// For an fd import of an open fd: whether its file is certainly no handle of its handle type
/// (`fstat`, `fstatfs`).
#[cold]
#[inline(never)]
fn ask_what_the_file_is(import: &mut crate::args::FdImport) {
    use crate::os::payload;
    let t = import.handle_type;
    import.not_of_type = if t == ash::vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT {
        payload::certainly_not_dma_buf(import.fd)
    } else if t == ash::vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD {
        payload::certainly_no_opaque_fd(import.fd)
    } else {
        None
    };
}

/// An exported allocation dedicated to a buffer or image is judged against that resource's
/// create info (`rules::resources::resource_export`): the findings added to the call's.
fn judge_dedicated(
    state: &DeviceState,
    facts: &AllocationFacts,
    chain: &ChainRead,
    call: &mut Outcome,
) {
    let (Some((ty, handle)), Some(export)) = (chain.dedicated_to, facts.export) else {
        return;
    };
    if export.is_empty() {
        return;
    }
    let Some(query) = state.resources.export_query(ty, handle) else {
        return;
    };
    let structure = if ty == vk::ObjectType::IMAGE {
        "image"
    } else {
        "buffer"
    };
    let outcome = resources::judge(
        state,
        ALLOCATE,
        "pAllocateInfo".to_owned(),
        (None, || {
            format!(
                "the allocation (allocationSize {}, memoryTypeIndex {}, dedicated to the \
                 {structure} of VkMemoryDedicatedAllocateInfo)",
                facts.size, facts.memory_type_index
            )
        }),
        export,
        true,
        (ty, handle, &query),
    );
    call.absorb(outcome);
}

pub unsafe extern "system" fn free_memory(
    device: vk::Device,
    memory: vk::DeviceMemory,
    p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    boundary::ffi_down(FREE, (), |down| {
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state, _memo| {
                let Some(state) = state else {
                    // vkFreeMemory returns nothing: the result is only for the commands that do.
                    let _ = reject_unknown_device(FREE, vuid::FREE_DEVICE_PARAM, device.as_raw());
                    return;
                };
                let handle = memory.as_raw();
                // Taken out of the map before the call goes down: the driver may hand the handle to
                // another thread's allocation as soon as it is freed.
                let taken = take_allocation(state, handle);
                // Freeing live memory of the device has nothing to report (`check_free`): only
                // other handles take the full check.
                if (taken.is_none() || fault_injection::injecting_panics())
                    && validate_free(state, handle, taken) == Decision::Skip
                {
                    if let Some(allocation) = taken {
                        record_allocation(state, handle, allocation); // Not freed after all.
                    }
                    return;
                }
                // Not `Option::map`: its closure is not inlined (26 instructions per free).
                #[allow(clippy::manual_map)]
                let freeing = match taken {
                    Some(allocation) => Some(memory_lifecycle::freeing(state, handle, allocation)),
                    None => None,
                };
                if let Some(next) = state.next.free_memory {
                    // SAFETY: the app's arguments, as checked, passed to the next layer's own
                    // entry point.
                    unsafe { next(device, memory, p_allocator) };
                    down.went(());
                }
                if let Some(freeing) = freeing {
                    memory_lifecycle::freed(state, freeing);
                }
            },
        )
    })
}

/// The full check of a `vkFreeMemory` call, its findings reported: whether it goes down.
#[inline(never)]
fn validate_free(state: &DeviceState, handle: u64, taken: Option<PackedAllocation>) -> Decision {
    let lookup = match taken {
        Some(allocation) => MemoryLookup::Live(allocation.record(handle, state.handle())),
        None => lookup_dead_memory(state, handle),
    };
    let outcome = boundary::contain(FREE, || alloc::check_free(&state.facts, handle, &lookup));
    decide(state, FREE, &outcome)
}

//! The sync side: the argument rules of the semaphore and fence export and import commands
//! (`vkGetSemaphoreFdKHR`, `vkGetSemaphoreWin32HandleKHR`, `vkGetSemaphoreZirconHandleFUCHSIA`,
//! `vkGetFenceFdKHR`, `vkGetFenceWin32HandleKHR`; `vkImportSemaphoreFdKHR`,
//! `vkImportSemaphoreWin32HandleKHR`, `vkImportSemaphoreZirconHandleFUCHSIA`,
//! `vkImportFenceFdKHR`, `vkImportFenceWin32HandleKHR`), judged against what the layer knows of
//! the semaphore or fence ([`SyncObject`]).
//!
//! Written, as the rest of the model, from the spec's text
//! (`validusage-sync-and-resources-sharing-1.4.360.json`, `vk.xml` for the bit values) and from
//! the catalog's notes (`vuids/catalog.json`, docs/checks.md), which say when the layer judges a
//! rule about the object's history: never from the layer's code. The same promises hold as for
//! memory: every rule a call breaks is reported, each once; a bad pointer or handle blocks the
//! call and hides what is behind it; so does an import the layer knows the driver cannot use
//! (03264, 03323, 03262, 03322, `EXPORTCHECK-fd-of-another-kind`). This file has the objects,
//! the commands and their structural rules; the exports' value rules are in `sync_exports.rs`,
//! the imports' in `sync_imports.rs`.
//!
//! What the model takes as facts, not as rules: what the layer could learn of the object by
//! following it (its create info, whether its current payload is certainly the created one or an
//! import, its signal state). Left out, because they need the driver or the device's history
//! beyond these facts and no argument shows them:
//!
//! - the export types of an imported payload against the driver's
//!   `exportFromImportedHandleTypes` (`-semaphore-01133`, `-01128`, `-04759`, `-fence-01455`,
//!   `-01450`): the layer asks the driver for them;
//! - an import into an object whose queue work has not completed (`-semaphore-01142`, `-04764`,
//!   `-fence-01463`, `-04448`): the layer asks the driver with `vkGetFenceStatus`;
//! - `-handleType-03254`'s second half (a signal that depends on a wait on a semaphore no signal
//!   was submitted for): it reads another semaphore's history;
//! - the fd handed to an earlier import (`EXPORTCHECK-fd-imported-twice`) and one closed after
//!   it: the process's file table.

use super::ids::*;
use super::{Expected, Info};

/// `VkExternalSemaphoreHandleTypeFlagBits` (vk.xml, `bitpos`).
pub mod semaphore_type {
    pub const OPAQUE_FD: u32 = 1 << 0;
    pub const OPAQUE_WIN32: u32 = 1 << 1;
    pub const OPAQUE_WIN32_KMT: u32 = 1 << 2;
    pub const D3D12_FENCE: u32 = 1 << 3;
    pub const SYNC_FD: u32 = 1 << 4;
    /// `SCI_SYNC_OBJ_BIT_NV`: Vulkan SC only, never a valid value in Vulkan.
    pub const SCI_SYNC_OBJ: u32 = 1 << 5;
    /// `VK_FUCHSIA_external_semaphore`.
    pub const ZIRCON_EVENT: u32 = 1 << 7;

    /// The bits of Vulkan 1.1 (no extension needed).
    pub const CORE: u32 = 0x1f;
    /// Every bit Vulkan defines.
    pub const DEFINED: u32 = CORE | ZIRCON_EVENT;
    /// What `vkGetSemaphoreFdKHR` exports and `vkImportSemaphoreFdKHR` imports (01136, 01143:
    /// "defined as a POSIX file descriptor handle").
    pub const FD: u32 = OPAQUE_FD | SYNC_FD;
    /// The types defined as NT handles (the compatibility table of "External Semaphore Handle
    /// Types") and as global share handles.
    pub const NT_HANDLE: u32 = OPAQUE_WIN32 | D3D12_FENCE;
    pub const WIN32: u32 = NT_HANDLE | OPAQUE_WIN32_KMT;
}

/// `VkExternalFenceHandleTypeFlagBits` (vk.xml, `bitpos`).
pub mod fence_type {
    pub const OPAQUE_FD: u32 = 1 << 0;
    pub const OPAQUE_WIN32: u32 = 1 << 1;
    pub const OPAQUE_WIN32_KMT: u32 = 1 << 2;
    pub const SYNC_FD: u32 = 1 << 3;
    /// `SCI_SYNC_OBJ_BIT_NV` and `SCI_SYNC_FENCE_BIT_NV`: Vulkan SC only.
    pub const SCI_SYNC: u32 = (1 << 4) | (1 << 5);

    /// Every bit Vulkan defines, all of Vulkan 1.1.
    pub const DEFINED: u32 = 0xf;
    pub const FD: u32 = OPAQUE_FD | SYNC_FD;
    pub const WIN32: u32 = OPAQUE_WIN32 | OPAQUE_WIN32_KMT;
}

/// `VK_SEMAPHORE_IMPORT_TEMPORARY_BIT` and `VK_FENCE_IMPORT_TEMPORARY_BIT`, the one import flag
/// of each.
pub const IMPORT_TEMPORARY: u32 = 1;

/// The sync extensions enabled on the device the call is made on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncDevice {
    pub khr_external_semaphore_fd: bool,
    pub khr_external_semaphore_win32: bool,
    pub fuchsia_external_semaphore: bool,
    pub khr_external_fence_fd: bool,
    pub khr_external_fence_win32: bool,
}

impl SyncDevice {
    /// Every sync extension enabled.
    pub const ALL: Self = Self {
        khr_external_semaphore_fd: true,
        khr_external_semaphore_win32: true,
        fuchsia_external_semaphore: true,
        khr_external_fence_fd: true,
        khr_external_fence_win32: true,
    };

    /// The handle types of `kind` valid on the device: the core ones, and `ZIRCON_EVENT` where
    /// the device enabled `VK_FUCHSIA_external_semaphore` (a bit of an extension the device was
    /// created without is not a valid value on it, as for memory).
    pub fn valid_types(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Semaphore if self.fuchsia_external_semaphore => semaphore_type::DEFINED,
            Kind::Semaphore => semaphore_type::CORE,
            Kind::Fence => fence_type::DEFINED,
        }
    }

    fn has_extension_of(&self, command: SyncCommand) -> bool {
        use SyncCommand::*;
        match command {
            GetSemaphoreFd | ImportSemaphoreFd => self.khr_external_semaphore_fd,
            GetSemaphoreWin32Handle | ImportSemaphoreWin32Handle => {
                self.khr_external_semaphore_win32
            }
            GetSemaphoreZirconHandle | ImportSemaphoreZirconHandle => {
                self.fuchsia_external_semaphore
            }
            GetFenceFd | ImportFenceFd => self.khr_external_fence_fd,
            GetFenceWin32Handle | ImportFenceWin32Handle => self.khr_external_fence_win32,
        }
    }
}

/// Semaphores or fences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Semaphore,
    Fence,
}

/// What the layer learned of a live semaphore or fence of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncFacts {
    /// The layer read the create info (`vkCreateSemaphore`, `vkCreateFence`). Without it, nothing
    /// it would have said is known: not the type, the flags, the export types, the payload.
    pub known: bool,
    /// `VkSemaphoreTypeCreateInfo::semaphoreType` is `VK_SEMAPHORE_TYPE_TIMELINE` (never, for a
    /// fence).
    pub timeline: bool,
    /// `VkSemaphoreCreateInfo::flags` (0 for a fence).
    pub create_flags: u32,
    /// `VkExportSemaphoreCreateInfo::handleTypes` or `VkExportFenceCreateInfo::handleTypes`, if
    /// the chain had one.
    pub export: Option<u32>,
    pub payload: Payload,
    pub signal: Signal,
    /// The NT handle types an earlier `vkGetSemaphoreWin32HandleKHR` / `vkGetFenceWin32HandleKHR`
    /// that succeeded exported from the created payload, each a type the object was created
    /// exportable as.
    pub nt_handles_exported: u32,
}

impl SyncFacts {
    /// A binary semaphore or a fence, created with `export` (`None`: without the export
    /// structure), never imported into, its signal state not known.
    pub fn created(export: Option<u32>) -> Self {
        Self {
            known: true,
            timeline: false,
            create_flags: 0,
            export,
            payload: Payload::Created,
            signal: Signal::NotKnown,
            nt_handles_exported: 0,
        }
    }

    /// The same, a timeline semaphore.
    pub fn timeline(export: Option<u32>) -> Self {
        Self {
            timeline: true,
            ..Self::created(export)
        }
    }
}

/// Which payload the object holds, as far as the layer is sure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Certainly the one it was created with (never imported into, or every temporary import
    /// restored since).
    Created,
    /// Certainly an imported one (a permanent import, or a temporary one not restored since).
    Imported(ImportedPayload),
    /// Not known: an import the layer cannot follow, a swapchain acquire, a failed call.
    NotKnown,
}

/// The import whose payload is the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportedPayload {
    pub handle_type: u32,
    pub temporary: bool,
    /// The handle types the exporter of the payload was created exportable as, where the layer
    /// matched the import to that export and the exporter's payload was its own then.
    pub exportable: Option<u32>,
}

/// The signal state, as far as the layer is sure of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Certainly unsignaled with no signal operation pending: since it was created (a fence:
    /// unsignaled), last reset or last exported as a sync file, no signal operation was
    /// submitted, and its payload was never shared by reference. Only an object the layer
    /// follows can be in this state: a binary semaphore created exportable or imported into; a
    /// fence whose create info it read, or imported into.
    NothingSubmitted,
    /// Anything else: signaled, a signal pending, a wait pending, shared, not followed.
    NotKnown,
}

/// What a semaphore or fence argument is, to the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncObject {
    Null,
    /// A value that is no object the layer has seen.
    Unknown,
    /// An object already destroyed.
    Destroyed,
    /// A live object of another device.
    OtherDevice,
    /// A live object of the device the call is made on.
    Live(SyncFacts),
}

/// The commands of the sync model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncCommand {
    GetSemaphoreFd,
    GetSemaphoreWin32Handle,
    GetSemaphoreZirconHandle,
    GetFenceFd,
    GetFenceWin32Handle,
    ImportSemaphoreFd,
    ImportSemaphoreWin32Handle,
    ImportSemaphoreZirconHandle,
    ImportFenceFd,
    ImportFenceWin32Handle,
}

/// The IDs of a sync command's structural rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncIds {
    pub device: &'static str,
    pub info: &'static str,
    /// The output pointer is NULL (`None`: an import, which has none).
    pub output: Option<&'static str>,
    pub s_type: &'static str,
    pub p_next: &'static str,
    /// The object is NULL, unknown or destroyed.
    pub object: &'static str,
    /// The object is another device's.
    pub object_parent: &'static str,
    /// `handleType` is not a valid value on the device (`None`: the structure's `handleType` is
    /// `noautovalidity`, and its own rule judges every value).
    pub handle_type: Option<&'static str>,
}

impl SyncCommand {
    pub const ALL: [SyncCommand; 10] = [
        SyncCommand::GetSemaphoreFd,
        SyncCommand::GetSemaphoreWin32Handle,
        SyncCommand::GetSemaphoreZirconHandle,
        SyncCommand::GetFenceFd,
        SyncCommand::GetFenceWin32Handle,
        SyncCommand::ImportSemaphoreFd,
        SyncCommand::ImportSemaphoreWin32Handle,
        SyncCommand::ImportSemaphoreZirconHandle,
        SyncCommand::ImportFenceFd,
        SyncCommand::ImportFenceWin32Handle,
    ];

    pub fn name(self) -> &'static str {
        use SyncCommand::*;
        match self {
            GetSemaphoreFd => GET_SEMAPHORE_FD,
            GetSemaphoreWin32Handle => GET_SEMAPHORE_WIN32_HANDLE,
            GetSemaphoreZirconHandle => GET_SEMAPHORE_ZIRCON_HANDLE,
            GetFenceFd => GET_FENCE_FD,
            GetFenceWin32Handle => GET_FENCE_WIN32,
            ImportSemaphoreFd => IMPORT_SEMAPHORE_FD,
            ImportSemaphoreWin32Handle => IMPORT_SEMAPHORE_WIN32,
            ImportSemaphoreZirconHandle => IMPORT_SEMAPHORE_ZIRCON,
            ImportFenceFd => IMPORT_FENCE_FD,
            ImportFenceWin32Handle => IMPORT_FENCE_WIN32,
        }
    }

    pub fn kind(self) -> Kind {
        use SyncCommand::*;
        match self {
            GetFenceFd | GetFenceWin32Handle | ImportFenceFd | ImportFenceWin32Handle => {
                Kind::Fence
            }
            _ => Kind::Semaphore,
        }
    }

    pub fn is_import(self) -> bool {
        use SyncCommand::*;
        matches!(
            self,
            ImportSemaphoreFd
                | ImportSemaphoreWin32Handle
                | ImportSemaphoreZirconHandle
                | ImportFenceFd
                | ImportFenceWin32Handle
        )
    }

    pub fn ids(self) -> SyncIds {
        use SyncCommand::*;
        let semaphore = |device, info, s_type, p_next, object, handle_type| SyncIds {
            device,
            info,
            output: None,
            s_type,
            p_next,
            object,
            object_parent: SEMAPHORE_OF_OTHER_DEVICE,
            handle_type,
        };
        let fence = |device, info, s_type, p_next, object, handle_type| SyncIds {
            object_parent: FENCE_OF_OTHER_DEVICE,
            ..semaphore(device, info, s_type, p_next, object, handle_type)
        };
        match self {
            GetSemaphoreFd => SyncIds {
                output: Some(SEM_FD_PFD_PARAM),
                ..semaphore(
                    SEM_FD_DEVICE_PARAM,
                    SEM_FD_INFO_PARAM,
                    SEM_FD_STYPE,
                    SEM_FD_PNEXT,
                    SEM_FD_SEMAPHORE_PARAM,
                    Some(SEM_FD_HANDLE_TYPE_PARAM),
                )
            },
            GetSemaphoreWin32Handle => SyncIds {
                output: Some(SEM_WIN32_PHANDLE_PARAM),
                ..semaphore(
                    SEM_WIN32_DEVICE_PARAM,
                    SEM_WIN32_INFO_PARAM,
                    SEM_WIN32_STYPE,
                    SEM_WIN32_PNEXT,
                    SEM_WIN32_SEMAPHORE_PARAM,
                    Some(SEM_WIN32_HANDLE_TYPE_PARAM),
                )
            },
            GetSemaphoreZirconHandle => SyncIds {
                output: Some(SEM_ZIRCON_PHANDLE_PARAM),
                ..semaphore(
                    SEM_ZIRCON_DEVICE_PARAM,
                    SEM_ZIRCON_INFO_PARAM,
                    SEM_ZIRCON_STYPE,
                    SEM_ZIRCON_PNEXT,
                    SEM_ZIRCON_SEMAPHORE_PARAM,
                    Some(SEM_ZIRCON_HANDLE_TYPE_PARAM),
                )
            },
            GetFenceFd => SyncIds {
                output: Some(FENCE_FD_PFD_PARAM),
                ..fence(
                    FENCE_FD_DEVICE_PARAM,
                    FENCE_FD_INFO_PARAM,
                    FENCE_FD_STYPE,
                    FENCE_FD_PNEXT,
                    FENCE_FD_FENCE_PARAM,
                    Some(FENCE_FD_HANDLE_TYPE_PARAM),
                )
            },
            GetFenceWin32Handle => SyncIds {
                output: Some(FENCE_WIN32_PHANDLE_PARAM),
                ..fence(
                    FENCE_WIN32_DEVICE_PARAM,
                    FENCE_WIN32_INFO_PARAM,
                    FENCE_WIN32_STYPE,
                    FENCE_WIN32_PNEXT,
                    FENCE_WIN32_FENCE_PARAM,
                    Some(FENCE_WIN32_HANDLE_TYPE_PARAM),
                )
            },
            ImportSemaphoreFd => semaphore(
                SEM_IMPORT_FD_DEVICE_PARAM,
                SEM_IMPORT_FD_INFO_PARAM,
                SEM_IMPORT_FD_STYPE,
                SEM_IMPORT_FD_PNEXT,
                SEM_IMPORT_FD_SEMAPHORE_PARAM,
                Some(SEM_IMPORT_FD_HANDLE_TYPE_PARAM),
            ),
            // VkImportSemaphoreWin32HandleInfoKHR::handleType is noautovalidity: 01140 judges
            // every value.
            ImportSemaphoreWin32Handle => semaphore(
                SEM_IMPORT_WIN32_DEVICE_PARAM,
                SEM_IMPORT_WIN32_INFO_PARAM,
                SEM_IMPORT_WIN32_STYPE,
                SEM_IMPORT_WIN32_PNEXT,
                SEM_IMPORT_WIN32_SEMAPHORE_PARAM,
                None,
            ),
            ImportSemaphoreZirconHandle => semaphore(
                SEM_IMPORT_ZIRCON_DEVICE_PARAM,
                SEM_IMPORT_ZIRCON_INFO_PARAM,
                SEM_IMPORT_ZIRCON_STYPE,
                SEM_IMPORT_ZIRCON_PNEXT,
                SEM_IMPORT_ZIRCON_SEMAPHORE_PARAM,
                Some(SEM_IMPORT_ZIRCON_HANDLE_TYPE_PARAM),
            ),
            ImportFenceFd => fence(
                FENCE_IMPORT_FD_DEVICE_PARAM,
                FENCE_IMPORT_FD_INFO_PARAM,
                FENCE_IMPORT_FD_STYPE,
                FENCE_IMPORT_FD_PNEXT,
                FENCE_IMPORT_FD_FENCE_PARAM,
                Some(FENCE_IMPORT_FD_HANDLE_TYPE_PARAM),
            ),
            // VkImportFenceWin32HandleInfoKHR has no handleType-parameter ID: 01457 judges
            // every value.
            ImportFenceWin32Handle => fence(
                FENCE_IMPORT_WIN32_DEVICE_PARAM,
                FENCE_IMPORT_WIN32_INFO_PARAM,
                FENCE_IMPORT_WIN32_STYPE,
                FENCE_IMPORT_WIN32_PNEXT,
                FENCE_IMPORT_WIN32_FENCE_PARAM,
                None,
            ),
        }
    }
}

/// The members of an export command's info structure (`Vk*Get*InfoKHR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncExportInfo {
    /// `pNext` is not NULL (no structure extends these).
    pub p_next: bool,
    pub object: SyncObject,
    pub handle_type: u32,
}

/// The members of an import command's info structure (`VkImport*InfoKHR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncImportInfo {
    /// `pNext` is not NULL (no structure extends these).
    pub p_next: bool,
    pub object: SyncObject,
    pub flags: u32,
    pub handle_type: u32,
    /// What the handle is, as far as the layer can tell.
    pub handle: ImportedHandle,
}

/// What the layer knows of an import's handle (fd, Win32 handle or name, Zircon handle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportedHandle {
    /// The export the layer matched the handle to (an opaque fd or a global share handle it saw
    /// exported from a semaphore or fence of the run), if any.
    pub exporter: Option<Exporter>,
    /// No own-kind export matched, and the layer knows the fd as another kind's export (a
    /// memory object's; a fence's imported into a semaphore, a semaphore's into a fence).
    pub another_kind: bool,
    /// `VkImport*Win32HandleInfoKHR::handle` is not NULL (Win32 imports only).
    pub win32_handle: bool,
    /// `VkImport*Win32HandleInfoKHR::name` is not NULL (Win32 imports only).
    pub win32_name: bool,
}

/// The semaphore or fence an imported handle was exported from, as the layer recorded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exporter {
    /// A timeline semaphore (never, for a fence).
    pub timeline: bool,
    /// Its `VkSemaphoreCreateInfo::flags` (0 for a fence).
    pub create_flags: u32,
    /// Whether its device has the importing device's `deviceUUID` and `driverUUID` (the external
    /// handle types compatibility table), where both are known.
    pub same_device_and_driver: Option<bool>,
}

/// One sync call's arguments, as the layer sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncCall {
    Export {
        command: SyncCommand,
        info: Info<SyncExportInfo>,
        output_null: bool,
    },
    Import {
        command: SyncCommand,
        info: Info<SyncImportInfo>,
    },
}

impl SyncCall {
    /// A valid export of `object` as `handle_type` but for what those two break.
    pub fn export(command: SyncCommand, object: SyncObject, handle_type: u32) -> Self {
        assert!(!command.is_import(), "{command:?} is an import");
        SyncCall::Export {
            command,
            info: Info::Valid(SyncExportInfo {
                p_next: false,
                object,
                handle_type,
            }),
            output_null: false,
        }
    }

    /// A valid import into `object` but for what the members break.
    pub fn import(
        command: SyncCommand,
        object: SyncObject,
        flags: u32,
        handle_type: u32,
        handle: ImportedHandle,
    ) -> Self {
        assert!(command.is_import(), "{command:?} is an export");
        SyncCall::Import {
            command,
            info: Info::Valid(SyncImportInfo {
                p_next: false,
                object,
                flags,
                handle_type,
                handle,
            }),
        }
    }

    pub fn command(&self) -> SyncCommand {
        match self {
            SyncCall::Export { command, .. } | SyncCall::Import { command, .. } => *command,
        }
    }
}

/// What `call` on `device` (a device the layer knows) must produce.
pub fn expected_sync(device: &SyncDevice, call: &SyncCall) -> Expected {
    let command = call.command();
    let ids = command.ids();
    let mut e = Expected::default();
    // EXPORTCHECK-extension-not-enabled: a command of an extension the device did not enable (a
    // pointer fetched from another device). A warning: the call goes on.
    if !device.has_extension_of(command) {
        e.push(EXTENSION_NOT_ENABLED);
    }
    if let SyncCall::Export {
        output_null: true, ..
    } = call
    {
        e.block(ids.output.expect("an export's output pointer"));
    }
    let (p_next, object) = match call {
        SyncCall::Export { info, .. } => match info {
            Info::Null => return blocked(e, ids.info),
            Info::WrongSType => return blocked(e, ids.s_type),
            Info::Valid(i) => (i.p_next, i.object),
        },
        SyncCall::Import { info, .. } => match info {
            Info::Null => return blocked(e, ids.info),
            Info::WrongSType => return blocked(e, ids.s_type),
            Info::Valid(i) => (i.p_next, i.object),
        },
    };
    // pNext-pNext: "pNext must be NULL". Reported; the call goes down.
    if p_next {
        e.push(ids.p_next);
    }
    let facts = match object {
        // -parameter: "must be a valid VkSemaphore (VkFence) handle"; the layer's own ID for
        // another device's. Nothing about the object is read then.
        SyncObject::Null | SyncObject::Unknown | SyncObject::Destroyed => {
            e.block(ids.object);
            None
        }
        SyncObject::OtherDevice => {
            e.block(ids.object_parent);
            None
        }
        SyncObject::Live(facts) => Some(facts),
    };
    match call {
        SyncCall::Export {
            info: Info::Valid(info),
            ..
        } => {
            if let Some(facts) = facts {
                super::sync_exports::export_rules(
                    command,
                    device,
                    &facts,
                    info.handle_type,
                    &mut e,
                );
            }
        }
        SyncCall::Import {
            info: Info::Valid(info),
            ..
        } => super::sync_imports::import_rules(command, device, facts.as_ref(), info, &mut e),
        _ => unreachable!("a valid info structure"),
    }
    e
}

/// A call on a `VkDevice` the layer does not know: its `device-parameter` ID alone, blocked.
pub fn unknown_device(command: SyncCommand) -> Expected {
    blocked(Expected::default(), command.ids().device)
}

fn blocked(mut e: Expected, id: &'static str) -> Expected {
    e.block(id);
    e
}

/// `-parameter` of a `handleType` that must name one handle type: "a valid
/// VkExternal{Semaphore,Fence}HandleTypeFlagBits value" (one bit, defined, valid on the device).
pub(crate) fn handle_type_value(
    command: SyncCommand,
    device: &SyncDevice,
    handle_type: u32,
    e: &mut Expected,
) {
    let valid = device.valid_types(command.kind());
    let one_valid_bit = handle_type.is_power_of_two() && handle_type & !valid == 0;
    if let Some(id) = command.ids().handle_type {
        if !one_valid_bit {
            e.push(id);
        }
    }
}

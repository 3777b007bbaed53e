//! The import structures of a `VkMemoryAllocateInfo` chain, for the `checks` target: one
//! arbitrary description, built into what the layer's walk of the chain reads (`ChainRead`'s
//! import fields, `HandleImports`) and into the model's `Imports`. No rule here: the number of
//! import operations is counted as the spec defines it (an import structure with a non-zero
//! `handleType`, a `VkImportAndroidHardwareBufferInfoANDROID` with a buffer), the fd's state as
//! the OS reports it (POSIX: a negative number is not open).

use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use exportcheck_spec_model::{self as model, FdImport, HostImport, MetalImport, Win32Import};
use layer::args::{self as args, HandleImports, HostPointerChain};

/// The import structures of one chain, each present or not.
#[derive(Arbitrary, Debug, Clone)]
pub struct ImportsIn {
    /// `VkImportMemoryFdInfoKHR`: `handleType`, `fd`, and whether the OS says `fd` is open
    /// (`None`: it cannot tell).
    pub fd: Option<(Bits, i32, Option<bool>)>,
    /// `VkImportMemoryWin32HandleInfoKHR`: `handleType`, `handle` and `name` not NULL.
    pub win32: Option<(Bits, bool, bool)>,
    /// `VkImportMemoryWin32HandleInfoNV`: `handleType`, `handle` not NULL.
    pub win32_nv: Option<(Bits, bool)>,
    /// `VkImportMemoryZirconHandleInfoFUCHSIA`: `handleType`, `handle`.
    pub zircon: Option<(Bits, u32)>,
    /// `VkImportMemoryMetalHandleInfoEXT`: `handleType`, `handle` not NULL.
    pub metal: Option<(Bits, bool)>,
    /// `VkImportAndroidHardwareBufferInfoANDROID`: whether `buffer` is not NULL.
    pub android: Option<bool>,
    /// `VkImportMemoryHostPointerInfoEXT`: `handleType`, `pHostPointer`.
    pub host: Option<(Bits, u64)>,
    /// The chain's `VkDedicatedAllocationMemoryAllocateInfoNV` names an image or a buffer.
    pub dedicated_nv: bool,
    /// The chain's `VkMemoryDedicatedAllocateInfo` names an image (else a buffer, when the
    /// allocation is dedicated).
    pub dedicated_image: bool,
    /// The device's `minImportedHostPointerAlignment` as the layer knows it: `1 << (a % 17)`.
    pub alignment: Option<u8>,
}

impl ImportsIn {
    pub fn alignment(&self) -> Option<u64> {
        self.alignment.map(|a| 1u64 << (a % 17))
    }

    /// The fd's state as the OS reports it.
    fn fd_open(fd: i32, open: Option<bool>) -> Option<bool> {
        if fd < 0 {
            Some(false)
        } else {
            open
        }
    }

    /// How many import operations the chain defines.
    pub fn operations(&self) -> u32 {
        let non_zero = |t: Option<u32>| u32::from(t.is_some_and(|t| t != 0));
        non_zero(self.fd.map(|f| f.0 .0))
            + non_zero(self.win32.map(|w| w.0 .0))
            + non_zero(self.win32_nv.map(|w| w.0 .0))
            + non_zero(self.zircon.map(|z| z.0 .0))
            + non_zero(self.metal.map(|m| m.0 .0))
            + non_zero(self.host.map(|h| h.0 .0))
            + u32::from(self.android == Some(true))
    }

    /// The structures of `vk_names::ALLOCATE_CHAIN` the chain's import structures are.
    pub fn structures(&self) -> u32 {
        use vk::StructureType as S;
        [
            (self.fd.is_some(), S::IMPORT_MEMORY_FD_INFO_KHR),
            (self.host.is_some(), S::IMPORT_MEMORY_HOST_POINTER_INFO_EXT),
            (self.win32.is_some(), S::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR),
            (
                self.zircon.is_some(),
                S::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA,
            ),
            (
                self.metal.is_some(),
                layer::vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
            ),
            (
                self.android.is_some(),
                S::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID,
            ),
            (
                self.dedicated_nv,
                S::DEDICATED_ALLOCATION_MEMORY_ALLOCATE_INFO_NV,
            ),
            (
                self.win32_nv.is_some(),
                S::IMPORT_MEMORY_WIN32_HANDLE_INFO_NV,
            ),
        ]
        .into_iter()
        .filter(|(present, _)| *present)
        .fold(0, |bits, (_, s_type)| {
            bits | layer::vk_names::allocate_chain_bit(s_type)
        })
    }

    /// The chain has a Win32 (KHR or NV), Zircon, Metal or Android import structure.
    pub fn has_handle_imports(&self) -> bool {
        self.win32.is_some()
            || self.win32_nv.is_some()
            || self.zircon.is_some()
            || self.metal.is_some()
            || self.android.is_some()
    }

    /// The layer's `ChainRead::import_fd`.
    pub fn layer_fd(&self) -> Option<args::FdImport> {
        self.fd.map(|(t, fd, open)| args::FdImport {
            handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(t.0),
            fd,
            open: Self::fd_open(fd, open),
            not_of_type: None,
        })
    }

    /// The layer's `ChainRead::host`; `dedicated`: a `VkMemoryDedicatedAllocateInfo` names an
    /// image or a buffer.
    pub fn layer_host(&self, dedicated: bool) -> HostPointerChain {
        let (handle_type, pointer) = self.host.map_or((0, 0), |(t, p)| (t.0, p));
        HostPointerChain {
            pointer,
            handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(handle_type),
            imported: self.host.is_some(),
            dedicated_khr: dedicated,
            dedicated_nv: self.dedicated_nv,
            capture_address: false,
        }
    }

    /// What the layer's second read of the chain finds (`raw::read_handle_imports`).
    pub fn layer_handles(&self) -> HandleImports {
        let flags = vk::ExternalMemoryHandleTypeFlags::from_raw;
        HandleImports {
            win32: self.win32.map(|(t, handle, name)| args::Win32Import {
                handle_type: flags(t.0),
                handle,
                name,
                handle_value: u64::from(handle) * 0x40,
            }),
            win32_nv: self
                .win32_nv
                .map(|(t, h)| (vk::ExternalMemoryHandleTypeFlagsNV::from_raw(t.0), h)),
            zircon: self.zircon.map(|(t, h)| (flags(t.0), h)),
            metal: self.metal.map(|(t, h)| (flags(t.0), h)),
            android: self.android.is_some(),
            android_buffer: if self.android == Some(true) { 0x50 } else { 0 },
        }
    }

    /// The same chain, for the model; `dedicated_image`: the allocation is dedicated to an
    /// image.
    pub fn to_model(&self, dedicated_image: bool) -> model::Imports {
        model::Imports {
            operations: self.operations(),
            fd: self.fd.map(|(t, fd, open)| FdImport {
                handle_type: t.0,
                fd,
                open: Self::fd_open(fd, open) != Some(false),
            }),
            win32: self.win32.map(|(t, handle, name)| Win32Import {
                handle_type: t.0,
                handle,
                name,
            }),
            win32_nv: self.win32_nv.map(|(t, h)| (t.0, h)),
            zircon: self.zircon.map(|(t, h)| (t.0, h)),
            metal: self.metal.map(|(t, handle)| MetalImport {
                handle_type: t.0,
                handle,
                dedicated_image,
            }),
            android: self.android.is_some(),
            host: self.host.map(|(t, pointer)| HostImport {
                handle_type: t.0,
                pointer,
                alignment: self.alignment(),
                dedicated_nv: self.dedicated_nv,
            }),
        }
    }
}

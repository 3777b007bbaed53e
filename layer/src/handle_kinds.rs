//! The external handle types of each kind of object the layer tracks the sharing of: memory
//! (`VkExternalMemoryHandleTypeFlagBits`), and the kinds the sync checks add, semaphores
//! (`VkExternalSemaphoreHandleTypeFlagBits`) and fences (`VkExternalFenceHandleTypeFlagBits`).
//! One trait, [`HandleKind`], gives each kind's bits with their names and the device extension
//! that adds each (the rest are core wherever the kind's sharing is), and, written once for every
//! kind, the valid mask, the bits a device may use, names for messages and why a value is
//! invalid. The tables are the registry's (`layer/tests/handle_kinds_registry.rs` compares them
//! with `vuids/registry/vk.xml`); bits only Vulkan SC defines are left out.

use ash::vk;
use std::fmt::Write;

/// One bit of a handle-type flags type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandleTypeBit {
    pub bit: u32,
    /// Its enumerant, as messages name it (`VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`).
    pub name: &'static str,
    /// The device extension that adds it; `None`: a core bit.
    pub extension: Option<&'static str>,
}

const fn core(bit: u32, name: &'static str) -> HandleTypeBit {
    HandleTypeBit {
        bit,
        name,
        extension: None,
    }
}

const fn of(bit: u32, name: &'static str, extension: &'static str) -> HandleTypeBit {
    HandleTypeBit {
        bit,
        name,
        extension: Some(extension),
    }
}

const fn mask(bits: &[HandleTypeBit], core_only: bool) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < bits.len() {
        if !core_only || bits[i].extension.is_none() {
            mask |= 1 << bits[i].bit;
        }
        i += 1;
    }
    mask
}

/// Names the set bits of `value` from `table` (bit, name), `|`-separated; unknown bits as hex;
/// `0` for none. Every flags type's names in messages are written by this.
pub fn name_bits<'a>(value: u32, table: impl IntoIterator<Item = (u32, &'a str)>) -> String {
    if value == 0 {
        return "0".to_owned();
    }
    let mut out = String::new();
    let mut unknown = value;
    for (bit, name) in table {
        if value & (1 << bit) != 0 {
            if !out.is_empty() {
                out.push('|');
            }
            out.push_str(name);
            unknown &= !(1 << bit);
        }
    }
    if unknown != 0 {
        if !out.is_empty() {
            out.push('|');
        }
        let _ = write!(out, "0x{unknown:x} (unknown bits)");
    }
    out
}

/// A kind of object whose payload an external handle carries.
pub trait HandleKind {
    /// The flags type of its handle types, as ash declares it.
    type Flags: Copy;
    /// The flag-bits type's name, as messages name it.
    const FLAG_BITS: &'static str;
    /// Every bit Vulkan defines, in bit order.
    const BITS: &'static [HandleTypeBit];

    /// The bits of `flags`.
    fn raw(flags: Self::Flags) -> u32;

    /// Every defined bit.
    const VALID: u32 = mask(Self::BITS, false);
    /// The bits valid without any extension of their own.
    const CORE: u32 = mask(Self::BITS, true);

    /// The bits valid on a device whose enabled extensions `enabled` says.
    fn valid_on(enabled: impl Fn(&str) -> bool) -> u32 {
        Self::BITS
            .iter()
            .filter(|b| match b.extension {
                Some(extension) => enabled(extension),
                None => true,
            })
            .fold(0, |all, b| all | 1 << b.bit)
    }

    /// The extension that adds the one bit `bit`, `None` for a core or undefined one.
    fn extension_of(bit: u32) -> Option<&'static str> {
        Self::BITS
            .iter()
            .find(|b| 1 << b.bit == bit)
            .and_then(|b| b.extension)
    }

    /// Names the set bits of `value`, `|`-separated, unknown bits as hex, `0` for none.
    fn names(value: u32) -> String {
        name_bits(value, Self::BITS.iter().map(|b| (b.bit, b.name)))
    }

    /// Says why `types` is not valid on a device whose valid bits are `valid`: the undefined
    /// bits, the defined ones whose extension was not enabled, and, for a value that must be one
    /// bit (`single`), 0 or more than one bit.
    fn invalid_reasons(types: u32, valid: u32, single: bool) -> String {
        let mut reasons = Vec::new();
        let undefined = types & !Self::VALID;
        if undefined != 0 {
            reasons.push(format!(
                "0x{undefined:x} is not a {} value",
                Self::FLAG_BITS
            ));
        }
        let mut rest = types & Self::VALID & !valid;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            reasons.push(format!(
                "{} belongs to {}, which the device was created without",
                Self::names(bit),
                Self::extension_of(bit).unwrap_or("an extension")
            ));
        }
        if single && types == 0 {
            reasons.push(format!("0 is no {} value", Self::FLAG_BITS));
        } else if single && types.count_ones() > 1 {
            reasons.push("it has more than one bit, and must be a single value".to_owned());
        }
        reasons.join("; ")
    }
}

/// `VkDeviceMemory`.
pub enum Memory {}

impl HandleKind for Memory {
    type Flags = vk::ExternalMemoryHandleTypeFlags;

    #[inline(always)]
    fn raw(flags: vk::ExternalMemoryHandleTypeFlags) -> u32 {
        flags.as_raw()
    }

    const FLAG_BITS: &'static str = "VkExternalMemoryHandleTypeFlagBits";
    const BITS: &'static [HandleTypeBit] = &[
        core(0, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT"),
        core(1, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT"),
        core(2, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT"),
        core(3, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_TEXTURE_BIT"),
        core(4, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_TEXTURE_KMT_BIT"),
        core(5, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP_BIT"),
        core(6, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE_BIT"),
        of(
            7,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT",
            "VK_EXT_external_memory_host",
        ),
        of(
            8,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT",
            "VK_EXT_external_memory_host",
        ),
        of(
            9,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT",
            "VK_EXT_external_memory_dma_buf",
        ),
        of(
            10,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID",
            "VK_ANDROID_external_memory_android_hardware_buffer",
        ),
        of(
            11,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA",
            "VK_FUCHSIA_external_memory",
        ),
        of(
            12,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_RDMA_ADDRESS_BIT_NV",
            "VK_NV_external_memory_rdma",
        ),
        of(
            14,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_SCREEN_BUFFER_BIT_QNX",
            "VK_QNX_external_memory_screen_buffer",
        ),
        of(
            15,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OH_NATIVE_BUFFER_BIT_OHOS",
            "VK_OHOS_external_memory",
        ),
        of(
            16,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLBUFFER_BIT_EXT",
            "VK_EXT_external_memory_metal",
        ),
        of(
            17,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLTEXTURE_BIT_EXT",
            "VK_EXT_external_memory_metal",
        ),
        of(
            18,
            "VK_EXTERNAL_MEMORY_HANDLE_TYPE_MTLHEAP_BIT_EXT",
            "VK_EXT_external_memory_metal",
        ),
    ];
}

/// `VkDeviceMemory` shared the `VK_NV_external_memory` way (`VkExternalMemoryHandleTypeFlagBitsNV`,
/// a flags type of its own: every bit comes with the NV extensions that use it).
pub enum MemoryNv {}

impl HandleKind for MemoryNv {
    type Flags = vk::ExternalMemoryHandleTypeFlagsNV;

    #[inline(always)]
    fn raw(flags: vk::ExternalMemoryHandleTypeFlagsNV) -> u32 {
        flags.as_raw()
    }

    const FLAG_BITS: &'static str = "VkExternalMemoryHandleTypeFlagBitsNV";
    const BITS: &'static [HandleTypeBit] = &[
        core(0, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT_NV"),
        core(1, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT_NV"),
        core(2, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_IMAGE_BIT_NV"),
        core(3, "VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_IMAGE_KMT_BIT_NV"),
    ];
}

/// `VkSemaphore`.
pub enum Semaphore {}

impl HandleKind for Semaphore {
    type Flags = vk::ExternalSemaphoreHandleTypeFlags;

    #[inline(always)]
    fn raw(flags: vk::ExternalSemaphoreHandleTypeFlags) -> u32 {
        flags.as_raw()
    }

    const FLAG_BITS: &'static str = "VkExternalSemaphoreHandleTypeFlagBits";
    const BITS: &'static [HandleTypeBit] = &[
        core(0, "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT"),
        core(1, "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT"),
        core(2, "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT"),
        core(3, "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE_BIT"),
        core(4, "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT"),
        of(
            7,
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA",
            "VK_FUCHSIA_external_semaphore",
        ),
    ];
}

/// `VkFence`.
pub enum Fence {}

impl HandleKind for Fence {
    type Flags = vk::ExternalFenceHandleTypeFlags;

    #[inline(always)]
    fn raw(flags: vk::ExternalFenceHandleTypeFlags) -> u32 {
        flags.as_raw()
    }

    const FLAG_BITS: &'static str = "VkExternalFenceHandleTypeFlagBits";
    const BITS: &'static [HandleTypeBit] = &[
        core(0, "VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT"),
        core(1, "VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_BIT"),
        core(2, "VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT"),
        core(3, "VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT"),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_names_checks_and_explains_its_bits() {
        assert_eq!(Memory::CORE, 0x7f);
        assert_eq!(Memory::VALID, 0x7_dfff);
        assert_eq!(
            Memory::valid_on(|e| e == "VK_EXT_external_memory_dma_buf"),
            0x7f | 1 << 9
        );
        assert_eq!(
            Semaphore::names(1 | 1 << 4 | 1 << 9),
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|\
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT|0x200 (unknown bits)"
        );
        assert_eq!(Fence::names(0), "0");
        assert_eq!(MemoryNv::VALID, 0xf);
        assert_eq!(
            Semaphore::invalid_reasons(1 << 7, Semaphore::CORE, true),
            "VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_ZIRCON_EVENT_BIT_FUCHSIA belongs to \
             VK_FUCHSIA_external_semaphore, which the device was created without"
        );
        assert_eq!(
            Fence::invalid_reasons(0, Fence::VALID, true),
            "0 is no VkExternalFenceHandleTypeFlagBits value"
        );
        assert_eq!(
            Fence::invalid_reasons(1 << 4 | 1, Fence::VALID, true),
            "0x10 is not a VkExternalFenceHandleTypeFlagBits value; it has more than one bit, \
             and must be a single value"
        );
    }
}

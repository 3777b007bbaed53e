//! The bind commands: `vkBindBufferMemory`, `vkBindBufferMemory2`, `vkBindImageMemory` and
//! `vkBindImageMemory2`, and the handle types of the memory bound against those the buffer or
//! image was created for. Written from the spec's text
//! (`validusage-sync-and-resources-sharing-1.4.360.json`) and docs/checks.md, as the rest of the
//! model; not from the layer.
//!
//! The spec's three rules, each in a `vkBind*Memory-memory-*` form (the `memory` parameter) and a
//! `VkBind*MemoryInfo-memory-*` form (each `pBindInfos[i]` of the `2` variants):
//!
//! - 02726 (buffers) / 02728 (images): "If the value of `VkExportMemoryAllocateInfo::handleTypes`
//!   used to allocate memory is not 0, it must include at least one of the handles set in
//!   `VkExternal{Buffer,Image}...CreateInfo::handleTypes` when [the resource] was created";
//! - 02985 / 02989: "If memory was allocated by a memory import operation, that is not
//!   `VkImportAndroidHardwareBufferInfoANDROID` with a non-NULL buffer value, the external handle
//!   type of the imported memory must also have been set in" the resource's handle types;
//! - 02986 / 02990: "If memory was allocated with the `VkImportAndroidHardwareBufferInfoANDROID`
//!   memory import operation with a non-NULL buffer value,
//!   `VK_EXTERNAL_MEMORY_HANDLE_TYPE_ANDROID_HARDWARE_BUFFER_BIT_ANDROID` must also have been set"
//!   there.
//!
//! A resource created without a `VkExternalMemory{Buffer,Image}CreateInfo` has no handle types
//! set (0). What docs/checks.md adds, modelled here:
//!
//! - judged only where the layer knows both sides: live memory of the device and a live buffer
//!   or image of the device whose create info it read to the end ([`Bound::Unknown`]: a NULL,
//!   freed, unknown or foreign handle is other rules');
//! - "the import's handle type is that of the allocation's one import operation": an allocation
//!   with two or more (itself `VUID-VkMemoryAllocateInfo-None-06657`) is not judged
//!   ([`MemoryImport::Several`]);
//! - a `VkImportAndroidHardwareBufferInfoANDROID` with a NULL buffer imports nothing.
//!
//! And where the allocation broke its own import rules, only what is certain is reported: an
//! import structure's `handleType` of several bits (`-parameter`) names no one handle type, so
//! 02985/02989 hold when none of its bits is the resource's (whichever was meant, it is not
//! set); an import structure other than the Android one naming the Android hardware buffer type
//! alone breaks its own type rule (`VkImportMemoryFdInfoKHR-handleType-00669`, `-00660`,
//! `-01748`, `-04771`, `-10410`), which the allocation already reported: it is no Android
//! hardware buffer import, what a driver made of it is unknown, and it is not judged here (the
//! layer does not either; a stricter reading would give 02985/02989 when the resource lacks the
//! Android type). The bind rules never block the call.

use super::handle_type::ANDROID_HARDWARE_BUFFER;
use super::ids::*;
use super::Expected;

/// The bind commands, in the order the layer's catalog lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bind {
    BufferMemory,
    BufferMemory2,
    ImageMemory,
    ImageMemory2,
}

/// The IDs of the three rules in one command's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindIds {
    /// 02726 / 02728: exported as none of the resource's handle types.
    pub export: &'static str,
    /// 02985 / 02989: imported as a type the resource lacks.
    pub import: &'static str,
    /// 02986 / 02990: an Android hardware buffer import, and the resource lacks its type.
    pub android: &'static str,
}

impl Bind {
    pub const ALL: [Bind; 4] = [
        Bind::BufferMemory,
        Bind::BufferMemory2,
        Bind::ImageMemory,
        Bind::ImageMemory2,
    ];

    /// The command's name, as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Bind::BufferMemory => BIND_BUFFER,
            Bind::BufferMemory2 => BIND_BUFFER2,
            Bind::ImageMemory => BIND_IMAGE,
            Bind::ImageMemory2 => BIND_IMAGE2,
        }
    }

    /// Whether it binds an image (else a buffer).
    pub fn is_image(self) -> bool {
        matches!(self, Bind::ImageMemory | Bind::ImageMemory2)
    }

    /// Whether it takes an array of `VkBind*MemoryInfo` (the `2` variants).
    pub fn takes_infos(self) -> bool {
        matches!(self, Bind::BufferMemory2 | Bind::ImageMemory2)
    }

    pub fn ids(self) -> BindIds {
        let ids = |export, import, android| BindIds {
            export,
            import,
            android,
        };
        match self {
            Bind::BufferMemory => ids(
                BIND_BUFFER_MEMORY_02726,
                BIND_BUFFER_MEMORY_02985,
                BIND_BUFFER_MEMORY_02986,
            ),
            Bind::BufferMemory2 => ids(
                BIND_BUFFER_INFO_02726,
                BIND_BUFFER_INFO_02985,
                BIND_BUFFER_INFO_02986,
            ),
            Bind::ImageMemory => ids(
                BIND_IMAGE_MEMORY_02728,
                BIND_IMAGE_MEMORY_02989,
                BIND_IMAGE_MEMORY_02990,
            ),
            Bind::ImageMemory2 => ids(
                BIND_IMAGE_INFO_02728,
                BIND_IMAGE_INFO_02989,
                BIND_IMAGE_INFO_02990,
            ),
        }
    }
}

/// The import operations of the chain the memory was allocated with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryImport {
    /// None: no import structure, or only ones that import nothing (a `handleType` of 0, a
    /// `VkImportAndroidHardwareBufferInfoANDROID` with a NULL buffer).
    None,
    /// One import structure other than the Android one, with this non-zero `handleType`.
    Handle(u32),
    /// One `VkImportAndroidHardwareBufferInfoANDROID` with a non-NULL buffer.
    AndroidHardwareBuffer,
    /// Two or more import operations (`VUID-VkMemoryAllocateInfo-None-06657`).
    Several,
}

/// What the memory bound was allocated with, as the bind rules ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundMemory {
    /// `VkExportMemoryAllocateInfo::handleTypes`, if the chain had one.
    pub export: Option<u32>,
    pub import: MemoryImport,
}

/// One side of a binding as the layer knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound<T> {
    /// Not a live object of the device whose creation the layer read to the end (NULL, freed,
    /// unknown, another device's).
    Unknown,
    Known(T),
}

/// One binding: a `vkBind*Memory` call, or one `pBindInfos[i]` of a `2` variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub bind: Bind,
    pub memory: Bound<BoundMemory>,
    /// `VkExternalMemory{Buffer,Image}CreateInfo::handleTypes` the resource was created with (0
    /// without that structure).
    pub resource: Bound<u32>,
}

/// What `binding` must produce (a call of a `2` variant: the union of its elements', each under
/// its own index).
pub fn expected_bind(binding: &Binding) -> Expected {
    let mut e = Expected::default();
    let (Bound::Known(memory), Bound::Known(resource)) = (binding.memory, binding.resource) else {
        return e;
    };
    let ids = binding.bind.ids();
    // 02726 / 02728: an export structure with handleTypes not 0 must share a bit with the
    // resource's.
    if memory.export.is_some_and(|t| t != 0 && t & resource == 0) {
        e.push(ids.export);
    }
    match memory.import {
        // 02985 / 02989: the imported type must be set in the resource's (every bit of an
        // invalid several-bit value missing: whichever was meant is not set). The Android type
        // alone named by another structure is no Android import, and breaks that structure's
        // type rule: not judged.
        MemoryImport::Handle(t) => {
            if t != 0 && t != ANDROID_HARDWARE_BUFFER && t & resource == 0 {
                e.push(ids.import);
            }
        }
        // 02986 / 02990.
        MemoryImport::AndroidHardwareBuffer => {
            if resource & ANDROID_HARDWARE_BUFFER == 0 {
                e.push(ids.android);
            }
        }
        MemoryImport::None | MemoryImport::Several => {}
    }
    e
}

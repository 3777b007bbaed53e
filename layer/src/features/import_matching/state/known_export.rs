//! An fd the layer knows as a Vulkan export, whatever the kind of object it came from: what an
//! import of another kind names when it takes it (a memory object's opaque fd imported into a
//! semaphore, a semaphore's into memory or a fence). The tables that know each kind are
//! `opaque_exports` (memory), `semaphore_exports` and `fence_exports`, and the shared directory
//! of the run (`features::cross_process`); `features::import_matching::hooks::export_of_another_kind`
//! asks them.

use super::opaque_exports::Exporter;
use ash::vk;

/// The kind of object an fd export came from, or an fd import goes into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Memory,
    Semaphore,
    Fence,
}

impl ExportKind {
    pub fn object_type(self) -> vk::ObjectType {
        match self {
            Self::Memory => vk::ObjectType::DEVICE_MEMORY,
            Self::Semaphore => vk::ObjectType::SEMAPHORE,
            Self::Fence => vk::ObjectType::FENCE,
        }
    }

    /// The command that exports it as an opaque fd.
    pub fn export_command(self) -> &'static str {
        match self {
            Self::Memory => "vkGetMemoryFdKHR",
            Self::Semaphore => "vkGetSemaphoreFdKHR",
            Self::Fence => "vkGetFenceFdKHR",
        }
    }

    /// Its payload, as a message says it: "memory", "a semaphore's payload".
    pub fn payload(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Semaphore => "a semaphore's payload",
            Self::Fence => "a fence's payload",
        }
    }
}

/// An opaque-fd export the layer knows an fd to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownExport {
    pub kind: ExportKind,
    /// The exporting device and object (that process's handles, when `process` is set).
    pub device: u64,
    pub object: u64,
    /// The process that exported it, when the layer learnt of the export from the shared
    /// directory.
    pub process: Option<Exporter>,
}

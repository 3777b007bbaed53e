//! One record per live `VkDeviceMemory`, inserted after `vkAllocateMemory` succeeded and removed
//! before `vkFreeMemory` goes down.

use ash::vk;

/// What `vkAllocateMemory` was given, read from `VkMemoryAllocateInfo` and its pNext chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocationFacts {
    pub size: vk::DeviceSize,
    pub memory_type_index: u32,
    /// `VkExportMemoryAllocateInfo::handleTypes`, or `None` when the chain had no such structure.
    pub export: Option<vk::ExternalMemoryHandleTypeFlags>,
    /// `VkExportMemoryAllocateInfoNV::handleTypes`, or `None` when absent.
    pub export_nv: Option<vk::ExternalMemoryHandleTypeFlagsNV>,
    /// The chain had a `VkExportMemoryWin32HandleInfoNV`.
    pub export_win32_nv: bool,
    /// The handle type imported from, when the chain had an import structure: the last
    /// structure's that defines an import operation, else the last one's (0, or an Android
    /// hardware buffer import without a buffer).
    pub import: Option<vk::ExternalMemoryHandleTypeFlags>,
    /// The chain had a `VkMemoryDedicatedAllocateInfo` (or the NV variant).
    pub dedicated: bool,
}

/// What the layer knows of a live `VkDeviceMemory`: its handle, its device, and what it was
/// allocated with, packed as the map stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryRecord {
    pub memory: u64,
    pub device: u64,
    pub allocation: PackedAllocation,
}

impl MemoryRecord {
    /// The record of `memory`, an allocation of `device` made with `facts` in a memory type with
    /// `type_flags`.
    pub fn new(
        memory: u64,
        device: u64,
        facts: &AllocationFacts,
        type_flags: vk::MemoryPropertyFlags,
    ) -> Self {
        Self {
            memory,
            device,
            allocation: PackedAllocation::pack(facts, type_flags),
        }
    }

    /// What `vkAllocateMemory` was given.
    pub fn facts(&self) -> AllocationFacts {
        self.allocation.facts()
    }

    /// `VkExportMemoryAllocateInfo::handleTypes`, or `None` without that structure.
    #[inline(always)]
    pub fn export(&self) -> Option<vk::ExternalMemoryHandleTypeFlags> {
        self.allocation.export()
    }

    /// `VkExportMemoryAllocateInfoNV::handleTypes`, or `None` without that structure.
    #[inline(always)]
    pub fn export_nv(&self) -> Option<vk::ExternalMemoryHandleTypeFlagsNV> {
        self.allocation.export_nv()
    }

    /// The handle type of the allocation's one import operation, when it is known
    /// ([`PackedAllocation::with_import_operation`]).
    #[inline(always)]
    pub fn import_operation(&self) -> Option<vk::ExternalMemoryHandleTypeFlags> {
        self.allocation.import_operation()
    }

    /// Whether the memory is exported or imported ([`PackedAllocation::is_shared`]).
    #[inline(always)]
    pub fn is_shared(&self) -> bool {
        self.allocation.is_shared()
    }

    /// Property flags of the allocation's memory type (empty if out of range).
    #[inline(always)]
    pub fn type_flags(&self) -> vk::MemoryPropertyFlags {
        self.allocation.type_flags
    }
}

/// What the memory map stores per live allocation: [`AllocationFacts`] and the type's property
/// flags in 32 bytes, inline in the map (no allocation of its own). The handle is the map's key
/// and the device the map's owner, so neither is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedAllocation {
    size: vk::DeviceSize,
    export: vk::ExternalMemoryHandleTypeFlags,
    export_nv: vk::ExternalMemoryHandleTypeFlagsNV,
    import: vk::ExternalMemoryHandleTypeFlags,
    type_flags: vk::MemoryPropertyFlags,
    memory_type_index: u32,
    bits: u8,
}

const HAS_EXPORT: u8 = 1;
const HAS_EXPORT_NV: u8 = 1 << 1;
const HAS_IMPORT: u8 = 1 << 2;
const EXPORT_WIN32_NV: u8 = 1 << 3;
const DEDICATED: u8 = 1 << 4;
/// `import` is the handle type of the allocation's one import operation
/// (`ChainRead::import_operation`).
const IMPORT_OPERATION: u8 = 1 << 5;
/// The record may hold [`RareMemoryFacts`](super::live_memory::RareMemoryFacts): readers look
/// them up only then (`LiveMemories::rare`).
const MAY_HAVE_RARE_FACTS: u8 = 1 << 6;

impl PackedAllocation {
    /// Nothing: what an empty memo slot holds.
    pub const EMPTY: Self = Self {
        size: 0,
        export: vk::ExternalMemoryHandleTypeFlags::empty(),
        export_nv: vk::ExternalMemoryHandleTypeFlagsNV::empty(),
        import: vk::ExternalMemoryHandleTypeFlags::empty(),
        type_flags: vk::MemoryPropertyFlags::empty(),
        memory_type_index: 0,
        bits: 0,
    };

    /// An allocation of `size` bytes and nothing else (for tests).
    #[cfg(test)]
    pub fn of_size(size: vk::DeviceSize) -> Self {
        let facts = AllocationFacts {
            size,
            ..Default::default()
        };
        Self::pack(&facts, vk::MemoryPropertyFlags::empty())
    }

    pub fn pack(facts: &AllocationFacts, type_flags: vk::MemoryPropertyFlags) -> Self {
        let bit = |set: bool, bit: u8| u8::from(set) * bit;
        Self {
            size: facts.size,
            export: facts.export.unwrap_or_default(),
            export_nv: facts.export_nv.unwrap_or_default(),
            import: facts.import.unwrap_or_default(),
            type_flags,
            memory_type_index: facts.memory_type_index,
            bits: bit(facts.export.is_some(), HAS_EXPORT)
                | bit(facts.export_nv.is_some(), HAS_EXPORT_NV)
                | bit(facts.import.is_some(), HAS_IMPORT)
                | bit(facts.export_win32_nv, EXPORT_WIN32_NV)
                | bit(facts.dedicated, DEDICATED),
        }
    }

    /// `VkExportMemoryAllocateInfo::handleTypes`, or `None` without that structure.
    #[inline(always)]
    pub fn export(&self) -> Option<vk::ExternalMemoryHandleTypeFlags> {
        (self.bits & HAS_EXPORT != 0).then_some(self.export)
    }

    /// `VkExportMemoryAllocateInfoNV::handleTypes`, or `None` without that structure.
    #[inline(always)]
    pub fn export_nv(&self) -> Option<vk::ExternalMemoryHandleTypeFlagsNV> {
        (self.bits & HAS_EXPORT_NV != 0).then_some(self.export_nv)
    }

    /// This, knowing the handle type of the allocation's one import operation. Kept only when it
    /// is the type of the import structure recorded (the last one of the chain).
    #[must_use]
    pub fn with_import_operation(mut self, handle_type: vk::ExternalMemoryHandleTypeFlags) -> Self {
        let kept = self.bits & HAS_IMPORT != 0 && handle_type == self.import;
        self.bits |= u8::from(kept) * IMPORT_OPERATION;
        self
    }

    /// Whether the record may hold rare facts (set when the first is recorded, never cleared).
    #[inline(always)]
    pub fn may_have_rare_facts(&self) -> bool {
        self.bits & MAY_HAVE_RARE_FACTS != 0
    }

    /// Marks the record as holding rare facts.
    pub(super) fn mark_rare_facts(&mut self) {
        self.bits |= MAY_HAVE_RARE_FACTS;
    }

    /// The handle type of the allocation's one import operation, when it is known.
    #[inline(always)]
    pub fn import_operation(&self) -> Option<vk::ExternalMemoryHandleTypeFlags> {
        (self.bits & IMPORT_OPERATION != 0).then_some(self.import)
    }

    /// Whether the memory is exported (`VkExportMemoryAllocateInfo::handleTypes` not 0) or
    /// imported by a known import operation: the one test a bind pays for memory that is neither.
    #[inline(always)]
    pub fn is_shared(&self) -> bool {
        (self.export.as_raw() | u32::from(self.bits & IMPORT_OPERATION)) != 0
    }

    /// The record of `memory`, an allocation of `device` made with this.
    #[inline(always)]
    pub fn record(self, memory: u64, device: u64) -> MemoryRecord {
        MemoryRecord {
            memory,
            device,
            allocation: self,
        }
    }

    /// What was packed.
    pub fn facts(&self) -> AllocationFacts {
        let has = |bit: u8| self.bits & bit != 0;
        AllocationFacts {
            size: self.size,
            memory_type_index: self.memory_type_index,
            export: has(HAS_EXPORT).then_some(self.export),
            export_nv: has(HAS_EXPORT_NV).then_some(self.export_nv),
            export_win32_nv: has(EXPORT_WIN32_NV),
            import: has(HAS_IMPORT).then_some(self.import),
            dedicated: has(DEDICATED),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_allocation_is_32_bytes_and_unpacks_to_what_was_packed() {
        assert_eq!(std::mem::size_of::<PackedAllocation>(), 32);
        let all = AllocationFacts {
            size: u64::MAX,
            memory_type_index: u32::MAX,
            export: Some(vk::ExternalMemoryHandleTypeFlags::from_raw(u32::MAX)),
            export_nv: Some(vk::ExternalMemoryHandleTypeFlagsNV::empty()),
            export_win32_nv: true,
            import: Some(vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT),
            dedicated: true,
        };
        for facts in [all, AllocationFacts::default()] {
            let flags = vk::MemoryPropertyFlags::RDMA_CAPABLE_NV;
            let record = MemoryRecord::new(0x10, 0x20, &facts, flags);
            assert_eq!(record.facts(), facts);
            assert_eq!(record.type_flags(), flags);
            assert_eq!(
                (record.export(), record.export_nv()),
                (facts.export, facts.export_nv)
            );
        }
    }

    #[test]
    fn the_import_operation_is_kept_only_when_it_is_the_recorded_import() {
        let fd = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        let flags = vk::MemoryPropertyFlags::empty();
        let imported = AllocationFacts {
            import: Some(fd),
            ..Default::default()
        };
        let packed = PackedAllocation::pack(&imported, flags);
        assert_eq!(packed.import_operation(), None);
        assert!(!packed.is_shared(), "not known as an import operation");
        let known = packed.with_import_operation(fd);
        assert_eq!(known.import_operation(), Some(fd));
        assert!(known.is_shared());
        assert_eq!(known.facts(), imported, "the facts are unchanged");
        // Another type than the structure recorded (two import structures): not kept.
        let host = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        assert_eq!(packed.with_import_operation(host).import_operation(), None);
        // No import structure at all: nothing to keep.
        let plain = PackedAllocation::pack(&AllocationFacts::default(), flags);
        assert_eq!(plain.with_import_operation(fd).import_operation(), None);
        assert!(!plain.is_shared());
        let exported = AllocationFacts {
            export: Some(fd),
            ..Default::default()
        };
        assert!(PackedAllocation::pack(&exported, flags).is_shared());
        let exports_nothing = AllocationFacts {
            export: Some(vk::ExternalMemoryHandleTypeFlags::empty()),
            ..Default::default()
        };
        assert!(!PackedAllocation::pack(&exports_nothing, flags).is_shared());
    }
}

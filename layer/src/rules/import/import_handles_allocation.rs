//! What the rules of the handle import structures (`import_handles.rs` and the files it calls,
//! `import_zircon`, `import_metal`) read besides the structures. Its own file so that those
//! files need not use `import_handles`, which uses them.

use crate::state::AllocationFacts;

/// What the rules read besides the import structures: the allocation's size and the image a
/// `VkMemoryDedicatedAllocateInfo` names (0 for none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocation {
    pub size: u64,
    pub dedicated_image: u64,
}

impl Allocation {
    /// From what the first read of the chain found.
    pub fn of(facts: &AllocationFacts, dedicated_info: Option<(u64, u64)>) -> Self {
        Self {
            size: facts.size,
            dedicated_image: dedicated_info.map_or(0, |(image, _)| image),
        }
    }
}

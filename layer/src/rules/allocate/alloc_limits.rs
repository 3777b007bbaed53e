//! `vkAllocateMemory` against the physical device's memory properties, as the driver reported them
//! to the layer at `vkCreateDevice`: the memory type exists
//! (`VUID-vkAllocateMemory-pAllocateInfo-01714`, which blocks the call: the driver would index
//! its memory types with it) and the allocation is no larger than that type's heap
//! (`VUID-vkAllocateMemory-pAllocateInfo-01713`). Nothing is judged when the layer could not ask.

use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::{AllocationFacts, DeviceFacts};
use crate::vuid;

rule_set! {
    /// The rules of the memory type and size at `vkAllocateMemory`.
    pub struct MemoryLimitsRules {
        /// `VUID-vkAllocateMemory-pAllocateInfo-01714`.
        NO_SUCH_TYPE,
        /// `VUID-vkAllocateMemory-pAllocateInfo-01713`.
        LARGER_THAN_HEAP,
    }
}

/// The rules of the memory type and size the allocation breaks.
#[inline(always)]
pub fn evaluate(device: &DeviceFacts, facts: &AllocationFacts) -> MemoryLimitsRules {
    let Some(types) = &device.memory_types else {
        return MemoryLimitsRules::NONE;
    };
    let memory_type = types.get(facts.memory_type_index as usize);
    MemoryLimitsRules::NONE
        .with(MemoryLimitsRules::NO_SUCH_TYPE, memory_type.is_none())
        .with(
            MemoryLimitsRules::LARGER_THAN_HEAP,
            memory_type.is_some_and(|t| facts.size > t.heap_size),
        )
}

/// The findings of the rules of [`evaluate`] in `broken`; `finding` makes one of
/// `vkAllocateMemory` (ID, field, message).
pub fn describe(
    device: &DeviceFacts,
    facts: &AllocationFacts,
    broken: MemoryLimitsRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let Some(types) = &device.memory_types else {
        return;
    };
    let index = facts.memory_type_index;
    if broken.has(MemoryLimitsRules::NO_SUCH_TYPE) {
        outcome.block(finding(
            vuid::ALLOC_TYPE_INDEX_01714,
            "pAllocateInfo->memoryTypeIndex",
            format!(
                "vkAllocateMemory(): pAllocateInfo->memoryTypeIndex is {index}, but the physical \
                 device has {} memory type(s) (VkPhysicalDeviceMemoryProperties::memoryTypeCount \
                 as vkGetPhysicalDeviceMemoryProperties returns it); it must be less. The call \
                 was not passed to the driver, which would index its memory types with it.",
                types.len()
            ),
        ));
    }
    if broken.has(MemoryLimitsRules::LARGER_THAN_HEAP) {
        let heap = types
            .get(index as usize)
            .map(|t| t.heap_size)
            .unwrap_or_default();
        outcome.push(finding(
            vuid::ALLOC_SIZE_01713,
            "pAllocateInfo->allocationSize",
            format!(
                "vkAllocateMemory(): pAllocateInfo->allocationSize is {}, larger than the heap of \
                 memory type {index} ({heap} bytes, VkMemoryHeap::size as \
                 vkGetPhysicalDeviceMemoryProperties returns it); it must be less than or equal \
                 to it.",
                facts.size
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::fd_device;

    fn ids(device: &DeviceFacts, memory_type_index: u32, size: u64) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size,
            memory_type_index,
            ..Default::default()
        };
        let mut outcome = Outcome::default();
        let finding = |id, field, message| Finding::new(id, "vkAllocateMemory", field, message);
        describe(
            device,
            &facts,
            evaluate(device, &facts),
            &finding,
            &mut outcome,
        );
        outcome.ids()
    }

    #[test]
    fn an_existing_type_within_its_heap_is_silent() {
        let device = fd_device();
        let heap = device.memory_types.clone().unwrap()[1].heap_size;
        assert!(ids(&device, 1, heap).is_empty());
        assert!(ids(&device, 0, 1).is_empty());
    }

    #[test]
    fn a_type_past_the_count_is_01714_alone_and_blocks() {
        let device = fd_device();
        let count = device.memory_types.as_ref().unwrap().len() as u32;
        assert_eq!(ids(&device, count, 1), [vuid::ALLOC_TYPE_INDEX_01714]);
        assert_eq!(
            ids(&device, u32::MAX, u64::MAX),
            [vuid::ALLOC_TYPE_INDEX_01714]
        );
        let facts = AllocationFacts {
            memory_type_index: count,
            ..Default::default()
        };
        assert!(evaluate(&device, &facts).has(MemoryLimitsRules::NO_SUCH_TYPE));
    }

    #[test]
    fn a_size_past_the_heap_is_01713() {
        let device = fd_device();
        let heap = device.memory_types.clone().unwrap()[1].heap_size;
        assert_eq!(ids(&device, 1, heap + 1), [vuid::ALLOC_SIZE_01713]);
    }

    #[test]
    fn nothing_is_judged_without_the_memory_properties() {
        let device = DeviceFacts {
            memory_types: None,
            ..fd_device()
        };
        assert!(ids(&device, 99, u64::MAX).is_empty());
    }
}

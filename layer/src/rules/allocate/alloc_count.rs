//! `VUID-vkAllocateMemory-maxMemoryAllocationCount-04101`: fewer than
//! `VkPhysicalDeviceLimits::maxMemoryAllocationCount` allocations are live on the device when
//! another is made. The count is the layer's own (`state::LiveMemories::live`: every allocation
//! that succeeded through the layer, less those freed), handed in by the command; the limit is
//! what `vkGetPhysicalDeviceProperties` returned to the layer at `vkCreateDevice` (nothing is
//! judged when the layer could not ask).

use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rule of the number of live allocations at `vkAllocateMemory`.
    pub struct AllocationCountRules {
        /// `VUID-vkAllocateMemory-maxMemoryAllocationCount-04101`.
        TOO_MANY,
    }
}

/// Whether `live` allocations leave no room for another on `device`.
#[inline(always)]
pub fn evaluate(device: &DeviceFacts, live: u64) -> AllocationCountRules {
    let full = device
        .max_memory_allocation_count
        .is_some_and(|limit| live >= u64::from(limit));
    AllocationCountRules::NONE.with(AllocationCountRules::TOO_MANY, full)
}

/// The finding of [`evaluate`]'s rule, when `broken` has it, into `outcome`.
#[cold]
pub fn describe(
    device: &DeviceFacts,
    live: u64,
    broken: AllocationCountRules,
    outcome: &mut Outcome,
) {
    if !broken.has(AllocationCountRules::TOO_MANY) {
        return;
    }
    let limit = device.max_memory_allocation_count.unwrap_or_default();
    outcome.push(
        Finding::new(
            vuid::ALLOC_MAX_COUNT_04101,
            "vkAllocateMemory",
            "device",
            format!(
                "vkAllocateMemory(): {live} device memory allocations are live on {} (allocated \
                 and not yet freed), and VkPhysicalDeviceLimits::maxMemoryAllocationCount is \
                 {limit}; another allocation needs fewer than {limit}.",
                vk_names::handle(vk::ObjectType::DEVICE, device.handle)
            ),
        )
        .with(ObjectRef::device(device.handle)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::fd_device;

    fn ids(device: &DeviceFacts, live: u64) -> Vec<&'static str> {
        let mut outcome = Outcome::default();
        describe(device, live, evaluate(device, live), &mut outcome);
        outcome.ids()
    }

    #[test]
    fn below_the_limit_is_silent_at_it_is_04101() {
        let device = DeviceFacts {
            max_memory_allocation_count: Some(3),
            ..fd_device()
        };
        assert!(ids(&device, 0).is_empty());
        assert!(ids(&device, 2).is_empty());
        assert_eq!(ids(&device, 3), [vuid::ALLOC_MAX_COUNT_04101]);
        assert_eq!(ids(&device, 4), [vuid::ALLOC_MAX_COUNT_04101]);
        let mut outcome = Outcome::default();
        describe(&device, 3, evaluate(&device, 3), &mut outcome);
        let message = &outcome.findings[0].message;
        assert!(
            message.contains("3 device memory allocations are live on VkDevice 0xd000"),
            "{message}"
        );
        assert!(
            message.contains("maxMemoryAllocationCount is 3"),
            "{message}"
        );
    }

    #[test]
    fn an_unknown_limit_is_not_judged() {
        let device = DeviceFacts {
            max_memory_allocation_count: None,
            ..fd_device()
        };
        assert!(ids(&device, u64::MAX).is_empty());
    }
}

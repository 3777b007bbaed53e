//! `vkAllocateMemory` against what the device was created with: the features that
//! `VkMemoryAllocateFlagsInfo::flags` needs (`VUID-VkMemoryAllocateInfo-flags-03330`,
//! `-flags-03331`), the features a memory type needs (`protectedMemory` for a `PROTECTED` type,
//! `VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872`; `deviceCoherentMemory` for a
//! `DEVICE_COHERENT_AMD` type, `VUID-vkAllocateMemory-deviceCoherentMemory-02790`;
//! `tileMemoryHeap` for a type of a `TILE_MEMORY_QCOM` heap,
//! `VUID-vkAllocateMemory-tileMemoryHeap-10976`) and at least one queue
//! (`VUID-vkAllocateMemory-device-queuecount`). Features are read from `VkDeviceCreateInfo`'s
//! chain at `vkCreateDevice` (`state::EnabledFeatures`); memory types from what the driver
//! returned to the layer (a type the layer does not know is not judged: 01714 says so).

use crate::args::ChainRead;
use crate::finding::{Finding, Outcome};
use crate::rules::rule_set::rule_set;
use crate::state::{AllocationFacts, DeviceFacts, MemoryTypeFacts};
use crate::vk_ext;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of the features and queues the device was created with, at `vkAllocateMemory`.
    pub struct FeatureRules {
        /// `VUID-VkMemoryAllocateInfo-flags-03330`.
        CAPTURE_REPLAY_FEATURE,
        /// `VUID-VkMemoryAllocateInfo-flags-03331`.
        DEVICE_ADDRESS_FEATURE,
        /// `VUID-VkMemoryAllocateInfo-memoryTypeIndex-01872`.
        PROTECTED_FEATURE,
        /// `VUID-vkAllocateMemory-deviceCoherentMemory-02790`.
        DEVICE_COHERENT_FEATURE,
        /// `VUID-vkAllocateMemory-tileMemoryHeap-10976`.
        TILE_MEMORY_FEATURE,
        /// `VUID-vkAllocateMemory-device-queuecount`.
        NO_QUEUES,
    }
}

const FLAGS_FIELD: &str = "pAllocateInfo->pNext<VkMemoryAllocateFlagsInfo>.flags";

/// The memory property flags that need a feature.
const TYPES_WITH_FEATURES: vk::MemoryPropertyFlags = vk::MemoryPropertyFlags::from_raw(
    vk::MemoryPropertyFlags::PROTECTED.as_raw()
        | vk::MemoryPropertyFlags::DEVICE_COHERENT_AMD.as_raw(),
);

/// The rules of the device's features and queues the allocation breaks. The common allocation
/// (no address flags, an ordinary memory type, a device with queues) takes three tests.
#[inline(always)]
pub fn evaluate(device: &DeviceFacts, facts: &AllocationFacts, chain: &ChainRead) -> FeatureRules {
    let mut broken =
        FeatureRules::NONE.with(FeatureRules::NO_QUEUES, device.queue_create_info_count == 0);
    if !chain.allocate_flags.is_empty() {
        broken = broken.and(evaluate_flags(device, chain.allocate_flags));
    }
    if let Some(memory_type) = device.memory_type(facts.memory_type_index) {
        if memory_type.flags.intersects(TYPES_WITH_FEATURES)
            | memory_type
                .heap_flags
                .contains(vk_ext::MEMORY_HEAP_TILE_MEMORY_QCOM)
        {
            broken = broken.and(evaluate_type(device, memory_type));
        }
    }
    broken
}

/// The address flags' features (03330, 03331).
#[inline(never)]
fn evaluate_flags(device: &DeviceFacts, flags: vk::MemoryAllocateFlags) -> FeatureRules {
    let features = &device.features;
    FeatureRules::NONE
        .with(
            FeatureRules::CAPTURE_REPLAY_FEATURE,
            flags.contains(vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY)
                & !features.buffer_device_address_capture_replay,
        )
        .with(
            FeatureRules::DEVICE_ADDRESS_FEATURE,
            flags.contains(vk::MemoryAllocateFlags::DEVICE_ADDRESS)
                & !features.buffer_device_address,
        )
}

/// The memory type's features (01872, 02790, 10976), for a type that needs one.
#[inline(never)]
fn evaluate_type(device: &DeviceFacts, memory_type: &MemoryTypeFacts) -> FeatureRules {
    let features = &device.features;
    let type_has = |bit| memory_type.flags.contains(bit);
    FeatureRules::NONE
        .with(
            FeatureRules::PROTECTED_FEATURE,
            type_has(vk::MemoryPropertyFlags::PROTECTED) & !features.protected_memory,
        )
        .with(
            FeatureRules::DEVICE_COHERENT_FEATURE,
            type_has(vk::MemoryPropertyFlags::DEVICE_COHERENT_AMD)
                & !features.device_coherent_memory,
        )
        .with(
            FeatureRules::TILE_MEMORY_FEATURE,
            memory_type
                .heap_flags
                .contains(vk_ext::MEMORY_HEAP_TILE_MEMORY_QCOM)
                & !features.tile_memory_heap,
        )
}

/// The findings of the rules of [`evaluate`] in `broken`; `finding` makes one of
/// `vkAllocateMemory` (ID, field, message).
pub fn describe(
    device: &DeviceFacts,
    facts: &AllocationFacts,
    chain: &ChainRead,
    broken: FeatureRules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    if broken.is_empty() {
        return;
    }
    let device_name = vk_names::handle(vk::ObjectType::DEVICE, device.handle);
    let flags = || {
        format!(
            "vkAllocateMemory(): {FLAGS_FIELD} is {}",
            vk_names::memory_allocate_flags(chain.allocate_flags)
        )
    };
    if broken.has(FeatureRules::CAPTURE_REPLAY_FEATURE) {
        outcome.push(finding(
            vuid::ALLOC_FLAGS_03330,
            FLAGS_FIELD,
            format!(
                "{}, which includes VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT, but the \
                 bufferDeviceAddressCaptureReplay feature was not enabled when {device_name} was \
                 created (VkPhysicalDeviceVulkan12Features or \
                 VkPhysicalDeviceBufferDeviceAddressFeatures::bufferDeviceAddressCaptureReplay).",
                flags()
            ),
        ));
    }
    if broken.has(FeatureRules::DEVICE_ADDRESS_FEATURE) {
        outcome.push(finding(
            vuid::ALLOC_FLAGS_03331,
            FLAGS_FIELD,
            format!(
                "{}, which includes VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, but the \
                 bufferDeviceAddress feature was not enabled when {device_name} was created \
                 (VkPhysicalDeviceVulkan12Features or \
                 VkPhysicalDeviceBufferDeviceAddressFeatures::bufferDeviceAddress).",
                flags()
            ),
        ));
    }
    let index = facts.memory_type_index;
    let memory_type = device.memory_type(index).copied().unwrap_or_default();
    let type_feature = |id, property: &str, feature: &str, structures: &str| {
        finding(
            id,
            "pAllocateInfo->memoryTypeIndex",
            format!(
                "vkAllocateMemory(): pAllocateInfo->memoryTypeIndex is {index}, a memory type \
                 with {property} [{}], but the {feature} feature was not enabled when \
                 {device_name} was created ({structures}::{feature}).",
                vk_names::memory_properties(memory_type.flags)
            ),
        )
    };
    if broken.has(FeatureRules::PROTECTED_FEATURE) {
        outcome.push(type_feature(
            vuid::ALLOC_TYPE_INDEX_01872,
            "VK_MEMORY_PROPERTY_PROTECTED_BIT",
            "protectedMemory",
            "VkPhysicalDeviceVulkan11Features or VkPhysicalDeviceProtectedMemoryFeatures",
        ));
    }
    if broken.has(FeatureRules::DEVICE_COHERENT_FEATURE) {
        outcome.push(type_feature(
            vuid::ALLOC_DEVICE_COHERENT_02790,
            "VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD",
            "deviceCoherentMemory",
            "VkPhysicalDeviceCoherentMemoryFeaturesAMD",
        ));
    }
    if broken.has(FeatureRules::TILE_MEMORY_FEATURE) {
        outcome.push(type_feature(
            vuid::ALLOC_TILE_MEMORY_HEAP_10976,
            "a heap with VK_MEMORY_HEAP_TILE_MEMORY_BIT_QCOM",
            "tileMemoryHeap",
            "VkPhysicalDeviceTileMemoryHeapFeaturesQCOM",
        ));
    }
    if broken.has(FeatureRules::NO_QUEUES) {
        outcome.push(finding(
            vuid::ALLOC_DEVICE_QUEUECOUNT,
            "device",
            format!(
                "vkAllocateMemory(): device is {device_name}, which was created with \
                 VkDeviceCreateInfo::queueCreateInfoCount 0; memory can be allocated only on a \
                 device created with at least one queue."
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::fd_device;
    use crate::state::EnabledFeatures;

    fn ids(device: &DeviceFacts, index: u32, flags: vk::MemoryAllocateFlags) -> Vec<&'static str> {
        let facts = AllocationFacts {
            size: 64,
            memory_type_index: index,
            ..Default::default()
        };
        let chain = ChainRead {
            allocate_flags: flags,
            ..ChainRead::COMPLETE
        };
        let mut outcome = Outcome::default();
        let finding = |id, field, message| Finding::new(id, "vkAllocateMemory", field, message);
        let broken = evaluate(device, &facts, &chain);
        describe(device, &facts, &chain, broken, &finding, &mut outcome);
        assert_eq!(broken.len() as usize, outcome.findings.len());
        outcome.ids()
    }

    /// The fixture device with one more memory type (index 2) of `flags` in a heap of
    /// `heap_flags`.
    fn with_type(flags: vk::MemoryPropertyFlags, heap_flags: vk::MemoryHeapFlags) -> DeviceFacts {
        let mut device = fd_device();
        device.memory_types.as_mut().unwrap().push(MemoryTypeFacts {
            flags,
            heap_size: 1 << 30,
            heap_flags,
        });
        device
    }

    const NO_FLAGS: vk::MemoryAllocateFlags = vk::MemoryAllocateFlags::empty();

    #[test]
    fn address_flags_need_their_features() {
        let address = vk::MemoryAllocateFlags::DEVICE_ADDRESS;
        let replay = vk::MemoryAllocateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY;
        let mut device = fd_device();
        assert!(ids(&device, 0, NO_FLAGS).is_empty());
        assert!(ids(&device, 0, vk::MemoryAllocateFlags::DEVICE_MASK).is_empty());
        assert_eq!(ids(&device, 0, address), [vuid::ALLOC_FLAGS_03331]);
        assert_eq!(
            ids(&device, 0, address | replay),
            [vuid::ALLOC_FLAGS_03330, vuid::ALLOC_FLAGS_03331]
        );
        device.features.buffer_device_address = true;
        assert!(ids(&device, 0, address).is_empty());
        assert_eq!(ids(&device, 0, address | replay), [vuid::ALLOC_FLAGS_03330]);
        device.features.buffer_device_address_capture_replay = true;
        assert!(ids(&device, 0, address | replay).is_empty());
    }

    #[test]
    fn memory_types_need_their_features() {
        let none = vk::MemoryHeapFlags::empty();
        for (flags, heap_flags, id, enable) in [
            (
                vk::MemoryPropertyFlags::PROTECTED,
                none,
                vuid::ALLOC_TYPE_INDEX_01872,
                EnabledFeatures {
                    protected_memory: true,
                    ..Default::default()
                },
            ),
            (
                vk::MemoryPropertyFlags::DEVICE_COHERENT_AMD,
                none,
                vuid::ALLOC_DEVICE_COHERENT_02790,
                EnabledFeatures {
                    device_coherent_memory: true,
                    ..Default::default()
                },
            ),
            (
                vk::MemoryPropertyFlags::DEVICE_LOCAL,
                vk_ext::MEMORY_HEAP_TILE_MEMORY_QCOM,
                vuid::ALLOC_TILE_MEMORY_HEAP_10976,
                EnabledFeatures {
                    tile_memory_heap: true,
                    ..Default::default()
                },
            ),
        ] {
            let mut device = with_type(flags, heap_flags);
            assert_eq!(ids(&device, 2, NO_FLAGS), [id]);
            // Other types of the same device are silent.
            assert!(ids(&device, 0, NO_FLAGS).is_empty());
            device.features = enable;
            assert!(ids(&device, 2, NO_FLAGS).is_empty(), "{id}");
        }
    }

    #[test]
    fn unknown_types_and_memory_properties_are_not_judged() {
        let device = with_type(
            vk::MemoryPropertyFlags::PROTECTED | vk::MemoryPropertyFlags::DEVICE_COHERENT_AMD,
            vk_ext::MEMORY_HEAP_TILE_MEMORY_QCOM,
        );
        assert_eq!(ids(&device, 2, NO_FLAGS).len(), 3);
        assert!(ids(&device, 3, NO_FLAGS).is_empty());
        let unknown = DeviceFacts {
            memory_types: None,
            ..device
        };
        assert!(ids(&unknown, 2, NO_FLAGS).is_empty());
    }

    #[test]
    fn a_device_without_queues_is_queuecount() {
        let device = DeviceFacts {
            queue_create_info_count: 0,
            ..fd_device()
        };
        assert_eq!(ids(&device, 0, NO_FLAGS), [vuid::ALLOC_DEVICE_QUEUECOUNT]);
    }
}

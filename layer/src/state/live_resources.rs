//! Every live buffer and image of a device, whatever it was made for: the handles
//! `vkCreateBuffer`/`vkCreateImage` returned (recorded after the call succeeded) until
//! `vkDestroyBuffer`/`vkDestroyImage` (dropped before the call goes down), with what the
//! `VkMemoryDedicatedAllocateInfo` rules read of each, and the driver's `VkMemoryRequirements::size`
//! once the layer has asked it.
//!
//! Kept only where the layer intercepts those commands (`DeviceState::sees_every_image`,
//! `sees_every_buffer`): only there is a handle missing from the set known not to be a live
//! resource of the device (`VUID-VkMemoryDedicatedAllocateInfo-image-parameter`,
//! `-buffer-parameter`, `-commonparent`). Made on first use.

use super::maps::{handle_map, HandleMap};
use ash::vk;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// What an image's create info says that the dedicated-allocation and bind rules read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageFacts {
    pub flags: vk::ImageCreateFlags,
    pub format: vk::Format,
    /// `VkExternalMemoryImageCreateInfo::handleTypes` (empty without one); `None` when the
    /// create info's chain could not be read to its end.
    pub external: Option<vk::ExternalMemoryHandleTypeFlags>,
}

/// What a buffer's create info says that the dedicated-allocation and bind rules read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferFacts {
    pub flags: vk::BufferCreateFlags,
    /// `VkExternalMemoryBufferCreateInfo::handleTypes` (empty without one); `None` when the
    /// create info's chain could not be read to its end.
    pub external: Option<vk::ExternalMemoryHandleTypeFlags>,
}

/// A live resource: its create info's facts (`None` when the create info could not be read),
/// its memory requirement's size once asked (0: not asked yet), and how many times the driver
/// returned the handle more than it was destroyed: the specification lets a driver give two
/// live objects of a type the same handle value, so the handle stays live until its last
/// destruction, and facts of two creations are not told apart (`None`).
struct Entry<F> {
    facts: Option<F>,
    requirement: AtomicU64,
    live: u32,
}

#[derive(Default)]
pub struct LiveResources {
    tables: OnceLock<Tables>,
}

struct Tables {
    images: HandleMap<u64, Entry<ImageFacts>>,
    buffers: HandleMap<u64, Entry<BufferFacts>>,
}

impl Tables {
    fn new() -> Self {
        Self {
            images: handle_map(8),
            buffers: handle_map(8),
        }
    }
}

/// Records one more creation of `handle`.
fn insert<F>(map: &HandleMap<u64, Entry<F>>, handle: u64, facts: Option<F>) {
    map.entry(handle)
        .and_modify(|e| {
            e.facts = None;
            e.requirement = AtomicU64::new(0);
            e.live += 1;
        })
        .or_insert(Entry {
            facts,
            requirement: AtomicU64::new(0),
            live: 1,
        });
}

/// Records one destruction of `handle`.
fn remove<F>(map: &HandleMap<u64, Entry<F>>, handle: u64) {
    map.remove_if_mut(&handle, |_, e| {
        e.live -= 1;
        e.live == 0
    });
}

/// A live resource as found: its facts, and its memory requirement's size when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<F> {
    pub facts: Option<F>,
    pub requirement: Option<u64>,
}

fn found<F: Copy>(e: &Entry<F>) -> Found<F> {
    let size = e.requirement.load(Ordering::Relaxed);
    Found {
        facts: e.facts,
        requirement: (size != 0).then_some(size),
    }
}

impl LiveResources {
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(Tables::new)
    }

    pub fn insert_image(&self, handle: u64, facts: Option<ImageFacts>) {
        insert(&self.tables().images, handle, facts);
    }

    pub fn insert_buffer(&self, handle: u64, facts: Option<BufferFacts>) {
        insert(&self.tables().buffers, handle, facts);
    }

    /// Forgets a buffer (`BUFFER`) or image (`IMAGE`) about to be destroyed.
    pub fn remove(&self, ty: vk::ObjectType, handle: u64) {
        let Some(t) = self.tables.get() else { return };
        match ty {
            vk::ObjectType::IMAGE => remove(&t.images, handle),
            vk::ObjectType::BUFFER => remove(&t.buffers, handle),
            _ => {}
        }
    }

    pub fn image(&self, handle: u64) -> Option<Found<ImageFacts>> {
        let t = self.tables.get()?;
        t.images.get(&handle).map(|e| found(&e))
    }

    pub fn buffer(&self, handle: u64) -> Option<Found<BufferFacts>> {
        let t = self.tables.get()?;
        t.buffers.get(&handle).map(|e| found(&e))
    }

    /// Whether `handle` is a live resource of type `ty` (`IMAGE` or `BUFFER`).
    pub fn contains(&self, ty: vk::ObjectType, handle: u64) -> bool {
        let Some(t) = self.tables.get() else {
            return false;
        };
        match ty {
            vk::ObjectType::IMAGE => t.images.contains_key(&handle),
            vk::ObjectType::BUFFER => t.buffers.contains_key(&handle),
            _ => false,
        }
    }

    /// Keeps the driver's `VkMemoryRequirements::size` of a live resource (asked without a lock
    /// held); a resource destroyed meanwhile keeps nothing.
    pub fn set_requirement(&self, ty: vk::ObjectType, handle: u64, size: u64) {
        let Some(t) = self.tables.get() else { return };
        let store = |r: &AtomicU64| r.store(size, Ordering::Relaxed);
        match ty {
            vk::ObjectType::IMAGE => {
                if let Some(e) = t.images.get(&handle) {
                    store(&e.requirement);
                }
            }
            vk::ObjectType::BUFFER => {
                if let Some(e) = t.buffers.get(&handle) {
                    store(&e.requirement);
                }
            }
            _ => {}
        }
    }

    /// How many images and buffers are live (`exportcheck_tracked_counts`).
    pub fn len(&self) -> usize {
        self.tables
            .get()
            .map_or(0, |t| t.images.len() + t.buffers.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&self) {
        if let Some(t) = self.tables.get() {
            t.images.clear();
            t.buffers.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_live_from_insert_to_remove_with_their_requirement() {
        let live = LiveResources::default();
        assert!(live.image(7).is_none());
        live.insert_image(7, Some(ImageFacts::default()));
        live.insert_buffer(8, None);
        assert!(live.contains(vk::ObjectType::IMAGE, 7));
        assert!(!live.contains(vk::ObjectType::BUFFER, 7));
        assert_eq!(live.image(7).and_then(|f| f.requirement), None);
        live.set_requirement(vk::ObjectType::IMAGE, 7, 4096);
        assert_eq!(live.image(7).and_then(|f| f.requirement), Some(4096));
        assert_eq!(live.buffer(8).map(|f| f.facts), Some(None));
        assert_eq!(live.len(), 2);
        live.remove(vk::ObjectType::IMAGE, 7);
        live.set_requirement(vk::ObjectType::IMAGE, 7, 1);
        assert!(live.image(7).is_none());
        assert_eq!(live.len(), 1);
    }

    #[test]
    fn a_handle_made_twice_lives_until_destroyed_twice_and_loses_its_facts() {
        let live = LiveResources::default();
        let facts = Some(BufferFacts::default());
        live.insert_buffer(9, facts);
        live.insert_buffer(9, facts);
        assert_eq!(live.buffer(9).map(|f| f.facts), Some(None));
        live.remove(vk::ObjectType::BUFFER, 9);
        assert!(live.contains(vk::ObjectType::BUFFER, 9));
        live.remove(vk::ObjectType::BUFFER, 9);
        assert!(!live.contains(vk::ObjectType::BUFFER, 9));
    }
}

//! Buffers and images that can be bound to exported memory, and what the driver said about
//! exporting memory for them.
//!
//! `VUID-VkExportMemoryAllocateInfo-handleTypes-09860` and `VUID-VkMemoryAllocateInfo-pNext-00639`
//! are judged against the resource the memory is for, so the layer keeps the create info of each
//! buffer and image made with external-memory handle types (`VkExternalMemoryBufferCreateInfo`,
//! `VkExternalMemoryImageCreateInfo`): exported memory can only be bound to those
//! (`VUID-vkBindBufferMemory-memory-02726`, `VUID-vkBindImageMemory-memory-02728`). Recorded after
//! `vkCreateBuffer`/`vkCreateImage` succeeded, dropped before `vkDestroyBuffer`/`vkDestroyImage`
//! goes down.

use super::maps::{handle_map, HandleMap};
use ash::vk;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What `vkGetPhysicalDeviceExternalBufferProperties` is asked about a buffer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BufferQuery {
    pub flags: vk::BufferCreateFlags,
    pub usage: vk::BufferUsageFlags,
}

/// What `vkGetPhysicalDeviceImageFormatProperties2` is asked about an image: its create info's
/// members that the query takes, and the structures of its chain that extend the query too.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageQuery {
    pub format: vk::Format,
    pub image_type: vk::ImageType,
    pub tiling: vk::ImageTiling,
    pub usage: vk::ImageUsageFlags,
    pub flags: vk::ImageCreateFlags,
    /// `VkImageStencilUsageCreateInfo::stencilUsage`, when chained.
    pub stencil_usage: Option<vk::ImageUsageFlags>,
    /// `VkImageFormatListCreateInfo::pViewFormats`, when chained.
    pub view_formats: Option<Vec<vk::Format>>,
}

/// A buffer or image the driver is asked about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResourceQuery {
    Buffer(BufferQuery),
    Image(ImageQuery),
}

/// A tracked buffer or image: what to ask the driver, and the handle types it was created for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub query: ResourceQuery,
    pub external: vk::ExternalMemoryHandleTypeFlags,
}

impl Resource {
    pub fn object_type(&self) -> vk::ObjectType {
        match self.query {
            ResourceQuery::Buffer(_) => vk::ObjectType::BUFFER,
            ResourceQuery::Image(_) => vk::ObjectType::IMAGE,
        }
    }
}

/// What the driver answered for exporting one handle type for one resource.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandleTypeSupport {
    /// The query's result: an image query may fail (`VK_ERROR_FORMAT_NOT_SUPPORTED`) when the
    /// handle type cannot be used with the image at all.
    pub result: vk::Result,
    pub features: vk::ExternalMemoryFeatureFlags,
    pub compatible: vk::ExternalMemoryHandleTypeFlags,
}

/// The driver's answers for one resource, by handle-type bit, for the bits asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExternalMemorySupport {
    entries: Vec<(vk::ExternalMemoryHandleTypeFlags, HandleTypeSupport)>,
}

impl ExternalMemorySupport {
    /// Records the answer for one handle-type bit.
    pub fn set(&mut self, bit: vk::ExternalMemoryHandleTypeFlags, support: HandleTypeSupport) {
        self.entries.retain(|(b, _)| *b != bit);
        self.entries.push((bit, support));
    }

    /// The bits asked about, each with the driver's answer, lowest bit first.
    pub fn entries(
        &self,
    ) -> impl Iterator<Item = (vk::ExternalMemoryHandleTypeFlags, HandleTypeSupport)> + '_ {
        let mut sorted: Vec<_> = self.entries.clone();
        sorted.sort_by_key(|(bit, _)| bit.as_raw());
        sorted.into_iter()
    }
}

/// Per device: the tracked resources and the driver's cached answers. Made on first use: a
/// device that never creates a buffer or image for external memory allocates nothing for it.
#[derive(Default)]
pub struct Resources {
    tables: OnceLock<Tables>,
}

struct Tables {
    buffers: HandleMap<u64, Resource>,
    images: HandleMap<u64, Resource>,
    /// Answers by (resource, handle-type bit): asked once per device, whatever the number of
    /// resources alike.
    answers: Mutex<HashMap<(ResourceQuery, u32), HandleTypeSupport>>,
}

impl Tables {
    fn new() -> Self {
        Self {
            buffers: handle_map(4),
            images: handle_map(4),
            answers: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self, ty: vk::ObjectType) -> Option<&HandleMap<u64, Resource>> {
        match ty {
            vk::ObjectType::BUFFER => Some(&self.buffers),
            vk::ObjectType::IMAGE => Some(&self.images),
            _ => None,
        }
    }
}

impl Resources {
    /// Records a buffer or image made with external-memory handle types.
    pub fn insert(&self, handle: u64, resource: Resource) {
        let tables = self.tables.get_or_init(Tables::new);
        if let Some(map) = tables.map(resource.object_type()) {
            map.insert(handle, resource);
        }
    }

    /// Forgets a buffer (`BUFFER`) or image (`IMAGE`) about to be destroyed.
    pub fn remove(&self, ty: vk::ObjectType, handle: u64) {
        if let Some(map) = self.tables.get().and_then(|t| t.map(ty)) {
            map.remove(&handle);
        }
    }

    /// The tracked buffer or image `handle`, if it is one.
    pub fn get(&self, ty: vk::ObjectType, handle: u64) -> Option<Resource> {
        let map = self.tables.get()?.map(ty)?;
        map.get(&handle).map(|r| r.clone())
    }

    /// The driver's answer for `bit` and `query`, asked with `ask` the first time.
    pub fn answer(
        &self,
        query: &ResourceQuery,
        bit: vk::ExternalMemoryHandleTypeFlags,
        ask: impl FnOnce() -> HandleTypeSupport,
    ) -> HandleTypeSupport {
        let answers = &self.tables.get_or_init(Tables::new).answers;
        let key = (query.clone(), bit.as_raw());
        if let Some(known) = answers.lock().get(&key) {
            return *known;
        }
        // Asked without the lock held: the driver (or a layer below) is never called under it.
        let answer = ask();
        answers.lock().insert(key, answer);
        answer
    }

    /// How many buffers, images and driver answers are held (introspection).
    pub fn entries(&self) -> usize {
        self.tables.get().map_or(0, |t| {
            t.buffers.len() + t.images.len() + t.answers.lock().len()
        })
    }

    pub fn clear(&self) {
        if let Some(tables) = self.tables.get() {
            tables.buffers.clear();
            tables.images.clear();
            tables.answers.lock().clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(usage: vk::BufferUsageFlags) -> Resource {
        Resource {
            query: ResourceQuery::Buffer(BufferQuery {
                flags: vk::BufferCreateFlags::empty(),
                usage,
            }),
            external: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
        }
    }

    #[test]
    fn resources_are_found_by_type_and_handle_until_removed() {
        let r = Resources::default();
        r.insert(7, buffer(vk::BufferUsageFlags::TRANSFER_SRC));
        assert!(r.get(vk::ObjectType::BUFFER, 7).is_some());
        assert!(r.get(vk::ObjectType::IMAGE, 7).is_none());
        r.remove(vk::ObjectType::BUFFER, 7);
        assert!(r.get(vk::ObjectType::BUFFER, 7).is_none());
    }

    #[test]
    fn answers_are_asked_once_per_query_and_bit() {
        let r = Resources::default();
        let query = buffer(vk::BufferUsageFlags::STORAGE_BUFFER).query;
        let fd = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        let mut asked = 0;
        for _ in 0..3 {
            r.answer(&query, fd, || {
                asked += 1;
                HandleTypeSupport::default()
            });
        }
        assert_eq!(asked, 1);
        r.answer(
            &query,
            vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
            || {
                asked += 1;
                HandleTypeSupport::default()
            },
        );
        assert_eq!(asked, 2);
    }
}

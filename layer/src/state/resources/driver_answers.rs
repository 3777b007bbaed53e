//! What the layer asks the driver about exporting memory for a buffer or image, and what it
//! answered (`vkGetPhysicalDeviceExternalBufferProperties`,
//! `vkGetPhysicalDeviceImageFormatProperties2` with `VkPhysicalDeviceExternalImageFormatInfo`),
//! for `VUID-VkExportMemoryAllocateInfo-handleTypes-09860`, `VUID-VkMemoryAllocateInfo-pNext-00639`
//! and the dedicated imports' rules. The answers are kept per device, by query and handle-type
//! bit: asked once, whatever the number of resources alike.

use ash::vk;
use parking_lot::Mutex;
use std::collections::HashMap;

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

/// The driver's answers of one device, by (query, handle-type bit).
#[derive(Default)]
pub struct DriverAnswers {
    answers: Mutex<HashMap<(ResourceQuery, u32), HandleTypeSupport>>,
}

impl DriverAnswers {
    /// The driver's answer for `bit` and `query`, asked with `ask` the first time.
    pub fn answer(
        &self,
        query: &ResourceQuery,
        bit: vk::ExternalMemoryHandleTypeFlags,
        ask: impl FnOnce() -> HandleTypeSupport,
    ) -> HandleTypeSupport {
        let key = (query.clone(), bit.as_raw());
        if let Some(known) = self.answers.lock().get(&key) {
            return *known;
        }
        // Asked without the lock held: the driver (or a layer below) is never called under it.
        let answer = ask();
        self.answers.lock().insert(key, answer);
        answer
    }

    /// How many answers are kept.
    pub fn len(&self) -> usize {
        self.answers.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&self) {
        self.answers.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_asked_once_per_query_and_bit() {
        let answers = DriverAnswers::default();
        let query = ResourceQuery::Buffer(BufferQuery {
            flags: vk::BufferCreateFlags::empty(),
            usage: vk::BufferUsageFlags::STORAGE_BUFFER,
        });
        let fd = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        let mut asked = 0;
        for _ in 0..3 {
            answers.answer(&query, fd, || {
                asked += 1;
                HandleTypeSupport::default()
            });
        }
        assert_eq!(asked, 1);
        answers.answer(
            &query,
            vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT,
            || {
                asked += 1;
                HandleTypeSupport::default()
            },
        );
        assert_eq!(asked, 2);
        assert_eq!(answers.len(), 2);
    }
}

//! Every live buffer and image of a device, one record each, whatever it was made for: the
//! handles `vkCreateBuffer`/`vkCreateImage` returned (recorded after the call succeeded) until
//! `vkDestroyBuffer`/`vkDestroyImage` (dropped before the call goes down). A record holds what the
//! `VkMemoryDedicatedAllocateInfo` and bind rules read of its create info, the driver's
//! `VkMemoryRequirements::size` once the layer has asked it, and, only for a resource made with
//! external-memory handle types (`VkExternalMemoryBufferCreateInfo`,
//! `VkExternalMemoryImageCreateInfo`), boxed, what the driver is asked about exporting memory for
//! it ([`driver_answers`]): `VUID-VkExportMemoryAllocateInfo-handleTypes-09860` and
//! `VUID-VkMemoryAllocateInfo-pNext-00639` are judged against the resource the memory is for, and
//! exported memory can only be bound to those (`VUID-vkBindBufferMemory-memory-02726`,
//! `VUID-vkBindImageMemory-memory-02728`). A plain buffer or image costs one small record.
//!
//! Where the layer intercepts the create and destroy commands and nothing else makes resources
//! (`DeviceState::sees_every_image`, `sees_every_buffer`), a handle missing from a table is known
//! not to be a live resource of the device (`VUID-VkMemoryDedicatedAllocateInfo-image-parameter`,
//! `-buffer-parameter`, `-commonparent`). The tables are made on first use: a device that never
//! makes a buffer or image allocates nothing for them.

pub mod driver_answers;

use super::maps::{handle_map, HandleMap};
use ash::vk;
use driver_answers::{BufferQuery, DriverAnswers, HandleTypeSupport, ImageQuery, ResourceQuery};
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

/// What the layer keeps of one buffer's or image's creation: its facts (`None` when the create
/// info could not be read) and, for one made for external memory whose exports are judged, the
/// query that asks the driver about them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created<F, Q> {
    pub facts: Option<F>,
    pub export_query: Option<Q>,
}

/// Nothing read: a create info that is NULL or of another `sType`.
impl<F, Q> Default for Created<F, Q> {
    fn default() -> Self {
        Self {
            facts: None,
            export_query: None,
        }
    }
}

/// A live resource: what its creation gave, its memory requirement's size once asked (0: not
/// asked yet), and how many times the driver returned the handle more than it was destroyed: the
/// specification lets a driver give two live objects of a type the same handle value, so the
/// handle stays live until its last destruction, and what two creations gave is not told apart
/// (no facts, no export query).
struct Record<F, Q> {
    facts: Option<F>,
    /// Only on a resource made for external memory: boxed, so a plain one pays a pointer.
    export_query: Option<Box<Q>>,
    requirement: AtomicU64,
    live: u32,
}

type Table<F, Q> = HandleMap<u64, Record<F, Q>>;

/// Records one more creation of `handle`.
fn insert<F, Q>(table: &Table<F, Q>, handle: u64, created: Created<F, Q>) {
    table
        .entry(handle)
        .and_modify(|r| {
            r.facts = None;
            r.export_query = None;
            r.requirement = AtomicU64::new(0);
            r.live += 1;
        })
        .or_insert_with(|| Record {
            facts: created.facts,
            export_query: created.export_query.map(Box::new),
            requirement: AtomicU64::new(0),
            live: 1,
        });
}

/// Records one destruction of `handle`.
fn remove<F, Q>(table: &Table<F, Q>, handle: u64) {
    table.remove_if_mut(&handle, |_, r| {
        r.live -= 1;
        r.live == 0
    });
}

/// A live resource as found: its facts, and its memory requirement's size when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<F> {
    pub facts: Option<F>,
    pub requirement: Option<u64>,
}

fn found<F: Copy, Q>(r: &Record<F, Q>) -> Found<F> {
    let size = r.requirement.load(Ordering::Relaxed);
    Found {
        facts: r.facts,
        requirement: (size != 0).then_some(size),
    }
}

/// Per device: its live buffers and images, and the driver's answers about them.
#[derive(Default)]
pub struct Resources {
    tables: OnceLock<Tables>,
}

struct Tables {
    buffers: Table<BufferFacts, BufferQuery>,
    images: Table<ImageFacts, ImageQuery>,
    answers: DriverAnswers,
}

impl Tables {
    fn new() -> Self {
        Self {
            buffers: handle_map(8),
            images: handle_map(8),
            answers: DriverAnswers::default(),
        }
    }
}

impl Resources {
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(Tables::new)
    }

    pub fn insert_buffer(&self, handle: u64, created: Created<BufferFacts, BufferQuery>) {
        insert(&self.tables().buffers, handle, created);
    }

    pub fn insert_image(&self, handle: u64, created: Created<ImageFacts, ImageQuery>) {
        insert(&self.tables().images, handle, created);
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
        t.images.get(&handle).map(|r| found(&r))
    }

    pub fn buffer(&self, handle: u64) -> Option<Found<BufferFacts>> {
        let t = self.tables.get()?;
        t.buffers.get(&handle).map(|r| found(&r))
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

    /// What the driver is asked about exports for the live buffer (`BUFFER`) or image (`IMAGE`)
    /// `handle`, when it was made for external memory and its exports are judged.
    pub fn export_query(&self, ty: vk::ObjectType, handle: u64) -> Option<ResourceQuery> {
        let t = self.tables.get()?;
        match ty {
            vk::ObjectType::IMAGE => {
                let r = t.images.get(&handle)?;
                Some(ResourceQuery::Image((**r.export_query.as_ref()?).clone()))
            }
            vk::ObjectType::BUFFER => {
                let r = t.buffers.get(&handle)?;
                Some(ResourceQuery::Buffer((**r.export_query.as_ref()?).clone()))
            }
            _ => None,
        }
    }

    /// Keeps the driver's `VkMemoryRequirements::size` of a live resource (asked without a lock
    /// held); a resource destroyed meanwhile keeps nothing.
    pub fn set_requirement(&self, ty: vk::ObjectType, handle: u64, size: u64) {
        let Some(t) = self.tables.get() else { return };
        let store = |r: &AtomicU64| r.store(size, Ordering::Relaxed);
        match ty {
            vk::ObjectType::IMAGE => {
                if let Some(r) = t.images.get(&handle) {
                    store(&r.requirement);
                }
            }
            vk::ObjectType::BUFFER => {
                if let Some(r) = t.buffers.get(&handle) {
                    store(&r.requirement);
                }
            }
            _ => {}
        }
    }

    /// The driver's answer for `bit` and `query`, asked with `ask` the first time
    /// ([`DriverAnswers::answer`]).
    pub fn answer(
        &self,
        query: &ResourceQuery,
        bit: vk::ExternalMemoryHandleTypeFlags,
        ask: impl FnOnce() -> HandleTypeSupport,
    ) -> HandleTypeSupport {
        self.tables().answers.answer(query, bit, ask)
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

    /// How many live buffers and images carry an export query, and how many driver answers are
    /// kept (`exportcheck_tracked_counts`).
    pub fn export_entries(&self) -> usize {
        self.tables.get().map_or(0, |t| {
            let buffers = t.buffers.iter().filter(|r| r.export_query.is_some());
            let images = t.images.iter().filter(|r| r.export_query.is_some());
            buffers.count() + images.count() + t.answers.len()
        })
    }

    pub fn clear(&self) {
        if let Some(t) = self.tables.get() {
            t.images.clear();
            t.buffers.clear();
            t.answers.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain<F>(facts: Option<F>) -> Created<F, BufferQuery> {
        Created {
            facts,
            export_query: None,
        }
    }

    fn exportable(usage: vk::BufferUsageFlags) -> Created<BufferFacts, BufferQuery> {
        Created {
            facts: Some(BufferFacts {
                flags: vk::BufferCreateFlags::empty(),
                external: Some(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD),
            }),
            export_query: Some(BufferQuery {
                flags: vk::BufferCreateFlags::empty(),
                usage,
            }),
        }
    }

    #[test]
    fn resources_are_live_from_insert_to_remove_with_their_requirement() {
        let r = Resources::default();
        assert!(r.image(7).is_none());
        r.insert_image(
            7,
            Created {
                facts: Some(ImageFacts::default()),
                export_query: None,
            },
        );
        r.insert_buffer(8, plain(None));
        assert!(r.contains(vk::ObjectType::IMAGE, 7));
        assert!(!r.contains(vk::ObjectType::BUFFER, 7));
        assert_eq!(r.image(7).and_then(|f| f.requirement), None);
        r.set_requirement(vk::ObjectType::IMAGE, 7, 4096);
        assert_eq!(r.image(7).and_then(|f| f.requirement), Some(4096));
        assert_eq!(r.buffer(8).map(|f| f.facts), Some(None));
        assert_eq!(r.len(), 2);
        assert_eq!(r.export_entries(), 0, "plain resources");
        r.remove(vk::ObjectType::IMAGE, 7);
        r.set_requirement(vk::ObjectType::IMAGE, 7, 1);
        assert!(r.image(7).is_none());
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn export_queries_are_found_by_type_and_handle_until_removed() {
        let r = Resources::default();
        let created = exportable(vk::BufferUsageFlags::TRANSFER_SRC);
        let query = ResourceQuery::Buffer(created.export_query.clone().unwrap());
        r.insert_buffer(7, created);
        r.insert_buffer(8, plain(Some(BufferFacts::default())));
        assert_eq!(r.export_query(vk::ObjectType::BUFFER, 7), Some(query));
        assert_eq!(r.export_query(vk::ObjectType::IMAGE, 7), None);
        assert_eq!(r.export_query(vk::ObjectType::BUFFER, 8), None, "plain");
        assert_eq!((r.len(), r.export_entries()), (2, 1));
        r.remove(vk::ObjectType::BUFFER, 7);
        assert_eq!(r.export_query(vk::ObjectType::BUFFER, 7), None);
        assert_eq!((r.len(), r.export_entries()), (1, 0));
    }

    #[test]
    fn a_handle_made_twice_lives_until_destroyed_twice_and_loses_what_it_was_made_with() {
        let r = Resources::default();
        r.insert_buffer(9, exportable(vk::BufferUsageFlags::TRANSFER_SRC));
        r.insert_buffer(9, exportable(vk::BufferUsageFlags::TRANSFER_DST));
        assert_eq!(r.buffer(9).map(|f| f.facts), Some(None));
        assert_eq!(r.export_query(vk::ObjectType::BUFFER, 9), None);
        r.remove(vk::ObjectType::BUFFER, 9);
        assert!(r.contains(vk::ObjectType::BUFFER, 9));
        r.remove(vk::ObjectType::BUFFER, 9);
        assert!(!r.contains(vk::ObjectType::BUFFER, 9));
    }

    #[test]
    fn a_record_holds_its_rare_part_behind_one_pointer() {
        use std::mem::size_of;
        assert_eq!(size_of::<Option<Box<ImageQuery>>>(), size_of::<usize>());
        assert!(
            size_of::<ImageQuery>() > 2 * size_of::<usize>(),
            "worth boxing"
        );
        assert!(size_of::<Record<ImageFacts, ImageQuery>>() <= 40);
        assert!(size_of::<Record<BufferFacts, BufferQuery>>() <= 40);
    }

    #[test]
    fn answers_are_counted_and_cleared_with_the_records() {
        let r = Resources::default();
        r.insert_buffer(7, exportable(vk::BufferUsageFlags::TRANSFER_SRC));
        let query = r.export_query(vk::ObjectType::BUFFER, 7).unwrap();
        let fd = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        r.answer(&query, fd, HandleTypeSupport::default);
        assert_eq!((r.len(), r.export_entries()), (1, 2));
        r.clear();
        assert_eq!((r.len(), r.export_entries()), (0, 0));
    }
}

//! The physical devices a logical device is made of (`VkDeviceGroupDeviceCreateInfo`, or the one
//! `vkCreateDevice` was called on), as far as the layer can tell them apart across instances:
//! by their `deviceUUID`s. What `VUID-VkMemoryAllocateInfo-None-00644` compares (the importing
//! device's physical devices against those of the device that allocated the payload) and what
//! `-None-00643` needs to compare device masks (the same physical devices, in the same order).
//!
//! `VkPhysicalDevice` handles cannot be compared across instances (each instance has its own),
//! so each list of `deviceUUID`s is interned in a process-wide table: two devices have the same
//! [`GroupId`] exactly when their lists are equal. The table only grows, by one entry per
//! distinct list (a process has few).

use ash::vk;
use parking_lot::Mutex;

/// A `deviceUUID`.
pub type Uuid = [u8; vk::UUID_SIZE];

/// One interned list of `deviceUUID`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupId(u32);

static LISTS: Mutex<Vec<Vec<Uuid>>> = Mutex::new(Vec::new());

fn intern(list: &[Uuid]) -> GroupId {
    let mut lists = LISTS.lock();
    let index = match lists.iter().position(|l| l == list) {
        Some(index) => index,
        None => {
            lists.push(list.to_vec());
            lists.len() - 1
        }
    };
    GroupId(index as u32)
}

/// The list `id` names.
pub fn members(id: GroupId) -> Vec<Uuid> {
    LISTS.lock().get(id.0 as usize).cloned().unwrap_or_default()
}

/// The physical devices of a logical device as a set of `deviceUUID`s, when all are known: what
/// the compatibility tables' "deviceUUID must match" compares ([`PhysicalDevices::known_apart`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceSet(Option<GroupId>);

impl DeviceSet {
    /// Their `deviceUUID`s, sorted, when all are known.
    pub fn uuids(self) -> Option<Vec<Uuid>> {
        self.0.map(members)
    }

    /// See [`PhysicalDevices::known_apart`].
    #[inline(always)]
    pub fn known_apart(self, other: Self) -> bool {
        match (self.0, other.0) {
            (Some(mine), Some(theirs)) if mine != theirs => share_none(mine, theirs),
            _ => false,
        }
    }
}

/// No `deviceUUID` of `mine` is among `theirs`.
#[cold]
#[inline(never)]
fn share_none(mine: GroupId, theirs: GroupId) -> bool {
    let theirs = members(theirs);
    !members(mine).iter().any(|uuid| theirs.contains(uuid))
}

/// The physical devices of a logical device, as far as the layer knows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhysicalDevices {
    /// How many (`None`: the app's `VkDeviceGroupDeviceCreateInfo` could not be read).
    pub count: Option<u32>,
    /// Their `deviceUUID`s in the group's order, when the layer could ask for every one.
    pub ordered: Option<GroupId>,
    /// The same `deviceUUID`s sorted: which physical devices, whatever the order.
    pub as_set: Option<GroupId>,
}

impl PhysicalDevices {
    /// `count` physical devices, with their `deviceUUID`s in order when all are known.
    pub fn new(count: Option<u32>, uuids: Option<Vec<Uuid>>) -> Self {
        let uuids = uuids.filter(|u| Some(u.len() as u32) == count);
        let ordered = uuids.as_deref().map(intern);
        let as_set = uuids.map(|mut u| {
            u.sort_unstable();
            intern(&u)
        });
        Self {
            count,
            ordered,
            as_set,
        }
    }

    /// The mask of all of them (the device mask of an allocation that names none), if known.
    pub fn all_mask(self) -> Option<u32> {
        match self.count? {
            n @ 1..=31 => Some((1u32 << n) - 1),
            32 => Some(u32::MAX),
            _ => None,
        }
    }

    /// Certainly not the same physical devices: another count, or another set of
    /// `deviceUUID`s (two physical devices with different `deviceUUID`s are two devices).
    pub fn known_to_differ(self, other: Self) -> bool {
        let counts = matches!((self.count, other.count), (Some(a), Some(b)) if a != b);
        let sets = matches!((self.as_set, other.as_set), (Some(a), Some(b)) if a != b);
        counts || sets
    }

    /// Certainly none of the physical devices `other` is made of: every `deviceUUID` on both
    /// sides known, and none of one side's among the other's. A logical device stands for every
    /// physical device it is made of (`VkDeviceGroupDeviceCreateInfo::pPhysicalDevices`), not
    /// only the one `vkCreateDevice` was called on: two devices of one group are on the same
    /// physical devices whichever member each was created with. What the compatibility tables'
    /// "deviceUUID must match" is judged by (`VUID-VkImportMemoryFdInfoKHR-fd-00668`, `-01746`,
    /// `VUID-VkImportSemaphoreFdInfoKHR-fd-01544`, `VUID-VkImportFenceFdInfoKHR-fd-01541`).
    #[inline(always)]
    pub fn known_apart(self, other: Self) -> bool {
        self.set().known_apart(other.set())
    }

    /// Which physical devices, whatever their order: what [`DeviceSet::known_apart`] compares.
    #[inline(always)]
    pub fn set(self) -> DeviceSet {
        DeviceSet(self.as_set)
    }

    /// Known to be the same physical devices in the same order (their device masks then mean
    /// the same).
    pub fn known_alike(self, other: Self) -> bool {
        matches!((self.ordered, other.ordered), (Some(a), Some(b)) if a == b)
    }

    /// For a message: how many, and their `deviceUUID`s when known.
    pub fn describe(self) -> String {
        let Some(count) = self.count else {
            return "physical devices the layer could not read".to_owned();
        };
        let noun = if count == 1 {
            "physical device"
        } else {
            "physical devices"
        };
        match self.ordered {
            Some(id) => {
                let uuids: Vec<String> = members(id)
                    .iter()
                    .map(|u| u.iter().map(|b| format!("{b:02x}")).collect())
                    .collect();
                format!("{count} {noun} (deviceUUID {})", uuids.join(", "))
            }
            None => format!("{count} {noun}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Uuid = [0xa; 16];
    const B: Uuid = [0xb; 16];

    #[test]
    fn lists_are_compared_by_their_uuids_and_counts() {
        let ab = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let ab_again = PhysicalDevices::new(Some(2), Some(vec![A, B]));
        let ba = PhysicalDevices::new(Some(2), Some(vec![B, A]));
        let a = PhysicalDevices::new(Some(1), Some(vec![A]));
        let b = PhysicalDevices::new(Some(1), Some(vec![B]));
        let two_unknown = PhysicalDevices::new(Some(2), None);
        let unreadable = PhysicalDevices::new(None, None);
        assert_eq!(ab, ab_again);
        assert!(ab.known_alike(ab_again) && !ab.known_to_differ(ab_again));
        // The same devices in another order: not known alike, not known to differ.
        assert!(!ab.known_alike(ba) && !ab.known_to_differ(ba));
        assert!(a.known_to_differ(b) && a.known_to_differ(ab));
        // Counts alone tell a difference; nothing tells sameness without the UUIDs.
        assert!(two_unknown.known_to_differ(a) && !two_unknown.known_alike(ab));
        assert!(!two_unknown.known_to_differ(ab));
        assert!(!unreadable.known_to_differ(a) && !unreadable.known_alike(unreadable));
        // Apart only when no physical device is shared, every UUID known.
        assert!(a.known_apart(b) && b.known_apart(a));
        assert!(!a.known_apart(ab) && !ab.known_apart(ba) && !ab.known_apart(ab_again));
        assert!(!two_unknown.known_apart(a) && !unreadable.known_apart(b));
        assert_eq!(ab.all_mask(), Some(0b11));
        assert_eq!(unreadable.all_mask(), None);
        assert_eq!(
            ab.describe(),
            format!(
                "2 physical devices (deviceUUID {}, {})",
                "0a".repeat(16),
                "0b".repeat(16)
            )
        );
    }

    #[test]
    fn uuids_that_do_not_match_the_count_are_not_used() {
        let odd = PhysicalDevices::new(Some(2), Some(vec![A]));
        assert_eq!(odd.ordered, None);
        assert_eq!(odd.count, Some(2));
    }
}

//! Where the current payload of a semaphore or fence came from, as far as the layer can follow
//! it: the payload it was created with, or one an import replaced it with, permanently or
//! temporarily (until the next wait on a binary semaphore, or the next reset of a fence, restores
//! the permanent one). What the layer cannot follow is `Unknown`, and nothing is judged of it.
//! Read by `VUID-VkSemaphoreGetFdInfoKHR-semaphore-01133` and its kin (an export of a payload an
//! import put there).

/// A payload an import put in place: its handle type (one bit), and the handle types the object
/// it was exported from was created exportable as, where the layer matched the import to that
/// export and the exporter's payload was its created one (`None`: not known). An imported
/// payload may be exported only as those (`VUID-VkSemaphoreGetFdInfoKHR-handleType-01132`: "when
/// a semaphore is using an imported payload, its `VkExportSemaphoreCreateInfo::handleTypes` value
/// is specified when creating the semaphore from which the payload was exported").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Import {
    pub handle_type: u32,
    pub exportable: Option<u32>,
}

impl Import {
    /// An import of `handle_type` whose exporter the layer does not know.
    pub const fn of_unknown_export(handle_type: u32) -> Import {
        Import {
            handle_type,
            exportable: None,
        }
    }
}

/// The permanent payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Permanent {
    /// The one it was created with.
    #[default]
    Created,
    /// One a permanent import put there.
    Imported(Import),
    /// The layer cannot say.
    Unknown,
}

/// A temporarily imported payload that replaces the permanent one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Temporary {
    /// None: the permanent payload is the current one.
    #[default]
    None,
    /// One a temporary import put there, not yet restored.
    Imported(Import),
    /// Maybe one, of a type the layer does not know (a swapchain acquire is a temporary import of
    /// an opaque payload), or maybe restored already (a failed submission that waited on it).
    Unknown,
}

/// How an import replaced the payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permanence {
    Permanent,
    /// Until the next wait (binary semaphore) or reset (fence), which the layer follows.
    Temporary,
    /// The layer cannot follow it: an invalid import (a temporary one into a timeline semaphore,
    /// `SYNC_FD` without the temporary flag), or a restoration it does not see.
    Unknown,
}

/// A payload an import put in place, as the export rules name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportedPayload {
    pub handle_type: u32,
    pub temporary: bool,
    /// The handle types it may be exported as, where known ([`Import::exportable`]).
    pub exportable: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncPayload {
    pub permanent: Permanent,
    pub temporary: Temporary,
}

impl SyncPayload {
    /// A successful import. A permanent import replaces everything (as if the object were made
    /// anew with that payload); a temporary one replaces only the temporary payload (the next
    /// wait or reset still restores the last permanent one).
    pub fn import(&mut self, import: Import, permanence: Permanence) {
        *self = match permanence {
            Permanence::Permanent => SyncPayload {
                permanent: Permanent::Imported(import),
                temporary: Temporary::None,
            },
            Permanence::Temporary => SyncPayload {
                temporary: Temporary::Imported(import),
                ..*self
            },
            Permanence::Unknown => SyncPayload {
                permanent: Permanent::Unknown,
                temporary: Temporary::None,
            },
        };
    }

    /// A wait (binary semaphore) or reset (fence) certainly happened: the permanent payload is
    /// the current one again.
    pub fn restore(&mut self) {
        self.temporary = Temporary::None;
    }

    /// A wait or reset may or may not have happened (a failed call): a temporary payload may or
    /// may not still be there.
    pub fn maybe_restored(&mut self) {
        if self.temporary != Temporary::None {
            self.temporary = Temporary::Unknown;
        }
    }

    /// A temporary import of a payload the layer cannot name (a swapchain acquire), or one that
    /// may have happened.
    pub fn opaque_temporary(&mut self) {
        self.temporary = Temporary::Unknown;
    }

    /// Whether the current payload is certainly the one the object was created with: nothing
    /// imported, or only temporary imports that were restored since.
    #[inline(always)]
    pub fn is_created(&self) -> bool {
        self.permanent == Permanent::Created && self.temporary == Temporary::None
    }

    /// The handle types the current payload may be exported as: `created` (the object's own
    /// `VkExport*CreateInfo::handleTypes`, 0 without one; `None`: its create info unread) while it
    /// is the created payload, an import's [`Import::exportable`] while that is the current one;
    /// `None` when the layer cannot say.
    #[inline(always)]
    pub fn exportable(&self, created: Option<u32>) -> Option<u32> {
        if self.is_created() {
            return created;
        }
        self.current_import().and_then(|import| import.exportable)
    }

    /// The imported payload that is certainly the current one; `None` when the current payload is
    /// the created one or the layer cannot say.
    #[inline(always)]
    pub fn current_import(&self) -> Option<ImportedPayload> {
        match (self.temporary, self.permanent) {
            (Temporary::Imported(import), _) => Some(ImportedPayload {
                handle_type: import.handle_type,
                temporary: true,
                exportable: import.exportable,
            }),
            (Temporary::None, Permanent::Imported(import)) => Some(ImportedPayload {
                handle_type: import.handle_type,
                temporary: false,
                exportable: import.exportable,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPAQUE: u32 = 0x1;
    const SYNC: u32 = 0x10;

    #[test]
    fn a_temporary_import_lasts_until_restored_over_the_last_permanent_one() {
        let mut p = SyncPayload::default();
        assert_eq!(p.current_import(), None, "created");
        p.import(Import::of_unknown_export(SYNC), Permanence::Temporary);
        assert_eq!(
            p.current_import(),
            Some(ImportedPayload {
                handle_type: SYNC,
                temporary: true,
                exportable: None
            })
        );
        assert!(!p.is_created());
        p.restore();
        assert_eq!(p.current_import(), None, "the created payload again");
        assert!(p.is_created());
        p.import(Import::of_unknown_export(OPAQUE), Permanence::Permanent);
        p.import(Import::of_unknown_export(SYNC), Permanence::Temporary);
        p.import(Import::of_unknown_export(SYNC), Permanence::Temporary);
        p.restore();
        assert_eq!(
            p.current_import(),
            Some(ImportedPayload {
                handle_type: OPAQUE,
                temporary: false,
                exportable: None
            }),
            "the last permanent import"
        );
    }

    #[test]
    fn the_exportable_types_are_the_current_payloads_creators() {
        let mut p = SyncPayload::default();
        assert_eq!(p.exportable(Some(SYNC)), Some(SYNC), "created");
        assert_eq!(p.exportable(None), None, "created, create info unread");
        let from = |exportable| Import {
            handle_type: OPAQUE,
            exportable,
        };
        p.import(from(Some(OPAQUE | SYNC)), Permanence::Permanent);
        assert_eq!(p.exportable(Some(0)), Some(OPAQUE | SYNC), "the exporter's");
        p.import(from(None), Permanence::Temporary);
        assert_eq!(p.exportable(Some(0)), None, "an unknown exporter");
        p.restore();
        assert_eq!(
            p.exportable(Some(0)),
            Some(OPAQUE | SYNC),
            "the permanent again"
        );
        p.opaque_temporary();
        assert_eq!(p.exportable(Some(0)), None, "maybe another");
        p.import(from(Some(OPAQUE)), Permanence::Unknown);
        assert_eq!(p.exportable(Some(0)), None, "not followed");
    }

    #[test]
    fn what_the_layer_cannot_follow_is_never_named() {
        let mut p = SyncPayload::default();
        p.import(Import::of_unknown_export(SYNC), Permanence::Temporary);
        p.maybe_restored();
        assert_eq!(p.current_import(), None);
        p.restore();
        assert_eq!(p.current_import(), None, "created again");
        p.import(Import::of_unknown_export(OPAQUE), Permanence::Permanent);
        p.maybe_restored();
        assert!(p.current_import().is_some(), "nothing temporary to restore");
        p.opaque_temporary();
        assert_eq!(p.current_import(), None, "an acquire");
        assert!(!p.is_created());
        p.restore();
        assert!(p.current_import().is_some());
        p.import(Import::of_unknown_export(SYNC), Permanence::Unknown);
        p.restore();
        assert_eq!(p.current_import(), None);
        p.import(Import::of_unknown_export(SYNC), Permanence::Permanent);
        p.import(Import::of_unknown_export(OPAQUE), Permanence::Temporary);
        p.import(Import::of_unknown_export(OPAQUE), Permanence::Permanent);
        assert_eq!(
            p.current_import(),
            Some(ImportedPayload {
                handle_type: OPAQUE,
                temporary: false,
                exportable: None
            }),
            "a permanent import ends the temporary one"
        );
    }
}

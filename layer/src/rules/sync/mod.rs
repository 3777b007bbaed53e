//! The rules of the structures that make a semaphore or fence shareable, judged at its creation:
//! `export_semaphore` (`VkExportSemaphoreCreateInfo` at `vkCreateSemaphore`), and what they
//! share: the driver's answers about a set of handle types ([`judge_support`]), for
//! `VkExportFenceCreateInfo` as well.

pub mod d3d12_fence_submit;
pub mod export_fence;
pub mod export_semaphore;

use crate::state::sync_support::SyncTypeSupport;

/// What the driver's answers say of exporting the bits of `answers` together: the bits that are
/// not exportable, and, among the exportable ones, each bit with the others it is not compatible
/// with (a bit need not list itself in `compatibleHandleTypes`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SupportVerdict {
    pub not_exportable: u32,
    /// `(bit, the exportable bits missing from its compatibleHandleTypes)`.
    pub incompatible: Vec<(u32, u32)>,
}

/// Judges `answers` (one per handle-type bit asked, as `commands::sync_support` returns them).
pub fn judge_support(answers: &[(u32, SyncTypeSupport)]) -> SupportVerdict {
    let mut verdict = SupportVerdict::default();
    let exportable = answers
        .iter()
        .filter(|(_, a)| a.exportable())
        .fold(0, |all, (bit, _)| all | bit);
    for (bit, answer) in answers {
        if !answer.exportable() {
            verdict.not_exportable |= bit;
            continue;
        }
        let missing = exportable & !bit & !answer.compatible;
        if missing != 0 {
            verdict.incompatible.push((*bit, missing));
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(features: u32, compatible: u32) -> SyncTypeSupport {
        SyncTypeSupport {
            features,
            compatible,
            export_from_imported: compatible,
        }
    }

    #[test]
    fn unexportable_bits_and_incompatible_pairs() {
        let e = SyncTypeSupport::EXPORTABLE;
        assert_eq!(judge_support(&[]), SupportVerdict::default());
        // A bit that does not list itself is still fine alone.
        assert_eq!(
            judge_support(&[(1, answer(e, 0))]),
            SupportVerdict::default()
        );
        assert_eq!(
            judge_support(&[(1, answer(e, 1 | 0x10)), (0x10, answer(e, 0x11))]),
            SupportVerdict::default()
        );
        let v = judge_support(&[
            (1, answer(e, 1)),
            (8, answer(SyncTypeSupport::IMPORTABLE, 0)),
            (0x80, answer(e, 0x80)),
        ]);
        assert_eq!(v.not_exportable, 8);
        assert_eq!(v.incompatible, vec![(1, 0x80), (0x80, 1)]);
    }
}

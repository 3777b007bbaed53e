//! Exported fds the app never closed nor imported. The spec makes the app the owner of every fd
//! `vkGetMemoryFdKHR` returns: it must close it, or import it (`VkImportMemoryFdInfoKHR`), which
//! hands it to the driver. An fd left open keeps the memory alive after `vkFreeMemory`, and leaks
//! the memory when the process never closes it. Found by file identity, so that it holds whatever
//! the app did with the numbers.

use crate::features::fd_leaks::state::FreedExport;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::os::FileId;
use crate::rules::common::describe_allocation;
use crate::vuid;

/// When the layer looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// `vkFreeMemory` of the exported memory (only its exported numbers are looked at).
    Free,
    /// `vkDestroyDevice` (the whole fd table is scanned).
    DestroyDevice,
    /// Process exit (the whole fd table is scanned).
    Exit,
    /// A later `vkFreeMemory`, when many freed exports are waiting (the whole table is scanned).
    FreedEarlier,
}

impl Checkpoint {
    pub fn command(self) -> &'static str {
        match self {
            Checkpoint::Free => "vkFreeMemory",
            Checkpoint::DestroyDevice => "vkDestroyDevice",
            Checkpoint::Exit => "exit",
            Checkpoint::FreedEarlier => "vkFreeMemory",
        }
    }

    fn when(self) -> &'static str {
        match self {
            Checkpoint::Free => "is being freed",
            Checkpoint::DestroyDevice => "belongs to the device being destroyed",
            Checkpoint::Exit => "is still exported as the process exits",
            Checkpoint::FreedEarlier => "was freed earlier",
        }
    }
}

/// A warning for each export whose file is open in `open` (fd number, identity), unless the file
/// was imported (`imported`: the driver holds those fds). `device` is the device's handle. For
/// an export of a file shared with other payloads, `open` holds only fds of its own open file
/// descriptions, and those an import handed to the driver are not among them.
pub fn check_leaks(
    checkpoint: Checkpoint,
    device: u64,
    exports: &[FreedExport],
    open: &[(i32, FileId)],
    imported: impl Fn(FileId) -> bool,
) -> Outcome {
    let mut outcome = Outcome::default();
    for export in exports {
        let file = export.exported.file;
        let fds: Vec<i32> = open
            .iter()
            .filter(|(_, id)| *id == file)
            .map(|(fd, _)| *fd)
            .collect();
        if fds.is_empty() || (!export.exported.shared_file && imported(file)) {
            continue;
        }
        outcome.push(leak(checkpoint, device, export, &fds));
    }
    outcome
}

fn leak(checkpoint: Checkpoint, device: u64, export: &FreedExport, open: &[i32]) -> Finding {
    let command = checkpoint.command();
    let returned = &export.exported.fds;
    let list = |fds: &[i32]| {
        fds.iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let moved: Vec<i32> = open
        .iter()
        .copied()
        .filter(|fd| !returned.contains(fd))
        .collect();
    let numbers = if moved.is_empty() {
        format!("as fd {}", list(open))
    } else {
        format!(
            "as fd {} (vkGetMemoryFdKHR returned fd {}; the app duplicated or moved it)",
            list(open),
            list(returned)
        )
    };
    let name = export
        .name
        .as_ref()
        .map(|n| format!(" \"{n}\""))
        .unwrap_or_default();
    let file = export.exported.file;
    let what = if export.exported.shared_file {
        format!(
            "an open file description vkGetMemoryFdKHR returned for it (of a file the driver's \
             exports and its own descriptors share: device {:#x}, inode {}; told apart from \
             them by kcmp)",
            file.dev, file.ino
        )
    } else {
        format!(
            "the file vkGetMemoryFdKHR exported from it (device {:#x}, inode {})",
            file.dev, file.ino
        )
    };
    Finding::new(
        vuid::EXPORTED_FD_LEAKED,
        command,
        "",
        format!(
            "{command}(): {}{name} {}, but {what} is still open in this process {numbers} and \
             was never imported. The app owns every exported fd: close it, or import it with \
             VkImportMemoryFdInfoKHR; an open fd keeps the memory alive.",
            describe_allocation(&export.record),
            checkpoint.when(),
        ),
    )
    .with(ObjectRef::device(device))
    .with(ObjectRef::memory(export.record.memory))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::fd_leaks::state::ExportedFile;
    use crate::state::MemoryRecord;

    const A: FileId = FileId { dev: 5, ino: 100 };
    const B: FileId = FileId { dev: 5, ino: 200 };

    fn export(memory: u64, file: FileId, fds: &[i32]) -> FreedExport {
        FreedExport {
            record: MemoryRecord {
                memory,
                ..crate::rules::fixtures::record_on(0xd, Default::default())
            },
            name: Some("staging".into()),
            exported: ExportedFile {
                file,
                fds: fds.to_vec(),
                shared_file: false,
            },
        }
    }

    #[test]
    fn an_open_exported_file_is_a_leak_by_identity() {
        let exports = [export(0x10, A, &[7]), export(0x20, B, &[8])];
        // fd 7 now holds B's file and fd 8 A's (swapped with dup2): each is found by identity.
        let open = [(7, B), (8, A), (3, FileId { dev: 1, ino: 1 })];
        let out = check_leaks(Checkpoint::DestroyDevice, 0xd, &exports, &open, |_| false);
        assert_eq!(
            out.ids(),
            [vuid::EXPORTED_FD_LEAKED, vuid::EXPORTED_FD_LEAKED]
        );
        let first = &out.findings[0].message;
        assert!(
            first.starts_with("vkDestroyDevice(): VkDeviceMemory 0x10 (allocated on VkDevice 0xd"),
            "{first}"
        );
        assert!(
            first.contains(") \"staging\" belongs to the device being destroyed"),
            "{first}"
        );
        assert!(
            first.contains("as fd 8 (vkGetMemoryFdKHR returned fd 7;"),
            "{first}"
        );
        assert!(out.findings[1]
            .message
            .contains("as fd 7 (vkGetMemoryFdKHR returned fd 8;"));
        assert!(!out.blocked);
    }

    #[test]
    fn closed_or_imported_files_are_not_leaks() {
        let exports = [export(0x10, A, &[7])];
        let open = [(7, B)]; // 7 was closed and reused for another file.
        assert!(
            check_leaks(Checkpoint::Free, 0xd, &exports, &open, |_| false)
                .findings
                .is_empty()
        );
        let open = [(9, A)];
        assert!(
            check_leaks(Checkpoint::Exit, 0xd, &exports, &open, |f| f == A)
                .findings
                .is_empty()
        );
        let out = check_leaks(Checkpoint::Exit, 0xd, &exports, &open, |_| false);
        assert!(out.findings[0].message.starts_with("exit(): "));
    }
}

//! One export as the layer writes it to its process's file of the shared directory: a fixed
//! 256-byte record, versioned and checksummed, so that a reader can tell a whole record from a
//! torn, corrupt or foreign one. Native byte order: the files never leave the machine.
//!
//! | bytes   | field |
//! |---------|-------|
//! | 0–7     | magic `XCEXPRT2` (the format's version is its last byte) |
//! | 8–15    | FNV-1a 64 of bytes 16–255 |
//! | 16–47   | the payload: `st_dev`, `st_ino`, change time (seconds, nanoseconds) |
//! | 48–63   | pid, handle type, memory type index (a semaphore's: its create flags), flags |
//! | 64–95   | allocationSize, `VkDevice`, `VkDeviceMemory` (a semaphore's: `VkSemaphore`), dedicated image or buffer |
//! | 96–103  | device mask, physical-device count (`u32::MAX`: unknown) |
//! | 104–135 | deviceUUID, driverUUID |
//! | 136–151 | the process's name (`/proc/self/comm`) |
//! | 152–215 | the physical devices' deviceUUIDs in order (up to four) |
//! | 216–231 | the boot's ID (`/proc/sys/kernel/random/boot_id`): inode numbers restart at boot |
//! | 232–235 | an open-file export: the exporter's descriptor of it (else zero) |
//! | 236–239 | a semaphore record: the handle types its payload may be exported as (else zero) |
//! | 240–247 | an open-file export: the exporting process's start time (else zero) |
//! | 248–255 | zero |
//!
//! An **open-file export** (flag bit 8) is one whose file is shared with other payloads (a
//! driver's device file): bytes 16–47 name that file, and the export is the open file
//! description the exporting process's layer holds under the descriptor of bytes 232–235 while
//! the exporting allocation lives, which an importer compares with its fd by `kcmp`, after
//! checking that the process with that pid is the one that started at the recorded time. A
//! retired record (flag bit 9) says the process let that descriptor go: written before the
//! descriptor is closed, so that an importer that found the number holding its fd's open file
//! description after that close also finds the retirement.
//!
//! A **semaphore record** (flag bit 10) is an opaque-fd export of a `VkSemaphore`, not of memory
//! (the handle type's value is `VkExternalSemaphoreHandleTypeFlagBits`'): flag bit 11 says it
//! is a timeline semaphore, bytes 56–59 hold its `VkSemaphoreCreateInfo::flags`, bytes 80–87
//! the semaphore, and bytes 236–239, when flag bit 12 is set, the handle types its payload may be
//! exported as (its `VkExportSemaphoreCreateInfo::handleTypes`, the payload being its created one); the size, memory type, dedication and device mask are zero. A lookup of memory
//! never matches one, nor a semaphore's lookup a memory record. A semaphore record may be an
//! open-file export too (a driver's device file): its descriptor numbers are the process's, as
//! memory's are, and a retired record retires a number whatever kind of export it held.

use crate::features::import_matching::state::opaque_exports::{DeviceMask, ExportOrigin, Exporter};
use crate::os::payload::PayloadId;
use crate::state::device_groups::{members, PhysicalDevices, Uuid};
use ash::vk;

/// The size of one record.
pub const SIZE: usize = 256;
const MAGIC: [u8; 8] = *b"XCEXPRT2";
/// The most physical devices whose deviceUUIDs a record carries.
const MAX_UUIDS: usize = 4;

const CREATED_HERE: u32 = 1;
const HAS_DEVICE_UUID: u32 = 1 << 1;
const HAS_DRIVER_UUID: u32 = 1 << 2;
const DEDICATED_IMAGE: u32 = 1 << 3;
const DEDICATED_BUFFER: u32 = 1 << 4;
const MASK_KNOWN: u32 = 1 << 5;
const MASK_NAMED: u32 = 1 << 6;
const UUIDS_KNOWN: u32 = 1 << 7;
const OPEN_FILE: u32 = 1 << 8;
const RETIRED: u32 = 1 << 9;
const SEMAPHORE: u32 = 1 << 10;
const TIMELINE: u32 = 1 << 11;
const EXPORTABLE_KNOWN: u32 = 1 << 12;

/// What was exported: memory, or a semaphore (with what it was created with).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    #[default]
    Memory,
    /// `origin.memory` is the `VkSemaphore`.
    Semaphore {
        /// `VkSemaphoreTypeCreateInfo::semaphoreType` was `VK_SEMAPHORE_TYPE_TIMELINE`.
        timeline: bool,
        /// `VkSemaphoreCreateInfo::flags`.
        create_flags: u32,
        /// The handle types the payload may be exported as: the semaphore's
        /// `VkExportSemaphoreCreateInfo::handleTypes` when the payload was its created one.
        exportable: Option<u32>,
    },
}

impl Kind {
    /// Whether it is a semaphore's export.
    pub fn is_semaphore(self) -> bool {
        matches!(self, Kind::Semaphore { .. })
    }
}

/// An export another process (or this one) recorded: the payload, who exported it, and the
/// allocation it was exported from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedExport {
    pub payload: PayloadId,
    pub origin: ExportOrigin,
    /// The boot it was recorded in ([`boot_id`]).
    pub boot: [u8; 16],
    /// An export known by its open file description (the payload names a file shared with
    /// other payloads): where the exporting process holds it.
    pub open_file: Option<OpenFileRef>,
    /// What was exported: memory or a semaphore.
    pub kind: Kind,
}

/// Where an exporting process holds the open file description of an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpenFileRef {
    /// The exporting layer's descriptor of it.
    pub held_fd: i32,
    /// The exporting process's start time (`crate::os::process_start_time`).
    pub start_time: u64,
    /// The exporting process let the descriptor go (its allocation was freed, or the layer
    /// holds other exports instead): a later record under the same number is another export,
    /// and until then none is.
    pub retired: bool,
}

/// This boot's ID (`/proc/sys/kernel/random/boot_id`, 32 hexadecimal digits), or zeros where
/// it cannot be read: a record of another boot names a payload of another boot, whatever its
/// inode.
pub fn boot_id() -> [u8; 16] {
    static ID: std::sync::OnceLock<[u8; 16]> = std::sync::OnceLock::new();
    if cfg!(miri) {
        // Miri isolates the file system: the unit tests of records run with zeros.
        return [0; 16];
    }
    *ID.get_or_init(|| {
        let mut id = [0u8; 16];
        let text = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
        let digits: Vec<u8> = text
            .bytes()
            .filter_map(|c| (c as char).to_digit(16).map(|d| d as u8))
            .collect();
        if digits.len() == 32 {
            for (i, pair) in digits.chunks_exact(2).enumerate() {
                id[i] = pair[0] << 4 | pair[1];
            }
        }
        id
    })
}

impl SharedExport {
    /// The exporting process and handle type (always set in a shared export).
    pub fn exporter(&self) -> Exporter {
        self.origin.exporter.unwrap_or_default()
    }
}

/// What a record's bytes say.
// Decoded one record at a time, and moved at once into the index: no need to box the export.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, PartialEq, Eq)]
pub enum Decoded {
    Export(SharedExport),
    /// Not a record of this format and version (a foreign file, or another version's).
    Foreign,
    /// The magic is right but the checksum is not: torn (being written) or corrupt.
    Damaged,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Writer<'a>(&'a mut [u8; SIZE]);

impl Writer<'_> {
    fn put(&mut self, at: usize, bytes: &[u8]) {
        self.0[at..at + bytes.len()].copy_from_slice(bytes);
    }
}

struct Reader<'a>(&'a [u8; SIZE]);

impl Reader<'_> {
    fn u32(&self, at: usize) -> u32 {
        u32::from_ne_bytes(self.0[at..at + 4].try_into().expect("4 bytes"))
    }
    fn u64(&self, at: usize) -> u64 {
        u64::from_ne_bytes(self.0[at..at + 8].try_into().expect("8 bytes"))
    }
    fn uuid(&self, at: usize) -> Uuid {
        self.0[at..at + 16].try_into().expect("16 bytes")
    }
}

/// The record of `export`.
pub fn encode(export: &SharedExport) -> [u8; SIZE] {
    let mut bytes = [0u8; SIZE];
    let (p, o, e) = (export.payload, export.origin, export.exporter());
    let mut flags = 0;
    let mut set = |bit, on: bool| flags |= if on { bit } else { 0 };
    set(CREATED_HERE, o.created_here);
    set(HAS_DEVICE_UUID, o.device_uuid.is_some());
    set(HAS_DRIVER_UUID, o.driver_uuid.is_some());
    let dedicated = o.dedicated_to.map_or((0, 0), |(t, h)| (t.as_raw(), h));
    set(
        DEDICATED_IMAGE,
        dedicated.0 == vk::ObjectType::IMAGE.as_raw(),
    );
    set(
        DEDICATED_BUFFER,
        dedicated.0 == vk::ObjectType::BUFFER.as_raw(),
    );
    set(MASK_KNOWN, o.device_mask.is_some());
    set(MASK_NAMED, o.device_mask.is_some_and(|m| m.named));
    let uuids = o
        .physical_devices
        .ordered
        .map(members)
        .filter(|u| u.len() <= MAX_UUIDS);
    set(UUIDS_KNOWN, uuids.is_some());
    set(OPEN_FILE, export.open_file.is_some());
    set(RETIRED, export.open_file.is_some_and(|o| o.retired));
    let (semaphore, timeline, create_flags, exportable) = match export.kind {
        Kind::Memory => (false, false, None, None),
        Kind::Semaphore {
            timeline,
            create_flags,
            exportable,
        } => (true, timeline, Some(create_flags), exportable),
    };
    set(SEMAPHORE, semaphore);
    set(TIMELINE, timeline);
    set(EXPORTABLE_KNOWN, exportable.is_some());
    let mut w = Writer(&mut bytes);
    w.put(0, &MAGIC);
    w.put(16, &p.dev.to_ne_bytes());
    w.put(24, &p.ino.to_ne_bytes());
    w.put(32, &p.ctime_sec.to_ne_bytes());
    w.put(40, &p.ctime_nsec.to_ne_bytes());
    w.put(48, &e.pid.to_ne_bytes());
    w.put(52, &e.handle_type.as_raw().to_ne_bytes());
    w.put(
        56,
        &create_flags.unwrap_or(o.memory_type_index).to_ne_bytes(),
    );
    w.put(60, &flags.to_ne_bytes());
    w.put(64, &o.size.to_ne_bytes());
    w.put(72, &o.device.to_ne_bytes());
    w.put(80, &o.memory.to_ne_bytes());
    w.put(88, &dedicated.1.to_ne_bytes());
    w.put(96, &o.device_mask.map_or(0, |m| m.mask).to_ne_bytes());
    w.put(
        100,
        &o.physical_devices.count.unwrap_or(u32::MAX).to_ne_bytes(),
    );
    w.put(104, &o.device_uuid.unwrap_or_default());
    w.put(120, &o.driver_uuid.unwrap_or_default());
    w.put(136, &e.name);
    for (i, uuid) in uuids.iter().flatten().enumerate() {
        w.put(152 + 16 * i, uuid);
    }
    w.put(216, &export.boot);
    if let Some(open) = export.open_file {
        w.put(232, &open.held_fd.to_ne_bytes());
        w.put(240, &open.start_time.to_ne_bytes());
    }
    w.put(236, &exportable.unwrap_or(0).to_ne_bytes());
    let sum = fnv1a(&bytes[16..]);
    bytes[8..16].copy_from_slice(&sum.to_ne_bytes());
    bytes
}

/// What `bytes` say: an export, or why not.
pub fn decode(bytes: &[u8; SIZE]) -> Decoded {
    if bytes[..8] != MAGIC {
        return Decoded::Foreign;
    }
    let r = Reader(bytes);
    if r.u64(8) != fnv1a(&bytes[16..]) {
        return Decoded::Damaged;
    }
    let flags = r.u32(60);
    let has = |bit| flags & bit != 0;
    let count = Some(r.u32(100)).filter(|&c| c != u32::MAX);
    let uuids = has(UUIDS_KNOWN).then(|| {
        let n = count.map_or(0, |c| c as usize).min(MAX_UUIDS);
        (0..n).map(|i| r.uuid(152 + 16 * i)).collect()
    });
    let dedicated_to = if has(DEDICATED_IMAGE) {
        Some((vk::ObjectType::IMAGE, r.u64(88)))
    } else if has(DEDICATED_BUFFER) {
        Some((vk::ObjectType::BUFFER, r.u64(88)))
    } else {
        None
    };
    Decoded::Export(SharedExport {
        payload: PayloadId {
            dev: r.u64(16),
            ino: r.u64(24),
            ctime_sec: r.u64(32) as i64,
            ctime_nsec: r.u64(40) as i64,
        },
        origin: ExportOrigin {
            device: r.u64(72),
            memory: r.u64(80),
            size: r.u64(64),
            // A semaphore record's bytes 56–59 are its create flags.
            memory_type_index: if has(SEMAPHORE) { 0 } else { r.u32(56) },
            created_here: has(CREATED_HERE),
            dedicated_to,
            device_uuid: has(HAS_DEVICE_UUID).then(|| r.uuid(104)),
            driver_uuid: has(HAS_DRIVER_UUID).then(|| r.uuid(120)),
            physical_devices: PhysicalDevices::new(count, uuids),
            device_mask: has(MASK_KNOWN).then(|| DeviceMask {
                mask: r.u32(96),
                named: has(MASK_NAMED),
            }),
            exporter: Some(Exporter {
                pid: r.u32(48),
                name: bytes[136..152].try_into().expect("16 bytes"),
                handle_type: vk::ExternalMemoryHandleTypeFlags::from_raw(r.u32(52)),
            }),
        },
        boot: r.uuid(216),
        open_file: has(OPEN_FILE).then(|| OpenFileRef {
            held_fd: r.u32(232) as i32,
            start_time: r.u64(240),
            retired: has(RETIRED),
        }),
        kind: if has(SEMAPHORE) {
            Kind::Semaphore {
                timeline: has(TIMELINE),
                create_flags: r.u32(56),
                exportable: has(EXPORTABLE_KNOWN).then(|| r.u32(236)),
            }
        } else {
            Kind::Memory
        },
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) fn sample() -> SharedExport {
        SharedExport {
            payload: PayloadId {
                dev: 12,
                ino: 345,
                ctime_sec: 1_700_000_000,
                ctime_nsec: 123_456_789,
            },
            origin: ExportOrigin {
                device: 0xd000,
                memory: 0x3000,
                size: 65536,
                memory_type_index: 2,
                created_here: true,
                dedicated_to: Some((vk::ObjectType::BUFFER, 0xb0)),
                device_uuid: Some([1; 16]),
                driver_uuid: None,
                physical_devices: PhysicalDevices::new(Some(2), Some(vec![[1; 16], [2; 16]])),
                device_mask: Some(DeviceMask {
                    mask: 2,
                    named: true,
                }),
                exporter: Some(Exporter {
                    pid: 1234,
                    name: *b"encoder\0\0\0\0\0\0\0\0\0",
                    handle_type: vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD,
                }),
            },
            boot: boot_id(),
            open_file: None,
            kind: Kind::Memory,
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let export = sample();
        assert_eq!(decode(&encode(&export)), Decoded::Export(export));
        let mut plain = sample();
        plain.origin.dedicated_to = None;
        plain.origin.device_mask = None;
        plain.origin.physical_devices = PhysicalDevices::new(None, None);
        assert_eq!(decode(&encode(&plain)), Decoded::Export(plain));
        let mut open = sample();
        open.open_file = Some(OpenFileRef {
            held_fd: 1000,
            start_time: 123_456_789_012,
            retired: false,
        });
        assert_eq!(decode(&encode(&open)), Decoded::Export(open));
        let mut retired = open;
        retired.open_file = Some(OpenFileRef {
            retired: true,
            ..open.open_file.unwrap()
        });
        assert_eq!(decode(&encode(&retired)), Decoded::Export(retired));
        let mut semaphore = plain;
        semaphore.origin.memory_type_index = 0;
        semaphore.kind = Kind::Semaphore {
            timeline: true,
            create_flags: 0x10,
            exportable: Some(0x1),
        };
        assert_eq!(decode(&encode(&semaphore)), Decoded::Export(semaphore));
        let binary = SharedExport {
            kind: Kind::Semaphore {
                timeline: false,
                create_flags: 0,
                exportable: None,
            },
            ..semaphore
        };
        assert_eq!(decode(&encode(&binary)), Decoded::Export(binary));
    }

    #[test]
    fn any_changed_byte_is_damage_and_another_magic_is_foreign() {
        let bytes = encode(&sample());
        for at in (8..SIZE).step_by(7) {
            let mut changed = bytes;
            changed[at] ^= 0x40;
            assert_eq!(decode(&changed), Decoded::Damaged, "byte {at}");
        }
        let mut foreign = bytes;
        foreign[7] = b'1';
        assert_eq!(decode(&foreign), Decoded::Foreign);
        assert_eq!(decode(&[0; SIZE]), Decoded::Foreign);
    }
}

//! A mapped buffer's "device memory": a host mapping of the imported file at the buffer's offset
//! (`MAP_SHARED`, so what the test hooks write through the device pointer lands in the exporter's
//! memory), or, for a file that cannot be mapped, private anonymous memory. Its device pointer is
//! the mapping's address of the buffer's first byte.

use std::os::fd::{AsRawFd, OwnedFd};

pub struct HostMapping {
    /// The address `mmap` returned (page-aligned) and the length mapped.
    base: usize,
    length: usize,
    /// The device pointer: `base` plus the offset's distance from its page.
    pub address: u64,
    /// The buffer's size.
    pub size: u64,
    /// How many bytes from `address` are backed (the rest of a buffer beyond the file's end
    /// would fault if touched): what the test hooks may read and write.
    pub backed: u64,
}

impl HostMapping {
    /// Maps `size` bytes of `file` at `offset`; anonymous memory when the file cannot be mapped.
    /// `None` when not even that can be had.
    pub fn new(file: Option<&OwnedFd>, offset: u64, size: u64) -> Option<Self> {
        let size_usize = usize::try_from(size).ok()?;
        if let Some(file) = file {
            if let Some(mapping) = Self::of_file(file, offset, size, size_usize) {
                return Some(mapping);
            }
        }
        // SAFETY: a new private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size_usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        Some(HostMapping {
            base: base as usize,
            length: size_usize,
            address: base as u64,
            size,
            backed: size,
        })
    }

    fn of_file(file: &OwnedFd, offset: u64, size: u64, size_usize: usize) -> Option<Self> {
        // SAFETY: sysconf has no memory arguments.
        let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        let start = offset - offset % page;
        let lead = offset - start;
        let length = size_usize.checked_add(usize::try_from(lead).ok()?)?;
        let file_offset = libc::off_t::try_from(start).ok()?;
        // SAFETY: a new shared mapping of an fd this library owns; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                length,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                file_offset,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: `stat` is plain data, written by fstat.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid fd and a local to write.
        let file_size = if unsafe { libc::fstat(file.as_raw_fd(), &mut stat) } == 0 {
            u64::try_from(stat.st_size).unwrap_or(0)
        } else {
            0
        };
        Some(HostMapping {
            base: base as usize,
            length,
            address: base as u64 + lead,
            size,
            backed: file_size.saturating_sub(offset).min(size),
        })
    }

    /// The host address of `address..address + len` when it lies in this mapping's backed part.
    pub fn host_range(&self, address: u64, len: usize) -> Option<*mut u8> {
        let end = address.checked_add(u64::try_from(len).ok()?)?;
        let backed_end = self.address + self.backed;
        (address >= self.address && end <= backed_end).then_some(address as usize as *mut u8)
    }
}

impl Drop for HostMapping {
    fn drop(&mut self) {
        // SAFETY: this mapping's own pages, which nothing else refers to once it is dropped.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.length) };
    }
}

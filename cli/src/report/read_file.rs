//! How the gate reads the files processes of a run leave in its directory (reports, journals):
//! as the layer reads its settings file. Never through a symbolic link, never blocking (a FIFO
//! or a device named like a report is refused at once, not waited on), only a regular file, and
//! at most [`MAX_BYTES`]: a process of the run may leave anything under those names, and the
//! gate must neither hang nor run out of memory on it. A file refused is unreadable, which fails
//! the run ([`crate::exit`]), never silence.

use std::io::Read;
use std::path::Path;

/// The most bytes one report or journal may hold (a journal of a long run with many findings
/// is the largest: about a kilobyte per finding).
pub const MAX_BYTES: u64 = 256 << 20;

/// The text of the regular file at `path`, or why it cannot be read.
///
/// # Errors
///
/// Not a regular file (a symbolic link, a FIFO, a device, a directory), larger than
/// [`MAX_BYTES`], not UTF-8, or an I/O error.
pub fn read_text(path: &Path) -> Result<String, String> {
    let file = open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err("not a regular file".to_owned());
    }
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes, more than the {MAX_BYTES} a report or journal may hold",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!(
            "grew past the {MAX_BYTES} bytes a report or journal may hold while read"
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))
}

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether a directory entry's name (any bytes: a name that is not UTF-8 is still a report or
/// journal the gate must read) starts with `prefix` and ends with `suffix`, with something
/// between.
#[must_use]
pub fn name_matches(name: &std::ffi::OsStr, prefix: &str, suffix: &str) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.len() > prefix.len() + suffix.len()
        && bytes.starts_with(prefix.as_bytes())
        && bytes.ends_with(suffix.as_bytes())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report-1.json");
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(read_text(&file).unwrap(), "{}");
        let link = dir.path().join("report-2.json");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(read_text(&link).is_err(), "a symbolic link");
        let fifo = dir.path().join("report-3.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let refused = read_text(&fifo).unwrap_err();
        assert!(refused.contains("not a regular file"), "{refused}");
        assert!(read_text(Path::new("/dev/zero")).is_err(), "a device");
        let big = dir.path().join("report-4.json");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_BYTES + 1).unwrap();
        assert!(read_text(&big).unwrap_err().contains("more than"));
    }

    #[test]
    fn names_are_matched_as_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let odd = std::ffi::OsStr::from_bytes(b"report-\xff\xfe.json");
        assert!(name_matches(odd, "report-", ".json"));
        assert!(!name_matches(
            std::ffi::OsStr::new("report-.json"),
            "report-",
            ".json"
        ));
        assert!(!name_matches(
            std::ffi::OsStr::new("x.json"),
            "report-",
            ".json"
        ));
    }
}

//! A private temporary directory, removed when dropped.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A directory under the system's temporary directory, created exclusively (mode 0700 on Unix)
/// and removed with everything in it when dropped.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `<tmp>/<prefix><pid>-<n>`, trying further names if one exists.
    ///
    /// # Errors
    ///
    /// When the directory cannot be created.
    pub fn new(prefix: &str) -> io::Result<Self> {
        let base = utf8_temp_dir();
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut last = None;
        for attempt in 0..1000u32 {
            let path = base.join(format!(
                "{prefix}{}-{:08x}",
                std::process::id(),
                seed.wrapping_add(attempt.wrapping_mul(0x9E37_79B9))
            ));
            #[cfg(unix)]
            let builder = {
                let mut builder = std::fs::DirBuilder::new();
                std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
                builder
            };
            #[cfg(not(unix))]
            let builder = std::fs::DirBuilder::new();
            match builder.create(&path) {
                Ok(()) => return Ok(Self(path)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free temporary directory name")))
    }

    /// The directory.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// The system's temporary directory, where its path is UTF-8: the paths under it reach the layer
/// as settings, which are text. Otherwise `/tmp` (said on stderr), so that no process's report
/// path is dropped.
fn utf8_temp_dir() -> PathBuf {
    let base = std::env::temp_dir();
    if base.to_str().is_some() {
        return base;
    }
    let fallback = PathBuf::from(if cfg!(unix) { "/tmp" } else { "." });
    eprintln!(
        "exportcheck: the temporary directory {} is not UTF-8; the run's files are under {}",
        base.display(),
        fallback.display()
    );
    fallback
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_private_distinct_and_removed() {
        let a = TempDir::new("exportcheck-test-").unwrap();
        let b = TempDir::new("exportcheck-test-").unwrap();
        assert_ne!(a.path(), b.path());
        assert!(a.path().is_dir());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(a.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        std::fs::write(a.path().join("f"), b"x").unwrap();
        let path = a.path().to_owned();
        drop(a);
        assert!(!path.exists());
    }
}

//! Programs built with a sanitizer whose runtime is a shared library (gcc's `-fsanitize=address`
//! links `libasan.so`): ASan aborts at start unless its runtime is the first library of the
//! process ("ASan runtime does not come first in initial library list"), and every library in
//! `LD_PRELOAD` comes before it. `exportcheck run` preloads its CUDA interposer only where that
//! keeps the program's own order: after a user's `LD_PRELOAD` that starts with the runtime (as
//! ASan's advice says), never in front of a runtime the program needs itself.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The runtime libraries that must come first, as they appear in a program's `DT_NEEDED`.
const FIRST_RUNTIMES: [&[u8]; 2] = [b"libasan.so", b"libhwasan.so"];

/// Whether `program` (as the run starts it: a path, or a name searched in `path_var`) is an
/// executable that needs a sanitizer runtime first and `preload` (the user's `LD_PRELOAD`) does
/// not start with one: then nothing may be preloaded in front of the program's libraries.
#[must_use]
pub fn needs_its_runtime_first(
    program: &OsStr,
    path_var: Option<OsString>,
    preload: Option<&OsStr>,
) -> bool {
    let preloaded_first = preload.is_some_and(|p| {
        let first = p
            .as_encoded_bytes()
            .split(|&b| b == b':' || b == b' ')
            .find(|e| !e.is_empty())
            .unwrap_or_default();
        FIRST_RUNTIMES.iter().any(|r| contains(first, r))
    });
    !preloaded_first && resolve(program, path_var).is_some_and(|file| names_a_first_runtime(&file))
}

/// `program` as `execvp` finds it.
fn resolve(program: &OsStr, path_var: Option<OsString>) -> Option<PathBuf> {
    if program.as_encoded_bytes().contains(&b'/') {
        return Some(PathBuf::from(program));
    }
    let path_var = path_var?;
    std::env::split_paths(&path_var)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether the file's bytes name one of [`FIRST_RUNTIMES`] (its dynamic string table does, for
/// a program that needs it), read in pieces (a large program is not loaded whole).
fn names_a_first_runtime(file: &Path) -> bool {
    let Ok(mut f) = std::fs::File::open(file) else {
        return false;
    };
    let mut magic = [0u8; 4];
    if f.read_exact(&mut magic).is_err() || magic != *b"\x7fELF" {
        return false;
    }
    let mut buf = vec![0u8; 1 << 20];
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = match f.read(&mut buf) {
            Ok(0) | Err(_) => return false,
            Ok(n) => n,
        };
        carry.extend_from_slice(&buf[..n]);
        if FIRST_RUNTIMES.iter().any(|r| contains(&carry, r)) {
            return true;
        }
        let keep = carry.len().saturating_sub(16);
        carry.drain(..keep);
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_needing_its_runtime_first_is_seen_unless_the_user_preloads_it() {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("app");
        let mut bytes = b"\x7fELF".to_vec();
        bytes.extend(vec![0u8; (1 << 20) - 3]);
        bytes.extend(b"libasan.so.8\0");
        std::fs::write(&app, &bytes).unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"\x7fELF\0\0libc.so.6\0").unwrap();
        let script = dir.path().join("script");
        std::fs::write(&script, b"#!/bin/sh\n# libasan.so\n").unwrap();
        assert!(
            needs_its_runtime_first(app.as_os_str(), None, None),
            "across a piece's edge"
        );
        assert!(!needs_its_runtime_first(plain.as_os_str(), None, None));
        assert!(
            !needs_its_runtime_first(script.as_os_str(), None, None),
            "not an ELF file"
        );
        let preload = OsStr::new("/usr/lib/gcc/x86_64-linux-gnu/12/libasan.so:/x.so");
        assert!(!needs_its_runtime_first(
            app.as_os_str(),
            None,
            Some(preload)
        ));
        let later = OsStr::new("/x.so /usr/lib/libasan.so");
        assert!(needs_its_runtime_first(app.as_os_str(), None, Some(later)));
        let path = Some(dir.path().as_os_str().to_owned());
        assert!(
            needs_its_runtime_first(OsStr::new("app"), path, None),
            "found in PATH"
        );
    }
}

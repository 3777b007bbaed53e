//! The project's test CUDA driver library (tests/cuda-driver, `libexportcheck_test_cuda.so`,
//! soname `libcuda.so.1`), found the way NVIDIA's is: by the name `libcuda.so.1` in a directory
//! of `LD_LIBRARY_PATH`. [`library_dir`] is that directory; the dynamic linker reads
//! `LD_LIBRARY_PATH` when a process starts, so a test loads the library in a child process it
//! starts with [`ld_library_path`].

use std::ffi::OsString;
use std::path::PathBuf;

/// The file name the library is loaded by.
pub const SONAME: &str = "libcuda.so.1";

/// The test CUDA library built by `cargo build` for this profile (built now if need be: see
/// [`crate::built`]).
pub fn library() -> PathBuf {
    crate::built::artifact("libexportcheck_test_cuda.so")
}

/// `target/<profile>/exportcheck-test-cuda/`, holding a `libcuda.so.1` link to [`library`];
/// made, or its link corrected, now.
pub fn library_dir() -> PathBuf {
    let library = library();
    let dir = library
        .parent()
        .expect("library dir")
        .join("exportcheck-test-cuda");
    std::fs::create_dir_all(&dir).expect("test CUDA library dir");
    let link = dir.join(SONAME);
    if std::fs::read_link(&link).ok().as_deref() != Some(library.as_path()) {
        // Made aside and renamed into place: another test process may be loading it meanwhile.
        // The name is this thread's own (the tests of a binary run in threads of one process).
        let tmp = dir.join(format!(
            ".{SONAME}.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&library, &tmp).expect("link libcuda.so.1");
        std::fs::rename(&tmp, &link).expect("install libcuda.so.1");
    }
    dir
}

/// `LD_LIBRARY_PATH` for a process that is to load the test CUDA library as `libcuda.so.1`:
/// [`library_dir`] first, then this process's own value.
pub fn ld_library_path() -> OsString {
    let mut paths = vec![library_dir()];
    if let Some(inherited) = std::env::var_os("LD_LIBRARY_PATH") {
        paths.extend(std::env::split_paths(&inherited));
    }
    std::env::join_paths(paths).expect("LD_LIBRARY_PATH")
}

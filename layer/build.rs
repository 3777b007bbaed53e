//! Links the layer library with `-z nodelete` on ELF targets: once loaded it is never unloaded,
//! whoever calls `dlclose` (the loader does after the last instance). Its thread-locals, exit
//! hooks and statics then never outlive their code (docs/reliability.md).
//! Windows and macOS have no such flag and are left alone.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf = matches!(
        os.as_str(),
        "linux"
            | "android"
            | "freebsd"
            | "netbsd"
            | "openbsd"
            | "dragonfly"
            | "illumos"
            | "solaris"
    );
    if elf {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    }
}

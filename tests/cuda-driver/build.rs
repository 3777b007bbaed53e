//! The library's ELF soname is `libcuda.so.1`, NVIDIA's: what a program linked against the CUDA
//! driver records as its dependency, and what the dynamic linker finds in LD_LIBRARY_PATH.
//!
//! `-Bsymbolic`: the library's references to its own entry points bind to its own definitions,
//! as NVIDIA's driver's do. Without it, the addresses `cuGetProcAddress` hands out go through the
//! GOT and are a preloaded library's when one defines the same names (exportcheck's CUDA
//! interposer does), which hands the app the interposer's export instead of the driver's function.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcuda.so.1");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
    println!("cargo:rerun-if-changed=build.rs");
}

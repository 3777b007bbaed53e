//! The library's ELF soname is `libcuda.so.1`, NVIDIA's: what a program linked against the CUDA
//! driver records as its dependency, and what the dynamic linker finds in LD_LIBRARY_PATH.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcuda.so.1");
    println!("cargo:rerun-if-changed=build.rs");
}

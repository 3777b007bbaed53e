//! Prints `layer/src/vuid.rs` from the catalog.

fn main() {
    print!(
        "{}",
        exportcheck_vuids::vuid_rs(exportcheck_vuids::catalog())
    );
}

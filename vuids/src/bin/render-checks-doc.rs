//! Prints `docs/checks.md` from the catalog.

fn main() {
    print!(
        "{}",
        exportcheck_vuids::checks_markdown(exportcheck_vuids::catalog())
    );
}

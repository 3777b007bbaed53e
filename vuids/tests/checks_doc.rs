//! `docs/checks.md` is generated from the catalog; this keeps the committed page in step.

#[test]
fn docs_checks_md_is_generated_from_the_catalog() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/checks.md");
    let committed = std::fs::read_to_string(path).expect("docs/checks.md");
    let rendered = exportcheck_vuids::checks_markdown(exportcheck_vuids::catalog());
    assert!(
        committed == rendered,
        "docs/checks.md is out of date: run `cargo run -p exportcheck-vuids --bin render-checks-doc > docs/checks.md`"
    );
}

//! `layer/src/vuid.rs` is generated from the catalog; this keeps the committed file in step, and
//! every checked ID with a constant of its own.

#[test]
fn layer_vuid_rs_is_generated_from_the_catalog() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../layer/src/vuid.rs");
    let committed = std::fs::read_to_string(path).expect("layer/src/vuid.rs");
    let rendered = exportcheck_vuids::vuid_rs(exportcheck_vuids::catalog());
    assert!(
        committed == rendered,
        "layer/src/vuid.rs is out of date: run `cargo run -p exportcheck-vuids --bin render-vuid-rs > layer/src/vuid.rs`"
    );
}

#[test]
fn every_checked_id_and_only_those_have_a_constant() {
    let catalog = exportcheck_vuids::catalog();
    let mut names = std::collections::BTreeSet::new();
    for entry in catalog.entries() {
        assert_eq!(
            entry.constant.is_some(),
            entry.is_checked(),
            "{}: a constant exactly when checked",
            entry.id
        );
        if let Some(name) = &entry.constant {
            assert!(names.insert(name.clone()), "{name} names two IDs");
        }
    }
}

//! No circle of uses among the modules of this crate: no two files use each other, directly or
//! through others (read from the sources as `layer/tests/module_layers.rs` reads the layer's).

#[path = "../../../layer/tests/module_graph/mod.rs"]
mod module_graph;

#[test]
fn no_two_modules_use_each_other() {
    let uses = module_graph::Crate::from_disk(env!("CARGO_MANIFEST_DIR"), "lib.rs").uses();
    let found = module_graph::circles(&uses);
    assert!(
        found.is_empty(),
        "modules that use each other:\n{}",
        found.join("\n")
    );
}

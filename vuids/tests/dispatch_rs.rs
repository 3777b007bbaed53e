//! The layer's dispatch tables (`layer/src/next_layer/dispatch.rs`,
//! `layer/src/dispatch/intercept_table.rs`, `layer/src/state/enabled_extensions.rs`) are generated
//! from `vuids/commands.json` and `vuids/registry/vk.xml`; this keeps the committed files in step
//! with the generator's output.

#[test]
fn layer_dispatch_tables_are_generated_from_the_table_of_commands() {
    let files = exportcheck_vuids::dispatch_files_of_repository().expect("vuids/commands.json");
    assert_eq!(files.len(), 3);
    for (path, rendered) in files {
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read_to_string(&full).unwrap_or_default();
        assert!(
            committed == rendered,
            "{path} is out of date: run `cargo run -p exportcheck-vuids --bin render-dispatch`"
        );
    }
}

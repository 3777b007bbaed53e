//! Writes the layer's generated tables (`layer/src/next_layer/dispatch.rs`,
//! `layer/src/dispatch/intercept_table.rs`, `layer/src/state/enabled_extensions.rs`) from
//! `vuids/commands.json` and `vuids/registry/vk.xml`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let files = match exportcheck_vuids::dispatch_files_of_repository() {
        Ok(files) => files,
        Err(error) => {
            eprintln!("render-dispatch: vuids/commands.json: {error}");
            return ExitCode::FAILURE;
        }
    };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for (path, source) in files {
        if let Err(error) = std::fs::write(format!("{root}/{path}"), source) {
            eprintln!("render-dispatch: {path}: {error}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
    }
    ExitCode::SUCCESS
}

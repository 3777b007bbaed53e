//! `exportcheck`, the command-line companion of the exportcheck Vulkan layer.
//!
//! * `exportcheck run [options] -- <app> [args...]` runs an app with the layer enabled (no
//!   install needed), collects the report file every process writes, merges them, prints a
//!   summary and exits with a CI-friendly code ([`exit`]).
//! * `exportcheck coverage` compares the Vulkan registry's VUIDs with the layer's catalog and
//!   with what the end-to-end tests observed.
//! * `exportcheck install` / `uninstall` put a layer manifest with an absolute `library_path`
//!   where the Vulkan loader finds explicit layers.
//!
//! The binary (`src/main.rs`) only parses the arguments and calls [`dispatch`]; everything else
//! lives in this library so that it can be unit tested.

#![warn(missing_docs)]

pub mod args;
pub mod coverage;
pub mod cuda_shim;
pub mod exit;
pub mod install;
pub mod junit;
pub mod layer_lib;
pub mod report;
pub mod run;
pub mod sanitizer;
pub mod summary;

/// Runs one parsed command line and returns the process exit code.
pub fn dispatch(cli: args::Cli) -> i32 {
    match cli.command {
        args::Command::Run(a) => run::run(&a),
        args::Command::Coverage(a) => coverage::command(&a),
        args::Command::Install(a) => install::install_command(&a),
        args::Command::Uninstall(a) => install::uninstall_command(&a),
    }
}

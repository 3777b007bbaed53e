//! `exportcheck-bench`: what exportcheck costs an application, measured through the real Vulkan
//! loader on the project's test driver and on Mesa lavapipe, against no layer and the Khronos
//! validation layer. See docs/performance.md.
//!
//! The loader reads its environment once per process, so each (driver, configuration) runs in a
//! child process (this executable again, `exportcheck-bench child ...`), which prints its
//! measurements as JSON; the parent collects them, prints the table and writes
//! `target/bench/results.json`. `exportcheck-bench plot` draws the figures from that file.
//!
//! Besides the timings, instructions per call are counted under valgrind's callgrind
//! ([`instructions`]): a figure that does not move with the machine's noise.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod child;
mod counted;
mod instructions;
mod merge;
mod model;
mod parent;
mod plot;
mod procinfo;
mod profile;
mod report;
mod reporting_child;
mod semaphore_counts;
mod semaphore_ops;
mod setup;
mod sharing_counts;
mod sharing_ops;
mod suite_calls;
mod suite_context;
mod suite_memory;
mod table;
mod throughput;
mod timing;
mod vkctx;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("child") => child::main(&args[1..]).map(|()| 0),
        Some("instructions-child") => instructions::child_main(&args[1..]).map(|()| 0),
        Some("plot") => plot::main(&args[1..]).map(|()| 0),
        Some("profile") => profile::main(&args[1..]).map(|()| 0),
        Some("-h" | "--help" | "help") => {
            println!("{}", parent::USAGE);
            Ok(0)
        }
        _ => parent::Options::parse(&args).and_then(|o| parent::main(&o)),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("exportcheck-bench: {e}");
            ExitCode::from(1)
        }
    }
}

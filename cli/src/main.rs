//! The `exportcheck` binary: see the library crate (`exportcheck_cli`) and `docs/cli.md`.

use clap::Parser;

fn main() {
    let cli = exportcheck_cli::args::Cli::parse();
    let code = exportcheck_cli::dispatch(cli);
    std::process::exit(code);
}

//! `exportcheck coverage`: the VUID coverage report.
//!
//! Rows are every spec VUID in scope of the registry plus the catalog's spec IDs the registry
//! lacks ([`compute`]); "tested" comes only from the end-to-end tests' observations
//! ([`observed`]). Rendered as text, JSON, Markdown or HTML.

pub mod compute;
pub mod context;
pub mod html;
pub mod json;
pub mod markdown;
pub mod observed;
pub mod registry;
pub mod text;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::args::{CoverageArgs, Format, DEFAULT_OBSERVED};
use crate::exit;
pub use context::Context;
use observed::Observed;
use registry::Registry;

/// The observations directory: `--observed`, else `target/debug/exportcheck-observed` under
/// the current directory, else under the workspace this executable was built in
/// (`<exe dir>/../debug/exportcheck-observed`), else the first.
fn observed_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_owned();
    }
    let default = PathBuf::from(DEFAULT_OBSERVED);
    if default.is_dir() {
        return default;
    }
    let beside_exe = std::env::current_exe().ok().and_then(|exe| {
        let target = exe.parent()?.parent()?;
        Some(target.join("debug").join("exportcheck-observed"))
    });
    match beside_exe {
        Some(p) if p.is_dir() => p,
        _ => default,
    }
}

/// How reports name the registry built in.
const BUILT_IN_REGISTRY: &str = "built in: vuids/registry/validusage-memory-sharing-1.4.360.json";

/// Runs the command; returns the exit code.
#[must_use]
pub fn command(args: &CoverageArgs) -> i32 {
    let (registry, registry_path) = match &args.registry {
        None => (
            Registry::embedded(),
            Path::new(BUILT_IN_REGISTRY).to_path_buf(),
        ),
        Some(path) => match Registry::load(path) {
            Ok(r) => (r, path.clone()),
            Err(e) => {
                eprintln!("exportcheck: {e}");
                return exit::EXIT_TOOL_ERROR;
            }
        },
    };
    let dir = observed_dir(args.observed.as_deref());
    let observed = match Observed::load(&dir) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("exportcheck: {e}");
            return exit::EXIT_TOOL_ERROR;
        }
    };
    if observed.is_empty() {
        eprintln!(
            "exportcheck: no test observations in {}: run the tests first: scripts/test.sh",
            dir.display()
        );
    }
    for bad in observed.bad_lines.iter().take(5) {
        eprintln!("exportcheck: skipped a line that is not an observation: {bad}");
    }
    let catalog = exportcheck_vuids::catalog();
    let coverage = compute::compute(&registry, catalog, Some(&observed));
    let ctx = Context {
        coverage: &coverage,
        registry_path: &registry_path,
        registry_version: registry.api_version.as_deref(),
        catalog,
        observed: &observed,
    };
    let out = match args.format {
        Format::Text => text::render(&ctx),
        Format::Json => json::render(&ctx),
        Format::Markdown => markdown::render(&ctx),
        Format::Html => html::render(&ctx),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        // The reader stopped reading (`exportcheck coverage | head`): it has what it wanted, and
        // the verdict below still stands.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            eprintln!("exportcheck: cannot write the report: {e}");
            return exit::EXIT_TOOL_ERROR;
        }
    }
    if let Some(threshold) = args.fail_under {
        let percent = coverage.spec_tally.percent;
        if percent < threshold {
            eprintln!(
                "exportcheck: spec VUID coverage {percent:.1}% is below --fail-under {threshold}%"
            );
            return exit::EXIT_BELOW_THRESHOLD;
        }
    }
    exit::EXIT_OK
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Renders the synthetic registry, catalog and observations with `f`.
    pub(crate) fn render_synthetic(f: fn(&Context<'_>) -> String, observed: bool) -> String {
        let registry = Registry::parse(registry::tests::SYNTHETIC).unwrap();
        let catalog = compute::tests::catalog();
        let obs = if observed {
            compute::tests::observed()
        } else {
            Observed::default()
        };
        let coverage = compute::compute(&registry, &catalog, Some(&obs));
        f(&Context {
            coverage: &coverage,
            registry_path: Path::new("/r/validusage.json"),
            registry_version: registry.api_version.as_deref(),
            catalog: &catalog,
            observed: &obs,
        })
    }

    #[test]
    fn observed_dir_prefers_the_explicit_one() {
        assert_eq!(observed_dir(Some(Path::new("/x"))), PathBuf::from("/x"));
    }
}

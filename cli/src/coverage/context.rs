//! What the renderers (`text`, `json`, `markdown`, `html`) show besides the rows: below them
//! and `mod.rs`, which fills it in.

use std::path::Path;

use super::compute::Coverage;
use super::observed::Observed;

/// What the renderers show besides the rows.
pub struct Context<'a> {
    /// The rows and totals.
    pub coverage: &'a Coverage,
    /// The registry file read.
    pub registry_path: &'a Path,
    /// Its Vulkan version.
    pub registry_version: Option<&'a str>,
    /// The layer's catalog.
    pub catalog: &'a exportcheck_vuids::Catalog,
    /// The observations (possibly empty).
    pub observed: &'a Observed,
}

impl Context<'_> {
    /// One line about the observations, or the advice to run the tests.
    #[must_use]
    pub fn observed_line(&self) -> String {
        let o = self.observed;
        if self.coverage.observed {
            format!(
                "{}: {} lines from {} tests in {} files",
                o.dir.display(),
                o.lines,
                o.tests.len(),
                o.files
            )
        } else {
            format!(
                "none in {}: run the tests first: scripts/test.sh (tested columns show \"no\")",
                o.dir.display()
            )
        }
    }

    /// One line about the registry.
    #[must_use]
    pub fn registry_line(&self) -> String {
        format!(
            "{} (Vulkan {})",
            self.registry_path.display(),
            self.registry_version.unwrap_or("version unknown")
        )
    }

    /// One line about the catalog.
    #[must_use]
    pub fn catalog_line(&self) -> String {
        let c = self.coverage;
        let spec = |checked: bool| {
            self.catalog
                .entries()
                .iter()
                .filter(|e| e.origin == exportcheck_vuids::Origin::Spec)
                .filter(|e| e.is_checked() == checked)
                .count()
        };
        format!(
            "{} IDs ({} spec checked, {} the layer's own; {} spec rules listed as not checked), \
             written against Vulkan {}",
            self.catalog.entries().len(),
            spec(true),
            c.layer.len(),
            spec(false),
            self.catalog.spec_version
        )
    }
}

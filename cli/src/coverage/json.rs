//! The coverage report as JSON.
//!
//! ```json
//! {"exportcheck_coverage_version": 1,
//!  "registry": {"path": "...", "api_version": "1.3.239"},
//!  "catalog": {"spec_version": "1.4.360", "entries": 58},
//!  "observed": {"dir": "...", "present": true, "files": 10, "lines": 300, "tests": 120,
//!               "bad_lines": []},
//!  "spec": {"tally": {"total", "not_checkable", "out_of_scope", "checked", "negative",
//!                     "positive", "covered", "percent"},
//!           "rows": [{"id", "command", "registry_key", "in_registry", "checked",
//!                     "status": null|"checked"|"not-checkable"|"out-of-scope",
//!                     "negative": "yes"|"no"|"unit", "positive", "where", "note",
//!                     "severity", "covered", "negative_tests", "positive_tests",
//!                     "spec_text"}]},
//!  "layer": {"tally": {...}, "rows": [...]}}
//! ```

use serde_json::json;

use super::context::Context;

/// The report.
#[must_use]
pub fn render(ctx: &Context<'_>) -> String {
    let c = ctx.coverage;
    let o = ctx.observed;
    let value = json!({
        "exportcheck_coverage_version": 1,
        "registry": {
            "path": ctx.registry_path.display().to_string(),
            "api_version": ctx.registry_version,
        },
        "catalog": {
            "spec_version": ctx.catalog.spec_version,
            "entries": ctx.catalog.entries().len(),
        },
        "observed": {
            "dir": o.dir.display().to_string(),
            "present": c.observed,
            "files": o.files,
            "lines": o.lines,
            "tests": o.tests.len(),
            "bad_lines": o.bad_lines,
        },
        "spec": {"tally": c.spec_tally, "rows": c.spec},
        "layer": {"tally": c.layer_tally, "rows": c.layer},
    });
    let mut text = serde_json::to_string_pretty(&value).expect("serializable");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::tests::render_synthetic;

    #[test]
    fn json_is_machine_readable() {
        let v: serde_json::Value = serde_json::from_str(&render_synthetic(render, true)).unwrap();
        assert_eq!(v["registry"]["api_version"], "1.3.239");
        assert_eq!(v["observed"]["present"], true);
        assert_eq!(v["spec"]["tally"]["total"], 6);
        assert_eq!(v["spec"]["tally"]["covered"], 1);
        let rows = v["spec"]["rows"].as_array().unwrap();
        let row = rows
            .iter()
            .find(|r| r["id"] == "VUID-VkMemoryGetFdInfoKHR-handleType-00671")
            .unwrap();
        assert_eq!(row["negative"], "yes");
        assert_eq!(row["where"], "lavapipe");
        assert_eq!(row["severity"], "error");
        assert_eq!(row["negative_tests"], json!(["n1"]));
        let unit = v["layer"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "EXPORTCHECK-internal-error")
            .unwrap();
        assert_eq!(unit["negative"], "unit");
        assert_eq!(unit["where"], "unit-only");
    }
}

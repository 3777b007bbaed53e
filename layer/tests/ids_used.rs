//! Every ID the layer names is written once, in `layer/src/vuid.rs` (which a unit test keeps in
//! step with the checked IDs of `vuids/catalog.json`), and each of them is reported by some rule:
//! a constant no code outside `vuid.rs` uses is an ID the catalog calls checked that nothing
//! checks, and an ID written as a literal elsewhere escapes the catalog. Read from the sources,
//! their unit tests excluded, but for the IDs the catalog holds by construction (`"e2e":
//! "unit-only"`, such as a chained structure's `sType-sType`), which only a unit test can show.

use std::collections::BTreeMap;
use std::path::Path;

/// Every `.rs` file under `layer/src` but `vuid.rs`, by path, without its unit tests.
fn code_outside_vuid_rs() -> BTreeMap<String, String> {
    sources_outside_vuid_rs(false)
}

/// Every `.rs` file under `layer/src` but `vuid.rs`, by path: without comment lines and unit
/// tests, or whole when `with_tests` (a unit test names the rule it shows in a comment).
fn sources_outside_vuid_rs(with_tests: bool) -> BTreeMap<String, String> {
    fn walk(dir: &Path, with_tests: bool, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("layer/src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, with_tests, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("src/vuid.rs")
            {
                let text = std::fs::read_to_string(&path).expect("a source file");
                let code: String = match with_tests {
                    true => text,
                    false => text
                        .split("#[cfg(test)]")
                        .next()
                        .unwrap_or_default()
                        .lines()
                        .filter(|line| !line.trim_start().starts_with("//"))
                        .flat_map(|line| [line, "\n"])
                        .collect(),
                };
                out.insert(path.display().to_string(), code);
            }
        }
    }
    let mut out = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    walk(&src, with_tests, &mut out);
    out
}

/// The constants of `vuid.rs`: name and ID (a long one is wrapped after its `=`).
fn constants() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/vuid.rs");
    let text = std::fs::read_to_string(path).expect("vuid.rs");
    text.split("pub const ")
        .skip(1)
        .filter_map(|item| {
            let (name, rest) = item.split_once(": &str =")?;
            let id = rest.split('"').nth(1)?;
            Some((name.trim().to_owned(), id.to_owned()))
        })
        .collect()
}

/// Whether `code` names `name` as a whole identifier after `vuid::` (or imported bare).
fn names(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

#[test]
fn every_id_constant_is_used_by_the_layer() {
    let code = code_outside_vuid_rs();
    let with_tests = sources_outside_vuid_rs(true);
    let catalog = exportcheck_vuids::catalog();
    let constants = constants();
    assert!(constants.len() > 200, "vuid.rs read: {}", constants.len());
    let unused: Vec<String> = constants
        .iter()
        .filter(|(name, id)| {
            let unit_only = catalog
                .get(id)
                .is_some_and(|e| e.e2e == exportcheck_vuids::E2e::UnitOnly);
            let sources = if unit_only { &with_tests } else { &code };
            !sources.values().any(|code| names(code, name))
        })
        .map(|(name, id)| format!("{name} ({id})"))
        .collect();
    assert!(
        unused.is_empty(),
        "IDs of vuid.rs that no code of the layer reports:\n{}",
        unused.join("\n")
    );
}

#[test]
fn no_id_is_written_outside_vuid_rs() {
    let mut literals = Vec::new();
    for (path, code) in code_outside_vuid_rs() {
        for prefix in ["\"VUID-", "\"EXPORTCHECK-"] {
            for (at, _) in code.match_indices(prefix) {
                let line = code[..at].lines().count();
                literals.push(format!("{path}:{line}"));
            }
        }
    }
    assert!(
        literals.is_empty(),
        "IDs written as literals outside vuid.rs (name them by their vuid.rs constant):\n{}",
        literals.join("\n")
    );
}

#[test]
fn a_name_is_matched_as_a_whole_identifier() {
    assert!(names("vuid::FD_PNEXT,", "FD_PNEXT"));
    assert!(!names("vuid::FD_PNEXT_X,", "FD_PNEXT"));
    assert!(!names("vuid::XFD_PNEXT,", "FD_PNEXT"));
}

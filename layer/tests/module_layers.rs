//! The layer's rooms depend on each other one way only (docs/architecture.md): each top-level
//! module of `layer/src` may use only the modules below it in [`LAYERS`], and inside a room no
//! two files use each other, directly or through others. Read from the sources: a `use` of
//! `crate::room` or `super::file` outside the unit tests is a dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// From the bottom up. A module may use the ones before it.
const LAYERS: &[&str] = &[
    "vk_ext",
    "vk_names",
    "vuid",
    "finding",
    "os",
    "fault_injection",
    "settings",
    "next_layer",
    "state",
    "args",
    "raw",
    "rules",
    "report",
    "boundary",
    "pipeline",
    "commands",
    "dispatch",
    "introspect",
];

/// Every `.rs` file under `src`, by module path (`rules/export`, `state`), without its tests.
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("layer/src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .expect("under src")
                    .with_extension("");
                let module = rel.to_string_lossy().trim_end_matches("/mod").to_owned();
                let text = std::fs::read_to_string(&path).expect("a source file");
                let code = text
                    .split("#[cfg(test)]")
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                out.insert(module, code);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The identifiers that follow `prefix` in code lines (comments skipped).
fn uses<'a>(code: &'a str, prefix: &str) -> BTreeSet<&'a str> {
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| {
            line.match_indices(prefix)
                .map(move |(at, _)| &line[at + prefix.len()..])
        })
        .map(|rest| {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

fn room(module: &str) -> &str {
    module.split('/').next().unwrap_or(module)
}

#[test]
fn rooms_use_only_the_rooms_below_them() {
    let rank = |room: &str| LAYERS.iter().position(|&r| r == room);
    let mut wrong = Vec::new();
    for (module, code) in sources() {
        let from = room(&module);
        if from == "lib" {
            continue;
        }
        let Some(from_rank) = rank(from) else {
            wrong.push(format!("{module}: room {from} is not in LAYERS"));
            continue;
        };
        for to in uses(&code, "crate::") {
            match rank(to) {
                Some(to_rank) if to_rank < from_rank || to == from => {}
                _ => wrong.push(format!("{module} uses crate::{to}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_files_of_a_room_use_each_other() {
    let sources = sources();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &sources {
        let parent = module.rsplit_once('/').map_or("", |(p, _)| p);
        for name in uses(code, "super::") {
            let target = if parent.is_empty() {
                name.to_owned()
            } else {
                format!("{parent}/{name}")
            };
            if sources.contains_key(&target) {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
        for name in uses(code, &format!("crate::{}::", room(module))) {
            let target = format!("{}/{name}", room(module));
            if sources.contains_key(&target) && &target != module {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    // A file reaches itself through the edges: a cycle.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = edges[start].iter().collect();
        while let Some(next) = stack.pop() {
            assert!(next != start, "{start} depends on itself through {seen:?}");
            if seen.insert(next.clone()) {
                stack.extend(edges.get(next).into_iter().flatten());
            }
        }
    }
}

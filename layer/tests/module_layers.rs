//! The layer's rooms depend on each other one way only (docs/architecture.md): each top-level
//! module of `layer/src` may use only the modules below it in [`LAYERS`] (a feature folder's
//! files by their role: [`room`]), and inside a room no two files use each other, directly or
//! through others. Read from the sources by
//! `module_graph` (every form of `use` and every path in code, outside the unit tests).

mod module_graph;

use module_graph::{circles, shown, Crate};
use std::collections::{BTreeMap, BTreeSet};

/// From the bottom up. A module may use the ones before it.
const LAYERS: &[&str] = &[
    "handle_kinds",
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
    // `features/mod.rs` itself only declares the feature folders.
    "features",
];

fn layer() -> Crate {
    Crate::from_disk(env!("CARGO_MANIFEST_DIR"), "lib.rs")
}

/// The room of a module: its top-level folder, or, inside a feature folder
/// (`features/<feature>/<role>`), the room of its role: `state` and `rules` are theirs, `hooks`
/// are commands (`features/mod.rs` says why).
fn room(module: &str) -> &str {
    let mut parts = module.split('/');
    let top = parts.next().unwrap_or(module);
    if top != "features" {
        return top;
    }
    match parts.nth(1) {
        Some("hooks") => "commands",
        Some(role) => role,
        None => top,
    }
}

#[test]
fn rooms_use_only_the_rooms_below_them() {
    let rank = |room: &str| LAYERS.iter().position(|&r| r == room);
    let mut wrong = Vec::new();
    for (module, targets) in layer().uses() {
        if module.is_empty() {
            continue; // lib.rs: the exported symbols, above every room.
        }
        let from = room(&module);
        let Some(from_rank) = rank(from) else {
            wrong.push(format!("{module}: room {from} is not in LAYERS"));
            continue;
        };
        for to in targets {
            match rank(room(&to)) {
                Some(to_rank) if to_rank <= from_rank && !to.is_empty() => {}
                _ => wrong.push(format!("{module} uses {}", shown(&to))),
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
    let within_rooms: BTreeMap<String, BTreeSet<String>> = layer()
        .uses()
        .into_iter()
        .map(|(module, targets)| {
            let same_room = targets
                .into_iter()
                .filter(|to| room(to) == room(&module))
                .collect();
            (module, same_room)
        })
        .collect();
    let found = circles(&within_rooms);
    assert!(
        found.is_empty(),
        "files of a room that use each other:\n{}",
        found.join("\n")
    );
}

// The reading itself.

fn paths(text: &str) -> Vec<String> {
    module_graph::parse(text).expect("not a test file").paths()
}

#[test]
fn a_braced_import_is_read() {
    assert_eq!(
        paths("use super::{a, b as c, self};"),
        ["super::a", "super::b", "super"]
    );
}

#[test]
fn a_nested_import_is_read() {
    assert_eq!(
        paths("pub(crate) use crate::{rules, state::{x::{self, Y}, z::*}};"),
        [
            "crate::rules",
            "crate::state::x",
            "crate::state::x::Y",
            "crate::state::z"
        ]
    );
    assert_eq!(paths("use super::super::os::f;"), ["super::super::os::f"]);
}

#[test]
fn paths_in_code_are_read() {
    assert_eq!(
        paths("fn f() -> crate::x::T { super::y::g::<u8>(self::z::H) }"),
        ["crate::x::T", "super::y::g", "self::z::H"]
    );
}

#[test]
fn comments_literals_and_tests_are_not_read() {
    let text = r##"
        // use crate::a;
        /* use crate::b; /* nested */ crate::c::d() */
        /// [`crate::e`]
        fn f() -> char { let _ = "crate::g::h"; let _ = r#"super::i"#; let _ = b"\"crate::j"; '"' }
        fn g<'a>(x: &'a str) -> &'a str { x }
        #[cfg(test)]
        mod tests { use super::k; }
        #[cfg(all(test, unix))]
        fn l() { crate::m::n() }
        #[cfg(not(test))]
        fn o() { crate::p::q() }
    "##;
    assert_eq!(paths(text), ["crate::p::q"]);
}

#[test]
fn a_circle_through_a_braced_import_and_a_reexport_is_found() {
    let files: BTreeMap<&str, &str> = [
        ("src/lib.rs", "mod rules;"),
        (
            "src/rules/mod.rs",
            "mod a; mod b; mod c; pub use c::Shared;",
        ),
        ("src/rules/a.rs", "use super::{b::{self}, Shared};"),
        (
            "src/rules/b.rs",
            "pub fn f() { super::super::rules::a::g() }",
        ),
        ("src/rules/c.rs", "pub struct Shared;"),
    ]
    .into_iter()
    .collect();
    let read = |path: &std::path::Path| files.get(path.to_str()?).map(|t| t.to_string());
    let uses = Crate::read(std::path::Path::new("src/lib.rs"), &read).uses();
    assert_eq!(
        uses["rules/a"],
        BTreeSet::from(["rules/b".into(), "rules/c".into()])
    );
    assert_eq!(
        circles(&uses),
        ["rules/a -> rules/b -> rules/a (all of: rules/a, rules/b)"]
    );
}

//! Which modules of a crate use which, read from the sources by a small hand parser (no `syn`).
//! Written once for the tests that keep the workspace's modules free of circles:
//! `layer/tests/module_layers.rs` (the layer's rooms), `cli/tests/module_circles.rs` and
//! `bench/tests/module_circles.rs` include it with `#[path]`.
//!
//! A module uses another when its code names a path into it: any `use` (braced and nested trees,
//! `self`, `super::super::`, renames, globs) or a path in code (`super::x::f()`, `crate::x::T`,
//! `child::f()`). A name is followed through the imports of the module it is looked up in, so
//! `use super::Foo` where the parent has `pub use export::Foo` is a use of `export`. Comments,
//! literals and the items under `#[cfg(test)]` or `#[cfg(all(test, ..))]` do not count, nor do
//! files that only tests include. A module is named by its path from the crate root, `/`
//! between the names (`rules/export`); the root is `""`.

#![allow(dead_code)] // Each including test uses its part.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    Str(String),
    /// A number, a char literal or a lifetime.
    Other,
}

fn is_ident(tok: Option<&Tok>, name: &str) -> bool {
    matches!(tok, Some(Tok::Ident(n)) if n == name)
}

/// The tokens of Rust source, without comments.
fn tokens(text: &str) -> Vec<Tok> {
    let s: Vec<char> = text.chars().collect();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            let (text, end) = quoted(&s, i + 1);
            out.push(Tok::Str(text));
            i = end;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1F600}') or a lifetime or label ('a).
            if at(i + 1) == '\\' {
                i += 3;
                while i < s.len() && s[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < s.len() && ident_char(s[i]) {
                    i += 1;
                }
            }
            out.push(Tok::Other);
        } else if c.is_ascii_digit() {
            while i < s.len() && ident_char(s[i]) {
                i += 1;
            }
            out.push(Tok::Other);
        } else if ident_char(c) {
            let start = i;
            while i < s.len() && ident_char(s[i]) {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            let raw = matches!(word.as_str(), "r" | "br" | "cr");
            if raw && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '"' | '#'))) {
                // r"..", r#".."#: ends at a quote followed by as many hashes.
                let hashes = s[i..].iter().take_while(|&&c| c == '#').count();
                let body = i + hashes + 1;
                let mut end = body;
                while end < s.len()
                    && !(s[end] == '"'
                        && s[end + 1..].iter().take_while(|&&c| c == '#').count() >= hashes)
                {
                    end += 1;
                }
                out.push(Tok::Str(s[body..end.min(s.len())].iter().collect()));
                i = end + 1 + hashes;
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                let (text, end) = quoted(&s, i + 1);
                out.push(Tok::Str(text));
                i = end;
            } else if word == "b" && at(i) == '\'' {
                // b'x', b'\n': the quote starts the byte literal, read as a char literal next.
            } else if word == "r" && at(i) == '#' && ident_char(at(i + 1)) {
                // r#type: a raw identifier.
                let start = i + 1;
                i = start;
                while i < s.len() && ident_char(s[i]) {
                    i += 1;
                }
                out.push(Tok::Ident(s[start..i].iter().collect()));
            } else {
                out.push(Tok::Ident(word));
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Tok::PathSep);
            i += 2;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// The text of a string literal whose body starts at `start`, and the index after its quote.
fn quoted(s: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    while i < s.len() && s[i] != '"' {
        i += if s[i] == '\\' { 2 } else { 1 };
    }
    (s[start..i.min(s.len())].iter().collect(), i + 1)
}

/// The index of the token that closes the group opened at `open` (a `(`, `[` or `{`).
fn group_end(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, tok) in toks.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The outer attribute starting at `i` (`#[..]`), as the index after it.
fn attribute_at(toks: &[Tok], i: usize) -> Option<usize> {
    (toks.get(i) == Some(&Tok::Punct('#')) && toks.get(i + 1) == Some(&Tok::Punct('[')))
        .then(|| group_end(toks, i + 1) + 1)
}

/// `#[cfg(test)]` or `#[cfg(all(test, ..))]`: what follows exists only in the unit tests.
fn is_test_only(attribute: &[Tok]) -> bool {
    let body = &attribute[2..attribute.len().saturating_sub(1)];
    let test = |rest: &[Tok]| is_ident(rest.first(), "test") && rest.get(1) != Some(&Tok::PathSep);
    match body {
        [Tok::Ident(cfg), Tok::Punct('('), rest @ ..] if cfg == "cfg" => {
            test(rest)
                || matches!(rest, [Tok::Ident(all), Tok::Punct('('), inner @ ..]
                    if all == "all" && test_among(inner))
        }
        _ => false,
    }
}

/// Whether `test` is one of the arguments of `all(..)` whose tokens (after its `(`) are `inner`.
fn test_among(inner: &[Tok]) -> bool {
    let mut depth = 0usize;
    let mut first = true;
    for (i, tok) in inner.iter().enumerate() {
        match tok {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') if depth == 0 => return false,
            Tok::Punct(')') => depth -= 1,
            Tok::Punct(',') if depth == 0 => first = true,
            Tok::Ident(name) if first && depth == 0 => {
                if name == "test" && matches!(inner.get(i + 1), Some(Tok::Punct(',' | ')'))) {
                    return true;
                }
                first = false;
            }
            _ => first = false,
        }
    }
    false
}

/// The index after the item (or field, statement, match arm) that starts at `start`.
fn item_end(toks: &[Tok], start: usize) -> usize {
    let mut i = start;
    while let Some(end) = attribute_at(toks, i) {
        i = end;
    }
    let mut generic_item = false;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct(';') => return i + 1,
            Tok::Punct(',') if !generic_item => return i + 1,
            Tok::Punct(')' | ']' | '}') => return i,
            Tok::Punct('{') => {
                let end = group_end(toks, i) + 1;
                // An item's body ends it (`mod tests { .. }`, `fn f() { .. }`); a struct
                // expression may go on (`X { .. }.y;`) up to its `;` or `,`.
                if generic_item {
                    return end;
                }
                i = end;
            }
            Tok::Punct('(' | '[') => i = group_end(toks, i) + 1,
            Tok::Ident(word) => {
                // Items whose `<A, B>` may hold a comma at the top level.
                generic_item |= matches!(
                    word.as_str(),
                    "fn" | "impl" | "struct" | "enum" | "union" | "trait" | "type" | "mod"
                );
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

/// The tokens without the items that exist only in the unit tests. `None` for a file whose
/// inner attribute (`#![cfg(test)]`) makes all of it a test.
fn without_tests(toks: Vec<Tok>) -> Option<Vec<Tok>> {
    if toks.first() == Some(&Tok::Punct('#')) && toks.get(1) == Some(&Tok::Punct('!')) {
        let end = group_end(&toks, 2);
        let mut outer = vec![Tok::Punct('#')];
        outer.extend_from_slice(&toks[2..=end.min(toks.len() - 1)]);
        if is_test_only(&outer) {
            return None;
        }
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let Some(end) = attribute_at(&toks, i) {
            if is_test_only(&toks[i..end.min(toks.len())]) {
                i = item_end(&toks, end);
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    Some(out)
}

/// A path as written, with how many inline modules (`mod imp { .. }`) of its file it sits in:
/// the first that many `super`s stay in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub segments: Vec<String>,
    pub inline: usize,
}

/// A name a `use` brings in: `name` for `path`, or every name of `path` (a glob) when `None`.
#[derive(Clone, Debug)]
struct Import {
    name: Option<String>,
    path: Written,
}

/// What one file says about modules.
#[derive(Debug, Default)]
struct Parsed {
    /// `mod name;`, with the file of a `#[path = ".."]` attribute.
    children: Vec<(String, Option<String>)>,
    imports: Vec<Import>,
    /// Every path the code names: the `use`s and the paths in code.
    paths: Vec<Written>,
}

/// Reads one `use` tree starting at `i` under `prefix`; returns the index after it.
fn use_tree(
    toks: &[Tok],
    mut i: usize,
    prefix: &[String],
    inline: usize,
    out: &mut Parsed,
) -> usize {
    let mut path = prefix.to_vec();
    if toks.get(i) == Some(&Tok::PathSep) {
        i += 1; // `use ::std::x`: an extern crate, resolved to nothing.
        path.push("::".into());
    }
    loop {
        match toks.get(i) {
            Some(Tok::Ident(name)) => {
                path.push(name.clone());
                i += 1;
            }
            Some(Tok::Punct('$')) => i += 1, // `$crate`
            Some(Tok::Punct('*')) => {
                let path = Written {
                    segments: path,
                    inline,
                };
                out.imports.push(Import {
                    name: None,
                    path: path.clone(),
                });
                out.paths.push(path);
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while !matches!(toks.get(i), Some(Tok::Punct('}')) | None) {
                    i = use_tree(toks, i, &path, inline, out);
                    if toks.get(i) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => break,
        }
        if toks.get(i) == Some(&Tok::PathSep) {
            i += 1;
        } else {
            break;
        }
    }
    // `a::b::{self}` names `a::b`.
    if path.last().is_some_and(|last| last == "self") && path.len() > 1 {
        path.pop();
    }
    let mut name = path.last().cloned();
    if is_ident(toks.get(i), "as") {
        name = match toks.get(i + 1) {
            Some(Tok::Ident(alias)) if alias != "_" => Some(alias.clone()),
            _ => None,
        };
        i += 2;
    }
    let path = Written {
        segments: path,
        inline,
    };
    if let Some(name) = name {
        out.imports.push(Import {
            name: Some(name),
            path: path.clone(),
        });
    }
    out.paths.push(path);
    i
}

/// The file of a `#[path = ".."]` among the attributes that end just before `end`.
fn path_attribute(toks: &[Tok], mut end: usize) -> Option<String> {
    // Skip the visibility: `pub`, `pub(crate)`.
    if end > 0 && toks[end - 1] == Tok::Punct(')') {
        while end > 0 && toks[end - 1] != Tok::Punct('(') {
            end -= 1;
        }
        end = end.saturating_sub(1);
    }
    if is_ident(end.checked_sub(1).and_then(|i| toks.get(i)), "pub") {
        end -= 1;
    }
    while end > 0 && toks[end - 1] == Tok::Punct(']') {
        let mut open = end - 1;
        while open > 0 && toks[open] != Tok::Punct('[') {
            open -= 1;
        }
        if let [Tok::Ident(path), Tok::Punct('='), Tok::Str(file)] = &toks[open + 1..end - 1] {
            if path == "path" {
                return Some(file.clone());
            }
        }
        end = open.saturating_sub(1);
    }
    None
}

/// What a file's source says about modules: its `mod`s, its imports, the paths it names.
pub fn parse(text: &str) -> Option<ParsedFile> {
    let toks = without_tests(tokens(text))?;
    let mut out = Parsed::default();
    let mut braces = 0usize;
    // The brace depths at which inline modules opened.
    let mut inline_at: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let inline = inline_at.len();
        match &toks[i] {
            Tok::Punct('{') => braces += 1,
            Tok::Punct('}') => {
                braces = braces.saturating_sub(1);
                if inline_at.last() == Some(&braces) {
                    inline_at.pop();
                }
            }
            Tok::Ident(word) if word == "mod" => {
                if let Some(Tok::Ident(name)) = toks.get(i + 1) {
                    match toks.get(i + 2) {
                        Some(Tok::Punct(';')) if inline == 0 => {
                            out.children.push((name.clone(), path_attribute(&toks, i)));
                        }
                        Some(Tok::Punct('{')) => inline_at.push(braces),
                        _ => {}
                    }
                    i += 2;
                    continue;
                }
            }
            Tok::Ident(word) if word == "use" && toks.get(i + 1) != Some(&Tok::Punct('<')) => {
                i = use_tree(&toks, i + 1, &[], inline, &mut out);
                continue;
            }
            Tok::Ident(_) if toks.get(i + 1) == Some(&Tok::PathSep) => {
                let starts = i == 0 || toks[i - 1] != Tok::PathSep;
                // `pub(in crate::x)` restricts, it does not use.
                let visibility =
                    i > 1 && is_ident(toks.get(i - 1), "in") && toks[i - 2] == Tok::Punct('(');
                let mut segments = Vec::new();
                while let Some(Tok::Ident(name)) = toks.get(i) {
                    segments.push(name.clone());
                    if toks.get(i + 1) != Some(&Tok::PathSep) {
                        break;
                    }
                    i += 2;
                }
                if starts && !visibility {
                    out.paths.push(Written { segments, inline });
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Some(ParsedFile(out))
}

/// A parsed file (`parse`); `paths` lists what it names, for the parser's own tests.
#[derive(Debug)]
pub struct ParsedFile(Parsed);

impl ParsedFile {
    /// Every path named, as written (`super::a`, `crate::state::x`).
    pub fn paths(&self) -> Vec<String> {
        self.0.paths.iter().map(|p| p.segments.join("::")).collect()
    }
}

/// A crate's modules, read from its root file (`src/lib.rs`, `src/main.rs`) through its `mod`s.
pub struct Crate {
    modules: BTreeMap<String, Parsed>,
}

fn join(module: &str, name: &str) -> String {
    if module.is_empty() {
        name.to_owned()
    } else {
        format!("{module}/{name}")
    }
}

fn parent(module: &str) -> Option<&str> {
    (!module.is_empty()).then(|| module.rsplit_once('/').map_or("", |(p, _)| p))
}

impl Crate {
    /// The crate whose root file is `root`, its files read by `read` (`None`: no such file).
    pub fn read(root: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Crate {
        let mut modules = BTreeMap::new();
        // (module, its file, the directory of its children)
        let mut todo = vec![(
            String::new(),
            root.to_path_buf(),
            root.parent().unwrap().to_path_buf(),
        )];
        while let Some((module, file, dir)) = todo.pop() {
            let text = read(&file).unwrap_or_else(|| panic!("{} is readable", file.display()));
            let Some(ParsedFile(parsed)) = parse(&text) else {
                continue;
            };
            for (name, path) in &parsed.children {
                let child = join(&module, name);
                let (file, dir) = match path {
                    Some(path) => {
                        let file = file.parent().unwrap().join(path);
                        let dir = file.with_extension("");
                        (file, dir)
                    }
                    None => {
                        let flat = dir.join(format!("{name}.rs"));
                        if read(&flat).is_some() {
                            (flat, dir.join(name))
                        } else {
                            (dir.join(name).join("mod.rs"), dir.join(name))
                        }
                    }
                };
                todo.push((child, file, dir));
            }
            modules.insert(module, parsed);
        }
        Crate { modules }
    }

    /// The crate under `src` of the crate at `manifest_dir`, rooted at `root_file`.
    pub fn from_disk(manifest_dir: &str, root_file: &str) -> Crate {
        let root: PathBuf = Path::new(manifest_dir).join("src").join(root_file);
        Crate::read(&root, &|path| std::fs::read_to_string(path).ok())
    }

    /// The module a path written in `module` leads into: the last module it names, or the one
    /// holding the item it names. `None` for what lies outside the crate.
    fn resolve(&self, module: &str, path: &Written, depth: usize) -> Option<String> {
        let segments = &path.segments;
        let first = segments.first()?;
        let (mut at, rest) = match first.as_str() {
            "crate" => (String::new(), &segments[1..]),
            "self" => (module.to_owned(), &segments[1..]),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let mut at = module;
                for _ in 0..ups.saturating_sub(path.inline) {
                    at = parent(at)?;
                }
                (at.to_owned(), &segments[ups..])
            }
            _ => {
                // A name in scope here: a child module or an import, else not of this crate.
                let at = self.step(module, first, depth)?;
                (at, &segments[1..])
            }
        };
        for name in rest {
            match self.step(&at, name, depth) {
                Some(next) => at = next,
                None => break,
            }
        }
        Some(at)
    }

    /// The module `name` leads to in `module`: its child of that name, or what it imports as
    /// that name (also through a glob).
    fn step(&self, module: &str, name: &str, depth: usize) -> Option<String> {
        let child = join(module, name);
        if self.modules.contains_key(&child) {
            return Some(child);
        }
        if depth > 16 {
            return None;
        }
        let imports = &self.modules.get(module)?.imports;
        let named = imports.iter().find(|i| i.name.as_deref() == Some(name));
        if let Some(import) = named {
            return self.resolve(module, &import.path, depth + 1);
        }
        imports
            .iter()
            .filter(|i| i.name.is_none())
            .find_map(|glob| {
                let from = self.resolve(module, &glob.path, depth + 1)?;
                (from != module)
                    .then(|| self.step(&from, name, depth + 1))
                    .flatten()
            })
    }

    /// Every module of the crate, with the other modules it uses.
    pub fn uses(&self) -> BTreeMap<String, BTreeSet<String>> {
        self.modules
            .iter()
            .map(|(module, parsed)| {
                let targets = parsed
                    .paths
                    .iter()
                    .filter_map(|path| self.resolve(module, path, 0))
                    .filter(|target| target != module)
                    .collect();
                (module.clone(), targets)
            })
            .collect()
    }
}

/// How a module is shown: its path, or `crate root`.
pub fn shown(module: &str) -> &str {
    if module.is_empty() {
        "crate root"
    } else {
        module
    }
}

/// Every circle of `uses`, each as one of its loops (`a -> b -> a`); the modules of a circle
/// are the strongly connected component it shows.
pub fn circles(uses: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // Tarjan's algorithm, small enough to recurse.
    struct Walk<'a> {
        uses: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<&'a str>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.uses.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|&x| x == v).unwrap();
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        uses,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in uses.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found.iter().map(|c| one_loop(uses, c)).collect()
}

/// The shortest loop through the first module of `component` (breadth first).
fn one_loop(uses: &BTreeMap<String, BTreeSet<String>>, component: &[&str]) -> String {
    let mut members: Vec<&str> = component.to_vec();
    members.sort_unstable();
    let start = members[0];
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut last = start;
    'search: while let Some(v) = queue.pop_front() {
        for w in uses.get(v).into_iter().flatten().map(String::as_str) {
            if w == start {
                last = v;
                break 'search;
            }
            if members.contains(&w) && !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    let mut chain = vec![start];
    let mut v = last;
    while v != start {
        chain.push(v);
        v = came_from[v];
    }
    chain.push(start);
    let end = chain.len() - 1;
    chain[1..end].reverse();
    let names: Vec<&str> = chain.iter().map(|m| shown(m)).collect();
    format!(
        "{} (all of: {})",
        names.join(" -> "),
        members
            .iter()
            .map(|m| shown(m))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

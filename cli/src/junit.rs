//! The JUnit XML file of `run --junit`.
//!
//! One `<testcase>` per distinct finding (ID and command; classname `exportcheck.<command>`,
//! name the ID). Findings at or above `--fail-on` are `<failure>`s; the others pass, with their
//! messages in `<system-out>`. Without findings there is one passing testcase, `exportcheck`;
//! when the layer never loaded, that testcase fails instead. When the app was killed by a signal,
//! a failing testcase `exportcheck`/`app` says so (the findings are still there).

use std::fmt::Write as _;

use crate::args::FailOn;
use crate::report::group::{by_id_and_command, Group};
use crate::report::model::MergedReport;
use crate::summary::{one_line, plural};

/// The most distinct messages listed in one testcase's body.
const MAX_MESSAGES: usize = 20;

/// What the JUnit file says about one run.
pub struct Junit<'a> {
    /// The merged findings.
    pub merged: &'a MergedReport,
    /// The threshold of failing findings.
    pub fail_on: FailOn,
    /// The command line that ran, for the properties.
    pub command_line: &'a str,
    /// Why the run itself failed before any finding could be judged (no report appeared).
    pub problem: Option<&'a str>,
    /// How the app crashed (killed by a signal), if it did: a failing testcase of its own.
    pub crash: Option<&'a str>,
}

impl Junit<'_> {
    /// The XML document.
    #[must_use]
    pub fn render(&self) -> String {
        let groups = by_id_and_command(&self.merged.findings);
        let mut cases = String::new();
        let mut tests = 0usize;
        let mut failures = 0usize;
        if let Some(problem) = self.problem {
            tests += 1;
            failures += 1;
            let _ = write!(
                cases,
                "    <testcase classname=\"exportcheck\" name=\"exportcheck\">\n      \
                 <failure message=\"{}\" type=\"layer-not-loaded\">{}</failure>\n    \
                 </testcase>\n",
                attr(problem),
                text(problem)
            );
        } else if groups.is_empty() && self.crash.is_none() {
            tests += 1;
            cases.push_str("    <testcase classname=\"exportcheck\" name=\"exportcheck\"/>\n");
        }
        if let Some(crash) = self.crash {
            tests += 1;
            failures += 1;
            let _ = write!(
                cases,
                "    <testcase classname=\"exportcheck\" name=\"app\">\n      \
                 <failure message=\"{}\" type=\"crash\">{}</failure>\n    </testcase>\n",
                attr(crash),
                text(crash)
            );
        }
        for g in &groups {
            tests += 1;
            let fails = self.fail_on.fails(g.severity);
            failures += usize::from(fails);
            let body = body(g);
            let _ = writeln!(
                cases,
                "    <testcase classname=\"exportcheck.{}\" name=\"{}\">",
                attr(g.command),
                attr(g.id)
            );
            if fails {
                let _ = writeln!(
                    cases,
                    "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                    attr(&one_line(g.first_message(), g.id, g.command, 200)),
                    g.severity.name(),
                    text(&body)
                );
            } else {
                let _ = writeln!(cases, "      <system-out>{}</system-out>", text(&body));
            }
            cases.push_str("    </testcase>\n");
        }
        let pids: Vec<String> = self
            .merged
            .processes
            .iter()
            .map(|p| p.pid.to_string())
            .collect();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"exportcheck\" tests=\"{tests}\" failures=\"{failures}\" \
             errors=\"0\">"
        );
        let _ = writeln!(
            out,
            "  <testsuite name=\"exportcheck\" tests=\"{tests}\" failures=\"{failures}\" \
             errors=\"0\" skipped=\"0\">"
        );
        out.push_str("    <properties>\n");
        for (name, value) in [
            ("command", self.command_line.to_owned()),
            ("fail-on", self.fail_on.name().to_owned()),
            ("processes", pids.join(" ")),
        ] {
            let _ = writeln!(
                out,
                "      <property name=\"{name}\" value=\"{}\"/>",
                attr(&value)
            );
        }
        out.push_str("    </properties>\n");
        out.push_str(&cases);
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Every distinct message of the group with its count, objects and when it was seen.
fn body(g: &Group<'_>) -> String {
    let mut out = format!(
        "{} {} in {}: {}\n",
        g.severity.name(),
        g.id,
        g.command,
        plural(usize::try_from(g.count).unwrap_or(usize::MAX), "occurrence")
    );
    for f in g.findings.iter().take(MAX_MESSAGES) {
        let _ = write!(out, "\n[{}x] {}\n", f.count, f.message);
        for o in &f.objects {
            let name = o
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" \"{n}\""));
            let _ = writeln!(out, "  object: {} {}{name}", o.ty, o.handle);
        }
        if let (Some(first), Some(last)) = (&f.first_seen, &f.last_seen) {
            let _ = writeln!(out, "  seen: {first} .. {last}");
        }
    }
    if g.findings.len() > MAX_MESSAGES {
        let _ = writeln!(
            out,
            "\n... and {} more distinct messages (see the JSON report)",
            g.findings.len() - MAX_MESSAGES
        );
    }
    out
}

/// Characters XML 1.0 allows; the others become U+FFFD.
fn xml_char(c: char) -> char {
    match c {
        '\t' | '\n' | '\r' => c,
        c if c < ' ' => '\u{FFFD}',
        '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
        c => c,
    }
}

/// Escapes element text.
#[must_use]
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().map(xml_char) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes an attribute value (double-quoted); line breaks are kept as character references.
#[must_use]
pub fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().map(xml_char) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::merge::merge;
    use crate::report::merge::tests::{finding, report};
    use crate::report::model::{Object, Severity};
    use quick_xml::events::Event;

    /// A parsed testcase: classname, name, failure type (if any), text of its child.
    #[derive(Debug, PartialEq)]
    struct Case {
        classname: String,
        name: String,
        failure: Option<String>,
        body: String,
    }

    /// Parses the document strictly (well-formed, balanced) and returns the suite's counts and
    /// its testcases.
    fn parse(xml: &str) -> ((usize, usize), Vec<Case>) {
        let mut reader = quick_xml::Reader::from_str(xml);
        reader.config_mut().check_end_names = true;
        let mut cases = Vec::new();
        let mut counts = None;
        let mut in_body = false;
        loop {
            let event = reader.read_event().expect("well-formed XML");
            let attrs = |e: &quick_xml::events::BytesStart<'_>| -> Vec<(String, String)> {
                e.attributes()
                    .map(|a| {
                        let a = a.expect("attribute");
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            quick_xml::escape::unescape(std::str::from_utf8(&a.value).unwrap())
                                .expect("escaped value")
                                .into_owned(),
                        )
                    })
                    .collect()
            };
            let get = |a: &[(String, String)], k: &str| {
                a.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
            };
            match event {
                Event::Start(e) | Event::Empty(e) => {
                    let a = attrs(&e);
                    match e.name().as_ref() {
                        b"testsuite" => {
                            counts = Some((
                                get(&a, "tests").unwrap().parse().unwrap(),
                                get(&a, "failures").unwrap().parse().unwrap(),
                            ));
                        }
                        b"testcase" => cases.push(Case {
                            classname: get(&a, "classname").unwrap(),
                            name: get(&a, "name").unwrap(),
                            failure: None,
                            body: String::new(),
                        }),
                        b"failure" => {
                            cases.last_mut().unwrap().failure = get(&a, "type");
                            in_body = true;
                        }
                        b"system-out" => in_body = true,
                        _ => {}
                    }
                }
                Event::End(_) => in_body = false,
                Event::Text(t) if in_body => {
                    if let Some(c) = cases.last_mut() {
                        c.body.push_str(&t.decode().expect("UTF-8 text"));
                    }
                }
                Event::GeneralRef(r) if in_body => {
                    let reference = format!("&{};", r.decode().expect("UTF-8 reference"));
                    let resolved = quick_xml::escape::unescape(&reference)
                        .expect("a known entity")
                        .into_owned();
                    if let Some(c) = cases.last_mut() {
                        c.body.push_str(&resolved);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        (counts.expect("a testsuite"), cases)
    }

    fn junit(merged: &MergedReport, fail_on: FailOn, problem: Option<&str>) -> String {
        Junit {
            merged,
            fail_on,
            command_line: "./app --x \"y\" <z>",
            problem,
            crash: None,
        }
        .render()
    }

    #[test]
    fn no_findings_is_one_passing_testcase() {
        let merged = merge(&[report(1, vec![])]);
        let ((tests, failures), cases) = parse(&junit(&merged, FailOn::Error, None));
        assert_eq!((tests, failures), (1, 0));
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "exportcheck");
        assert_eq!(cases[0].failure, None);
    }

    #[test]
    fn layer_not_loaded_is_one_failing_testcase() {
        let merged = merge(&[]);
        let xml = junit(&merged, FailOn::Error, Some("no report & no layer"));
        let ((tests, failures), cases) = parse(&xml);
        assert_eq!((tests, failures), (1, 1));
        assert_eq!(cases[0].failure.as_deref(), Some("layer-not-loaded"));
        assert_eq!(cases[0].body, "no report & no layer");
    }

    #[test]
    fn one_testcase_per_id_and_command_failing_at_the_threshold() {
        let mut e1 = finding(
            "VUID-A",
            Severity::Error,
            "Validation Error: [ VUID-A ] <bad> & \"worse\"",
            2,
        );
        e1.objects.push(Object {
            ty: "VK_OBJECT_TYPE_DEVICE_MEMORY".to_owned(),
            handle: "0x10".to_owned(),
            name: Some("st<a>ging".to_owned()),
        });
        let e2 = finding("VUID-A", Severity::Error, "another message\u{1}", 3);
        let w = finding("EXPORTCHECK-W", Severity::Warning, "a warning", 1);
        let merged = merge(&[report(1, vec![e1, e2, w])]);

        let ((tests, failures), cases) = parse(&junit(&merged, FailOn::Error, None));
        assert_eq!((tests, failures), (2, 1));
        assert_eq!(cases[0].name, "VUID-A");
        assert_eq!(cases[0].classname, "exportcheck.vkGetMemoryFdKHR");
        assert_eq!(cases[0].failure.as_deref(), Some("error"));
        assert!(cases[0].body.contains("5 occurrences"), "{}", cases[0].body);
        assert!(cases[0]
            .body
            .contains("[2x] Validation Error: [ VUID-A ] <bad> & \"worse\""));
        assert!(cases[0].body.contains("\"st<a>ging\""));
        assert!(cases[0].body.contains("another message\u{FFFD}"));
        assert_eq!(cases[1].name, "EXPORTCHECK-W");
        assert_eq!(cases[1].failure, None);
        assert!(cases[1].body.contains("a warning"));

        let ((_, failures), cases) = parse(&junit(&merged, FailOn::Warning, None));
        assert_eq!(failures, 2);
        assert_eq!(cases[1].failure.as_deref(), Some("warning"));
    }

    #[test]
    fn escaping() {
        assert_eq!(text("a<b>&c\"d"), "a&lt;b&gt;&amp;c\"d");
        assert_eq!(attr("a\"b'c\n"), "a&quot;b&apos;c&#10;");
        assert_eq!(text("\u{0}\u{FFFF}"), "\u{FFFD}\u{FFFD}");
    }
}

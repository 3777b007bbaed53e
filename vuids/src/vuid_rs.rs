//! `layer/src/vuid.rs`, generated from the catalog: a constant per checked ID (named by the
//! entry's `constant`, documented by its summary, grouped by command in catalog order), the list
//! of them all, and the stable number of an ID. The output is as `rustfmt` leaves it.

use crate::Catalog;
use std::fmt::Write;

/// The widest line `rustfmt` keeps (`max_width`).
const MAX_WIDTH: usize = 100;

const HEADER: &str = "\
//! Every ID the layer reports, as constants. Generated from `vuids/catalog.json` (each checked
//! entry's `constant` and `summary`): edit the catalog, then
//! `cargo run -p exportcheck-vuids --bin render-vuid-rs > layer/src/vuid.rs` (a test of
//! `vuids/tests/vuid_rs.rs` fails until the two agree).

/// A stable 32-bit number for an ID (FNV-1a), for `messageIdNumber` and `messageCode`.
pub fn message_id_number(id: &str) -> i32 {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    hash as i32
}
";

/// `text` as `///` lines of at most [`MAX_WIDTH`] characters, split at spaces.
fn doc_lines(text: &str, out: &mut String) {
    let mut line = String::from("///");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > MAX_WIDTH && line.len() > 3 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("///");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

/// The source of `layer/src/vuid.rs` for `catalog`.
pub fn vuid_rs(catalog: &Catalog) -> String {
    let mut out = String::from(HEADER);
    let mut command = "";
    let mut names = Vec::new();
    for entry in catalog.entries() {
        let Some(name) = entry.constant.as_deref() else {
            continue;
        };
        if entry.command != command {
            command = &entry.command;
            let _ = write!(out, "\n// {command}\n");
        }
        doc_lines(&entry.summary, &mut out);
        let one_line = format!("pub const {name}: &str = \"{}\";", entry.id);
        if one_line.len() <= MAX_WIDTH {
            let _ = writeln!(out, "{one_line}");
        } else {
            let _ = writeln!(out, "pub const {name}: &str =\n    \"{}\";", entry.id);
        }
        names.push(name);
    }
    out.push_str(
        "\n/// Every ID above: the IDs the catalog calls checked.\npub const ALL: &[&str] = &[\n",
    );
    for name in names {
        let _ = writeln!(out, "    {name},");
    }
    out.push_str("];\n");
    out
}

//! Writes the seed corpus of the fuzz targets into `fuzz/corpus/<target>/` (see
//! docs/fuzzing.md):
//!
//! ```sh
//! cargo run --manifest-path fuzz/Cargo.toml --example make_seeds
//! ```
//!
//! The inputs of `checks` and `pnext_walker` are decoded with the `arbitrary` crate, so the
//! seeds are found rather than written: the generator draws random inputs from a fixed seed,
//! runs each through the target's own code (so every seed passes its properties), labels it by
//! what it reached (`vkGetMemoryFdKHR:VUID-...`, `Cycle-long`, ...), and keeps a few inputs that
//! together reach every label seen (greedy set cover). The `settings` seeds are settings-file
//! texts written here, behind a two-byte header that decodes to no environment variable and no
//! settings structure (checked), plus found inputs for the other two sources.
//!
//! Regression seeds (inputs that once found a defect) are kept by hand under the name
//! `regression-*` and never removed by this generator.

use arbitrary::{Arbitrary, Unstructured};
use exportcheck_fuzz::{checks, settings, walker};
use std::collections::BTreeSet;
use std::path::Path;

/// xorshift64*: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let len = 8 + self.next() as usize % max;
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Draws `tries` inputs, then keeps a few that together reach every label seen.
fn cover<T: for<'a> Arbitrary<'a>>(
    rng: &mut Rng,
    tries: usize,
    max_len: usize,
    labels_of: impl Fn(&T) -> Vec<String>,
) -> Vec<(Vec<u8>, BTreeSet<String>)> {
    let mut seen = BTreeSet::new();
    let mut candidates = Vec::new();
    for _ in 0..tries {
        let bytes = rng.bytes(max_len);
        let Ok(input) = T::arbitrary_take_rest(Unstructured::new(&bytes)) else {
            continue;
        };
        let labels: BTreeSet<String> = labels_of(&input).into_iter().collect();
        if !labels.is_subset(&seen) {
            seen.extend(labels.iter().cloned());
            candidates.push((bytes, labels));
        }
    }
    // Greedy set cover, smallest input first among equals.
    candidates.sort_by_key(|(bytes, _)| bytes.len());
    let mut left = seen;
    let mut chosen = Vec::new();
    while !left.is_empty() {
        let (i, _) = candidates
            .iter()
            .enumerate()
            .max_by_key(|(_, (bytes, labels))| {
                (
                    labels.intersection(&left).count(),
                    std::cmp::Reverse(bytes.len()),
                )
            })
            .expect("a candidate for every label");
        let (bytes, labels) = candidates.swap_remove(i);
        left = left.difference(&labels).cloned().collect();
        chosen.push((bytes, labels));
    }
    chosen
}

/// Replaces the generated seeds of a target (keeping `regression-*`).
fn write(dir: &Path, seeds: &[(String, Vec<u8>)]) {
    std::fs::create_dir_all(dir).expect("corpus directory");
    for entry in std::fs::read_dir(dir).expect("corpus directory") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.starts_with("regression-") {
            std::fs::remove_file(&path).expect("remove an old seed");
        }
    }
    for (name, bytes) in seeds {
        std::fs::write(dir.join(name), bytes).expect("write a seed");
    }
}

/// A file-system-safe name from a label.
fn slug(label: &str) -> String {
    label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .to_lowercase()
}

fn named(chosen: Vec<(Vec<u8>, BTreeSet<String>)>) -> Vec<(String, Vec<u8>)> {
    chosen
        .into_iter()
        .enumerate()
        .map(|(i, (bytes, labels))| {
            let first = labels.iter().next().map_or(String::new(), |l| slug(l));
            let more = if labels.len() > 1 {
                format!("-and-{}-more", labels.len() - 1)
            } else {
                String::new()
            };
            (format!("{i:02}-{first}{more}"), bytes)
        })
        .collect()
}

/// Settings-file texts, each a seed of its own.
const FILES: &[(&str, &str)] = &[
    (
        "file-every-setting",
        "# exportcheck settings\n\
         exportcheck_validation.report_flags = error,warn,info\n\
         exportcheck_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG,VK_DBG_LAYER_ACTION_CALLBACK\n\
         exportcheck_validation.log_filename = /tmp/exportcheck.log\n\
         exportcheck_validation.message_id_filter = VUID-VkMemoryGetFdInfoKHR-handleType-00671;0x5a3b1c2d\n\
         exportcheck_validation.duplicate_message_limit = 0x20\n\
         exportcheck_validation.message_format_json = true\n\
         exportcheck_validation.report_file = /tmp/report-%p.json\n",
    ),
    (
        "file-short-spellings",
        "exportcheck_validation.report_flags=warn\r\n\
         exportcheck_validation.debug_action=log,fail,break\r\n\
         exportcheck_validation.log_filename=stdout\r\n\
         exportcheck_validation.message_format_json=off\r\n\
         exportcheck_validation.duplicate_message_limit=0\r\n",
    ),
    (
        "file-bad-values-and-other-layers",
        "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_BREAK\n\
         exportcheck_validation.debug_action = explode\n\
         exportcheck_validation.colour = red # unknown setting\n\
         exportcheck_validation.duplicate_message_limit = -1\n\
         exportcheck_validation.duplicate_message_limit = 4294967296\n\
         exportcheck_validation.message_format_json = maybe\n\
         exportcheck_validation.report_flags = error,perf,debug\n\
         exportcheck_validation.debug_action = ignore\n\
         exportcheck_validation.log_filename =\n\
         = no key\n\
         exportcheck_validation.report_file\n",
    ),
];

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut rng = Rng(0x6578_706f_7274_6368); // "exportch"
    checks::constants_agree();

    let seeds = cover::<checks::Input>(&mut rng, 100_000, 2048, checks::run);
    let labels: usize = seeds.iter().map(|(_, l)| l.len()).sum();
    println!("checks: {} seeds reach {labels} labels", seeds.len());
    write(&corpus.join("checks"), &named(seeds));

    let seeds = cover::<walker::Input>(&mut rng, 20_000, 160, |i| vec![walker::run(i)]);
    println!(
        "pnext_walker: {} seeds: {:?}",
        seeds.len(),
        seeds.iter().map(|(_, l)| l).collect::<Vec<_>>()
    );
    write(&corpus.join("pnext_walker"), &named(seeds));

    let mut seeds = Vec::new();
    for (name, text) in FILES {
        // Two zero bytes: no environment variable, no settings structure; the rest is the file.
        let mut bytes = vec![0u8, 0u8];
        bytes.extend_from_slice(text.as_bytes());
        let input =
            settings::Input::arbitrary_take_rest(Unstructured::new(&bytes)).expect("decodes");
        assert!(
            input.env.is_empty() && input.api.is_empty(),
            "{name}: header"
        );
        assert_eq!(input.file_text, *text, "{name}: file text");
        settings::run(&input);
        seeds.push((name.to_string(), bytes));
    }
    let found = cover::<settings::Input>(&mut rng, 200_000, 256, |i| {
        settings::run(i)
            .into_iter()
            .filter(|l| l.starts_with("api:") || l.starts_with("env:"))
            .collect()
    });
    println!(
        "settings: {} file seeds, {} found for API and environment values",
        seeds.len(),
        found.len()
    );
    seeds.extend(named(found));
    write(&corpus.join("settings"), &seeds);
}

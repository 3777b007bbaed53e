//! The settings sources, parser and resolver over arbitrary text and values; see
//! `exportcheck_fuzz::settings` for the properties.
#![no_main]

use exportcheck_fuzz::settings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: settings::Input| {
    settings::run(&input);
});

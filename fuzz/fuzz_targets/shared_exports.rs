//! The shared directory's reader and record decoder over arbitrary files; see
//! `exportcheck_fuzz::shared_exports` for the properties.
#![no_main]

use exportcheck_fuzz::shared_exports;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: shared_exports::Input| {
    shared_exports::run(&input);
});

//! Every check function over arbitrary device facts, arguments and memory state; see
//! `exportcheck_fuzz::checks` for the properties.
#![no_main]

use exportcheck_fuzz::checks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: checks::Input| {
    checks::run(&input);
});

//! The pNext walker and the structure readers over arbitrary graphs of structures; see
//! `exportcheck_fuzz::walker` for the properties.
#![no_main]

use exportcheck_fuzz::walker;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: walker::Input| {
    walker::run(&input);
});

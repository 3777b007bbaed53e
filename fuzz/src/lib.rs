//! The properties the fuzz targets check, as a library: each target (`fuzz_targets/`) is one
//! line that hands libFuzzer's input to a `run` here, and the seed generator
//! (`examples/make_seeds.rs`) runs the same code on stable Rust. See docs/fuzzing.md.

pub use VkLayer_exportcheck as layer;

pub mod checks;
pub mod checks_binds;
pub mod checks_imports;
pub mod checks_queries;
pub mod checks_sync;
pub mod settings;
pub mod shared_exports;
pub mod walker;

use arbitrary::{Arbitrary, Result, Unstructured};

/// A 32-bit flags value, drawn so that zero, single bits and pairs of bits are common (the
/// values the checks branch on), and any value possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits(pub u32);

impl<'a> Arbitrary<'a> for Bits {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let bit = |u: &mut Unstructured<'a>| -> Result<u32> { Ok(1 << u.int_in_range(0..=31)?) };
        Ok(Bits(match u.int_in_range(0u8..=3)? {
            0 => 0,
            1 => bit(u)?,
            2 => bit(u)? | bit(u)?,
            _ => u32::arbitrary(u)?,
        }))
    }
}

//! The import structures of handles the layer cannot open, at `vkAllocateMemory`: Win32 (KHR
//! and NV, `import_win32`), Zircon (`import_zircon`) and Metal (`import_metal`); of an Android
//! hardware buffer's, only whether the device takes it, which `alloc.rs` judges with every
//! chained structure (`VUID-VkMemoryAllocateInfo-pNext-pNext`). They are judged out of line, only for a chain that has
//! one (`ChainRead::handle_imports`), from a second read of the chain (`HandleImports`): an
//! allocation without them pays one test. Their bits are their own [`Broken`] (not the
//! allocation's); the files' bits are disjoint (a test below checks).

use super::common::Broken;
pub use super::import_handles_allocation::Allocation;
use super::{import_metal, import_win32, import_zircon};
use crate::args::HandleImports;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::DeviceFacts;

/// Every rule of the chain's handle import structures that the allocation breaks.
pub fn evaluate(device: &DeviceFacts, allocation: &Allocation, h: &HandleImports) -> Broken {
    let zircon = h
        .zircon
        .map(|z| import_zircon::evaluate(device, allocation, z));
    let metal = h
        .metal
        .map(|m| import_metal::evaluate(device, allocation, m));
    import_win32::evaluate(device, h)
        .and(zircon.unwrap_or_default())
        .and(metal.unwrap_or_default())
}

/// The findings of the rules in `broken` ([`evaluate`]'s bits), none blocking: the call goes
/// down as the app made it.
#[cold]
#[inline(never)]
pub fn describe(
    device: &DeviceFacts,
    allocation: &Allocation,
    h: &HandleImports,
    broken: Broken,
) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    let finding = |id, field: &'static str, message: String| {
        Finding::new(id, "vkAllocateMemory", field, message).with(device_ref)
    };
    import_win32::describe(device, h, broken, &finding, &mut outcome);
    if let Some(zircon) = h.zircon {
        import_zircon::describe(device, zircon, broken, &finding, &mut outcome);
    }
    if let Some(metal) = h.metal {
        import_metal::describe(device, allocation, metal, broken, &finding, &mut outcome);
    }
    outcome
}

/// [`evaluate`], then [`describe`]: for the unit tests.
#[cfg(test)]
pub fn check(device: &DeviceFacts, allocation: &Allocation, h: &HandleImports) -> Outcome {
    describe(device, allocation, h, evaluate(device, allocation, h))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_handle_import_rule_files_use_disjoint_bits() {
        let files = [
            super::import_win32::BITS.0,
            super::import_zircon::BITS.0,
            super::import_metal::BITS.0,
        ];
        for (i, a) in files.iter().enumerate() {
            for b in &files[i + 1..] {
                assert_eq!(a & b, 0, "{a:#034b} and {b:#034b} overlap");
            }
        }
    }
}

//! The import structures of handles the layer cannot open, at `vkAllocateMemory`: Win32 (KHR and
//! NV, `import_win32`), Zircon (`import_zircon`) and Metal (`import_metal`); of an Android hardware
//! buffer's, only whether the device takes it, which `alloc.rs` judges with every chained structure
//! (`VUID-VkMemoryAllocateInfo-pNext-pNext`). They are judged out of line, only for a chain that
//! has one (`ChainRead::handle_imports`), from a second read of the chain (`HandleImports`): an
//! allocation without them pays one test. Their rules are their own set ([`HandleImportRules`], not
//! the allocation's).

use crate::args::HandleImports;
use crate::finding::{Finding, ObjectRef, Outcome};
pub use crate::rules::import::import_handles_allocation::Allocation;
use crate::rules::import::import_metal::{self, ImportMetalRules};
use crate::rules::import::import_win32::{self, ImportWin32Rules};
use crate::rules::import::import_zircon::{self, ImportZirconRules};
use crate::rules::rule_set::composed_rules;
use crate::state::DeviceFacts;

composed_rules! {
    /// The rules of the handle import structures of a `vkAllocateMemory` call.
    pub struct HandleImportRules {
        win32: ImportWin32Rules,
        zircon: ImportZirconRules,
        metal: ImportMetalRules,
    }
}

/// Every rule of the chain's handle import structures that the allocation breaks.
pub fn evaluate(
    device: &DeviceFacts,
    allocation: &Allocation,
    h: &HandleImports,
) -> HandleImportRules {
    let zircon = h
        .zircon
        .map(|z| import_zircon::evaluate(device, allocation, z));
    let metal = h
        .metal
        .map(|m| import_metal::evaluate(device, allocation, m));
    HandleImportRules::NONE
        .and(import_win32::evaluate(device, h))
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
    broken: HandleImportRules,
) -> Outcome {
    let mut outcome = Outcome::default();
    let device_ref = ObjectRef::device(device.handle);
    let finding = |id, field: &'static str, message: String| {
        Finding::new(id, "vkAllocateMemory", field, message).with(device_ref)
    };
    import_win32::describe(device, h, broken.win32(), &finding, &mut outcome);
    if let Some(zircon) = h.zircon {
        import_zircon::describe(device, zircon, broken.zircon(), &finding, &mut outcome);
    }
    if let Some(metal) = h.metal {
        import_metal::describe(
            device,
            allocation,
            metal,
            broken.metal(),
            &finding,
            &mut outcome,
        );
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
    use super::*;

    #[test]
    fn every_rule_of_the_handle_imports_has_its_own_bit() {
        let win32 = HandleImportRules::NONE.and(ImportWin32Rules::ALL);
        let zircon = HandleImportRules::NONE.and(ImportZirconRules::ALL);
        let metal = HandleImportRules::NONE.and(ImportMetalRules::ALL);
        let all = win32.and_all(zircon).and_all(metal);
        assert_eq!(all.len(), win32.len() + zircon.len() + metal.len());
        assert_eq!(
            (all.win32(), all.zircon(), all.metal()),
            (
                ImportWin32Rules::ALL,
                ImportZirconRules::ALL,
                ImportMetalRules::ALL
            )
        );
        assert!(win32.zircon().is_empty() && zircon.metal().is_empty() && metal.win32().is_empty());
    }
}

//! The bind commands of the `checks` target: arbitrary memory (its export's handle types, its
//! import operations) bound to a buffer or image of arbitrary handle types by each of
//! `vkBind{Buffer,Image}Memory` and their `2` variants, run through the layer's
//! `rules::resources::bind_handle_types` (`evaluate`, then `describe`) and through the model's
//! `expected_bind`. Only live memory and a resource the layer knows in full reach the rules (the
//! command returns before them otherwise), so only those are built here; no rule.

use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use exportcheck_spec_model::{
    expected_bind, Bind, Binding as ModelBinding, Bound, BoundMemory, Expected, MemoryImport,
};
use layer::finding::{ObjectRef, Outcome};
use layer::rules::resources::bind_handle_types::{self as rules, Binding};
use layer::vk_names;

/// The import operations of the memory's chain (`model::MemoryImport`).
#[derive(Arbitrary, Debug)]
pub enum ImportIn {
    None,
    /// One import structure other than the Android one, of this `handleType`.
    Handle(Bits),
    AndroidHardwareBuffer,
    Several,
}

/// One binding: which command (`Bind::ALL[command % 4]`), the element's index in `pBindInfos`
/// (the `2` variants), the handles, and what each side was made with.
#[derive(Arbitrary, Debug)]
pub struct BindIn {
    pub command: u8,
    pub index: u8,
    pub memory: u64,
    pub resource: u64,
    pub export: Option<Bits>,
    pub import: ImportIn,
    pub resource_types: Bits,
}

pub fn bind_of(command: u8) -> Bind {
    Bind::ALL[usize::from(command) % Bind::ALL.len()]
}

fn flags(bits: u32) -> vk::ExternalMemoryHandleTypeFlags {
    vk::ExternalMemoryHandleTypeFlags::from_raw(bits)
}

/// What the layer records of the memory's import at `vkAllocateMemory`
/// (`PackedAllocation::import_operation`): the handle type of its one import operation, an
/// import structure's non-zero `handleType`, the Android type only from a
/// `VkImportAndroidHardwareBufferInfoANDROID` with a buffer.
fn recorded(import: MemoryImport) -> Option<vk::ExternalMemoryHandleTypeFlags> {
    let android = vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID;
    match import {
        MemoryImport::Handle(t) if t != 0 && flags(t) != android => Some(flags(t)),
        MemoryImport::AndroidHardwareBuffer => Some(android),
        MemoryImport::Handle(_) | MemoryImport::None | MemoryImport::Several => None,
    }
}

/// Runs one binding on the device `device` through the layer and the model.
pub fn bind_call(device: u64, b: &BindIn) -> (Outcome, Expected) {
    let bind = bind_of(b.command);
    let import = match b.import {
        ImportIn::None => MemoryImport::None,
        ImportIn::Handle(t) => MemoryImport::Handle(t.0),
        ImportIn::AndroidHardwareBuffer => MemoryImport::AndroidHardwareBuffer,
        ImportIn::Several => MemoryImport::Several,
    };
    let export = b.export.map(|t| t.0);
    let expected = expected_bind(&ModelBinding {
        bind,
        memory: Bound::Known(BoundMemory { export, import }),
        resource: Bound::Known(b.resource_types.0),
    });
    let (export, import) = (flags(export.unwrap_or(0)), recorded(import));
    let resource_types = flags(b.resource_types.0);
    let broken = rules::evaluate(export, import, resource_types);
    if broken.is_empty() {
        return (Outcome::default(), expected);
    }
    let field = if bind.takes_infos() {
        format!("pBindInfos[{}].memory", b.index)
    } else {
        "memory".to_owned()
    };
    let ty = if bind.is_image() {
        vk::ObjectType::IMAGE
    } else {
        vk::ObjectType::BUFFER
    };
    let outcome = rules::describe(
        &Binding {
            command: bind.name(),
            field,
            device,
            memory: b.memory,
            memory_info: vk_names::handle(vk::ObjectType::DEVICE_MEMORY, b.memory),
            export,
            import,
            resource: ObjectRef {
                ty,
                handle: b.resource,
            },
            resource_types,
        },
        broken,
    );
    assert_eq!(
        broken.len() as usize,
        outcome.findings.len(),
        "{}: one finding per broken rule",
        bind.name()
    );
    (outcome, expected)
}

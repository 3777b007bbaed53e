//! What every export command shares: its descriptor ([`ExportCommand`]), its arguments
//! ([`ExportCall`]), and the structural rules
//! (pointers, `sType`, `pNext`, the memory handle, the extension, the handle-type value).
//!
//! Each rule is evaluated once: [`evaluate`] says which rules a call breaks, cheaply and without
//! allocating; only when something is broken does [`describe`] build the findings. The command's
//! own value rules live in its file in this folder, named as its descriptor in `commands/`
//! (`get_memory_fd.rs`, ...), as one `evaluate_values` and one `describe_values`.

mod fence;
pub mod get_fence_fd;
pub mod get_fence_win32_handle;
pub mod get_memory_android_hardware_buffer;
pub mod get_memory_fd;
pub mod get_memory_metal_handle;
pub mod get_memory_remote_address;
pub mod get_memory_win32_handle;
pub mod get_memory_win32_handle_nv;
pub mod get_memory_zircon_handle;
pub mod get_semaphore_fd;
pub mod get_semaphore_win32_handle;
pub mod get_semaphore_zircon_handle;
pub mod imported_payload;
mod semaphore;

use crate::args::StructArg;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::Memory;
use crate::rules::common::{
    describe_allocation, describe_dead_memory, extension_not_enabled, FindingExt,
};
use crate::rules::rule_set::{rule_set, CommandRules, RuleSet};
use crate::state::{DeviceFacts, EnabledExtensions, Lookup, MemoryRecord, TrackedObject};
use crate::vk_names;
use ash::vk;

/// A tracked kind of object an export command exports, as its findings name it: memory and
/// semaphores and fences. The export rules and the pipeline are written once over it.
pub trait ExportedObject: TrackedObject {
    /// How messages name a live object and what it was made with.
    fn describe(record: &Self::Record) -> String;
    /// How messages name a handle that is no live object (`lookup`: what it turned out to be).
    fn describe_gone(handle: u64, lookup: &Lookup<Self>) -> String;
}

impl ExportedObject for Memory {
    fn describe(record: &MemoryRecord) -> String {
        describe_allocation(record)
    }

    fn describe_gone(handle: u64, lookup: &Lookup<Self>) -> String {
        describe_dead_memory(handle, lookup)
    }
}

/// The object a finding is about: its device, and it.
pub fn with_object<K: TrackedObject>(finding: Finding, record: &K::Record) -> Finding {
    finding
        .with(ObjectRef::device(K::device(record)))
        .with(object_ref::<K>(K::handle(record)))
}

fn object_ref<K: TrackedObject>(handle: u64) -> ObjectRef {
    ObjectRef {
        ty: K::OBJECT_TYPE,
        handle,
    }
}

/// The info structure an export command takes (the Win32 NV command takes none).
pub struct InfoStructure {
    /// The parameter, e.g. `pGetFdInfo`.
    pub param: &'static str,
    /// The structure, e.g. `VkMemoryGetFdInfoKHR`.
    pub type_name: &'static str,
    pub s_type: vk::StructureType,
    pub info_vuid: &'static str,
    pub s_type_vuid: &'static str,
    pub p_next_vuid: &'static str,
}

/// What the pipeline needs to know of an export command: names, IDs, and its rules (its own
/// are the set `R`), for objects of kind `K`.
pub struct ExportCommand<R, K: TrackedObject = Memory> {
    pub name: &'static str,
    pub extension: &'static str,
    pub is_enabled: fn(&EnabledExtensions) -> bool,
    /// `None` for a command whose object and handle type are plain parameters.
    pub info: Option<InfoStructure>,
    pub output_param: &'static str,
    pub device_vuid: &'static str,
    pub output_vuid: &'static str,
    /// A NULL, unknown or gone (freed, destroyed) object.
    pub object_vuid: &'static str,
    /// An object of another device.
    pub other_device_vuid: &'static str,
    /// The `-parameter` rule of a handle type (a bit of `K`'s flags); `None` when the command's
    /// own rules judge the value.
    pub handle_type_vuid: Option<&'static str>,
    /// The command's own rules, on a live object of the device.
    pub evaluate_values: fn(&DeviceFacts, &InfoFields, &K::Record) -> R,
    /// The findings of the command's own rules that `evaluate_values` said are broken.
    pub describe_values: fn(&Self, &DeviceFacts, &InfoFields, &K::Record, R, &mut Outcome),
}

impl<R, K: TrackedObject> ExportCommand<R, K> {
    /// The field path of the info structure's member, or of the parameter: `pGetFdInfo->memory`.
    pub fn field(&self, member: &str) -> String {
        match &self.info {
            Some(info) => format!("{}->{member}", info.param),
            None => member.to_owned(),
        }
    }
}

/// The members of an info structure the rules look at (for the Win32 NV command, its parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InfoFields {
    pub has_p_next: bool,
    /// The handle of the object exported (`memory`).
    pub object: u64,
    /// A handle-type value of the object's kind (`VkExternalMemoryHandleTypeFlags`, or
    /// `VkExternalMemoryHandleTypeFlagsNV` for the Win32 NV command).
    pub handle_type: u32,
}

impl InfoFields {
    pub fn handle_type(&self) -> vk::ExternalMemoryHandleTypeFlags {
        vk::ExternalMemoryHandleTypeFlags::from_raw(self.handle_type)
    }
}

/// One export call's arguments, read and resolved against tracked state.
#[derive(Clone, Debug)]
pub struct ExportCall<K: TrackedObject = Memory> {
    pub info: StructArg<InfoFields>,
    pub output_null: bool,
    /// What `info.object` is; `Null` when the info structure could not be read.
    pub object: Lookup<K>,
}

rule_set! {
    /// The rules every export command shares.
    pub struct ExportRules {
        EXTENSION,
        OUTPUT_NULL,
        INFO_NULL,
        S_TYPE,
        P_NEXT,
        OBJECT_NULL,
        /// An unknown or gone (freed, destroyed) object.
        OBJECT_GONE,
        OBJECT_OF_OTHER_DEVICE,
        HANDLE_TYPE_VALUE,
    }
}

impl ExportRules {
    /// The rules that block an export: a pointer or handle known to be bad.
    pub const BLOCKING: Self = Self::OUTPUT_NULL
        .and(Self::INFO_NULL)
        .and(Self::S_TYPE)
        .and(Self::OBJECT_NULL)
        .and(Self::OBJECT_GONE)
        .and(Self::OBJECT_OF_OTHER_DEVICE);
}

/// Every rule of an export call: the shared [`ExportRules`], then the command's own `R`.
pub type ExportCallRules<R> = CommandRules<ExportRules, R>;

/// Whether `broken` blocks the export.
#[inline(always)]
pub fn blocks<R: RuleSet>(broken: ExportCallRules<R>) -> bool {
    broken.shared().has(ExportRules::BLOCKING)
}

/// Every rule `call` breaks, the command's own included.
#[inline(always)]
pub fn evaluate<R: RuleSet, K: TrackedObject>(
    cmd: &ExportCommand<R, K>,
    device: &DeviceFacts,
    call: &ExportCall<K>,
) -> ExportCallRules<R> {
    evaluate_parts(cmd, device, &call.info, call.output_null, &call.object)
}

/// [`evaluate`] of a call's parts, as the pipeline holds them.
#[inline(always)]
pub fn evaluate_parts<R: RuleSet, K: TrackedObject>(
    cmd: &ExportCommand<R, K>,
    device: &DeviceFacts,
    info: &StructArg<InfoFields>,
    output_null: bool,
    object: &Lookup<K>,
) -> ExportCallRules<R> {
    let broken = ExportRules::NONE
        .with(
            ExportRules::EXTENSION,
            !(cmd.is_enabled)(&device.extensions),
        )
        .with(ExportRules::OUTPUT_NULL, output_null);
    let StructArg::Valid(info) = info else {
        return ExportCallRules::new(broken.and(info_broken(info)), R::NONE);
    };
    let broken = broken.with(ExportRules::P_NEXT, info.has_p_next);
    let Lookup::Live(record) = object else {
        return ExportCallRules::new(broken.and(object_broken(object)), R::NONE);
    };
    let value_is_valid = cmd.handle_type_vuid.is_none()
        || is_one_bit_of(info.handle_type, K::valid_handle_types(device));
    ExportCallRules::new(
        broken.with(ExportRules::HANDLE_TYPE_VALUE, !value_is_valid),
        (cmd.evaluate_values)(device, info, record),
    )
}

/// The rule an info structure that could not be read breaks (nothing else of it is judged).
#[cold]
#[inline(never)]
fn info_broken(info: &StructArg<InfoFields>) -> ExportRules {
    match info {
        StructArg::Valid(_) => ExportRules::NONE,
        StructArg::Null => ExportRules::INFO_NULL,
        StructArg::WrongSType(_) => ExportRules::S_TYPE,
    }
}

/// The rule an object that is not live breaks (the command's own rules need a live one).
#[cold]
#[inline(never)]
fn object_broken<K: TrackedObject>(object: &Lookup<K>) -> ExportRules {
    match object {
        Lookup::Live(_) => ExportRules::NONE,
        Lookup::Null => ExportRules::OBJECT_NULL,
        Lookup::Unknown | Lookup::Gone(_) => ExportRules::OBJECT_GONE,
        Lookup::OtherDevice(_) => ExportRules::OBJECT_OF_OTHER_DEVICE,
    }
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `call`).
#[cold]
#[inline(never)]
pub fn describe<R: RuleSet, K: ExportedObject>(
    cmd: &ExportCommand<R, K>,
    device: &DeviceFacts,
    call: &ExportCall<K>,
    broken: ExportCallRules<R>,
) -> Outcome {
    let (own, broken) = (broken.own(), broken.shared());
    let mut outcome = Outcome::default();
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(ExportRules::EXTENSION) {
        outcome.push(extension_not_enabled(name, cmd.extension, device));
    }
    if broken.has(ExportRules::OUTPUT_NULL) {
        let param = cmd.output_param;
        let message = format!("{name}(): {param} is NULL. The call was not passed to the driver.");
        outcome.block(Finding::new(cmd.output_vuid, name, param, message).with(device_ref));
    }
    describe_info(cmd, call, broken, device_ref, &mut outcome);
    let StructArg::Valid(info) = &call.info else {
        return outcome;
    };
    describe_object(cmd, device, info, &call.object, broken, &mut outcome);
    let Lookup::Live(record) = &call.object else {
        return outcome;
    };
    if let (true, Some(id)) = (
        broken.has(ExportRules::HANDLE_TYPE_VALUE),
        cmd.handle_type_vuid,
    ) {
        outcome.push(describe_handle_type_value(cmd, id, device, info, record));
    }
    (cmd.describe_values)(cmd, device, info, record, own, &mut outcome);
    outcome
}

/// The info structure: NULL, its `sType`, its `pNext`.
fn describe_info<R, K: TrackedObject>(
    cmd: &ExportCommand<R, K>,
    call: &ExportCall<K>,
    broken: ExportRules,
    device_ref: ObjectRef,
    outcome: &mut Outcome,
) {
    let (Some(info), name) = (&cmd.info, cmd.name) else {
        return;
    };
    let param = info.param;
    let finding = |id, field: String, message: String| {
        Finding::new(id, name, field, message).with(device_ref)
    };
    if broken.has(ExportRules::INFO_NULL) {
        outcome.block(finding(
            info.info_vuid,
            param.to_owned(),
            format!(
                "{name}(): {param} is NULL; it must point to a valid {}. The call was not passed \
                 to the driver.",
                info.type_name
            ),
        ));
    }
    if let (true, StructArg::WrongSType(found)) = (broken.has(ExportRules::S_TYPE), &call.info) {
        outcome.block(finding(
            info.s_type_vuid,
            format!("{param}->sType"),
            format!(
                "{name}(): {param}->sType is {}; it must be {}. The structure's other members \
                 were not read and the call was not passed to the driver.",
                vk_names::structure_type(*found),
                vk_names::structure_type(info.s_type)
            ),
        ));
    }
    if broken.has(ExportRules::P_NEXT) {
        outcome.push(finding(
            info.p_next_vuid,
            format!("{param}->pNext"),
            format!(
                "{name}(): {param}->pNext is not NULL; no structure extends {}. The call goes \
                 down as the app made it.",
                info.type_name
            ),
        ));
    }
}

/// The object's handle: NULL, unknown or gone, of another device.
fn describe_object<R, K: ExportedObject>(
    cmd: &ExportCommand<R, K>,
    device: &DeviceFacts,
    info: &InfoFields,
    object: &Lookup<K>,
    broken: ExportRules,
    outcome: &mut Outcome,
) {
    let name = cmd.name;
    let field = cmd.field(K::MEMBER);
    let device_ref = ObjectRef::device(device.handle);
    let not_passed = "The call was not passed to the driver.";
    if broken.has(ExportRules::OBJECT_NULL) {
        let message = format!("{name}(): {field} is VK_NULL_HANDLE. {not_passed}");
        outcome.block(Finding::new(cmd.object_vuid, name, field, message).with(device_ref));
    } else if broken.has(ExportRules::OBJECT_GONE) {
        let message = format!(
            "{name}(): {field} is {}. {not_passed}",
            K::describe_gone(info.object, object)
        );
        outcome.block(
            Finding::new(cmd.object_vuid, name, field, message)
                .with(device_ref)
                .with(object_ref::<K>(info.object)),
        );
    } else if let (true, Lookup::OtherDevice(record)) =
        (broken.has(ExportRules::OBJECT_OF_OTHER_DEVICE), object)
    {
        let device_name = vk_names::handle(vk::ObjectType::DEVICE, device.handle);
        // A `-parent` ID is the parameter's own rule ("allocated from device"); the layer's
        // cross-device ID covers the info structures, whose memory member has none.
        let relation = if cmd.other_device_vuid.ends_with("-parent") {
            format!("which was not allocated from device ({device_name})")
        } else {
            format!("which belongs to another device than {device_name}")
        };
        let message = format!(
            "{name}(): {field} is {}, {relation}. {not_passed}",
            K::describe(record)
        );
        outcome.block(
            Finding::new(cmd.other_device_vuid, name, field, message)
                .with(device_ref)
                .with(object_ref::<K>(K::handle(record)))
                .with(ObjectRef::device(K::device(record))),
        );
    }
}

/// `handleType` is not exactly one handle-type bit of the object's kind valid on the device:
/// undefined, or of an extension the device was created without.
fn describe_handle_type_value<R, K: TrackedObject>(
    cmd: &ExportCommand<R, K>,
    id: &'static str,
    device: &DeviceFacts,
    info: &InfoFields,
    record: &K::Record,
) -> Finding {
    let field = cmd.field("handleType");
    let valid = K::valid_handle_types(device);
    let message = format!(
        "{}(): {field} is {}, which is not a valid {} value on {}: {}.",
        cmd.name,
        K::names(info.handle_type),
        K::FLAG_BITS,
        vk_names::handle(vk::ObjectType::DEVICE, device.handle),
        K::invalid_reasons(info.handle_type, valid, true)
    );
    with_object::<K>(Finding::new(id, cmd.name, field, message), record)
}

/// Whether `handle_type` is exactly one of the bits of `set`: it has no second bit (clearing its
/// lowest leaves nothing) and a bit of `set` (so it is not 0). Written so, not as
/// `is_power_of_two() && set.contains(..)`, it is two tests the compiler does not turn back
/// into a population count.
#[inline(always)]
fn is_one_bit_of(handle_type: u32, set: u32) -> bool {
    handle_type & handle_type.wrapping_sub(1) == 0 && set & handle_type != 0
}

/// Whether `handle_type` is exactly one of the bits of `set`.
#[inline(always)]
pub fn is_one_of(
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    set: vk::ExternalMemoryHandleTypeFlags,
) -> bool {
    is_one_bit_of(handle_type.as_raw(), set.as_raw())
}

/// Whether `handle_type` was in `VkExportMemoryAllocateInfo::handleTypes` at allocation.
#[inline(always)]
pub fn exported_with(info: &InfoFields, record: &MemoryRecord) -> bool {
    matches!(record.export(), Some(types) if types.contains(info.handle_type()))
}

/// The finding of `id`, "`handleType` must have been in
/// `VkExportMemoryAllocateInfo::handleTypes`", with its cause: no export structure at all, or the
/// bit missing from it.
pub fn not_exported_with<R>(
    cmd: &ExportCommand<R, Memory>,
    id: &'static str,
    info: &InfoFields,
    record: &MemoryRecord,
) -> Finding {
    let field = cmd.field("handleType");
    let handle_type = vk_names::handle_types(info.handle_type());
    let message = match record.export() {
        Some(types) => format!(
            "{}(): {field} is {handle_type}, which was not included in \
             VkExportMemoryAllocateInfo::handleTypes ({}) when {} was allocated.",
            cmd.name,
            vk_names::handle_types(types),
            describe_allocation(record)
        ),
        None => format!(
            "{}(): {field} is {handle_type}, but {} was allocated without a \
             VkExportMemoryAllocateInfo in the pNext chain of VkMemoryAllocateInfo, so it cannot be \
             exported.",
            cmd.name,
            describe_allocation(record)
        ),
    };
    Finding::new(id, cmd.name, field, message).with_memory(record)
}

/// Every finding of one call: [`describe`] of [`evaluate`] (what the pipeline does, in one step,
/// for the unit tests and the fuzz target).
pub fn check<R: RuleSet, K: ExportedObject>(
    cmd: &ExportCommand<R, K>,
    device: &DeviceFacts,
    call: &ExportCall<K>,
) -> Outcome {
    let broken = evaluate(cmd, device, call);
    if broken.is_empty() {
        return Outcome::default();
    }
    let outcome = describe(cmd, device, call, broken);
    debug_assert_eq!(outcome.blocked, blocks(broken), "{}", cmd.name);
    outcome
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;

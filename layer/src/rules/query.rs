//! What every handle-property query shares (`vkGetMemoryFdPropertiesKHR`,
//! `vkGetMemoryHostPointerPropertiesEXT`, `vkGetMemoryMetalHandlePropertiesEXT`,
//! `vkGetMemoryWin32HandlePropertiesKHR`, `vkGetMemoryZirconHandlePropertiesFUCHSIA`,
//! `vkGetAndroidHardwareBufferPropertiesANDROID`): its descriptor
//! ([`QueryCommand`]), its arguments ([`QueryCall`]), and the structural rules (the extension,
//! the output structure's pointer, `sType` and `pNext`, the handle-type value).
//!
//! A query takes a device, a handle type, a handle (an fd, a host pointer, a Metal object) and an
//! output structure the driver fills. As with the exports, [`evaluate`] says which rules a call
//! breaks (cheap, no allocation) and only then does [`describe`] build the findings; the
//! command's own rules live in its rules file as one `evaluate_values` and one `describe_values`.

use super::common::{extension_not_enabled, Broken};
use super::export::is_one_of;
use crate::args::StructArg;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::state::{DeviceFacts, EnabledExtensions};
use crate::vk_names;
use ash::vk;

/// The output structure a query fills (`VkMemoryFdPropertiesKHR`, ...).
pub struct OutputStructure {
    /// The parameter, e.g. `pMemoryFdProperties`.
    pub param: &'static str,
    /// The structure, e.g. `VkMemoryFdPropertiesKHR`.
    pub type_name: &'static str,
    pub s_type: vk::StructureType,
    /// The parameter's `-parameter` rule (NULL).
    pub param_vuid: &'static str,
    pub s_type_vuid: &'static str,
    /// `pNext` must be NULL; `None` when structures extend the output (their chain is the
    /// driver's to fill).
    pub p_next_vuid: Option<&'static str>,
}

/// What the pipeline needs to know of a query: names, IDs, and its own rules.
pub struct QueryCommand {
    pub name: &'static str,
    pub extension: &'static str,
    pub is_enabled: fn(&EnabledExtensions) -> bool,
    /// The handle parameter, e.g. `fd`.
    pub handle_param: &'static str,
    pub output: OutputStructure,
    pub device_vuid: &'static str,
    /// `handleType` is not a single `VkExternalMemoryHandleTypeFlagBits` value valid on the
    /// device; `None` for a query without a `handleType` parameter (its descriptor reads the one
    /// type it is about).
    pub handle_type_vuid: Option<&'static str>,
    /// The command's own rules that block the call (a handle known to be bad).
    pub blocking: Broken,
    /// The command's own rules: [`Broken::rule`] bits.
    pub evaluate_values: fn(&DeviceFacts, &QueryCall) -> Broken,
    /// The findings of the command's own rules that `evaluate_values` said are broken.
    pub describe_values: fn(&QueryCommand, &DeviceFacts, &QueryCall, Broken, &mut Outcome),
}

/// What a query's output structure is: `Valid(has_p_next)` when its `sType` is the command's.
pub type OutputArg = StructArg<bool>;

/// One query call's arguments, as plain values.
#[derive(Clone, Copy, Debug)]
pub struct QueryCall {
    /// A `VkExternalMemoryHandleTypeFlags` value.
    pub handle_type: u32,
    /// The handle: an fd (sign-extended), a host pointer's or a Metal object's address.
    pub handle: i64,
    /// What the operating system says of the handle, for an fd: `Some(false)` when the number
    /// is not an open descriptor; `None` when nothing was asked or the OS cannot tell.
    pub handle_open: Option<bool>,
    pub output: OutputArg,
    /// The output structure's `pNext` chain loops back on itself. Walked only for an output
    /// structure that others extend (the driver walks that chain to fill it); `false` otherwise.
    pub output_loops: bool,
}

impl QueryCall {
    pub fn handle_type(&self) -> vk::ExternalMemoryHandleTypeFlags {
        vk::ExternalMemoryHandleTypeFlags::from_raw(self.handle_type)
    }
}

/// The structural rules every query shares use the export commands' bits (`Broken::EXTENSION`,
/// `OUTPUT_NULL`, `S_TYPE`, `P_NEXT`, `HANDLE_TYPE_VALUE`, in `rules::export`); these block.
pub const QUERY_BLOCKING: Broken = Broken(Broken::OUTPUT_NULL.0 | Broken::S_TYPE.0);

/// Every rule `call` breaks, the command's own included.
#[inline(always)]
pub fn evaluate(cmd: &QueryCommand, device: &DeviceFacts, call: &QueryCall) -> Broken {
    let broken = Broken::NONE
        .with(Broken::EXTENSION, !(cmd.is_enabled)(&device.extensions))
        .with(
            Broken::HANDLE_TYPE_VALUE,
            cmd.handle_type_vuid.is_some() && !is_one_of(call.handle_type(), device.handle_types),
        )
        .and((cmd.evaluate_values)(device, call));
    match call.output {
        StructArg::Valid(has_p_next) => broken.with(
            Broken::P_NEXT,
            has_p_next && cmd.output.p_next_vuid.is_some(),
        ),
        StructArg::Null => broken.and(Broken::OUTPUT_NULL),
        StructArg::WrongSType(_) => broken.and(Broken::S_TYPE),
    }
}

/// Whether the broken rules block the call (a pointer or handle known to be bad).
#[inline(always)]
pub fn blocks(cmd: &QueryCommand, broken: Broken) -> bool {
    broken.has(Broken(QUERY_BLOCKING.0 | cmd.blocking.0))
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `call`).
#[cold]
#[inline(never)]
pub fn describe(
    cmd: &QueryCommand,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: Broken,
) -> Outcome {
    let mut outcome = Outcome::default();
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(Broken::EXTENSION) {
        outcome.push(extension_not_enabled(name, cmd.extension, device));
    }
    if let (true, Some(id)) = (broken.has(Broken::HANDLE_TYPE_VALUE), cmd.handle_type_vuid) {
        let message = format!(
            "{name}(): handleType is {}, which is not a valid VkExternalMemoryHandleTypeFlagBits \
             value on {}: {}.",
            vk_names::handle_types(call.handle_type()),
            vk_names::handle(vk::ObjectType::DEVICE, device.handle),
            vk_names::invalid_handle_types(call.handle_type(), device.handle_types, true)
        );
        outcome.push(Finding::new(id, name, "handleType", message).with(device_ref));
    }
    (cmd.describe_values)(cmd, device, call, broken, &mut outcome);
    describe_output(cmd, call, broken, device_ref, &mut outcome);
    outcome.blocked = blocks(cmd, broken);
    outcome
}

/// The output structure: NULL, its `sType`, its `pNext`.
fn describe_output(
    cmd: &QueryCommand,
    call: &QueryCall,
    broken: Broken,
    device_ref: ObjectRef,
    outcome: &mut Outcome,
) {
    let (output, name) = (&cmd.output, cmd.name);
    let param = output.param;
    let finding = |id, field: String, message: String| {
        Finding::new(id, name, field, message).with(device_ref)
    };
    if broken.has(Broken::OUTPUT_NULL) {
        outcome.push(finding(
            output.param_vuid,
            param.to_owned(),
            format!(
                "{name}(): {param} is NULL; it must point to a {} for the driver to fill. The \
                 call was not passed to the driver.",
                output.type_name
            ),
        ));
    }
    if let (true, StructArg::WrongSType(found)) = (broken.has(Broken::S_TYPE), call.output) {
        outcome.push(finding(
            output.s_type_vuid,
            format!("{param}->sType"),
            format!(
                "{name}(): {param}->sType is {}; it must be {} (is {param} the structure the \
                 driver is to fill?). The call was not passed to the driver.",
                vk_names::structure_type(found),
                vk_names::structure_type(output.s_type)
            ),
        ));
    }
    if let (true, Some(id)) = (broken.has(Broken::P_NEXT), output.p_next_vuid) {
        outcome.push(finding(
            id,
            format!("{param}->pNext"),
            format!(
                "{name}(): {param}->pNext is not NULL; no structure extends {}. The call goes \
                 down as the app made it.",
                output.type_name
            ),
        ));
    }
}

/// Every finding of one call: [`describe`] of [`evaluate`] (what the pipeline does, in one step,
/// for the unit tests).
pub fn check(cmd: &QueryCommand, device: &DeviceFacts, call: &QueryCall) -> Outcome {
    let broken = evaluate(cmd, device, call);
    if broken.is_empty() {
        return Outcome::default();
    }
    describe(cmd, device, call, broken)
}

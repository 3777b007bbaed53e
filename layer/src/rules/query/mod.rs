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
//!
//! One file per command, named as its descriptor in `commands/`, beside these shared rules.

pub mod external_sync_properties;
pub mod get_android_hardware_buffer_properties;
pub mod get_memory_fd_properties;
pub mod get_memory_host_pointer_properties;
pub mod get_memory_metal_handle_properties;
pub mod get_memory_win32_handle_properties;
pub mod get_memory_zircon_handle_properties;

use crate::args::StructArg;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::rules::common::extension_not_enabled;
use crate::rules::export::is_one_of;
use crate::rules::rule_set::{rule_set, CommandRules, RuleSet};
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

/// What the pipeline needs to know of a query: names, IDs, and its own rules (the set `R`).
pub struct QueryCommand<R> {
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
    pub blocking: R,
    /// The command's own rules.
    pub evaluate_values: fn(&DeviceFacts, &QueryCall) -> R,
    /// The findings of the command's own rules that `evaluate_values` said are broken.
    pub describe_values: fn(&Self, &DeviceFacts, &QueryCall, R, &mut Outcome),
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

rule_set! {
    /// The structural rules every query shares.
    pub struct QueryRules {
        EXTENSION,
        HANDLE_TYPE_VALUE,
        OUTPUT_NULL,
        S_TYPE,
        P_NEXT,
    }
}

impl QueryRules {
    /// The shared rules that block a query.
    pub const BLOCKING: Self = Self::OUTPUT_NULL.and(Self::S_TYPE);
}

/// Every rule of a query call: the shared [`QueryRules`], then the command's own `R`.
pub type QueryCallRules<R> = CommandRules<QueryRules, R>;

/// Every rule `call` breaks, the command's own included.
#[inline(always)]
pub fn evaluate<R: RuleSet>(
    cmd: &QueryCommand<R>,
    device: &DeviceFacts,
    call: &QueryCall,
) -> QueryCallRules<R> {
    let shared = QueryRules::NONE
        .with(QueryRules::EXTENSION, !(cmd.is_enabled)(&device.extensions))
        .with(
            QueryRules::HANDLE_TYPE_VALUE,
            cmd.handle_type_vuid.is_some() && !is_one_of(call.handle_type(), device.handle_types),
        );
    let own = (cmd.evaluate_values)(device, call);
    let shared = match call.output {
        StructArg::Valid(has_p_next) => shared.with(
            QueryRules::P_NEXT,
            has_p_next && cmd.output.p_next_vuid.is_some(),
        ),
        output => shared.and(output_broken(output)),
    };
    QueryCallRules::new(shared, own)
}

/// The rule an output structure that could not be read breaks (its `pNext` is not judged).
#[cold]
#[inline(never)]
fn output_broken(output: OutputArg) -> QueryRules {
    match output {
        StructArg::Valid(_) => QueryRules::NONE,
        StructArg::Null => QueryRules::OUTPUT_NULL,
        StructArg::WrongSType(_) => QueryRules::S_TYPE,
    }
}

/// Whether the broken rules block the call (a pointer or handle known to be bad).
#[inline(always)]
pub fn blocks<R: RuleSet>(cmd: &QueryCommand<R>, broken: QueryCallRules<R>) -> bool {
    broken.shared().has(QueryRules::BLOCKING) || broken.own().bits() & cmd.blocking.bits() != 0
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `call`).
#[cold]
#[inline(never)]
pub fn describe<R: RuleSet>(
    cmd: &QueryCommand<R>,
    device: &DeviceFacts,
    call: &QueryCall,
    broken: QueryCallRules<R>,
) -> Outcome {
    let blocked = blocks(cmd, broken);
    let (own, broken) = (broken.own(), broken.shared());
    let mut outcome = Outcome::default();
    let name = cmd.name;
    let device_ref = ObjectRef::device(device.handle);
    if broken.has(QueryRules::EXTENSION) {
        outcome.push(extension_not_enabled(name, cmd.extension, device));
    }
    if let (true, Some(id)) = (
        broken.has(QueryRules::HANDLE_TYPE_VALUE),
        cmd.handle_type_vuid,
    ) {
        let message = format!(
            "{name}(): handleType is {}, which is not a valid VkExternalMemoryHandleTypeFlagBits \
             value on {}: {}.",
            vk_names::handle_types(call.handle_type()),
            vk_names::handle(vk::ObjectType::DEVICE, device.handle),
            vk_names::invalid_handle_types(call.handle_type(), device.handle_types, true)
        );
        outcome.push(Finding::new(id, name, "handleType", message).with(device_ref));
    }
    (cmd.describe_values)(cmd, device, call, own, &mut outcome);
    describe_output(cmd, call, broken, device_ref, &mut outcome);
    outcome.blocked = blocked;
    outcome
}

/// The output structure: NULL, its `sType`, its `pNext`.
fn describe_output<R>(
    cmd: &QueryCommand<R>,
    call: &QueryCall,
    broken: QueryRules,
    device_ref: ObjectRef,
    outcome: &mut Outcome,
) {
    let (output, name) = (&cmd.output, cmd.name);
    let param = output.param;
    let finding = |id, field: String, message: String| {
        Finding::new(id, name, field, message).with(device_ref)
    };
    if broken.has(QueryRules::OUTPUT_NULL) {
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
    if let (true, StructArg::WrongSType(found)) = (broken.has(QueryRules::S_TYPE), call.output) {
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
    if let (true, Some(id)) = (broken.has(QueryRules::P_NEXT), output.p_next_vuid) {
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
pub fn check<R: RuleSet>(cmd: &QueryCommand<R>, device: &DeviceFacts, call: &QueryCall) -> Outcome {
    let broken = evaluate(cmd, device, call);
    if broken.is_empty() {
        return Outcome::default();
    }
    describe(cmd, device, call, broken)
}

/// For the queries' unit tests: a call of `handle_type` on the handle `handle` (its value),
/// with a good output structure.
#[cfg(test)]
pub fn handle_call(handle_type: vk::ExternalMemoryHandleTypeFlags, handle: i64) -> QueryCall {
    QueryCall {
        handle_type: handle_type.as_raw(),
        handle,
        handle_open: None,
        output: StructArg::Valid(false),
        output_loops: false,
    }
}

/// For the queries' unit tests: the IDs of what [`check`] finds on the fixture device (every
/// extension enabled), and whether the call is kept from the driver.
#[cfg(test)]
pub fn checked<R: RuleSet>(cmd: &QueryCommand<R>, call: &QueryCall) -> (Vec<&'static str>, bool) {
    let outcome = check(cmd, &crate::rules::fixtures::fd_device(), call);
    (outcome.ids(), outcome.blocked)
}

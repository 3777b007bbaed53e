//! `vkGetPhysicalDeviceExternalSemaphoreProperties` and `vkGetPhysicalDeviceExternalFenceProperties`
//! (and their `KHR` names): what a semaphore or fence may be exported as and imported from. One
//! descriptor each ([`SEMAPHORE`], [`FENCE`]) and one set of rules for both: the info structure
//! (NULL, `sType`, `pNext`, a structure twice, `handleType` a single defined bit) and the output
//! structure (NULL, `sType`, `pNext`). A NULL or wrong-`sType` pointer, or an input chain that
//! loops, blocks the call.

use crate::args::{ChainEnd, StructArg, SyncQueryInfo};
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{Fence, HandleKind, Semaphore};
use crate::rules::rule_set::rule_set;
use crate::vk_names;
use crate::vuid;
use ash::vk;

/// One of the two queries: names and IDs.
pub struct SyncQueryCommand {
    /// The core name (the catalog's); the app may have called the `KHR` one.
    pub name: &'static str,
    /// The info parameter, e.g. `pExternalSemaphoreInfo`, and its structure.
    pub info: &'static str,
    pub info_type: &'static str,
    pub info_s_type: vk::StructureType,
    /// The output parameter, e.g. `pExternalSemaphoreProperties`, and its structure.
    pub output: &'static str,
    pub output_type: &'static str,
    pub output_s_type: vk::StructureType,
    /// A semaphore query (`VkSemaphoreTypeCreateInfo` may extend its info structure).
    pub semaphore: bool,
    pub flag_bits: &'static str,
    /// Every defined handle-type bit.
    pub valid: u32,
    pub names: fn(u32) -> String,
    pub invalid_reasons: fn(u32, u32, bool) -> String,
    pub info_vuid: &'static str,
    pub output_vuid: &'static str,
    pub info_s_type_vuid: &'static str,
    pub info_p_next_vuid: &'static str,
    /// `sType-unique`; `None` where nothing extends the info (a loop is then `pNext-pNext`).
    pub info_unique_vuid: Option<&'static str>,
    pub handle_type_vuid: &'static str,
    pub output_s_type_vuid: &'static str,
    pub output_p_next_vuid: &'static str,
}

pub static SEMAPHORE: SyncQueryCommand = SyncQueryCommand {
    name: "vkGetPhysicalDeviceExternalSemaphoreProperties",
    info: "pExternalSemaphoreInfo",
    info_type: "VkPhysicalDeviceExternalSemaphoreInfo",
    info_s_type: vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
    output: "pExternalSemaphoreProperties",
    output_type: "VkExternalSemaphoreProperties",
    output_s_type: vk::StructureType::EXTERNAL_SEMAPHORE_PROPERTIES,
    semaphore: true,
    flag_bits: Semaphore::FLAG_BITS,
    valid: Semaphore::VALID,
    names: Semaphore::names,
    invalid_reasons: Semaphore::invalid_reasons,
    info_vuid: vuid::SEM_CAPS_INFO_PARAM,
    output_vuid: vuid::SEM_CAPS_PROPS_PARAM,
    info_s_type_vuid: vuid::SEM_CAPS_INFO_STYPE,
    info_p_next_vuid: vuid::SEM_CAPS_INFO_PNEXT,
    info_unique_vuid: Some(vuid::SEM_CAPS_INFO_UNIQUE),
    handle_type_vuid: vuid::SEM_CAPS_HANDLE_TYPE_PARAM,
    output_s_type_vuid: vuid::SEM_CAPS_PROPS_STYPE,
    output_p_next_vuid: vuid::SEM_CAPS_PROPS_PNEXT,
};

pub static FENCE: SyncQueryCommand = SyncQueryCommand {
    name: "vkGetPhysicalDeviceExternalFenceProperties",
    info: "pExternalFenceInfo",
    info_type: "VkPhysicalDeviceExternalFenceInfo",
    info_s_type: vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
    output: "pExternalFenceProperties",
    output_type: "VkExternalFenceProperties",
    output_s_type: vk::StructureType::EXTERNAL_FENCE_PROPERTIES,
    semaphore: false,
    flag_bits: Fence::FLAG_BITS,
    valid: Fence::VALID,
    names: Fence::names,
    invalid_reasons: Fence::invalid_reasons,
    info_vuid: vuid::FENCE_CAPS_INFO_PARAM,
    output_vuid: vuid::FENCE_CAPS_PROPS_PARAM,
    info_s_type_vuid: vuid::FENCE_CAPS_INFO_STYPE,
    info_p_next_vuid: vuid::FENCE_CAPS_INFO_PNEXT,
    info_unique_vuid: None,
    handle_type_vuid: vuid::FENCE_CAPS_HANDLE_TYPE_PARAM,
    output_s_type_vuid: vuid::FENCE_CAPS_PROPS_STYPE,
    output_p_next_vuid: vuid::FENCE_CAPS_PROPS_PNEXT,
};

/// One call's arguments, as plain values.
#[derive(Clone, Copy, Debug)]
pub struct SyncQueryCall {
    /// The name the app called (the core or the `KHR` one).
    pub called: &'static str,
    pub physical_device: u64,
    pub info: StructArg<SyncQueryInfo>,
    /// The output structure: `Valid(has_p_next)` when its `sType` is the command's.
    pub output: StructArg<bool>,
}

rule_set! {
    /// The rules of both queries.
    pub struct SyncQueryRules {
        INFO_NULL,
        INFO_S_TYPE,
        /// A chained structure that does not extend the info structure.
        INFO_P_NEXT,
        /// `VkSemaphoreTypeCreateInfo` twice.
        INFO_UNIQUE,
        /// The info's chain loops back on itself.
        CHAIN_LOOPS,
        HANDLE_TYPE,
        OUTPUT_NULL,
        OUTPUT_S_TYPE,
        OUTPUT_P_NEXT,
    }
}

impl SyncQueryRules {
    /// The rules that block the call: a pointer known to be bad, a chain the driver would walk
    /// forever.
    pub const BLOCKING: Self = Self::INFO_NULL
        .and(Self::INFO_S_TYPE)
        .and(Self::CHAIN_LOOPS)
        .and(Self::OUTPUT_NULL)
        .and(Self::OUTPUT_S_TYPE);
}

/// Every rule `call` breaks.
pub fn evaluate(cmd: &SyncQueryCommand, call: &SyncQueryCall) -> SyncQueryRules {
    let mut broken = match call.info {
        StructArg::Null => SyncQueryRules::INFO_NULL,
        StructArg::WrongSType(_) => SyncQueryRules::INFO_S_TYPE,
        StructArg::Valid(info) => {
            let loops = info.end == ChainEnd::Cycle;
            let single = info.handle_type.is_power_of_two() && info.handle_type & cmd.valid != 0;
            SyncQueryRules::NONE
                .with(SyncQueryRules::CHAIN_LOOPS, loops)
                // Where nothing extends the info, a loop is its pNext rule already.
                .with(
                    SyncQueryRules::INFO_P_NEXT,
                    info.foreign.is_some() && !(loops && cmd.info_unique_vuid.is_none()),
                )
                .with(
                    SyncQueryRules::INFO_UNIQUE,
                    info.repeated.is_some() && !loops,
                )
                .with(SyncQueryRules::HANDLE_TYPE, !single)
        }
    };
    broken = broken.and(match call.output {
        StructArg::Null => SyncQueryRules::OUTPUT_NULL,
        StructArg::WrongSType(_) => SyncQueryRules::OUTPUT_S_TYPE,
        StructArg::Valid(has_p_next) => {
            SyncQueryRules::NONE.with(SyncQueryRules::OUTPUT_P_NEXT, has_p_next)
        }
    });
    broken
}

/// The findings of the rules in `broken` (what [`evaluate`] returned for `call`).
#[cold]
#[inline(never)]
pub fn describe(cmd: &SyncQueryCommand, call: &SyncQueryCall, broken: SyncQueryRules) -> Outcome {
    let mut outcome = Outcome::default();
    let name = call.called;
    let (info, output) = (cmd.info, cmd.output);
    let physical_device = ObjectRef {
        ty: vk::ObjectType::PHYSICAL_DEVICE,
        handle: call.physical_device,
    };
    let skipped = "The call was not passed to the driver.";
    let mut push = |id, field: String, message: String| {
        outcome.push(Finding::new(id, name, field, message).with(physical_device));
    };
    if broken.has(SyncQueryRules::INFO_NULL) {
        push(
            cmd.info_vuid,
            info.to_owned(),
            format!(
                "{name}(): {info} is NULL; it must point to a {} naming the handle type to ask \
                 about. {skipped}",
                cmd.info_type
            ),
        );
    }
    if let (true, StructArg::WrongSType(found)) =
        (broken.has(SyncQueryRules::INFO_S_TYPE), call.info)
    {
        push(
            cmd.info_s_type_vuid,
            format!("{info}->sType"),
            format!(
                "{name}(): {info}->sType is {}; it must be {} (is {info} a {}?). {skipped}",
                vk_names::structure_type(found),
                vk_names::structure_type(cmd.info_s_type),
                cmd.info_type
            ),
        );
    }
    if let StructArg::Valid(read) = call.info {
        describe_info(cmd, call, &read, broken, &mut push);
    }
    if broken.has(SyncQueryRules::OUTPUT_NULL) {
        push(
            cmd.output_vuid,
            output.to_owned(),
            format!(
                "{name}(): {output} is NULL; it must point to a {} for the driver to fill. \
                 {skipped}",
                cmd.output_type
            ),
        );
    }
    if let (true, StructArg::WrongSType(found)) =
        (broken.has(SyncQueryRules::OUTPUT_S_TYPE), call.output)
    {
        push(
            cmd.output_s_type_vuid,
            format!("{output}->sType"),
            format!(
                "{name}(): {output}->sType is {}; it must be {} (is {output} the structure the \
                 driver is to fill?). {skipped}",
                vk_names::structure_type(found),
                vk_names::structure_type(cmd.output_s_type)
            ),
        );
    }
    if broken.has(SyncQueryRules::OUTPUT_P_NEXT) {
        push(
            cmd.output_p_next_vuid,
            format!("{output}->pNext"),
            format!(
                "{name}(): {output}->pNext is not NULL; no structure extends {}. The call goes \
                 down as the app made it.",
                cmd.output_type
            ),
        );
    }
    outcome.blocked = broken.has(SyncQueryRules::BLOCKING);
    outcome
}

/// The findings about a readable info structure: its chain and its `handleType`.
fn describe_info(
    cmd: &SyncQueryCommand,
    call: &SyncQueryCall,
    read: &SyncQueryInfo,
    broken: SyncQueryRules,
    push: &mut impl FnMut(&'static str, String, String),
) {
    let (name, info) = (call.called, cmd.info);
    let goes_down = "The call goes down as the app made it.";
    if let (true, Some(foreign)) = (broken.has(SyncQueryRules::INFO_P_NEXT), read.foreign) {
        let allowed = if cmd.semaphore {
            format!("only VkSemaphoreTypeCreateInfo extends {}", cmd.info_type)
        } else {
            format!("no structure extends {}", cmd.info_type)
        };
        push(
            cmd.info_p_next_vuid,
            format!("{info}->pNext"),
            format!(
                "{name}(): {info}->pNext chains a structure of sType {}; {allowed}. {goes_down}",
                vk_names::structure_type(foreign)
            ),
        );
    }
    if let (true, Some(repeated)) = (broken.has(SyncQueryRules::INFO_UNIQUE), read.repeated) {
        push(
            cmd.info_unique_vuid.unwrap_or(cmd.info_p_next_vuid),
            format!("{info}->pNext"),
            format!(
                "{name}(): {info}->pNext chains more than one structure of sType {}; each \
                 structure type may appear once in the chain. {goes_down}",
                vk_names::structure_type(repeated)
            ),
        );
    }
    if broken.has(SyncQueryRules::CHAIN_LOOPS) {
        push(
            cmd.info_unique_vuid.unwrap_or(cmd.info_p_next_vuid),
            format!("{info}->pNext"),
            format!(
                "{name}(): the {info}->pNext chain loops back on itself (a structure is chained \
                 twice), so the driver would walk it forever. The call was not passed to the \
                 driver."
            ),
        );
    }
    if broken.has(SyncQueryRules::HANDLE_TYPE) {
        let value = read.handle_type;
        push(
            cmd.handle_type_vuid,
            format!("{info}->handleType"),
            format!(
                "{name}(): {info}->handleType is {}, which is not a valid {} value: {}. {goes_down}",
                (cmd.names)(value),
                cmd.flag_bits,
                (cmd.invalid_reasons)(value, cmd.valid, true)
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(handle_type: u32) -> SyncQueryInfo {
        SyncQueryInfo {
            handle_type,
            foreign: None,
            repeated: None,
            timeline: false,
            end: ChainEnd::Complete,
        }
    }

    fn call(info: StructArg<SyncQueryInfo>, output: StructArg<bool>) -> SyncQueryCall {
        SyncQueryCall {
            called: "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
            physical_device: 0x10,
            info,
            output,
        }
    }

    fn ids(cmd: &SyncQueryCommand, c: &SyncQueryCall) -> (Vec<&'static str>, bool) {
        let broken = evaluate(cmd, c);
        if broken.is_empty() {
            return (Vec::new(), false);
        }
        let outcome = describe(cmd, c, broken);
        (outcome.ids(), outcome.blocked)
    }

    #[test]
    fn a_valid_query_breaks_nothing() {
        for bit in [0x1, 0x2, 0x4, 0x8, 0x10, 0x80] {
            let c = call(StructArg::Valid(info(bit)), StructArg::Valid(false));
            assert!(evaluate(&SEMAPHORE, &c).is_empty(), "{bit:x}");
        }
        for bit in [0x1, 0x2, 0x4, 0x8] {
            let c = call(StructArg::Valid(info(bit)), StructArg::Valid(false));
            assert!(evaluate(&FENCE, &c).is_empty(), "{bit:x}");
        }
    }

    #[test]
    fn each_rule_is_one_finding_and_bad_pointers_block() {
        let ok = StructArg::Valid(false);
        let c = call(StructArg::Null, StructArg::Null);
        assert_eq!(
            ids(&SEMAPHORE, &c),
            (
                vec![vuid::SEM_CAPS_INFO_PARAM, vuid::SEM_CAPS_PROPS_PARAM],
                true
            )
        );
        let other = vk::StructureType::MEMORY_ALLOCATE_INFO;
        let c = call(StructArg::WrongSType(other), StructArg::WrongSType(other));
        assert_eq!(
            ids(&FENCE, &c),
            (
                vec![vuid::FENCE_CAPS_INFO_STYPE, vuid::FENCE_CAPS_PROPS_STYPE],
                true
            )
        );
        let c = call(StructArg::Valid(info(0x3)), StructArg::Valid(true));
        assert_eq!(
            ids(&SEMAPHORE, &c),
            (
                vec![vuid::SEM_CAPS_HANDLE_TYPE_PARAM, vuid::SEM_CAPS_PROPS_PNEXT],
                false
            )
        );
        // ZIRCON_EVENT is a semaphore bit, not a fence one.
        let c = call(StructArg::Valid(info(0x80)), ok);
        assert_eq!(
            ids(&FENCE, &c),
            (vec![vuid::FENCE_CAPS_HANDLE_TYPE_PARAM], false)
        );
        let mut chained = info(1);
        chained.foreign = Some(other);
        chained.repeated = Some(vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO);
        let c = call(StructArg::Valid(chained), ok);
        assert_eq!(
            ids(&SEMAPHORE, &c),
            (
                vec![vuid::SEM_CAPS_INFO_PNEXT, vuid::SEM_CAPS_INFO_UNIQUE],
                false
            )
        );
        chained.end = ChainEnd::Cycle;
        let c = call(StructArg::Valid(chained), ok);
        assert_eq!(
            ids(&SEMAPHORE, &c),
            (
                vec![vuid::SEM_CAPS_INFO_PNEXT, vuid::SEM_CAPS_INFO_UNIQUE],
                true
            )
        );
        assert_eq!(ids(&FENCE, &c), (vec![vuid::FENCE_CAPS_INFO_PNEXT], true));
    }

    #[test]
    fn messages_name_the_command_called_and_the_values() {
        let c = call(StructArg::Valid(info(0x11)), StructArg::Valid(false));
        let outcome = describe(&SEMAPHORE, &c, evaluate(&SEMAPHORE, &c));
        let f = &outcome.findings[0];
        assert_eq!(
            f.command,
            "vkGetPhysicalDeviceExternalSemaphorePropertiesKHR"
        );
        assert_eq!(f.field, "pExternalSemaphoreInfo->handleType");
        assert!(f.message.contains(
            "is VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT|\
             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, which is not a valid \
             VkExternalSemaphoreHandleTypeFlagBits value: it has more than one bit"
        ));
    }
}

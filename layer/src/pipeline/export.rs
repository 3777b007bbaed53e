//! The pipeline of the export commands (`vkGetMemoryFdKHR`, `vkGetMemoryRemoteAddressNV`,
//! `vkGetMemoryWin32HandleNV`, `vkGetMemoryMetalHandleEXT`, `vkGetSemaphoreFdKHR`, and any
//! added later): one generic function, [`run`], for every [`ExportEntry`], over the kind of
//! object it exports ([`ExportedObject`]: memory, semaphores and fences). The helpers
//! for what an export's driver returns ([`call_down_returning`], [`call_down_fd`],
//! [`hold_to_contract`]) and for reading an info structure ([`read_info`]) are generic too.

use super::policy::{decide, reject_unknown_device, report_driver_contract, Decision};
use crate::args::StructArg;
use crate::boundary::{self, Down};
use crate::fault_injection;
use crate::features::driver_contract::rules::{self as driver_contract, Returned};
use crate::features::fd_ownership::state as fd_ownership;
use crate::finding::Outcome;
use crate::raw;
use crate::rules::export::{
    blocks, describe, evaluate_parts, ExportCall, ExportCallRules, ExportCommand, ExportedObject,
    InfoFields,
};
use crate::rules::rule_set::RuleSet;
use crate::state::this_thread::with_device;
use crate::state::{DeviceState, Lookup, TrackedObject};
use ash::vk::{self, Handle};
use std::ffi::{c_int, c_void};

/// An export command's descriptor: its rules, and what only the command knows of its C
/// signature: how to read its arguments, and how to call down and check what came back.
pub trait ExportEntry {
    /// The command's parameters after `device`, as the app passed them.
    type Args: Copy;
    /// The set of the command's own rules.
    type Own: RuleSet;
    /// The kind of object it exports.
    type Object: ExportedObject;
    /// What its argument rules learnt that its call-down step records (an import's exporter:
    /// [`ExportEntry::evaluate_arguments`]); `()` for most.
    type Learnt: Default;
    /// Names, IDs and the command's own rules.
    const RULES: &'static ExportCommand<Self::Own, Self::Object>;

    /// The info structure's members (or the parameters that stand for them), and whether the
    /// output pointer is NULL.
    ///
    /// # Safety
    /// `args` are what the app passed: each pointer NULL or valid for reads, as the Vulkan
    /// contract allows.
    unsafe fn read(args: &Self::Args) -> (StructArg<InfoFields>, bool);

    /// The command's rules about earlier calls, on a live object of the device: what `state`
    /// remembers of them, judged by the command's rules (their findings are written by its
    /// `describe_values` like the others', or by [`ExportEntry::describe_history`] when they
    /// name what only `state` knows). None by default.
    #[inline(always)]
    fn evaluate_history(
        _state: &DeviceState,
        _info: &InfoFields,
        _object: &Record<Self>,
    ) -> Self::Own {
        Self::Own::NONE
    }

    /// The findings of the history rules in `broken` that name what only `state` knows (cold).
    /// Nothing by default.
    fn describe_history(
        _state: &DeviceState,
        _object: &Record<Self>,
        _broken: Self::Own,
        _outcome: &mut Outcome,
    ) {
    }

    /// The command's rules about its arguments beyond the info structure's common members (an
    /// import's `flags` and payload handle), on a live object of the device, with what `state`
    /// knows (the export an imported handle came from), and what of that the call-down step
    /// records ([`Judged::learnt`]: looked up once). None by default.
    #[inline(always)]
    fn evaluate_arguments(
        _state: &DeviceState,
        _args: &Self::Args,
        _info: &InfoFields,
        _object: &Record<Self>,
    ) -> (Self::Own, Self::Learnt) {
        (Self::Own::NONE, Self::Learnt::default())
    }

    /// The findings of the argument rules in `broken` (cold). Nothing by default.
    fn describe_arguments(
        _state: &DeviceState,
        _args: &Self::Args,
        _info: &InfoFields,
        _object: &Record<Self>,
        _broken: Self::Own,
        _outcome: &mut Outcome,
    ) {
    }

    /// Calls the next layer with the app's own arguments, as the app made them; after a valid
    /// call that succeeded, checks and records what the driver returned. `None` when the next
    /// layer lacks the command.
    ///
    /// # Safety
    /// `args` passed the rules' pointer and handle checks: the output pointer is not NULL and
    /// the object is a live one of `device`.
    unsafe fn call_down(
        state: &DeviceState,
        device: vk::Device,
        args: Self::Args,
        call: &Judged<'_, Self::Object, Self::Learnt>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result>;
}

/// What the layer knows of a live object of the kind `E` exports.
pub type Record<E> = <<E as ExportEntry>::Object as TrackedObject>::Record;

/// Reads an info structure of `cmd`: its `sType` first, the members the rules look at (`fields`:
/// `pNext`, the object, the handle type) only when it is the command's.
///
/// # Safety
/// `p` is NULL or points to a structure that starts with `sType`, readable as a whole `T` when
/// `sType` is the command's.
#[inline(always)]
pub unsafe fn read_info<T: Copy, R, K: TrackedObject>(
    cmd: &ExportCommand<R, K>,
    p: *const T,
    fields: impl FnOnce(T) -> (*const c_void, K::Handle, K::Flags),
) -> StructArg<InfoFields> {
    let s_type = cmd
        .info
        .as_ref()
        .map_or(vk::StructureType::from_raw(0), |i| i.s_type);
    // SAFETY: this function's contract.
    unsafe { raw::read_struct(p, s_type) }.map(|info| {
        let (p_next, object, handle_type) = fields(info);
        InfoFields {
            has_p_next: !p_next.is_null(),
            object: object.as_raw(),
            handle_type: K::raw(handle_type),
        }
    })
}

/// The call-down step of a command whose output is a handle-like value (an address, a `HANDLE`,
/// a Metal object, each pointer-sized): `call` goes down and, after a valid call that succeeded,
/// what it wrote through `output` is held to the driver contract (`Returned`).
///
/// # Safety
/// `output` is the app's output pointer to a pointer-sized value, not NULL (the gate), written
/// by `call` on success.
#[inline(always)]
pub unsafe fn call_down_returning<R, K: ExportedObject>(
    state: &DeviceState,
    cmd: &ExportCommand<R, K>,
    (judged, down): (&Judged<'_, K>, &Down<vk::Result>),
    (returned, output): (Returned, *const usize),
    call: impl FnOnce() -> vk::Result,
) -> vk::Result {
    let result = down.went(call());
    hold_to_contract(state, cmd, judged, (result, returned), || {
        // SAFETY: not NULL (the gate), pointer-sized, and the driver wrote it (success).
        unsafe { raw::read_out(output) }.unwrap_or(0) as u64
    });
    result
}

/// The call-down step of a command whose output is an fd (`vkGetMemoryFdKHR`,
/// `vkGetSemaphoreFdKHR`, `vkGetFenceFdKHR`): `call` goes down and, when it succeeded, the fd it
/// wrote through `output` is returned (-1, a signaled sync file, too). The one place where a
/// number a command hands the app is given back to it: whatever an earlier import did with that
/// number (a driver that kept an imported fd and closed it later, when the payload it imported
/// was consumed, and then handed the number out again), it is the app's new fd now
/// (`features::fd_ownership`).
///
/// # Safety
/// `output` is the app's output pointer, not NULL (the gate), written by `call` on success.
#[inline(always)]
pub unsafe fn call_down_fd(
    down: &Down<vk::Result>,
    output: *const c_int,
    call: impl FnOnce() -> vk::Result,
) -> (vk::Result, Option<c_int>) {
    let result = down.went(call());
    if result != vk::Result::SUCCESS {
        return (result, None);
    }
    // SAFETY: not NULL (the gate), and the driver wrote it (success).
    let fd = unsafe { raw::read_out(output) };
    if let Some(fd) = fd {
        fd_ownership::returned_to_app(fd);
    }
    (result, fd)
}

/// After the call went down: when it was valid and succeeded, the handle-like value the driver
/// wrote (`written` reads it; 0 is none) is held to the driver contract (`Returned`).
#[inline(always)]
pub fn hold_to_contract<R, K: ExportedObject>(
    state: &DeviceState,
    cmd: &ExportCommand<R, K>,
    judged: &Judged<'_, K>,
    (result, returned): (vk::Result, Returned),
    written: impl FnOnce() -> u64,
) {
    if result != vk::Result::SUCCESS || !judged.valid_call {
        return;
    }
    let broken = driver_contract::evaluate_returned(written());
    if !broken.is_empty() {
        let outcome = driver_contract::describe_returned::<K>(returned, judged.object, broken);
        report_driver_contract(state, cmd.name, outcome);
    }
}

/// What the call-down step knows about a call that passed the gate.
pub struct Judged<'a, K: TrackedObject, L = ()> {
    /// The object exported: live, of the device.
    pub object: &'a K::Record,
    /// The `handleType` the call asked for.
    pub handle_type: u32,
    /// No error was found (a warning may have been): the driver's result is held to the driver
    /// contract. After an invalid call the driver's behaviour is undefined, so nothing is said
    /// about it.
    pub valid_call: bool,
    /// What the argument rules learnt for the call-down step ([`ExportEntry::Learnt`]).
    pub learnt: L,
}

/// An export command, from the app's call to the driver's result.
///
/// # Safety
/// `args` are what the app passed to the command `E` describes.
#[inline(always)]
pub unsafe fn run<E: ExportEntry>(device: vk::Device, args: E::Args) -> vk::Result {
    let cmd = E::RULES;
    boundary::ffi_down(cmd.name, vk::Result::ERROR_UNKNOWN, |down| {
        with_device(
            device.as_raw(),
            #[inline(always)]
            |state, memos| {
                let Some(state) = state else {
                    return reject_unknown_device(cmd.name, cmd.device_vuid, device.as_raw());
                };
                // SAFETY: the app's arguments (this function's contract).
                let (info, output_null) = unsafe { E::read(&args) };
                let object = match &info {
                    StructArg::Valid(fields) => E::Object::lookup(state, fields.object, memos),
                    _ => Lookup::Null,
                };
                let (broken, learnt) = match (&info, &object) {
                    (StructArg::Valid(fields), Lookup::Live(record)) => {
                        let (own, learnt) = E::evaluate_arguments(state, &args, fields, record);
                        let broken = evaluate_parts(cmd, &state.facts, &info, output_null, &object)
                            .and_own(E::evaluate_history(state, fields, record))
                            .and_own(own);
                        (broken, learnt)
                    }
                    _ => (
                        evaluate_parts(cmd, &state.facts, &info, output_null, &object),
                        E::Learnt::default(),
                    ),
                };
                let mut valid_call = true;
                if !broken.is_empty() || fault_injection::injecting_panics() {
                    match judge::<E>(state, &args, (&info, output_null, &object), broken) {
                        Judgement::Skip => return Decision::SKIPPED_RESULT,
                        Judgement::CallDown { errors } => valid_call = !errors,
                    }
                }
                let Lookup::Live(object) = &object else {
                    // Unreachable: an object that is not live blocks the call.
                    return Decision::SKIPPED_RESULT;
                };
                let handle_type = match &info {
                    StructArg::Valid(fields) => fields.handle_type,
                    _ => 0,
                };
                let judged = Judged {
                    object,
                    handle_type,
                    valid_call,
                    learnt,
                };
                // SAFETY: the call passed the gate: every pointer and handle the layer could
                // judge is good.
                unsafe { E::call_down(state, device, args, &judged, down) }
                    .unwrap_or(vk::Result::ERROR_EXTENSION_NOT_PRESENT)
            },
        )
    })
}

/// What the cold path decided.
enum Judgement {
    Skip,
    /// The call goes down; `errors`: an error was found (only warnings, or nothing, otherwise),
    /// so the driver's behaviour is undefined and its result is not held to the contract.
    CallDown {
        errors: bool,
    },
}

/// The cold path: the findings of the broken rules, reported, and the decision. A call whose
/// pointer or handle is known to be bad is skipped whatever the reporting does.
#[cold]
#[inline(never)]
fn judge<E: ExportEntry>(
    state: &DeviceState,
    args: &E::Args,
    (info, output_null, object): (&StructArg<InfoFields>, bool, &Lookup<E::Object>),
    broken: ExportCallRules<E::Own>,
) -> Judgement {
    let cmd = E::RULES;
    let call = ExportCall {
        info: *info,
        output_null,
        object: object.clone(),
    };
    let outcome = boundary::contain(cmd.name, || {
        let mut outcome = describe(cmd, &state.facts, &call, broken);
        if let Lookup::Live(record) = object {
            E::describe_history(state, record, broken.own(), &mut outcome);
            if let StructArg::Valid(fields) = info {
                E::describe_arguments(state, args, fields, record, broken.own(), &mut outcome);
            }
        }
        outcome
    });
    match decide(state, cmd.name, &outcome) {
        _ if blocks(broken) => Judgement::Skip,
        Decision::Skip => Judgement::Skip,
        Decision::CallDown => Judgement::CallDown {
            errors: outcome.has_errors(),
        },
    }
}

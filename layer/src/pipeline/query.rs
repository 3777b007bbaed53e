//! The pipeline of the handle-property queries (`vkGetMemoryFdPropertiesKHR`,
//! `vkGetMemoryHostPointerPropertiesEXT`, `vkGetMemoryMetalHandlePropertiesEXT`,
//! `vkGetMemoryWin32HandlePropertiesKHR`, `vkGetMemoryZirconHandlePropertiesFUCHSIA`,
//! `vkGetAndroidHardwareBufferPropertiesANDROID`): one generic
//! function, [`run`], for every [`QueryEntry`]. The same four steps as the exports
//! (`pipeline::export`): find the device, read and evaluate; only when a rule is broken describe,
//! report and decide; call down with the app's own arguments. A query tracks nothing and the
//! layer records nothing of its answer.

use super::policy::{decide, reject_unknown_device, Decision};
use crate::args::StructArg;
use crate::boundary;
use crate::fault_injection;
use crate::raw;
use crate::rules::query::{
    blocks, describe, evaluate, OutputArg, QueryCall, QueryCallRules, QueryCommand,
};
use crate::rules::rule_set::RuleSet;
use crate::state::this_thread::with_device;
use crate::state::DeviceState;
use ash::vk::{self, Handle};
use std::marker::PhantomData;

/// A query's descriptor: its rules, and what only the command knows of its C signature.
pub trait QueryEntry {
    /// The command's parameters after `device`, as the app passed them.
    type Args: Copy;
    /// The set of the command's own rules.
    type Own: RuleSet;
    /// Names, IDs and the command's own rules.
    const RULES: &'static QueryCommand<Self::Own>;

    /// The arguments as plain values (the output structure with [`read_output`]).
    ///
    /// # Safety
    /// `args` are what the app passed: each pointer NULL or valid for reads, as the Vulkan
    /// contract allows.
    unsafe fn read(args: &Self::Args) -> QueryCall;

    /// Calls the next layer with the app's own arguments, as the app made them. `None` when the
    /// next layer lacks the command.
    ///
    /// # Safety
    /// `args` passed the rules' pointer and handle checks: the output pointer is not NULL and
    /// points to the command's structure.
    unsafe fn call_down(
        state: &DeviceState,
        device: vk::Device,
        args: Self::Args,
    ) -> Option<vk::Result>;
}

/// The next layer's entry point of a [`HandlePropertiesQuery`].
pub type PropertiesFn<H, P> = unsafe extern "system" fn(
    vk::Device,
    vk::ExternalMemoryHandleTypeFlags,
    H,
    *mut P,
) -> vk::Result;

/// A query of one external handle's properties, `(device, handleType, handle, pProperties)`:
/// the shape of every query but the Android hardware buffer's. Its descriptor says only what
/// differs: the handle's type and how the rules see it, the output structure, the rules, and
/// the next layer's entry point. [`HandleQuery`] runs it.
pub trait HandlePropertiesQuery: 'static {
    /// The handle parameter: an fd, a host pointer, a Metal object, a `HANDLE`, a `zx_handle_t`.
    type Handle: Copy;
    /// The output structure the driver fills.
    type Properties;
    /// The set of the command's own rules.
    type Own: RuleSet;
    /// Names, IDs and the command's own rules.
    const RULES: &'static QueryCommand<Self::Own>;

    /// The handle as the rules see it: its value only, never dereferenced.
    fn value(handle: Self::Handle) -> i64;

    /// Whether the handle is open, where the OS can say (fds); `None` for the others.
    #[inline(always)]
    fn is_open(_handle: Self::Handle) -> Option<bool> {
        None
    }

    /// The next layer's entry point of the command, if it has one.
    fn next(state: &DeviceState) -> Option<PropertiesFn<Self::Handle, Self::Properties>>;
}

/// A [`HandlePropertiesQuery`] as the pipeline runs it.
pub struct HandleQuery<Q>(PhantomData<Q>);

impl<Q: HandlePropertiesQuery> QueryEntry for HandleQuery<Q> {
    type Args = (
        vk::ExternalMemoryHandleTypeFlags,
        Q::Handle,
        *mut Q::Properties,
    );
    type Own = Q::Own;
    const RULES: &'static QueryCommand<Q::Own> = Q::RULES;

    #[inline(always)]
    unsafe fn read(&(handle_type, handle, p_properties): &Self::Args) -> QueryCall {
        QueryCall {
            handle_type: handle_type.as_raw(),
            handle: Q::value(handle),
            handle_open: Q::is_open(handle),
            // SAFETY: the app's pointer (this function's contract).
            output: unsafe { read_output(Q::RULES, p_properties.cast_const()) },
            output_loops: false,
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        state: &DeviceState,
        device: vk::Device,
        (handle_type, handle, p_properties): Self::Args,
    ) -> Option<vk::Result> {
        let next = Q::next(state)?;
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        Some(unsafe { next(device, handle_type, handle, p_properties) })
    }
}

/// A handle-property query, from the app's call to the driver's result.
///
/// # Safety
/// The arguments are what the app passed to the command `Q` describes.
#[inline(always)]
pub unsafe fn run_handle_query<Q: HandlePropertiesQuery>(
    device: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    handle: Q::Handle,
    p_properties: *mut Q::Properties,
) -> vk::Result {
    // SAFETY: this function's contract.
    unsafe { run::<HandleQuery<Q>>(device, (handle_type, handle, p_properties)) }
}

/// Reads a query's output structure: NULL, the wrong `sType`, or its `sType` and whether its
/// `pNext` is set (only the header is read: the driver writes the rest).
///
/// # Safety
/// `p` is NULL or points to a structure that starts with `sType` and `pNext`.
#[inline(always)]
pub unsafe fn read_output<T, R>(cmd: &QueryCommand<R>, p: *const T) -> OutputArg {
    // SAFETY: every Vulkan output structure starts with the base header (this function's
    // contract); only the header is read.
    unsafe { raw::read_struct(p.cast::<vk::BaseOutStructure<'_>>(), cmd.output.s_type) }
        .map(|header| !header.p_next.is_null())
}

/// Reads the output structure of a query whose output others extend (the driver fills the
/// structures chained to it): what [`read_output`] says, and whether its `pNext` chain loops
/// back on itself (only the chained structures' headers are read).
///
/// # Safety
/// `p` is NULL or points to a structure that starts with `sType` and `pNext`, and every `pNext`
/// reached from it points to such a structure (the Vulkan contract for output chains).
pub unsafe fn read_extended_output<T, R>(cmd: &QueryCommand<R>, p: *const T) -> (OutputArg, bool) {
    // SAFETY: as in `read_output` (this function's contract).
    let header =
        unsafe { raw::read_struct(p.cast::<vk::BaseOutStructure<'_>>(), cmd.output.s_type) };
    let loops = match header {
        // SAFETY: each pNext of the chain points to a structure header (this function's
        // contract); the walk is bounded and finds loops.
        StructArg::Valid(h) if !h.p_next.is_null() => unsafe {
            raw::walk_chain(h.p_next.cast_const().cast(), |_, _| ()) == raw::ChainEnd::Cycle
        },
        _ => false,
    };
    (header.map(|h| !h.p_next.is_null()), loops)
}

/// A query, from the app's call to the driver's result.
///
/// # Safety
/// `args` are what the app passed to the command `Q` describes.
#[inline(always)]
pub unsafe fn run<Q: QueryEntry>(device: vk::Device, args: Q::Args) -> vk::Result {
    let cmd = Q::RULES;
    boundary::ffi_down(cmd.name, vk::Result::ERROR_UNKNOWN, |down| {
        with_device(device.as_raw(), |state, _| {
            let Some(state) = state else {
                return reject_unknown_device(cmd.name, cmd.device_vuid, device.as_raw());
            };
            // SAFETY: the app's arguments (this function's contract).
            let call = unsafe { Q::read(&args) };
            let broken = evaluate(cmd, &state.facts, &call);
            if (!broken.is_empty() || fault_injection::injecting_panics())
                && judge(cmd, state, &call, broken) == Decision::Skip
            {
                return Decision::SKIPPED_RESULT;
            }
            // SAFETY: the call passed the gate: every pointer and handle the layer could judge
            // is good.
            match unsafe { Q::call_down(state, device, args) } {
                Some(result) => down.went(result),
                None => vk::Result::ERROR_EXTENSION_NOT_PRESENT,
            }
        })
    })
}

/// The cold path: the findings of the broken rules, reported, and the decision. A call whose
/// pointer or handle is known to be bad is skipped whatever the reporting does.
#[cold]
#[inline(never)]
fn judge<R: RuleSet>(
    cmd: &QueryCommand<R>,
    state: &DeviceState,
    call: &QueryCall,
    broken: QueryCallRules<R>,
) -> Decision {
    let outcome = boundary::contain(cmd.name, || describe(cmd, &state.facts, call, broken));
    match decide(state, cmd.name, &outcome) {
        _ if blocks(cmd, broken) => Decision::Skip,
        decision => decision,
    }
}

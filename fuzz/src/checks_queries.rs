//! The handle-property queries of the `checks` target: arbitrary arguments for each query, run
//! through the layer's `rules::query` (`evaluate`, then `describe`) and through the model's
//! `expected_query`. Only the arguments as the commands read them are built here (an fd is a
//! sign-extended `int`, a Zircon handle a `u32`; the OS's answer for a negative fd is "not
//! open"); no rule.

use crate::{layer, Bits};
use arbitrary::Arbitrary;
use ash::vk;
use exportcheck_spec_model::{self as model, Expected, Output, Query, QueryCall as ModelCall};
use layer::finding::Outcome;
use layer::raw::StructArg;
use layer::rules::common::unknown_device;
use layer::rules::query::{self, QueryCall, QueryCommand};
use layer::rules::rule_set::RuleSet;
use layer::rules::query::get_android_hardware_buffer_properties;
use layer::rules::query::get_memory_fd_properties;
use layer::rules::query::get_memory_host_pointer_properties;
use layer::rules::query::get_memory_metal_handle_properties;
use layer::rules::query::get_memory_win32_handle_properties;
use layer::rules::query::get_memory_zircon_handle_properties;
use layer::state::DeviceFacts;

#[derive(Arbitrary, Debug)]
pub enum OutputIn {
    Null,
    WrongSType(i32),
    Valid { p_next: bool, loops: bool },
}

/// One query call: which query (`Query::ALL[query % 6]`), its arguments, and the
/// `minImportedHostPointerAlignment` the layer knows (`1 << (a % 17)`, or unknown).
#[derive(Arbitrary, Debug)]
pub struct QueryIn {
    pub query: u8,
    pub handle_type: Bits,
    pub handle: i64,
    pub fd_open: Option<bool>,
    pub alignment: Option<u8>,
    pub output: OutputIn,
}

/// What the target reads of a query's descriptor, and its rules, whatever the type of the
/// command's own rules.
struct AnyQuery {
    name: &'static str,
    device_vuid: &'static str,
    output_s_type: vk::StructureType,
    /// [`run_query`] of the descriptor.
    run: fn(&DeviceFacts, &QueryCall) -> Outcome,
}

/// The [`AnyQuery`] of the query whose rules are in the module `$rules`.
macro_rules! any_query {
    ($rules:ident) => {
        AnyQuery {
            name: $rules::COMMAND.name,
            device_vuid: $rules::COMMAND.device_vuid,
            output_s_type: $rules::COMMAND.output.s_type,
            run: |facts, call| run_query(&$rules::COMMAND, facts, call),
        }
    };
}

/// The layer's descriptor of each query, in `Query::ALL`'s order.
const COMMANDS: [AnyQuery; 6] = [
    any_query!(get_memory_fd_properties),
    any_query!(get_memory_host_pointer_properties),
    any_query!(get_memory_metal_handle_properties),
    any_query!(get_memory_win32_handle_properties),
    any_query!(get_memory_zircon_handle_properties),
    any_query!(get_android_hardware_buffer_properties),
];

/// Runs a query's rules as the pipeline does: `evaluate`, and `describe` of what it says is
/// broken. Each broken rule gets exactly one finding, and the call is blocked exactly when a
/// blocking rule is broken.
fn run_query<R: RuleSet>(cmd: &QueryCommand<R>, facts: &DeviceFacts, call: &QueryCall) -> Outcome {
    let broken = query::evaluate(cmd, facts, call);
    let outcome = if broken.is_empty() {
        Outcome::default()
    } else {
        query::describe(cmd, facts, call, broken)
    };
    assert_eq!(
        broken.len() as usize,
        outcome.findings.len(),
        "{}: one finding per broken rule",
        cmd.name
    );
    assert_eq!(
        outcome.blocked,
        query::blocks(cmd, broken),
        "{}: blocked",
        cmd.name
    );
    outcome
}

pub fn query_of(index: u8) -> Query {
    Query::ALL[usize::from(index) % Query::ALL.len()]
}

/// Runs one query through the layer and the model, on `facts` (the calling device) and
/// `device` (the same device, for the model).
pub fn query_call(facts: &DeviceFacts, device: &model::Device, q: &QueryIn) -> (Outcome, Expected) {
    let which = query_of(q.query);
    let cmd = &COMMANDS[usize::from(q.query) % COMMANDS.len()];
    assert_eq!(
        cmd.name,
        which.name(),
        "the model's queries in the same order"
    );
    // The handle as the command reads it.
    let handle = match which {
        Query::FdProperties => i64::from(q.handle as i32),
        Query::ZirconHandleProperties => i64::from(q.handle as u32),
        _ => q.handle,
    };
    // What the OS says of the fd: POSIX says a negative number is not open (`fcntl` fails); the
    // other queries ask nothing.
    let fd_open = match which {
        Query::FdProperties if handle < 0 => Some(false),
        Query::FdProperties => q.fd_open,
        _ => None,
    };
    let alignment = q.alignment.map(|a| 1u64 << (a % 17));
    let android = which == Query::AndroidHardwareBufferProperties;
    let output = match q.output {
        OutputIn::Null => StructArg::Null,
        OutputIn::WrongSType(t) => {
            let s_type = cmd.output_s_type.as_raw();
            let t = if t == s_type { t ^ 1 } else { t };
            StructArg::WrongSType(vk::StructureType::from_raw(t))
        }
        OutputIn::Valid { p_next, .. } => StructArg::Valid(p_next),
    };
    // Only the Android output chain is walked (it is extended), and only a chain can loop.
    let output_loops = matches!(
        q.output,
        OutputIn::Valid {
            p_next: true,
            loops: true
        }
    ) && android;
    let call = QueryCall {
        // The Android query has no handleType: its command reads the one type it is about.
        handle_type: if android {
            get_android_hardware_buffer_properties::HANDLE_TYPE.as_raw()
        } else {
            q.handle_type.0
        },
        handle,
        handle_open: fd_open,
        output,
        output_loops,
    };
    let facts = DeviceFacts {
        host_pointer_alignment: alignment,
        ..facts.clone()
    };
    let outcome = (cmd.run)(&facts, &call);

    let model_call = ModelCall {
        query: which,
        handle_type: q.handle_type.0,
        handle,
        fd_open,
        host_pointer_alignment: alignment,
        output: match q.output {
            OutputIn::Null => Output::Null,
            OutputIn::WrongSType(_) => Output::WrongSType,
            OutputIn::Valid { p_next, loops } => Output::Valid { p_next, loops },
        },
    };
    (outcome, model::expected_query(device, &model_call))
}

/// A query on a device the layer does not know.
pub fn unknown_device_query(query: u8, device: u64) -> (Outcome, Expected) {
    let which = query_of(query);
    let cmd = &COMMANDS[usize::from(query) % COMMANDS.len()];
    let outcome = unknown_device(cmd.name, cmd.device_vuid, device);
    assert!(
        outcome.findings[0]
            .message
            .contains(&format!("0x{device:x}")),
        "the message names the unknown device"
    );
    (outcome, Expected::unknown_query_device(which))
}

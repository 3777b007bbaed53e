//! `EXPORTCHECK-kcmp-refused`: the kernel refuses `kcmp(KCMP_FILE)`, by which the layer tells
//! an exported fd's open file description from another's (a container's seccomp profile gives
//! `EPERM`, a kernel without it `ENOSYS`; across processes, `EPERM` where the importer may not
//! read the exporter as ptrace would: another user's process, one that is not dumpable, a
//! security module's or a seccomp profile's refusal). A warning, once per process and kind: the
//! checks that need it match nothing, so nothing is judged wrongly, but less is checked.

use crate::finding::{Finding, Outcome};
use crate::os;
use crate::vuid;

/// Where kcmp was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// In this process, found at its first opaque-fd export.
    InProcess,
    /// Against an exporting process of the shared directory, found at an import.
    AcrossProcesses,
}

/// The warning for kcmp refused with `errno`.
#[cold]
pub fn refused(command: &'static str, errno: i32, kind: Refused) -> Outcome {
    let errno = os::errno_name(errno);
    let message = match kind {
        Refused::InProcess => format!(
            "{command}(): kcmp(KCMP_FILE) is refused in this process ({errno}: a seccomp \
             profile, such as a container's, or a kernel without kcmp), so the layer cannot \
             tell one open file description from another: imports of opaque fds are not \
             checked against the exports they came from, and an exported fd whose file is \
             shared with other payloads (a driver's device file, such as /dev/nvidiactl) is \
             never reported leaked. Allow kcmp (Docker: --cap-add SYS_PTRACE, or a seccomp \
             profile that allows it) to have them checked."
        ),
        Refused::AcrossProcesses => format!(
            "{command}(): kcmp(KCMP_FILE) is refused against the other processes of the run \
             ({errno}: they may not read each other as ptrace would: another user's process, \
             one that is not dumpable, a security module or a seccomp profile), so an imported \
             fd whose file is \
             shared with other payloads (a driver's device file, such as /dev/nvidiactl) is \
             not matched with another process's export: such imports are not checked against \
             their exports."
        ),
    };
    let mut outcome = Outcome::default();
    outcome.push(Finding::new(vuid::KCMP_REFUSED, command, "", message));
    outcome
}

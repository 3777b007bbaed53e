//! What every import into an existing semaphore or fence (`vkImportSemaphore*`,
//! `vkImportFence*`) does the same way, written once: each command is a [`SyncImport`], which
//! says only what is its own (its info structure and rules, the members its rules read, its next
//! entry point), and is an [`ExportEntry`] of the export pipeline through the impl below. An fd
//! import also follows the ownership of its fd ([`FdImport`]); a fence import has the rule of a
//! pending queue signal (`rules::import::fence_in_flight`).

use crate::boundary::Down;
use crate::features::fd_ownership::hooks::{self as fd_ownership, consumed, report_imported_twice};
use crate::features::fd_ownership::rules::Reimport;
use crate::features::fd_ownership::state::ImportKind;
use crate::finding::{Finding, ObjectRef, Outcome};
use crate::handle_kinds::{Fence, HandleKind, Semaphore};
use crate::pipeline::export::{self, ExportEntry, Judged};
use crate::raw::{self, StructArg};
use crate::report::sync_sharing_calls::{self, SyncSharingCommand};
use crate::rules::export::{ExportCommand, ExportedObject, InfoFields};
use crate::rules::import::fence_in_flight;
use crate::rules::rule_set::RuleSet;
use crate::state::sync_payload::Import;
use crate::state::{DeviceState, FenceRecord, SemaphoreRecord, TrackedObject};
use ash::vk;
use std::ffi::c_void;

/// The kind of object `T` imports into.
type Object<T> = <<T as SyncImport>::Info as ImportInfo>::Object;
/// What the layer knows of a live object of that kind.
type ObjectRecord<T> = <Object<T> as TrackedObject>::Record;

/// The next layer's entry point of an import: `vkImportSemaphoreFdKHR`'s and its kin's.
pub type ImportFn<I> = unsafe extern "system" fn(vk::Device, *const I) -> vk::Result;

/// The kind of object an import puts a payload into: semaphores and fences.
pub trait ImportTarget: ExportedObject {
    /// The kind of import an fd taken by the driver went to (`features::fd_ownership`).
    const IMPORT_KIND: ImportKind;

    /// After an import (its handle type, and the handle types its exporter may export the
    /// payload as where known) with `flags` (`None`: unreadable) into `object` succeeded
    /// (`commands::import::semaphore_imported`, `fence_imported`).
    fn imported(state: &DeviceState, object: u64, import: Import, flags: Option<u32>);

    /// The fence whose queue signal, still pending, would show that a queue command `record` is
    /// associated with has not completed ([`SyncImport::IN_FLIGHT`]): a fence's own; for a
    /// semaphore, the fence of the latest submission that waited on it or signaled it, while
    /// that fence carries that submission's signal.
    fn pending_fence(state: &DeviceState, record: &Self::Record) -> Option<FenceRecord>;

    /// The finding of [`SyncImport::IN_FLIGHT`] (`at`: the `id` of a command at a field), `fence` being the
    /// one [`ImportTarget::pending_fence`] named.
    fn in_flight_finding(
        at: (&'static str, &'static str, &str),
        record: &Self::Record,
        fence: &FenceRecord,
    ) -> Finding;
}

impl ImportTarget for Semaphore {
    const IMPORT_KIND: ImportKind = ImportKind::Semaphore;

    #[inline(always)]
    fn imported(state: &DeviceState, object: u64, import: Import, flags: Option<u32>) {
        super::semaphore_imported(state, object, import, flags);
    }

    #[inline(always)]
    fn pending_fence(state: &DeviceState, record: &SemaphoreRecord) -> Option<FenceRecord> {
        let by = record.facts.used_by.filter(|_| record.facts.shared)?;
        if !state.fences.any_shared() {
            return None;
        }
        state.fences.signaled_by_submission(by, record.device)
    }

    fn in_flight_finding(
        at: (&'static str, &'static str, &str),
        record: &SemaphoreRecord,
        fence: &FenceRecord,
    ) -> Finding {
        fence_in_flight::semaphore_finding(at, record, fence)
    }
}

impl ImportTarget for Fence {
    const IMPORT_KIND: ImportKind = ImportKind::Fence;

    #[inline(always)]
    fn imported(state: &DeviceState, object: u64, import: Import, flags: Option<u32>) {
        super::fence_imported(state, object, import, flags);
    }

    #[inline(always)]
    fn pending_fence(_: &DeviceState, record: &FenceRecord) -> Option<FenceRecord> {
        Some(*record)
    }

    fn in_flight_finding(
        at: (&'static str, &'static str, &str),
        record: &FenceRecord,
        _: &FenceRecord,
    ) -> Finding {
        fence_in_flight::finding(at, record)
    }
}

/// What an fd import has beyond the others: the fd it hands to the driver (`fd`, read from the
/// info), whose ownership is followed (`features::fd_ownership`), and its rule that an fd an
/// earlier successful import took breaks (`consumed`: `EXPORTCHECK-fd-imported-twice`, whose
/// finding fd ownership writes).
pub struct FdImport<I, R> {
    pub fd: fn(&I) -> i32,
    pub consumed: R,
}

/// An import's info structure: the members every one has, read the same way.
pub trait ImportInfo: Copy {
    /// The kind of object it imports into.
    type Object: ImportTarget;

    /// The next layer's entry point of its command.
    fn next(state: &DeviceState) -> Option<ImportFn<Self>>;

    /// Its members the shared rules read: `pNext`, the object, `handleType`.
    fn common(
        self,
    ) -> (
        *const c_void,
        <Self::Object as TrackedObject>::Handle,
        <Self::Object as HandleKind>::Flags,
    );

    /// Its `flags`.
    fn flags(&self) -> u32;
}

/// Each import info structure: the member that names its object, its kind, and its command's
/// entry point in the next layer's table.
macro_rules! import_infos {
    ($($info:ty => $member:ident: $object:ty, $next:ident;)*) => {$(
        impl ImportInfo for $info {
            type Object = $object;

            #[inline(always)]
            fn next(state: &DeviceState) -> Option<ImportFn<Self>> {
                state.next.$next
            }

            #[inline(always)]
            fn common(
                self,
            ) -> (
                *const c_void,
                <$object as TrackedObject>::Handle,
                <$object as HandleKind>::Flags,
            ) {
                (self.p_next, self.$member, self.handle_type)
            }

            #[inline(always)]
            fn flags(&self) -> u32 {
                self.flags.as_raw()
            }
        }
    )*};
}

import_infos! {
    vk::ImportSemaphoreFdInfoKHR<'static> => semaphore: Semaphore, import_semaphore_fd;
    vk::ImportSemaphoreWin32HandleInfoKHR<'static> =>
        semaphore: Semaphore, import_semaphore_win32_handle;
    vk::ImportSemaphoreZirconHandleInfoFUCHSIA<'static> =>
        semaphore: Semaphore, import_semaphore_zircon_handle;
    vk::ImportFenceFdInfoKHR<'static> => fence: Fence, import_fence_fd;
    vk::ImportFenceWin32HandleInfoKHR<'static> => fence: Fence, import_fence_win32_handle;
}

/// An import into an existing semaphore or fence: what differs from one such command to another.
pub trait SyncImport {
    /// The info structure (`VkImportSemaphoreFdInfoKHR`), which names the kind of object.
    type Info: ImportInfo;
    /// The set of the command's own rules.
    type Own: RuleSet;
    /// What the command's own rules read of the info beyond its common members (the flags, the
    /// payload handle, and the export it came from where the layer knows it).
    type Arguments;
    /// Names, IDs and the command's own rules.
    const RULES: &'static ExportCommand<Self::Own, Object<Self>>;
    /// How the command is counted (`report::sync_sharing_calls`).
    const COUNTED: SyncSharingCommand;
    /// For an fd import, its fd (see [`FdImport`]).
    const FD: Option<FdImport<Self::Info, Self::Own>> = None;
    /// The rule an object associated with a queue command that has not completed breaks, and
    /// its ID (`rules::import::fence_in_flight`): a fence whose queue signal is still pending, a
    /// semaphore whose latest submission's fence is.
    const IN_FLIGHT: Option<(Self::Own, &'static str)> = None;

    /// What the command's own rules read of `info`, whose common members are `fields`.
    fn arguments(state: &DeviceState, info: &Self::Info, fields: &InfoFields) -> Self::Arguments;

    /// The handle types the payload's exporter was created exportable as, where the arguments
    /// name that export and its payload was the exporter's created one; `None` by default.
    #[inline(always)]
    fn exportable(_args: &Self::Arguments) -> Option<u32> {
        None
    }

    /// The command's own rules of its arguments, on a live object of the device.
    fn evaluate(
        state: &DeviceState,
        fields: &InfoFields,
        args: &Self::Arguments,
        object: &ObjectRecord<Self>,
    ) -> Self::Own;

    /// The findings of the argument rules in `broken` (cold).
    fn describe(
        fields: &InfoFields,
        args: &Self::Arguments,
        object: &ObjectRecord<Self>,
        broken: Self::Own,
        outcome: &mut Outcome,
    );
}

/// Whether `rule` is in `broken`.
#[inline(always)]
fn breaks<R: RuleSet>(broken: R, rule: R) -> bool {
    broken.bits() & rule.bits() != 0
}

impl<T: SyncImport> ExportEntry for T {
    type Args = (*const T::Info,);
    type Own = T::Own;
    type Object = Object<T>;
    /// The handle types the imported payload may be exported as, where known.
    type Learnt = Option<u32>;
    const RULES: &'static ExportCommand<T::Own, Object<T>> = T::RULES;

    #[inline(always)]
    unsafe fn read(&(p_info,): &Self::Args) -> (StructArg<InfoFields>, bool) {
        // SAFETY: the app's pointer (this function's contract).
        let info = unsafe { export::read_info(T::RULES, p_info, T::Info::common) };
        // An import has no output.
        (info, false)
    }

    #[inline(always)]
    fn evaluate_history(
        state: &DeviceState,
        _: &InfoFields,
        object: &ObjectRecord<Self>,
    ) -> T::Own {
        let Some((rule, _)) = T::IN_FLIGHT else {
            return T::Own::NONE;
        };
        match Object::<T>::pending_fence(state, object) {
            Some(fence) if super::fence_in_flight(state, &fence) => rule,
            _ => T::Own::NONE,
        }
    }

    fn describe_history(
        state: &DeviceState,
        object: &ObjectRecord<Self>,
        broken: T::Own,
        outcome: &mut Outcome,
    ) {
        let Some((_, id)) = T::IN_FLIGHT.filter(|&(rule, _)| breaks(broken, rule)) else {
            return;
        };
        if let Some(fence) = Object::<T>::pending_fence(state, object) {
            let field = T::RULES.field(Object::<T>::MEMBER);
            let at = (T::RULES.name, id, field.as_str());
            outcome.push(Object::<T>::in_flight_finding(at, object, &fence));
        }
    }

    #[inline(always)]
    fn evaluate_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        fields: &InfoFields,
        object: &ObjectRecord<Self>,
    ) -> (T::Own, Option<u32>) {
        // SAFETY: called only after the gate read the info as valid (so it is not NULL).
        let Some(info) = (unsafe { raw::read_out(p_info) }) else {
            return (T::Own::NONE, None);
        };
        let args = T::arguments(state, &info, fields);
        let own = T::evaluate(state, fields, &args, object);
        let own = match T::FD {
            Some(f) if consumed((f.fd)(&info)).is_some() => own.union(f.consumed),
            _ => own,
        };
        (own, T::exportable(&args))
    }

    fn describe_arguments(
        state: &DeviceState,
        &(p_info,): &Self::Args,
        fields: &InfoFields,
        object: &ObjectRecord<Self>,
        broken: T::Own,
        outcome: &mut Outcome,
    ) {
        // SAFETY: as in `evaluate_arguments`.
        let Some(info) = (unsafe { raw::read_out(p_info) }) else {
            return;
        };
        let args = T::arguments(state, &info, fields);
        T::describe(fields, &args, object, broken, outcome);
        match T::FD {
            Some(f) if breaks(broken, f.consumed) => {
                let at = reimport::<T>(object);
                report_imported_twice(state, &at, (f.fd)(&info), outcome);
            }
            _ => {}
        }
    }

    #[inline(always)]
    unsafe fn call_down(
        s: &DeviceState,
        device: vk::Device,
        (p_info,): Self::Args,
        judged: &Judged<'_, Object<T>, Option<u32>>,
        down: &Down<vk::Result>,
    ) -> Option<vk::Result> {
        let next = T::Info::next(s)?;
        // SAFETY: the info passed the gate (read as valid).
        let info = unsafe { raw::read_out(p_info) };
        let fd_held = T::FD.map(|f| {
            let fd = info.as_ref().map_or(-1, f.fd);
            (fd, fd_ownership::before_import(fd))
        });
        // SAFETY: the app's own arguments, which passed the gate, to the next layer's entry point.
        let result = down.went(unsafe { next(device, p_info) });
        if result == vk::Result::SUCCESS {
            let object = Object::<T>::handle(judged.object);
            if let Some((fd, held)) = fd_held {
                fd_ownership::after_import(s, fd, held, Object::<T>::IMPORT_KIND, object);
            }
            let flags = info.as_ref().map(T::Info::flags);
            let import = Import {
                handle_type: judged.handle_type,
                exportable: judged.learnt,
            };
            Object::<T>::imported(s, object, import, flags);
        }
        Some(result)
    }
}

/// The import `T`, of an fd an earlier import took, into `object`.
fn reimport<T: SyncImport>(object: &ObjectRecord<T>) -> Reimport {
    Reimport {
        id: crate::vuid::FD_IMPORTED_TWICE,
        command: T::RULES.name,
        field: T::RULES.field("fd").into(),
        object: Some((
            ObjectRef {
                ty: Object::<T>::OBJECT_TYPE,
                handle: Object::<T>::handle(object),
            },
            Object::<T>::describe(object),
        )),
    }
}

/// An import command, from the app's call to the driver's result: counted, then the export
/// pipeline.
///
/// # Safety
/// The app's arguments to the command `T` describes.
#[inline(always)]
pub unsafe fn run<T: SyncImport>(device: vk::Device, p_info: *const T::Info) -> vk::Result {
    sync_sharing_calls::count(T::COUNTED);
    // SAFETY: this function's contract.
    unsafe { export::run::<T>(device, (p_info,)) }
}

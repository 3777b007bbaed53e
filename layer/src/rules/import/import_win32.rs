//! The Win32 import structures of `vkAllocateMemory`: `VkImportMemoryWin32HandleInfoKHR`
//! (VK_KHR_external_memory_win32) and `VkImportMemoryWin32HandleInfoNV`
//! (VK_NV_external_memory_win32), and `VUID-VkMemoryAllocateInfo-pNext-00641` (not both).
//! Called from `import_handles.rs`.
//!
//! What a layer can know of a `HANDLE` or a name is whether it is NULL: whether a non-NULL value
//! names memory of the right type, on the same physical device (00659, 01518, 01519, 01328 for a
//! non-NULL handle), is the OS's and the driver's to say. So the rules judged here are the
//! type rules and the NULL rules:
//! - KHR: `handleType-parameter`, `00660` (an NT or global share handle type), `01439` (a name
//!   only for the four NT types that have names), `01441` (not both a handle and a name),
//!   `00661` and `01440` (neither: no handle, and no name of a resource). `01439`, `00661` and
//!   `01440` are judged for a non-zero `handleType` only: with 0 the structure imports nothing
//!   (it is ignored), and the layer does not read the rules against it.
//! - NV: `handleType-parameter`, `01327` (more than one bit), `01328` for a NULL `handle` with a
//!   non-zero `handleType` (NULL is no handle to memory; with 0 the structure is ignored).
//! - `VUID-VkMemoryAllocateInfo-pNext-pNext` for either structure on a device without its
//!   extension.

use crate::args::{HandleImports, Win32Import};
use crate::finding::{Finding, Outcome};
use crate::rules::common::invalid_import_handle_type;
use crate::rules::export::get_memory_win32_handle::{GLOBAL_SHARE_HANDLE_TYPES, NT_HANDLE_TYPES};
use crate::rules::export::is_one_of;
use crate::rules::rule_set::rule_set;
use crate::state::DeviceFacts;
use crate::vk_names;
use crate::vuid;
use ash::vk;

rule_set! {
    /// The rules of `VkImportMemoryWin32HandleInfoKHR` and `VkImportMemoryWin32HandleInfoNV` at
    /// `vkAllocateMemory`.
    pub struct ImportWin32Rules {
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-parameter`.
        TYPE_VALUE,
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00660`.
        NOT_A_WIN32_TYPE,
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01439`.
        NAME_OF_UNNAMED_TYPE,
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handle-01441`.
        HANDLE_AND_NAME,
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-00661`.
        NO_HANDLE,
        /// `VUID-VkImportMemoryWin32HandleInfoKHR-handleType-01440`.
        NO_NAME,
        /// `VUID-VkMemoryAllocateInfo-pNext-00641`.
        KHR_WITH_NV,
        /// `VUID-VkImportMemoryWin32HandleInfoNV-handleType-parameter`.
        NV_TYPE_VALUE,
        /// `VUID-VkImportMemoryWin32HandleInfoNV-handleType-01327`.
        NV_SEVERAL_TYPES,
        /// `VUID-VkImportMemoryWin32HandleInfoNV-handle-01328`.
        NV_NO_HANDLE,
    }
}

const KHR: &str = "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>";
const NV: &str = "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoNV>";

/// The rules the KHR import structure breaks.
fn evaluate_khr(device: &DeviceFacts, import: &Win32Import) -> ImportWin32Rules {
    let t = import.handle_type;
    let imports = !t.is_empty();
    let neither = imports && !import.handle && !import.name;
    ImportWin32Rules::NONE
        .with(
            ImportWin32Rules::TYPE_VALUE,
            imports && !is_one_of(t, device.handle_types),
        )
        .with(
            ImportWin32Rules::NOT_A_WIN32_TYPE,
            imports && !is_one_of(t, NT_HANDLE_TYPES | GLOBAL_SHARE_HANDLE_TYPES),
        )
        .with(
            ImportWin32Rules::NAME_OF_UNNAMED_TYPE,
            imports && import.name && !is_one_of(t, NT_HANDLE_TYPES),
        )
        .with(
            ImportWin32Rules::HANDLE_AND_NAME,
            import.handle && import.name,
        )
        .with(ImportWin32Rules::NO_HANDLE, neither)
        .with(ImportWin32Rules::NO_NAME, neither)
}

/// The rules the NV import structure breaks.
fn evaluate_nv(handle_type: vk::ExternalMemoryHandleTypeFlagsNV, handle: bool) -> ImportWin32Rules {
    let defined = vk_names::valid_handle_type_nv_mask();
    ImportWin32Rules::NONE
        .with(
            ImportWin32Rules::NV_TYPE_VALUE,
            !defined.contains(handle_type),
        )
        .with(
            ImportWin32Rules::NV_SEVERAL_TYPES,
            handle_type.as_raw().count_ones() > 1,
        )
        .with(
            ImportWin32Rules::NV_NO_HANDLE,
            !handle_type.is_empty() && !handle,
        )
}

/// Every rule of the chain's Win32 import structures that the allocation breaks.
pub fn evaluate(device: &DeviceFacts, imports: &HandleImports) -> ImportWin32Rules {
    let khr = imports
        .win32
        .map_or(ImportWin32Rules::NONE, |i| evaluate_khr(device, &i));
    let nv = imports
        .win32_nv
        .map_or(ImportWin32Rules::NONE, |(t, h)| evaluate_nv(t, h));
    khr.and(nv).with(
        ImportWin32Rules::KHR_WITH_NV,
        imports.win32.is_some() && imports.win32_nv.is_some(),
    )
}

/// The findings of the rules in `broken` ([`evaluate`]'s).
pub fn describe(
    device: &DeviceFacts,
    imports: &HandleImports,
    broken: ImportWin32Rules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    if broken.has(ImportWin32Rules::KHR_WITH_NV) {
        outcome.push(finding(
            vuid::ALLOC_PNEXT_00641,
            "pAllocateInfo->pNext",
            "vkAllocateMemory(): the pNext chain of pAllocateInfo has both a \
             VkImportMemoryWin32HandleInfoKHR and a VkImportMemoryWin32HandleInfoNV; it must not \
             include both."
                .to_owned(),
        ));
    }
    if let Some(import) = imports.win32 {
        describe_khr(device, &import, broken, finding, outcome);
    }
    if let Some((handle_type, _)) = imports.win32_nv {
        describe_nv(handle_type, broken, finding, outcome);
    }
}

fn describe_khr(
    device: &DeviceFacts,
    import: &Win32Import,
    broken: ImportWin32Rules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let t = import.handle_type;
    let types = vk_names::handle_types(t);
    let handle_type_field = "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.handleType";
    if broken.has(ImportWin32Rules::TYPE_VALUE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_TYPE_PARAM,
            handle_type_field,
            invalid_import_handle_type(device, KHR, t),
        ));
    }
    if broken.has(ImportWin32Rules::NOT_A_WIN32_TYPE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_TYPE_00660,
            handle_type_field,
            format!(
                "vkAllocateMemory(): {KHR}.handleType is {types}, which is defined as neither an \
                 NT handle nor a global share handle; a Win32 import must be of \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, _OPAQUE_WIN32_KMT_BIT, \
                 _D3D11_TEXTURE_BIT, _D3D11_TEXTURE_KMT_BIT, _D3D12_HEAP_BIT or \
                 _D3D12_RESOURCE_BIT (or 0, to import nothing)."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::NAME_OF_UNNAMED_TYPE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_TYPE_01439,
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.name",
            format!(
                "vkAllocateMemory(): {KHR}.name is not NULL, but handleType is {types}: only \
                 VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT, _D3D11_TEXTURE_BIT, \
                 _D3D12_HEAP_BIT and _D3D12_RESOURCE_BIT are imported by name; with another \
                 type name must be NULL."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::HANDLE_AND_NAME) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_01441,
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.name",
            format!(
                "vkAllocateMemory(): {KHR}.handle and .name are both not NULL (handleType \
                 {types}); an import is of a handle or of a name: when handle is not NULL, name \
                 must be NULL."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::NO_HANDLE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_TYPE_00661,
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.handle",
            format!(
                "vkAllocateMemory(): {KHR}.handle and .name are both NULL, but handleType is \
                 {types}: with name NULL, handle must be a valid handle of that type, and NULL \
                 is none."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::NO_NAME) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_HANDLE_TYPE_01440,
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoKHR>.name",
            format!(
                "vkAllocateMemory(): {KHR}.handle and .name are both NULL, but handleType is \
                 {types}: with handle NULL, name must name a valid memory resource of that \
                 type, and NULL names none."
            ),
        ));
    }
}

fn describe_nv(
    handle_type: vk::ExternalMemoryHandleTypeFlagsNV,
    broken: ImportWin32Rules,
    finding: &dyn Fn(&'static str, &'static str, String) -> Finding,
    outcome: &mut Outcome,
) {
    let types = vk_names::handle_types_nv(handle_type);
    let field = "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoNV>.handleType";
    if broken.has(ImportWin32Rules::NV_TYPE_VALUE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_NV_HANDLE_TYPE_PARAM,
            field,
            format!(
                "vkAllocateMemory(): {NV}.handleType is {types}, which is not a combination of \
                 VkExternalMemoryHandleTypeFlagBitsNV values."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::NV_SEVERAL_TYPES) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_NV_HANDLE_TYPE_01327,
            field,
            format!(
                "vkAllocateMemory(): {NV}.handleType is {types}; it must not have more than one \
                 bit set."
            ),
        ));
    }
    if broken.has(ImportWin32Rules::NV_NO_HANDLE) {
        outcome.push(finding(
            vuid::IMPORT_WIN32_NV_HANDLE_01328,
            "pAllocateInfo->pNext<VkImportMemoryWin32HandleInfoNV>.handle",
            format!(
                "vkAllocateMemory(): {NV}.handle is NULL, but handleType is {types}: handle \
                 must be a valid handle to memory, and NULL is none."
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixtures::fd_device;
    use crate::rules::import::import_handles::{check, Allocation};

    type T = vk::ExternalMemoryHandleTypeFlags;
    type Nv = vk::ExternalMemoryHandleTypeFlagsNV;

    fn win32_device() -> DeviceFacts {
        let mut device = fd_device();
        device.extensions.khr_external_memory_win32 = true;
        device.extensions.nv_external_memory_win32 = true;
        device.extensions.nv_external_memory = true;
        device.handle_types = device.extensions.handle_types();
        device
    }

    fn ids(device: &DeviceFacts, handles: HandleImports) -> Vec<&'static str> {
        let allocation = Allocation {
            size: 4096,
            dedicated_image: 0,
        };
        let outcome = check(device, &allocation, &handles);
        assert!(!outcome.blocked);
        outcome.ids()
    }

    fn khr(handle_type: T, handle: bool, name: bool) -> HandleImports {
        HandleImports {
            win32: Some(Win32Import {
                handle_type,
                handle,
                name,
                handle_value: u64::from(handle),
            }),
            ..HandleImports::NONE
        }
    }

    fn nv(handle_type: Nv, handle: bool) -> HandleImports {
        HandleImports {
            win32_nv: Some((handle_type, handle)),
            ..HandleImports::NONE
        }
    }

    #[test]
    fn good_win32_imports_are_silent() {
        let d = win32_device();
        assert!(ids(&d, khr(T::OPAQUE_WIN32, true, false)).is_empty());
        assert!(ids(&d, khr(T::OPAQUE_WIN32, false, true)).is_empty());
        assert!(ids(&d, khr(T::D3D11_TEXTURE_KMT, true, false)).is_empty());
        // handleType 0: nothing imported, nothing needed.
        assert!(ids(&d, khr(T::empty(), false, false)).is_empty());
        assert!(ids(&d, nv(Nv::OPAQUE_WIN32_KMT, true)).is_empty());
        assert!(ids(&d, nv(Nv::empty(), false)).is_empty());
    }

    #[test]
    fn khr_type_and_null_rules() {
        let d = win32_device();
        assert_eq!(
            ids(&d, khr(T::OPAQUE_FD, true, false)),
            [vuid::IMPORT_WIN32_HANDLE_TYPE_00660]
        );
        assert_eq!(
            ids(&d, khr(T::OPAQUE_WIN32 | T::OPAQUE_WIN32_KMT, true, false)),
            [
                vuid::IMPORT_WIN32_HANDLE_TYPE_PARAM,
                vuid::IMPORT_WIN32_HANDLE_TYPE_00660
            ]
        );
        assert_eq!(
            ids(&d, khr(T::OPAQUE_WIN32_KMT, false, true)),
            [vuid::IMPORT_WIN32_HANDLE_TYPE_01439]
        );
        assert_eq!(
            ids(&d, khr(T::OPAQUE_WIN32, true, true)),
            [vuid::IMPORT_WIN32_HANDLE_01441]
        );
        // Both set with handleType 0: 01441 has no condition on the type.
        assert_eq!(
            ids(&d, khr(T::empty(), true, true)),
            [vuid::IMPORT_WIN32_HANDLE_01441]
        );
        assert_eq!(
            ids(&d, khr(T::D3D12_HEAP, false, false)),
            [
                vuid::IMPORT_WIN32_HANDLE_TYPE_00661,
                vuid::IMPORT_WIN32_HANDLE_TYPE_01440
            ]
        );
    }

    #[test]
    fn nv_rules_and_both_structures() {
        let d = win32_device();
        assert_eq!(
            ids(&d, nv(Nv::OPAQUE_WIN32 | Nv::OPAQUE_WIN32_KMT, true)),
            [vuid::IMPORT_WIN32_NV_HANDLE_TYPE_01327]
        );
        assert_eq!(
            ids(&d, nv(Nv::from_raw(1 << 9), true)),
            [vuid::IMPORT_WIN32_NV_HANDLE_TYPE_PARAM]
        );
        assert_eq!(
            ids(&d, nv(Nv::OPAQUE_WIN32, false)),
            [vuid::IMPORT_WIN32_NV_HANDLE_01328]
        );
        let both = HandleImports {
            win32: khr(T::OPAQUE_WIN32, true, false).win32,
            ..nv(Nv::OPAQUE_WIN32, true)
        };
        assert_eq!(ids(&d, both), [vuid::ALLOC_PNEXT_00641]);
    }

    #[test]
    fn without_their_extensions_their_values_are_judged_alike() {
        // The structures themselves (pNext-pNext) are `alloc.rs`'s; a valid import's values are
        // valid whatever the extensions (the Win32 handle types are core).
        let mut d = fd_device();
        d.extensions.khr_external_memory_win32 = false;
        d.extensions.nv_external_memory_win32 = false;
        d.handle_types = d.extensions.handle_types();
        assert!(ids(&d, khr(T::OPAQUE_WIN32, true, false)).is_empty());
        assert!(ids(&d, nv(Nv::OPAQUE_WIN32, true)).is_empty());
    }
}

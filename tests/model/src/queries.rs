//! The handle-property queries: `vkGetMemoryFdPropertiesKHR`, `vkGetMemoryHostPointerPropertiesEXT`,
//! `vkGetMemoryMetalHandlePropertiesEXT`, `vkGetMemoryWin32HandlePropertiesKHR`,
//! `vkGetMemoryZirconHandlePropertiesFUCHSIA` and `vkGetAndroidHardwareBufferPropertiesANDROID`.
//!
//! Each takes a device, a handle (an fd, a host pointer, a Metal object, a Windows `HANDLE`, a
//! Zircon handle, an `AHardwareBuffer*`), a handle type (but the Android one) and an output
//! structure the driver fills. Written from the spec's text
//! (`validusage-memory-sharing-1.4.360.json`; `implicit-1.4.360.json` for the Android output
//! structure) and docs/checks.md, as the rest of the model.
//!
//! What docs/checks.md adds to the spec's text, modelled here:
//!
//! - only what the call shows is judged: NULL handles (and `INVALID_HANDLE_VALUE`,
//!   `ZX_HANDLE_INVALID`), an fd the OS says is not open, a host pointer against a known
//!   `minImportedHostPointerAlignment`. Whether a non-NULL handle is what the spec asks only the
//!   OS or the driver can tell;
//! - a NULL output pointer, an output structure of another `sType`, a NULL or invalid handle and
//!   an Android output chain that loops block the call (nothing to write to, or nothing the
//!   driver can use); every other finding is reported and the call goes down.

use super::handle_type::{self, one_of};
use super::ids::*;
use super::{Device, Expected, Extension};

/// The queries, in the order of the layer's table of intercepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Query {
    FdProperties,
    HostPointerProperties,
    MetalHandleProperties,
    Win32HandleProperties,
    ZirconHandleProperties,
    AndroidHardwareBufferProperties,
}

/// The IDs of a query's structural rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryIds {
    pub device: &'static str,
    /// The output pointer is NULL.
    pub output: &'static str,
    /// The output structure's `sType` is wrong.
    pub s_type: &'static str,
    /// The output structure's `pNext` is not NULL (for the structures nothing extends; `None`
    /// for the Android one, whose chain the driver fills).
    pub p_next: Option<&'static str>,
    /// The output structure's chain loops (the Android one; `None` for the others, whose chain
    /// is never walked).
    pub chain_loops: Option<&'static str>,
    /// `handleType` is not a valid value on the device (`None`: the query has no `handleType`).
    pub handle_type: Option<&'static str>,
}

impl Query {
    pub const ALL: [Query; 6] = [
        Query::FdProperties,
        Query::HostPointerProperties,
        Query::MetalHandleProperties,
        Query::Win32HandleProperties,
        Query::ZirconHandleProperties,
        Query::AndroidHardwareBufferProperties,
    ];

    /// The command's name, as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Query::FdProperties => GET_FD_PROPERTIES,
            Query::HostPointerProperties => GET_HOST_POINTER_PROPERTIES,
            Query::MetalHandleProperties => GET_METAL_HANDLE_PROPERTIES,
            Query::Win32HandleProperties => GET_WIN32_HANDLE_PROPERTIES,
            Query::ZirconHandleProperties => GET_ZIRCON_HANDLE_PROPERTIES,
            Query::AndroidHardwareBufferProperties => GET_ANDROID_HARDWARE_BUFFER_PROPERTIES,
        }
    }

    /// The extension that adds the command (vk.xml's `<require>` of each).
    pub fn extension(self) -> Extension {
        match self {
            Query::FdProperties => Extension::KhrExternalMemoryFd,
            Query::HostPointerProperties => Extension::ExtExternalMemoryHost,
            Query::MetalHandleProperties => Extension::ExtExternalMemoryMetal,
            Query::Win32HandleProperties => Extension::KhrExternalMemoryWin32,
            Query::ZirconHandleProperties => Extension::FuchsiaExternalMemory,
            Query::AndroidHardwareBufferProperties => {
                Extension::AndroidExternalMemoryAndroidHardwareBuffer
            }
        }
    }

    pub fn ids(self) -> QueryIds {
        let plain = |device, output, s_type, p_next, handle_type| QueryIds {
            device,
            output,
            s_type,
            p_next: Some(p_next),
            chain_loops: None,
            handle_type: Some(handle_type),
        };
        match self {
            Query::FdProperties => plain(
                FD_PROPS_DEVICE_PARAM,
                FD_PROPS_OUTPUT_PARAM,
                FD_PROPS_STYPE,
                FD_PROPS_PNEXT,
                FD_PROPS_HANDLE_TYPE_PARAM,
            ),
            Query::HostPointerProperties => plain(
                HOST_PROPS_DEVICE_PARAM,
                HOST_PROPS_OUTPUT_PARAM,
                HOST_PROPS_STYPE,
                HOST_PROPS_PNEXT,
                HOST_PROPS_HANDLE_TYPE_PARAM,
            ),
            Query::MetalHandleProperties => plain(
                METAL_PROPS_DEVICE_PARAM,
                METAL_PROPS_OUTPUT_PARAM,
                METAL_PROPS_STYPE,
                METAL_PROPS_PNEXT,
                METAL_PROPS_HANDLE_TYPE_PARAM,
            ),
            Query::Win32HandleProperties => plain(
                WIN32_PROPS_DEVICE_PARAM,
                WIN32_PROPS_OUTPUT_PARAM,
                WIN32_PROPS_STYPE,
                WIN32_PROPS_PNEXT,
                WIN32_PROPS_HANDLE_TYPE_PARAM,
            ),
            Query::ZirconHandleProperties => plain(
                ZIRCON_PROPS_DEVICE_PARAM,
                ZIRCON_PROPS_OUTPUT_PARAM,
                ZIRCON_PROPS_STYPE,
                ZIRCON_PROPS_PNEXT,
                ZIRCON_PROPS_HANDLE_TYPE_PARAM,
            ),
            // VkAndroidHardwareBufferPropertiesANDROID is extended by the format-properties
            // structures (the driver fills them): its pNext may be set, and its sType-unique is
            // judged where the chain loops.
            Query::AndroidHardwareBufferProperties => QueryIds {
                device: AHB_PROPS_DEVICE_PARAM,
                output: AHB_PROPS_OUTPUT_PARAM,
                s_type: AHB_PROPS_STYPE,
                p_next: None,
                chain_loops: Some(AHB_PROPS_STYPE_UNIQUE),
                handle_type: None,
            },
        }
    }
}

/// The output structure pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Null,
    /// A structure whose `sType` is not the query's.
    WrongSType,
    /// The query's structure: whether its `pNext` is not NULL, and whether that chain loops
    /// back on itself.
    Valid {
        p_next: bool,
        loops: bool,
    },
}

/// One query's arguments, as the layer sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryCall {
    pub query: Query,
    /// `handleType` (not read for the Android query, which has none).
    pub handle_type: u32,
    /// The handle: an fd, a host pointer's or a Metal object's address, a `HANDLE`, a Zircon
    /// handle, an `AHardwareBuffer*` (as a signed 64-bit value: an fd or `INVALID_HANDLE_VALUE`
    /// is negative).
    pub handle: i64,
    /// For an fd: whether the OS says the number is an open descriptor of the process (`None`:
    /// it cannot tell). POSIX says no for a negative number.
    pub fd_open: Option<bool>,
    /// The device's `minImportedHostPointerAlignment`, as the layer learned it at
    /// `vkCreateDevice` (`None`: not known; a power of two otherwise).
    pub host_pointer_alignment: Option<u64>,
    pub output: Output,
}

impl QueryCall {
    /// A valid call of `query` but for `handle_type` and `handle` (an open fd, for the fd query;
    /// no alignment known).
    pub fn new(query: Query, handle_type: u32, handle: i64) -> Self {
        Self {
            query,
            handle_type,
            handle,
            fd_open: Some(handle >= 0),
            host_pointer_alignment: None,
            output: Output::Valid {
                p_next: false,
                loops: false,
            },
        }
    }
}

impl Expected {
    /// A query on a `VkDevice` the layer does not know: its `device-parameter` ID alone, blocked.
    pub fn unknown_query_device(query: Query) -> Self {
        let mut e = Expected::default();
        e.block(query.ids().device);
        e
    }
}

/// `INVALID_HANDLE_VALUE`: `(HANDLE)-1`.
const INVALID_HANDLE_VALUE: i64 = -1;

/// What `call` on `device` (a device the layer knows) must produce.
pub fn expected_query(device: &Device, call: &QueryCall) -> Expected {
    let query = call.query;
    let ids = query.ids();
    let mut e = Expected::default();
    // EXPORTCHECK-extension-not-enabled: "An export command or handle-property query was called
    // on a VkDevice that did not enable its extension". A warning: the call goes on.
    if !device.has(query.extension()) {
        e.push(EXTENSION_NOT_ENABLED);
    }
    // The output pointer: "must be a valid pointer to a Vk...Properties structure" (-parameter),
    // its sType-sType, and (for the structures nothing extends) pNext-pNext. NULL or another
    // structure: nothing to write to, blocked; its members are not read.
    match call.output {
        Output::Null => e.block(ids.output),
        Output::WrongSType => e.block(ids.s_type),
        Output::Valid { p_next, loops } => {
            if let Some(id) = ids.p_next.filter(|_| p_next) {
                e.push(id);
            }
            // sType-unique of the Android structure: "The sType value of each structure in the
            // pNext chain must be unique"; a loop repeats them all, and the driver would walk it
            // forever: blocked.
            if let Some(id) = ids.chain_loops.filter(|_| p_next && loops) {
                e.block(id);
            }
        }
    }
    // handleType-parameter: "handleType must be a valid VkExternalMemoryHandleTypeFlagBits value"
    // (one bit, defined, of an extension the device enabled).
    let t = call.handle_type;
    if let Some(id) = ids.handle_type {
        if !one_of(t, device.valid_handle_types()) {
            e.push(id);
        }
    }
    let h = call.handle;
    match query {
        Query::FdProperties => {
            // 00674: "handleType must not be VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT".
            if t == handle_type::OPAQUE_FD {
                e.push(FD_PROPS_HANDLE_TYPE_00674);
            }
            // 00673: "fd must point to a valid POSIX file descriptor memory handle": a negative
            // number, or one the OS says is not open, is no file descriptor at all. Blocked.
            if h < 0 || call.fd_open == Some(false) {
                e.block(FD_PROPS_FD_00673);
            }
        }
        Query::HostPointerProperties => {
            // 01752: "handleType must be HOST_ALLOCATION_BIT_EXT or
            // HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT".
            let host = handle_type::HOST_ALLOCATION | handle_type::HOST_MAPPED_FOREIGN_MEMORY;
            if !one_of(t, host) {
                e.push(HOST_PROPS_HANDLE_TYPE_01752);
            }
            // 01753: "pHostPointer must be a pointer aligned to an integer multiple of
            // minImportedHostPointerAlignment" (judged where the alignment is known).
            if call
                .host_pointer_alignment
                .is_some_and(|a| a != 0 && (h as u64) % a != 0)
            {
                e.push(HOST_PROPS_POINTER_01753);
            }
        }
        Query::MetalHandleProperties => {
            // 10417: "handleType must be MTLBUFFER, MTLTEXTURE or MTLHEAP".
            if !one_of(t, handle_type::METAL) {
                e.push(METAL_PROPS_HANDLE_TYPE_10417);
            }
            // 10416: "pHandle must point to a valid id<MTLBuffer>, id<MTLTexture> or
            // id<MTLDevice>": NULL is none. Blocked.
            if h == 0 {
                e.block(METAL_PROPS_HANDLE_10416);
            }
        }
        Query::Win32HandleProperties => {
            // 00666: "handleType must not be one of the handle types defined as opaque" (the
            // compatibility table: OPAQUE_WIN32 and OPAQUE_WIN32_KMT).
            if t == handle_type::OPAQUE_WIN32 || t == handle_type::OPAQUE_WIN32_KMT {
                e.push(WIN32_PROPS_HANDLE_TYPE_00666);
            }
            // 00665: "handle must point to a valid Windows memory handle": NULL and
            // INVALID_HANDLE_VALUE are none. Blocked.
            if h == 0 || h == INVALID_HANDLE_VALUE {
                e.block(WIN32_PROPS_HANDLE_00665);
            }
        }
        Query::ZirconHandleProperties => {
            // 04773: "handleType must be VK_EXTERNAL_MEMORY_HANDLE_TYPE_ZIRCON_VMO_BIT_FUCHSIA".
            if t != handle_type::ZIRCON_VMO {
                e.push(ZIRCON_PROPS_HANDLE_TYPE_04773);
            }
            // 04774: "zirconHandle must reference a valid VMO": ZX_HANDLE_INVALID (0) is none.
            // Blocked.
            if h == 0 {
                e.block(ZIRCON_PROPS_HANDLE_04774);
            }
        }
        Query::AndroidHardwareBufferProperties => {
            // buffer-parameter: "buffer must be a valid pointer to a valid AHardwareBuffer
            // value": NULL is none. Blocked.
            if h == 0 {
                e.block(AHB_PROPS_BUFFER_PARAM);
            }
        }
    }
    e
}

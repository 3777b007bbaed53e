//! The hostile-input matrix of the six handle-property queries, end to end: the real loader, the
//! layer and the project's test driver (`tests/icd`). For each query, every handle-type value of
//! the hostile tables with each handle the call can show to be bad or not (an fd open, closed or
//! -1; a host pointer aligned, misaligned or NULL; a Metal object, `HANDLE`, Zircon handle or
//! `AHardwareBuffer*` NULL, `INVALID_HANDLE_VALUE` or not), and the output structure NULL, of
//! another `sType`, with a pNext, and (the Android one) with a pNext chain that loops. Each case
//! must yield exactly the IDs the model of the rules (`tests/model`) gives, blocked (nothing
//! written, the driver not called) or not as it says; the test driver answers the rest as a real
//! driver would (it knows only its own handles). See docs/reliability.md.

use ash::vk;
use exportcheck_tests::calls::Called;
use exportcheck_tests::hostile::{self, export_device, Expected, Matrix};
use exportcheck_tests::model::handle_type::{
    DEFINED, DMA_BUF, HOST_ALLOCATION, HOST_MAPPED_FOREIGN_MEMORY, METAL,
};
use exportcheck_tests::model::{self, Output, Query, QueryCall};
use exportcheck_tests::{fds, Device, Instance};
use std::ffi::{c_void, CStr};
use std::ptr::null_mut;

const SUCCESS: vk::Result = vk::Result::SUCCESS;
const INVALID: vk::Result = vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
/// What the output's members are pre-filled with, to see whether the driver wrote them.
const UNWRITTEN: u64 = 0x5e5e_5e5e_5e5e_5e5e;

/// Any of the six output structures: `sType`, `pNext`, then room for the largest's members
/// (`VkAndroidHardwareBufferPropertiesANDROID`: `allocationSize`, `memoryTypeBits`), pre-filled.
#[repr(C)]
struct Out {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    members: [u64; 2],
}

/// A structure chained to an output: nothing extends the query's own but the Android one's.
#[repr(C)]
struct Node {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    room: [u64; 8],
}

/// The query's output structure type.
fn output_s_type(query: Query) -> vk::StructureType {
    match query {
        Query::FdProperties => vk::StructureType::MEMORY_FD_PROPERTIES_KHR,
        Query::HostPointerProperties => vk::StructureType::MEMORY_HOST_POINTER_PROPERTIES_EXT,
        // VK_STRUCTURE_TYPE_MEMORY_METAL_HANDLE_PROPERTIES_EXT (not in ash 0.38).
        Query::MetalHandleProperties => vk::StructureType::from_raw(1_000_602_001),
        Query::Win32HandleProperties => vk::StructureType::MEMORY_WIN32_HANDLE_PROPERTIES_KHR,
        Query::ZirconHandleProperties => vk::StructureType::MEMORY_ZIRCON_HANDLE_PROPERTIES_FUCHSIA,
        Query::AndroidHardwareBufferProperties => {
            vk::StructureType::ANDROID_HARDWARE_BUFFER_PROPERTIES_ANDROID
        }
    }
}

type WithType<H> = unsafe extern "system" fn(
    vk::Device,
    vk::ExternalMemoryHandleTypeFlags,
    H,
    *mut Out,
) -> vk::Result;
type Android = unsafe extern "system" fn(vk::Device, *const c_void, *mut Out) -> vk::Result;

fn counted(query: Query) -> &'static CStr {
    match query {
        Query::FdProperties => c"vkGetMemoryFdPropertiesKHR",
        Query::HostPointerProperties => c"vkGetMemoryHostPointerPropertiesEXT",
        Query::MetalHandleProperties => c"vkGetMemoryMetalHandlePropertiesEXT",
        Query::Win32HandleProperties => c"vkGetMemoryWin32HandlePropertiesKHR",
        Query::ZirconHandleProperties => c"vkGetMemoryZirconHandlePropertiesFUCHSIA",
        Query::AndroidHardwareBufferProperties => c"vkGetAndroidHardwareBufferPropertiesANDROID",
    }
}

/// One query through the layer's own pointer (from `vkGetDeviceProcAddr`), `out` NULL or a
/// pre-filled structure.
fn query(inst: &Instance, dev: &Device, call: &QueryCall, out: *mut Out) -> Called {
    let name = counted(call.query);
    let (d, t) = (
        dev.handle(),
        vk::ExternalMemoryHandleTypeFlags::from_raw(call.handle_type),
    );
    let h = call.handle;
    // SAFETY: each command's own PFN type; `out` is NULL (on purpose) or a live structure whose
    // chain is made of live structures; the handles are never dereferenced by the test driver.
    let result = unsafe {
        match call.query {
            Query::FdProperties => inst.device_fn::<WithType<i32>>(dev, name)(d, t, h as i32, out),
            Query::ZirconHandleProperties => {
                inst.device_fn::<WithType<u32>>(dev, name)(d, t, h as u32, out)
            }
            Query::AndroidHardwareBufferProperties => {
                inst.device_fn::<Android>(dev, name)(d, h as usize as *const c_void, out)
            }
            _ => inst.device_fn::<WithType<*const c_void>>(dev, name)(
                d,
                t,
                h as usize as *const c_void,
                out,
            ),
        }
    };
    // SAFETY: NULL, or the live structure passed above.
    let written = unsafe { out.as_ref() }.is_some_and(|o| o.members != [UNWRITTEN; 2]);
    Called {
        result: Some(result),
        written,
        output: 0,
    }
}

/// What the test driver answers for a call that goes down: it knows only its own handles.
fn driver_answer(call: &QueryCall, alignment: u64) -> vk::Result {
    let (t, h) = (call.handle_type, call.handle);
    let ok = match call.query {
        Query::FdProperties => t == DMA_BUF && call.fd_open == Some(true),
        Query::HostPointerProperties => {
            (t == HOST_ALLOCATION || t == HOST_MAPPED_FOREIGN_MEMORY)
                && h != 0
                && (h as u64).is_multiple_of(alignment)
        }
        Query::MetalHandleProperties => t.is_power_of_two() && t & METAL != 0 && h != 0,
        // No handle of its own in these tables.
        _ => false,
    };
    if ok {
        SUCCESS
    } else {
        INVALID
    }
}

/// The handles each query is tried with: a name, the value, and for an fd whether it is open.
fn handles(query: Query, open_fd: i32, closed_fd: i32, aligned: i64) -> Vec<(&'static str, i64)> {
    match query {
        Query::FdProperties => vec![
            ("an open fd", i64::from(open_fd)),
            ("a closed fd", i64::from(closed_fd)),
            ("-1", -1),
        ],
        Query::HostPointerProperties => vec![
            ("an aligned pointer", aligned),
            ("a misaligned pointer", aligned + 16),
            ("NULL", 0),
        ],
        Query::Win32HandleProperties => vec![
            ("a HANDLE", 0x40),
            ("INVALID_HANDLE_VALUE", -1),
            ("NULL", 0),
        ],
        _ => vec![("a handle", 0x40), ("NULL", 0)],
    }
}

/// Runs every query on `dev` (the test driver's), whose model is `device`.
fn run(inst: &Instance, dev: &Device, queries: &[Query], alignment: Option<u64>) -> usize {
    let device = inst.model_device(dev);
    let open = std::fs::File::open("/dev/null").expect("open /dev/null");
    let open_fd = std::os::fd::AsRawFd::as_raw_fd(&open);
    let closed_fd = {
        let file = std::fs::File::open("/dev/null").expect("open /dev/null");
        std::os::fd::AsRawFd::as_raw_fd(&file)
    };
    assert!(!fds::is_open(closed_fd));
    // Page-aligned, never dereferenced: the address of a live allocation.
    let page = vec![0u8; 3 * 65536];
    let aligned = ((page.as_ptr() as i64) + 65535) & !65535;
    let mut cases = 0;
    for &q in queries {
        let name = counted(q).to_str().expect("a name");
        let mut m = Matrix::new(inst, name, counted(q));
        let run_case = |m: &mut Matrix, call: QueryCall, what: String| {
            let down = driver_answer(&call, alignment.unwrap_or(1));
            let expected = Expected::from_model(model::expected_query(&device, &call), Some(down));
            let mut node = Node {
                s_type: vk::StructureType::from_raw(0x7e57_0001),
                p_next: null_mut(),
                room: [0; 8],
            };
            let node_ptr: *mut Node = &raw mut node;
            let mut out = Out {
                s_type: output_s_type(q),
                p_next: null_mut(),
                members: [UNWRITTEN; 2],
            };
            let out_ptr = match call.output {
                Output::Null => null_mut(),
                Output::WrongSType => {
                    out.s_type = vk::StructureType::MEMORY_ALLOCATE_INFO;
                    &raw mut out
                }
                Output::Valid { p_next, loops } => {
                    if p_next {
                        out.p_next = node_ptr.cast();
                    }
                    if loops {
                        // SAFETY: a live local, used only through `node_ptr` from here on.
                        unsafe { (*node_ptr).p_next = node_ptr.cast() };
                    }
                    &raw mut out
                }
            };
            m.prompt_case(what, expected, || query(inst, dev, &call, out_ptr));
        };
        let handle_types = if q == Query::AndroidHardwareBufferProperties {
            vec![0]
        } else {
            hostile::handle_type_values(DEFINED)
        };
        for &t in &handle_types {
            for (what, h) in handles(q, open_fd, closed_fd, aligned) {
                let call = QueryCall {
                    fd_open: Some(h >= 0 && fds::is_open(h as i32)),
                    host_pointer_alignment: alignment,
                    ..QueryCall::new(q, t, h)
                };
                run_case(&mut m, call, format!("handleType {t:#x}, {what}"));
            }
        }
        // The output structure, with a call that is otherwise valid where the test can make
        // one (else with the first handle and the hostile table's first value).
        let (t, h) = match q {
            Query::FdProperties => (DMA_BUF, i64::from(open_fd)),
            Query::HostPointerProperties => (HOST_ALLOCATION, aligned),
            Query::MetalHandleProperties => (METAL & METAL.wrapping_neg(), 0x40),
            _ => (handle_types[0], 0x40),
        };
        for (what, output) in [
            ("NULL output", Output::Null),
            ("an output of another sType", Output::WrongSType),
            (
                "an output with a pNext",
                Output::Valid {
                    p_next: true,
                    loops: false,
                },
            ),
            (
                "an output whose pNext chain loops",
                Output::Valid {
                    p_next: true,
                    loops: true,
                },
            ),
        ] {
            if matches!(output, Output::Valid { loops: true, .. })
                && q != Query::AndroidHardwareBufferProperties
            {
                // Only the Android output is walked (the others' chains are never read, and the
                // driver would walk a loop forever).
                continue;
            }
            let call = QueryCall {
                fd_open: Some(h >= 0 && fds::is_open(h as i32)),
                host_pointer_alignment: alignment,
                output,
                ..QueryCall::new(q, t, h)
            };
            run_case(&mut m, call, format!("handleType {t:#x}, {what}"));
        }
        cases += m.finish();
    }
    drop(open);
    cases
}

#[test]
fn handle_property_query_matrix() {
    let inst = hostile::instance();
    let dev = export_device(&inst);
    let queries = [
        Query::FdProperties,
        Query::MetalHandleProperties,
        Query::Win32HandleProperties,
        Query::ZirconHandleProperties,
        Query::AndroidHardwareBufferProperties,
    ];
    assert!(run(&inst, &dev, &queries, None) > 300);
}

#[test]
fn host_pointer_property_query_matrix() {
    let inst = hostile::instance();
    let dev = inst.device(&[
        ash::khr::external_memory::NAME,
        ash::ext::external_memory_host::NAME,
    ]);
    let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut properties = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
    // SAFETY: the instance's own physical device, and a valid chain.
    unsafe {
        inst.instance
            .get_physical_device_properties2(inst.physical_device, &mut properties)
    };
    let alignment = host.min_imported_host_pointer_alignment;
    assert!(alignment.is_power_of_two() && alignment <= 65536);
    assert!(
        run(
            &inst,
            &dev,
            &[Query::HostPointerProperties],
            Some(alignment)
        ) > 100
    );
}

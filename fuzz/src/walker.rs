//! The `pnext_walker` target: an arbitrary graph of structures in memory (any sType, pNext to
//! any node, itself, NULL, or into a run of up to 2 × MAX_CHAIN_LENGTH + 64 nodes), walked by
//! the layer's `raw` module and by a reference walk computed here.
//!
//! Properties:
//! - `walk_chain` terminates, never visits more than `MAX_CHAIN_LENGTH` structures, and visits
//!   exactly the structures of the chain, in order (each with its sType and address);
//! - its result: `Complete` for a chain of at most `MAX_CHAIN_LENGTH` structures; `TooLong`
//!   (after exactly `MAX_CHAIN_LENGTH` visits) for a longer one that ends; `Cycle` for every
//!   chain that loops back, however long its tail and its loop (after visiting each of its
//!   structures, up to `MAX_CHAIN_LENGTH`);
//! - `read_allocate_info` (behind a NULL, mistyped or valid `VkMemoryAllocateInfo`),
//!   `read_device_create_info`, `read_instance_create_info`, `read_layer_settings`, the loader
//!   link readers and `read_struct` on the three export info structures return what the
//!   reference reading of the same structures gives.

use crate::layer;
use arbitrary::{Arbitrary, Result, Unstructured};
use ash::vk;
use layer::raw::{self, AllocateInfoRead, ChainEnd, StructArg, MAX_CHAIN_LENGTH};
use layer::state::{AllocationFacts, EnabledExtensions, Messenger};
use layer::vk_ext;
use std::ffi::{c_char, c_void, CString};

/// A structure in memory: `sType`, `pNext` and four words, large enough for every structure the
/// readers read (the largest, `VkDebugUtilsMessengerCreateInfoEXT`, is 48 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
struct Node {
    s_type: vk::StructureType,
    p_next: *const c_void,
    /// Offset 16: `handleTypes`, `handleType`, `externalMemoryRDMA`, `memory`, `function`...
    a: u64,
    /// Offset 24: `handleType` of the export info structures; zero for the structures that
    /// hold a pointer there (`pSettings`, the loader's `pLayerInfo`).
    b: u64,
    c: u64,
    d: u64,
}

const EMPTY: Node = Node {
    s_type: vk::StructureType::APPLICATION_INFO,
    p_next: std::ptr::null(),
    a: 0,
    b: 0,
    c: 0,
    d: 0,
};

/// The structure types the readers look at (and a few they skip).
const S_TYPES: &[vk::StructureType] = &[
    vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO,
    vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV,
    vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV,
    vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR,
    vk::StructureType::IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
    vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
    vk::StructureType::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA,
    vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
    vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID,
    vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO,
    vk::StructureType::DEDICATED_ALLOCATION_MEMORY_ALLOCATE_INFO_NV,
    vk::StructureType::MEMORY_PRIORITY_ALLOCATE_INFO_EXT,
    vk::StructureType::MEMORY_ALLOCATE_INFO,
    vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_RDMA_FEATURES_NV,
    vk::StructureType::DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
    vk::StructureType::DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT,
    vk::StructureType::LAYER_SETTINGS_CREATE_INFO_EXT,
    vk::StructureType::LOADER_INSTANCE_CREATE_INFO,
    vk::StructureType::LOADER_DEVICE_CREATE_INFO,
    vk::StructureType::MEMORY_GET_FD_INFO_KHR,
    vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
    vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
];

const IMPORTS: &[vk::StructureType] = &[
    vk::StructureType::IMPORT_MEMORY_FD_INFO_KHR,
    vk::StructureType::IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
    vk::StructureType::IMPORT_MEMORY_WIN32_HANDLE_INFO_KHR,
    vk::StructureType::IMPORT_MEMORY_ZIRCON_HANDLE_INFO_FUCHSIA,
    vk_ext::STRUCTURE_TYPE_IMPORT_MEMORY_METAL_HANDLE_INFO_EXT,
];

/// Structures with a pointer at offset 24 (their `b` stays zero).
const POINTER_AT_24: &[vk::StructureType] = &[
    vk::StructureType::LAYER_SETTINGS_CREATE_INFO_EXT,
    vk::StructureType::LOADER_INSTANCE_CREATE_INFO,
    vk::StructureType::LOADER_DEVICE_CREATE_INFO,
];

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum STypeIn {
    Known(u8),
    Raw(i32),
}

impl STypeIn {
    fn get(self) -> vk::StructureType {
        match self {
            STypeIn::Known(i) => S_TYPES[usize::from(i) % S_TYPES.len()],
            STypeIn::Raw(r) => vk::StructureType::from_raw(r),
        }
    }
}

/// Where a pNext points.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Ptr {
    Null,
    /// One of the explicit nodes (by index, modulo their number).
    Node(u8),
    /// A node of the run (by index, modulo its length).
    Run(u32),
}

#[derive(Arbitrary, Debug)]
pub struct NodeIn {
    pub s_type: STypeIn,
    pub next: Ptr,
    pub a: u64,
    pub b: u32,
}

/// How many nodes a run has: mostly short, sometimes around or past the walker's limit.
#[derive(Debug, Clone, Copy)]
pub struct RunLen(pub usize);

impl<'a> Arbitrary<'a> for RunLen {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let n = u32::arbitrary(u)? as usize;
        Ok(RunLen(match u.int_in_range(0u8..=3)? {
            0 => n % 256,
            1 => n % 4096,
            2 => MAX_CHAIN_LENGTH - 8 + n % 16,
            _ => n % (2 * MAX_CHAIN_LENGTH + 64),
        }))
    }
}

/// A chain of `len` nodes of one sType, node i pointing to node i + 1, the last to `end`.
#[derive(Arbitrary, Debug)]
pub struct RunIn {
    pub len: RunLen,
    pub s_type: STypeIn,
    pub a: u64,
    pub end: Ptr,
}

#[derive(Arbitrary, Debug)]
pub enum AllocHeadIn {
    Null,
    WrongSType(i32),
    Valid { size: u64, memory_type_index: u32 },
}

/// An extension name in `ppEnabledExtensionNames`.
#[derive(Arbitrary, Debug)]
pub enum ExtName {
    Null,
    Known(u8),
    Raw(Vec<u8>),
}

const EXTENSIONS: &[&[u8]] = &[
    b"VK_KHR_external_memory",
    b"VK_KHR_external_memory_fd",
    b"VK_EXT_external_memory_dma_buf",
    b"VK_NV_external_memory_rdma",
    b"VK_NV_external_memory",
    b"VK_NV_external_memory_win32",
    b"VK_EXT_external_memory_metal",
    b"VK_EXT_debug_utils",
    b"VK_KHR_external_memory_fd_", // near miss
];

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub nodes: Vec<NodeIn>,
    pub run: Option<RunIn>,
    pub head: Ptr,
    pub allocate_info: AllocHeadIn,
    pub extensions: Vec<ExtName>,
    /// Nodes (or NULL) read with `read_struct` as each export info structure.
    pub read_as_info: Vec<Ptr>,
}

/// The node a pointer of the input points to, with `small` explicit nodes and a run of `run_len`
/// (a pointer into an empty part falls back to the other part, or NULL).
fn resolve(small: usize, run_len: usize, p: Ptr) -> Option<usize> {
    match p {
        Ptr::Null => None,
        Ptr::Node(i) if small > 0 => Some(usize::from(i) % small),
        Ptr::Run(i) if run_len > 0 => Some(small + i as usize % run_len),
        Ptr::Node(i) if run_len > 0 => Some(small + usize::from(i) % run_len),
        Ptr::Run(i) if small > 0 => Some(i as usize % small),
        _ => None,
    }
}

/// The graph laid out in memory, and its shape for the reference.
struct Graph {
    nodes: Vec<Node>,
    /// How many of `nodes` are the explicit ones (the run follows).
    small: usize,
    /// `next[i]`: the index `nodes[i].p_next` points to.
    next: Vec<Option<usize>>,
}

impl Graph {
    fn build(input: &Input) -> (Graph, Option<usize>) {
        let small = input.nodes.len().min(64);
        let run_len = input.run.as_ref().map_or(0, |r| r.len.0);
        let total = small + run_len;
        let resolve = |p: Ptr| resolve(small, run_len, p);
        let mut nodes = vec![EMPTY; total];
        let mut next = vec![None; total];
        let fill = |node: &mut Node, s_type: vk::StructureType, a: u64, b: u32| {
            node.s_type = s_type;
            node.a = a;
            node.b = if POINTER_AT_24.contains(&s_type) {
                0
            } else {
                u64::from(b)
            };
        };
        for (i, n) in input.nodes.iter().take(small).enumerate() {
            fill(&mut nodes[i], n.s_type.get(), n.a, n.b);
            next[i] = resolve(n.next);
        }
        if let Some(run) = &input.run {
            let s_type = run.s_type.get();
            for k in 0..run_len {
                fill(&mut nodes[small + k], s_type, run.a, 0);
                next[small + k] = if k + 1 < run_len {
                    Some(small + k + 1)
                } else {
                    resolve(run.end)
                };
            }
        }
        // The addresses are final once the vector is allocated: link the pNexts (through `base`
        // only, so the pointers stay valid).
        let base = nodes.as_mut_ptr();
        for (i, n) in next.iter().enumerate() {
            // SAFETY: i and j are below total, inside the allocation.
            unsafe {
                (*base.add(i)).p_next = n.map_or(std::ptr::null(), |j| base.add(j).cast());
            }
        }
        let head = resolve(input.head);
        (Graph { nodes, small, next }, head)
    }

    fn ptr(&self, i: Option<usize>) -> *const c_void {
        i.map_or(std::ptr::null(), |i| (&self.nodes[i] as *const Node).cast())
    }
}

/// The chain from `head` as the reference sees it: its first distinct nodes, in order, and
/// where it loops back to (the index in `order` of the node the last one points to).
struct Walk {
    order: Vec<usize>,
    loops_to: Option<usize>,
}

impl Walk {
    fn new(graph: &Graph, head: Option<usize>) -> Walk {
        let mut position = vec![usize::MAX; graph.nodes.len()];
        let mut order = Vec::new();
        let mut node = head;
        while let Some(i) = node {
            if position[i] != usize::MAX {
                return Walk {
                    order,
                    loops_to: Some(position[i]),
                };
            }
            position[i] = order.len();
            order.push(i);
            node = graph.next[i];
        }
        Walk {
            order,
            loops_to: None,
        }
    }

    /// The node at step `k` of the (possibly endless) walk.
    fn at(&self, k: usize) -> usize {
        match self.loops_to {
            Some(mu) if k >= self.order.len() => {
                let lambda = self.order.len() - mu;
                self.order[mu + (k - mu) % lambda]
            }
            _ => self.order[k],
        }
    }
}

/// Runs `walk_chain` from `head`, checks its visits and result against the reference, and
/// returns its result and the number of structures it visited.
fn check_walk(graph: &Graph, head: Option<usize>, walk: &Walk) -> (ChainEnd, usize) {
    let mut visits: Vec<(vk::StructureType, *const c_void)> = Vec::new();
    // SAFETY: every pNext of the graph is NULL or points to a node of `graph.nodes`.
    let end = unsafe { raw::walk_chain(graph.ptr(head), |t, p| visits.push((t, p))) };
    let distinct = walk.order.len();
    assert!(
        visits.len() <= MAX_CHAIN_LENGTH,
        "{} visits, more than MAX_CHAIN_LENGTH",
        visits.len()
    );
    for (k, (s_type, p)) in visits.iter().enumerate() {
        let i = walk.at(k);
        assert_eq!(*p, graph.ptr(Some(i)), "visit {k} is not the chain's node");
        assert_eq!(*s_type, graph.nodes[i].s_type, "visit {k}: sType");
    }
    match (walk.loops_to, end) {
        (None, ChainEnd::Complete) => assert!(
            distinct <= MAX_CHAIN_LENGTH && visits.len() == distinct,
            "Complete after {} of {distinct} structures",
            visits.len()
        ),
        (None, ChainEnd::TooLong) => assert!(
            distinct > MAX_CHAIN_LENGTH && visits.len() == MAX_CHAIN_LENGTH,
            "TooLong for an acyclic chain of {distinct} after {} visits",
            visits.len()
        ),
        (Some(_), ChainEnd::Cycle) => assert!(
            visits.len() >= distinct.min(MAX_CHAIN_LENGTH),
            "Cycle reported after {} visits, before each of the {distinct} structures was seen",
            visits.len()
        ),
        (loops_to, end) => panic!(
            "{end:?} for a chain of {distinct} distinct structures that {}",
            if loops_to.is_some() {
                "loops back"
            } else {
                "ends"
            }
        ),
    }
    (end, visits.len())
}

/// The facts the reference reads from the first `visits` structures of the walk.
fn reference_facts(graph: &Graph, walk: &Walk, visits: usize, facts: &mut AllocationFacts) {
    for k in 0..visits {
        let n = &graph.nodes[walk.at(k)];
        match n.s_type {
            vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO => {
                let t = vk::ExternalMemoryHandleTypeFlags::from_raw(n.a as u32);
                facts.export = Some(facts.export.unwrap_or_default() | t);
            }
            vk::StructureType::EXPORT_MEMORY_ALLOCATE_INFO_NV => {
                let t = vk::ExternalMemoryHandleTypeFlagsNV::from_raw(n.a as u32);
                facts.export_nv = Some(facts.export_nv.unwrap_or_default() | t);
            }
            vk::StructureType::EXPORT_MEMORY_WIN32_HANDLE_INFO_NV => facts.export_win32_nv = true,
            t if IMPORTS.contains(&t) => {
                facts.import = Some(vk::ExternalMemoryHandleTypeFlags::from_raw(n.a as u32))
            }
            vk::StructureType::IMPORT_ANDROID_HARDWARE_BUFFER_INFO_ANDROID => {
                facts.import =
                    Some(vk::ExternalMemoryHandleTypeFlags::ANDROID_HARDWARE_BUFFER_ANDROID)
            }
            vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO
            | vk::StructureType::DEDICATED_ALLOCATION_MEMORY_ALLOCATE_INFO_NV => {
                facts.dedicated = true
            }
            _ => {}
        }
    }
}

/// The reference walk and what `walk_chain` made of the same chain.
struct Walked {
    walk: Walk,
    end: ChainEnd,
    visits: usize,
}

fn check_allocate_info(input: &Input, graph: &Graph, head: Option<usize>, walked: &Walked) {
    let mut info = vk::MemoryAllocateInfo {
        p_next: graph.ptr(head),
        ..Default::default()
    };
    let (p, expected_type) = match input.allocate_info {
        AllocHeadIn::Null => (std::ptr::null(), None),
        AllocHeadIn::WrongSType(t) => {
            let t = if t == vk::StructureType::MEMORY_ALLOCATE_INFO.as_raw() {
                t ^ 1
            } else {
                t
            };
            info.s_type = vk::StructureType::from_raw(t);
            (&info as *const vk::MemoryAllocateInfo, Some(info.s_type))
        }
        AllocHeadIn::Valid {
            size,
            memory_type_index,
        } => {
            info.allocation_size = size;
            info.memory_type_index = memory_type_index;
            (&info as *const vk::MemoryAllocateInfo, None)
        }
    };
    // SAFETY: NULL, or a live VkMemoryAllocateInfo whose chain is the graph.
    let read = unsafe { raw::read_allocate_info(p) };
    match (&input.allocate_info, read) {
        (AllocHeadIn::Null, AllocateInfoRead::Null) => {}
        (AllocHeadIn::WrongSType(_), AllocateInfoRead::WrongSType(t)) => {
            assert_eq!(Some(t), expected_type)
        }
        (AllocHeadIn::Valid { .. }, AllocateInfoRead::Valid(facts, end)) => {
            assert_eq!(
                end.end, walked.end,
                "read_allocate_info ends its walk otherwise"
            );
            let mut expected = AllocationFacts {
                size: info.allocation_size,
                memory_type_index: info.memory_type_index,
                ..Default::default()
            };
            reference_facts(graph, &walked.walk, walked.visits, &mut expected);
            assert_eq!(facts, expected, "read_allocate_info read other facts");
        }
        (given, _) => panic!("read_allocate_info misread the head ({given:?})"),
    }
}

fn check_create_infos(input: &Input, graph: &Graph, head: Option<usize>, walked: &Walked) {
    let strings: Vec<Option<CString>> = input
        .extensions
        .iter()
        .take(16)
        .map(|e| match e {
            ExtName::Null => None,
            ExtName::Known(i) => Some(EXTENSIONS[usize::from(*i) % EXTENSIONS.len()].to_vec()),
            ExtName::Raw(bytes) => Some(bytes.clone()),
        })
        .map(|bytes| {
            bytes.map(|mut b| {
                b.retain(|c| *c != 0);
                CString::new(b).expect("no NUL")
            })
        })
        .collect();
    let pointers: Vec<*const c_char> = strings
        .iter()
        .map(|s| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()))
        .collect();
    let names: Vec<&[u8]> = strings.iter().flatten().map(|s| s.as_bytes()).collect();
    let visited = || (0..walked.visits).map(|k| &graph.nodes[walked.walk.at(k)]);

    let device_info = vk::DeviceCreateInfo {
        p_next: graph.ptr(head),
        enabled_extension_count: pointers.len() as u32,
        pp_enabled_extension_names: pointers.as_ptr(),
        ..Default::default()
    };
    // SAFETY: the arrays and chain above are live.
    let read = unsafe { raw::read_device_create_info(&device_info) };
    let mut expected = EnabledExtensions::default();
    for name in &names {
        expected.enable(name);
    }
    assert_eq!(read.extensions, expected);
    let rdma = visited().any(|n| {
        n.s_type == vk::StructureType::PHYSICAL_DEVICE_EXTERNAL_MEMORY_RDMA_FEATURES_NV
            && n.a as u32 == vk::TRUE
    });
    assert_eq!(read.rdma_feature, rdma);

    let instance_info = vk::InstanceCreateInfo {
        p_next: graph.ptr(head),
        enabled_extension_count: pointers.len() as u32,
        pp_enabled_extension_names: pointers.as_ptr(),
        ..Default::default()
    };
    // SAFETY: as above.
    let read = unsafe { raw::read_instance_create_info(&instance_info) };
    assert_eq!(
        read.debug_utils_enabled,
        names.iter().any(|n| *n == b"VK_EXT_debug_utils")
    );
    let kinds: Vec<bool> = read
        .messengers
        .iter()
        .map(|m| matches!(m, Messenger::Utils { .. }))
        .collect();
    let expected: Vec<bool> = visited()
        .filter_map(|n| match n.s_type {
            vk::StructureType::DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT => Some(true),
            vk::StructureType::DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT => Some(false),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, expected, "messengers read from the chain");

    // Every settings structure of the graph has pSettings NULL, every loader structure a NULL
    // pLayerInfo: nothing to read, nothing to take.
    // SAFETY: the chain is live.
    assert!(unsafe { raw::read_layer_settings(graph.ptr(head)) }.is_empty());
    // SAFETY: as above; no link is found, so nothing is written.
    assert!(unsafe { raw::take_instance_link(&instance_info) }.is_none());
    // SAFETY: as above.
    assert!(unsafe { raw::take_device_link(&device_info) }.is_none());
}

/// `read_struct` of a node (or NULL) as each export info structure.
fn check_read_struct(graph: &Graph, at: Option<usize>) {
    let p = graph.ptr(at);
    fn expect<T: Copy>(
        read: StructArg<T>,
        node: Option<&Node>,
        wanted: vk::StructureType,
        fields: impl Fn(&T) -> (u64, u32),
    ) {
        match (node, read) {
            (None, StructArg::Null) => {}
            (Some(n), StructArg::WrongSType(t)) => {
                assert!(n.s_type == t && t != wanted, "WrongSType({t:?})")
            }
            (Some(n), StructArg::Valid(v)) => {
                assert_eq!(n.s_type, wanted);
                assert_eq!(fields(&v), (n.a, n.b as u32), "members read");
            }
            (_, _) => panic!("read_struct misread the pointer"),
        }
    }
    let node = at.map(|i| &graph.nodes[i]);
    // SAFETY: NULL or a 48-byte node, larger than each structure read.
    unsafe {
        expect(
            raw::read_struct(
                p.cast::<vk::MemoryGetFdInfoKHR>(),
                vk::StructureType::MEMORY_GET_FD_INFO_KHR,
            ),
            node,
            vk::StructureType::MEMORY_GET_FD_INFO_KHR,
            |v| {
                use ash::vk::Handle;
                (v.memory.as_raw(), v.handle_type.as_raw())
            },
        );
        expect(
            raw::read_struct(
                p.cast::<vk::MemoryGetRemoteAddressInfoNV>(),
                vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
            ),
            node,
            vk::StructureType::MEMORY_GET_REMOTE_ADDRESS_INFO_NV,
            |v| {
                use ash::vk::Handle;
                (v.memory.as_raw(), v.handle_type.as_raw())
            },
        );
        expect(
            raw::read_struct(
                p.cast::<vk_ext::MemoryGetMetalHandleInfoEXT>(),
                vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
            ),
            node,
            vk_ext::STRUCTURE_TYPE_MEMORY_GET_METAL_HANDLE_INFO_EXT,
            |v| {
                use ash::vk::Handle;
                (v.memory.as_raw(), v.handle_type.as_raw())
            },
        );
    }
}

/// Builds the graph and checks every reader against the reference; panics when one differs.
/// Returns a label for the seed generator: how the walk ended and how long the chain is.
pub fn run(input: &Input) -> String {
    let (graph, head) = Graph::build(input);
    let walk = Walk::new(&graph, head);
    let (end, visits) = check_walk(&graph, head, &walk);
    let walked = Walked { walk, end, visits };
    check_allocate_info(input, &graph, head, &walked);
    // The other readers walk with the same `walk_chain`, whose every step was just checked; past
    // a few thousand structures they would only repeat that walk, so they are checked on the
    // shorter chains (most inputs), which keeps the target fast where its chains are long.
    if walked.visits <= 4096 {
        check_create_infos(input, &graph, head, &walked);
    }
    for at in input.read_as_info.iter().take(8) {
        let run_len = graph.nodes.len() - graph.small;
        check_read_struct(&graph, resolve(graph.small, run_len, *at));
    }
    let size = match walked.walk.order.len() {
        0 => "empty",
        1..=16 => "short",
        n if n <= MAX_CHAIN_LENGTH => "long",
        _ => "past-limit",
    };
    format!("{end:?}-{size}")
}

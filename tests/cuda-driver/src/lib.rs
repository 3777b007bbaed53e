//! exportcheck's test CUDA driver library: a stand-in for NVIDIA's `libcuda.so.1` (its soname is
//! `libcuda.so.1`) for CI machines without a GPU, so that exportcheck's CUDA side (the
//! interposer, `cuda/shim`, and the layer's checks) runs end to end.
//!
//! It implements the entry points a client of the external-resource API needs, under `cuda.h`'s
//! names and signatures: initialisation and the device queries ([`device`]), contexts and streams
//! ([`context`], [`stream`]), external memory ([`memory`]) and external semaphores
//! ([`semaphore`]), error names ([`errors`]) and `cuGetProcAddress` ([`procs`]). It behaves as
//! NVIDIA's driver 580 (CUDA 13) does, quirks included: `cuImportExternalMemory` accepts any
//! nonzero size for an opaque fd and takes the fd; only a mapped range beyond the declared size
//! fails. docs/test-driver.md describes it.
//!
//! Every entry point runs inside [`boundary::entry`] (no panic crosses the C ABI); handles are
//! heap pointers kept in [`registry::Registry`]s, so a destroyed or made-up handle is refused,
//! never dereferenced.

pub mod boundary;
pub mod context;
pub mod device;
pub mod errors;
mod mapping;
pub mod memory;
pub mod procs;
pub mod registry;
pub mod semaphore;
pub mod stream;
pub mod test_hooks;

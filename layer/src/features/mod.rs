//! The cross-cutting features, one folder each with its own state, rules and hooks (the calls
//! the command descriptors and the memory lifecycle make into it). Inside a feature the layering
//! of `layer/src` holds by role: `state` is a state module, `rules` a rules module (pure),
//! `hooks` a commands module (`layer/tests/module_layers.rs` ranks them so).
//!
//! | feature | what it checks |
//! |---|---|
//! | `driver_contract` | what the driver returns from an export (fds, handles, addresses) |
//! | `fd_leaks` | exported fds the app never closed (`check_fd_leaks`) |
//! | `fd_ownership` | fds imported twice, or closed after an import took them |
//! | `import_matching` | an import against the export it came from, in this process (memory; semaphores' and fences' opaque fds) |
//! | `cross_process` | the same across the processes of a run (the shared exports directory) |
//! | `cuda_interop` | CUDA's imports of Vulkan exports (through `exportcheck run`'s CUDA interposer) |

pub mod cross_process;
pub mod cuda_interop;
pub mod driver_contract;
pub mod fd_leaks;
pub mod fd_ownership;
pub mod import_matching;

//! The CUDA side of interop: CUDA's imports of Vulkan memory and semaphores, checked against
//! their Vulkan export. The interposer (`cuda/shim`, preloaded by `exportcheck run`) hands each
//! intercepted CUDA call to `hooks` (the table `exportcheck_cuda_hooks` returns); `state` keeps
//! CUDA's imports; `rules` judges them. docs/cuda.md.

pub mod hooks;
pub mod rules;
pub mod state;

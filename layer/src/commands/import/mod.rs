//! The commands that import a payload into an existing object (`vkImportSemaphore*`,
//! `vkImportFence*`), each a descriptor of the export pipeline (`pipeline::export`): a command on
//! one tracked object named by an info structure, whose shared rules are the exports'. Memory's
//! imports are part of `vkAllocateMemory` (`commands::allocate`).

pub mod import_fence_fd;
pub mod import_fence_win32_handle;
pub mod import_semaphore_fd;

//! The commands that import a payload into an existing object (`vkImportSemaphore*`), each a
//! descriptor of the export pipeline (`pipeline::export`): a command on one tracked object named
//! by an info structure, whose shared rules are the exports'. Memory's imports are part of
//! `vkAllocateMemory` (`commands::allocate`).

pub mod import_semaphore_fd;

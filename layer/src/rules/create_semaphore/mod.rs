//! The rules judged at `vkCreateSemaphore`, on what its create info's chain holds; one file per
//! structure (`commands/create_semaphore_checks.rs` reads the chain and reports).

pub mod export_win32;

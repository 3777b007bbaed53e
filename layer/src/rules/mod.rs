//! The rules. Each command's rules are pure functions of tracked state and the call's
//! arguments: `evaluate` says which are broken (cheap, no allocation), `describe` builds the
//! findings of those (cold). None reports, locks or calls down.

pub mod alloc;
pub mod common;
pub mod dedicated;
pub mod driver_contract;
pub mod export;
pub mod fd;
pub mod fd_leaks;
pub mod fd_ownership;
pub mod import_fd;
pub mod import_match;
pub mod metal;
pub mod rdma;
pub mod resource_export;
pub mod win32_nv;

#[cfg(test)]
mod evaluate_tests;
#[cfg(test)]
pub(crate) mod fixtures;

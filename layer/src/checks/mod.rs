//! The checks. Each is a pure function of tracked state and the call's arguments that returns an
//! [`Outcome`](crate::finding::Outcome); none reports, locks or calls down.

pub mod alloc;
pub mod driver_contract;
pub mod export;
pub mod fd;
pub mod fd_leaks;
pub mod metal;
pub mod rdma;
pub mod resource_export;
pub mod win32_nv;

#[cfg(test)]
mod fast_path_tests;
#[cfg(test)]
pub(crate) mod fixtures;

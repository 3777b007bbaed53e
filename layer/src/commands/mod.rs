//! The intercepted commands. Each runs the same four steps: validate (pure checks), report and
//! decide (in [`policy`]), call down, record after success.

pub mod device;
pub mod export;
pub mod fd_leaks;
pub mod instance;
pub mod memory;
pub mod names;
pub mod physical_device;
pub mod policy;

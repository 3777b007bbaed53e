//! The top of the layer: interface negotiation, `vkGet*ProcAddr`, and the table of intercepted
//! commands they read.

pub mod chain;
#[rustfmt::skip]
mod intercept_table;
pub mod intercepts;
pub mod proc_addr;

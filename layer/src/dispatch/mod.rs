//! The top of the layer: interface negotiation, `vkGet*ProcAddr`, and the table of intercepted
//! commands they read.

pub mod chain;
pub mod intercepts;
pub mod proc_addr;

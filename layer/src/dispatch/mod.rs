//! The loader chain: negotiation, `vkGet*ProcAddr`, and next-layer function tables.

pub mod chain;
pub mod intercepts;
pub mod proc_addr;
pub mod table;

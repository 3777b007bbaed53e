//! `vkAllocateMemory` and `vkFreeMemory`, the lifecycle of a memory object, and what an allocation asks the driver itself (dedicated resources, import support, handle queries).

pub mod android_imports;
pub mod dedicated;
pub mod import_queries;
pub mod import_support;
pub mod memory;
pub mod memory_lifecycle;

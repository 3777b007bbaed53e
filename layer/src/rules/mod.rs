//! The rules. Each command's rules are pure functions of tracked state and the call's
//! arguments: `evaluate` says which are broken (cheap, no allocation), `describe` builds the
//! findings of those (cold). None reports, locks or calls down.

pub mod allocate;
pub mod common;
pub mod create_semaphore;
pub mod export;
pub mod fences;
pub mod import;
pub mod query;
pub mod resources;
pub mod rule_set;
pub mod sync;

#[cfg(test)]
mod evaluate_tests;
#[cfg(test)]
pub(crate) mod fixtures;

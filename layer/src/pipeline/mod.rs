//! The steps every intercepted command goes through, written once: find the device, read the
//! arguments, evaluate the rules, and only when one is broken describe and report the findings
//! and decide (`policy`); then call down and, after a valid call that succeeded, check and record
//! what the driver returned. The commands are descriptors that plug into it.

pub mod export;
pub mod policy;
pub mod query;

//! The driver contract: what a driver returns from an export, held to what the spec promises.

pub mod rules;
pub mod state;

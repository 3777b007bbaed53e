//! An import checked against the export it came from: the exports the layer holds, the global
//! share handles it saw, and the rules that compare the two sides.

pub mod hooks;
pub mod rules;
pub mod state;

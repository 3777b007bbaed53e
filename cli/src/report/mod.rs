//! The report file the layer writes (one per process), and how `run` reads and merges them.

pub mod group;
pub mod journal;
pub mod load;
pub mod loaded;
pub mod merge;
pub mod model;
pub mod read_file;
pub mod time;

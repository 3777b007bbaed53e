//! The import-matching rules.

pub mod import_match;
pub mod open_file;

//! Exported fds the app never closed (the `check_fd_leaks` setting).

pub mod hooks;
pub mod rules;
pub mod state;

//! Reporting: turns findings into text and delivers them to the app's debug messengers and
//! debug-report callbacks, or to stderr when the app registered none.

mod call_counts;
pub mod cuda_calls;
mod deliver;
mod journal;
pub mod log;
pub mod process_report;
mod render;
pub mod sync_sharing_calls;

pub use deliver::{
    announce, report, report_at_exit, report_for_instance, report_process_wide,
    report_to_all_instances, Severity,
};
pub use render::{message_id_number, render_text, render_text_with_note};

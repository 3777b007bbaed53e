//! Each setting from its environment variable `VK_EXPORTCHECK_VALIDATION_<SETTING>`, end to end
//! through the real loader over lavapipe. The environment is process-wide: every test runs in a
//! child process with the variables set for it alone (see settings_common).

mod settings_common;

use exportcheck_tests::ids::FD_HANDLE_TYPE_00671;
use settings_common::{assert_text_log, read_report, run, scenario, Sources};

#[test]
fn report_flags_warn_from_the_environment_hides_errors() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_REPORT_FLAGS", "warn")]),
        scenario::report_flags_warn_only,
    );
}

#[test]
fn report_flags_error_from_the_environment_reports_errors_only() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_REPORT_FLAGS", "error")]),
        scenario::report_flags_error_only,
    );
}

#[test]
fn report_flags_info_from_the_environment_announces_the_settings() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_REPORT_FLAGS", "error,warn,info")]),
        scenario::report_flags_info_announces,
    );
}

#[test]
fn debug_action_fail_from_the_environment_fails_the_call() {
    run(
        Sources::env(&[(
            "VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION",
            "VK_DBG_LAYER_ACTION_CALLBACK,fail",
        )]),
        scenario::debug_action_fail,
    );
}

#[test]
fn debug_action_log_from_the_environment_writes_stderr_only() {
    let parent = run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION", "log")]),
        |ctx| scenario::debug_action_log_only(ctx, 2),
    );
    if let Some(parent) = parent {
        // No log_filename: the log is stderr (the messenger gets nothing with this action).
        assert_text_log(&parent.child().stderr_layer_lines(), 2);
    }
}

#[test]
fn debug_action_callback_from_the_environment_calls_back_only() {
    let parent = run(
        Sources::env(&[
            ("VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION", "callback"),
            ("VK_EXPORTCHECK_VALIDATION_LOG_FILENAME", "{dir}/log.txt"),
        ]),
        scenario::debug_action_callback_only,
    );
    if let Some(parent) = parent {
        let child = parent.child();
        assert_eq!(child.stderr_layer_lines(), Vec::<&str>::new());
    }
}

#[test]
fn log_filename_from_the_environment_gets_the_log() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_LOG_FILENAME", "{dir}/log.txt")]),
        scenario::log_filename,
    );
}

#[test]
fn log_filename_stdout_from_the_environment_writes_stdout() {
    let parent = run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_LOG_FILENAME", "stdout")]),
        scenario::one_bad_export,
    );
    if let Some(parent) = parent {
        let child = parent.child();
        assert_text_log(&child.stdout_layer_lines(), 1);
        assert_eq!(child.stderr_layer_lines(), Vec::<&str>::new());
    }
}

#[test]
fn message_id_filter_from_the_environment_mutes_an_id() {
    run(
        Sources::env(&[(
            "VK_EXPORTCHECK_VALIDATION_MESSAGE_ID_FILTER",
            "VUID-SomeOther-00001,VUID-VkMemoryGetFdInfoKHR-handleType-00671",
        )]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn message_id_filter_from_the_environment_mutes_a_message_id_number() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_MESSAGE_ID_FILTER", "{number}")]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn duplicate_message_limit_from_the_environment_limits_reports() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_DUPLICATE_MESSAGE_LIMIT", "3")]),
        |ctx| scenario::duplicate_message_limit(ctx, 3, 5),
    );
}

#[test]
fn message_format_json_from_the_environment_writes_json_lines() {
    run(
        Sources::env(&[
            ("VK_EXPORTCHECK_VALIDATION_MESSAGE_FORMAT_JSON", "true"),
            ("VK_EXPORTCHECK_VALIDATION_LOG_FILENAME", "{dir}/log.txt"),
        ]),
        scenario::message_format_json,
    );
}

#[test]
fn report_file_from_the_environment_is_written() {
    let parent = run(
        Sources::env(&[(
            "VK_EXPORTCHECK_VALIDATION_REPORT_FILE",
            "{dir}/report-%p.json",
        )]),
        |ctx| scenario::report_file(ctx, 10),
    );
    if let Some(parent) = parent {
        settings_common::check_report_after_exit(&parent);
    }
}

#[test]
fn report_file_from_the_environment_is_written_at_exit_without_vk_destroy_instance() {
    let parent = run(
        Sources::env(&[(
            "VK_EXPORTCHECK_VALIDATION_REPORT_FILE",
            "{dir}/report-%p.json",
        )]),
        scenario::report_at_exit,
    );
    if let Some(parent) = parent {
        let child = parent.child();
        let path = parent.dir.path().join(format!("report-{}.json", child.pid));
        let report = read_report(&path);
        let findings = report["findings"].as_array().expect("findings");
        assert_eq!(findings.len(), 1, "{report:#}");
        assert_eq!(findings[0]["id"], FD_HANDLE_TYPE_00671, "{report:#}");
        assert_eq!(findings[0]["count"], 2, "{report:#}");
    }
}

#[test]
fn a_bad_value_from_the_environment_warns_and_keeps_the_default() {
    run(
        Sources::env(&[("VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION", "explode")]),
        |ctx| {
            scenario::bad_value(
                ctx,
                &[&[
                    "VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION: debug_action = `explode`",
                    "the default is kept",
                ]],
            )
        },
    );
}

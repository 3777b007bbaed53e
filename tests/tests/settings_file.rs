//! Each setting from `vk_layer_settings.txt` (`exportcheck_validation.<setting> = <value>`), found
//! through `VK_LAYER_SETTINGS_PATH` (the file, or its directory) or in the working directory, end
//! to end through the real loader over lavapipe; and the precedence of the three sources: the API
//! beats the environment, which beats the file. Every test runs in a child process (see
//! settings_common): the file's location is process-wide.

mod settings_common;

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, FAILED, OPAQUE_WIN32};
use settings_common::{
    assert_settings_messages, assert_text_log, bad_export_is_reported, run, scenario,
    with_fd_memory, FileAt, Sources,
};

#[test]
fn report_flags_warn_from_the_file_hides_errors() {
    run(
        Sources::file(&["exportcheck_validation.report_flags = warn"]),
        scenario::report_flags_warn_only,
    );
}

#[test]
fn report_flags_error_from_the_file_in_the_working_directory_reports_errors_only() {
    run(
        Sources::file_at(
            &["exportcheck_validation.report_flags = error"],
            FileAt::WorkingDirectory,
        ),
        scenario::report_flags_error_only,
    );
}

#[test]
fn report_flags_info_from_the_file_announces_the_settings() {
    run(
        Sources::file(&["exportcheck_validation.report_flags=error,warn,info"]),
        scenario::report_flags_info_announces,
    );
}

#[test]
fn debug_action_fail_from_the_file_fails_the_call() {
    run(
        Sources::file_at(
            &["exportcheck_validation.debug_action = callback,fail  # the CI gate"],
            FileAt::Directory,
        ),
        scenario::debug_action_fail,
    );
}

#[test]
fn debug_action_log_from_the_file_writes_stderr_only() {
    let parent = run(
        Sources::file_at(
            &["exportcheck_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG"],
            FileAt::Directory,
        ),
        |ctx| scenario::debug_action_log_only(ctx, 2),
    );
    if let Some(parent) = parent {
        assert_text_log(&parent.child().stderr_layer_lines(), 2);
    }
}

#[test]
fn debug_action_callback_from_the_file_calls_back_only() {
    run(
        Sources::file(&[
            "exportcheck_validation.debug_action = VK_DBG_LAYER_ACTION_CALLBACK",
            "exportcheck_validation.log_filename = {dir}/log.txt",
        ]),
        scenario::debug_action_callback_only,
    );
}

#[test]
fn log_filename_from_the_file_gets_the_log() {
    run(
        Sources::file(&["exportcheck_validation.log_filename = {dir}/log.txt"]),
        scenario::log_filename,
    );
}

#[test]
fn message_id_filter_from_the_file_mutes_an_id() {
    run(
        Sources::file(&[
            "exportcheck_validation.message_id_filter = VUID-VkMemoryGetFdInfoKHR-handleType-00671",
        ]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn message_id_filter_from_the_file_mutes_a_hexadecimal_message_id_number() {
    run(
        Sources::file(&["exportcheck_validation.message_id_filter = {hex}"]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn duplicate_message_limit_from_the_file_limits_reports() {
    run(
        Sources::file(&["exportcheck_validation.duplicate_message_limit = 3"]),
        |ctx| scenario::duplicate_message_limit(ctx, 3, 5),
    );
}

#[test]
fn message_format_json_from_the_file_writes_json_lines() {
    run(
        Sources::file(&[
            "exportcheck_validation.message_format_json = true",
            "exportcheck_validation.log_filename = {dir}/log.txt",
        ]),
        scenario::message_format_json,
    );
}

#[test]
fn report_file_from_the_file_is_written() {
    let parent = run(
        Sources::file(&["exportcheck_validation.report_file = {dir}/report-%p.json"]),
        |ctx| scenario::report_file(ctx, 10),
    );
    if let Some(parent) = parent {
        settings_common::check_report_after_exit(&parent);
    }
}

#[test]
fn report_file_counts_findings_past_the_duplicate_limit() {
    let parent = run(
        Sources::file(&[
            "exportcheck_validation.report_file = {dir}/report-%p.json",
            "exportcheck_validation.duplicate_message_limit = 2",
        ]),
        |ctx| scenario::report_file(ctx, 2),
    );
    if let Some(parent) = parent {
        settings_common::check_report_after_exit(&parent);
    }
}

#[test]
fn a_bad_value_from_the_file_warns_and_keeps_the_default() {
    run(
        Sources::file(&[
            "exportcheck_validation.debug_action = explode",
            "exportcheck_validation.colour = red",
        ]),
        |ctx| {
            scenario::bad_value(
                ctx,
                &[
                    &[
                        "my-settings.txt:3: debug_action = `explode`",
                        "the default is kept",
                    ],
                    &["my-settings.txt:4: unknown setting `colour` ignored"],
                ],
            )
        },
    );
}

#[test]
fn the_api_beats_the_environment_which_beats_the_file() {
    run(
        Sources {
            api: &[("duplicate_message_limit", "2")],
            env: &[("VK_EXPORTCHECK_VALIDATION_DUPLICATE_MESSAGE_LIMIT", "3")],
            file: &["exportcheck_validation.duplicate_message_limit = 4"],
            ..Sources::default()
        },
        |ctx| scenario::duplicate_message_limit(ctx, 2, 5),
    );
}

#[test]
fn the_environment_beats_the_file_and_the_file_sets_the_rest() {
    run(
        Sources {
            env: &[("VK_EXPORTCHECK_VALIDATION_DUPLICATE_MESSAGE_LIMIT", "3")],
            file: &[
                "exportcheck_validation.duplicate_message_limit = 4",
                "exportcheck_validation.message_id_filter = VUID-VkMemoryGetFdInfoKHR-handleType-00672",
            ],
            ..Sources::default()
        },
        |ctx| {
            // The environment's limit, not the file's.
            scenario::duplicate_message_limit(ctx, 3, 5);
            // The file's filter, which the environment does not set: of a call with 00671 and
            // 00672, only 00671 is reported.
            let inst = ctx.instance();
            with_fd_memory(&inst, |dev, mem| {
                let (_, fd) = dev.get_fd(mem, OPAQUE_WIN32);
                fds::close_if_open(fd);
                expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
            });
        },
    );
}

#[test]
fn a_bad_value_in_the_api_falls_back_to_the_environment() {
    run(
        Sources {
            api: &[("debug_action", "explode")],
            env: &[("VK_EXPORTCHECK_VALIDATION_DEBUG_ACTION", "callback,fail")],
            file: &["exportcheck_validation.debug_action = log"],
            ..Sources::default()
        },
        |ctx| {
            let inst = ctx.instance();
            assert_settings_messages(
                &inst,
                &[(
                    vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
                    &["VkLayerSettingsCreateInfoEXT: debug_action = `explode`"],
                )],
            );
            // The environment's `callback,fail`, not the default nor the file's `log`.
            bad_export_is_reported(&inst, FAILED);
        },
    );
}

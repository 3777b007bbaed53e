//! Each setting from VkLayerSettingsCreateInfoEXT (VK_EXT_layer_settings), end to end through the
//! real loader over lavapipe: what the app sees. In this process, except the report file (one
//! per process: in a child).

mod settings_common;

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, SettingValues, FAILED, OPAQUE_WIN32};
use settings_common::{
    assert_no_message, bad_export, bad_exports, expect_00671_up_to_limit, id_number_00671, run,
    scenario, with_fd_memory, Sources,
};
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn report_flags_warn_from_the_api_hides_errors() {
    run(
        Sources::api(&[("report_flags", "warn")]),
        scenario::report_flags_warn_only,
    );
}

#[test]
fn report_flags_error_from_the_api_reports_errors_only() {
    run(
        Sources::api(&[("report_flags", "error")]),
        scenario::report_flags_error_only,
    );
}

#[test]
fn report_flags_info_from_the_api_announces_the_settings() {
    run(
        Sources::api(&[("report_flags", "error,warn,info")]),
        scenario::report_flags_info_announces,
    );
}

#[test]
fn debug_action_fail_from_the_api_fails_the_call() {
    run(
        Sources::api(&[("debug_action", "callback,fail")]),
        scenario::debug_action_fail,
    );
}

#[test]
fn debug_action_fail_alone_from_the_api_fails_silently() {
    run(
        Sources::api(&[("debug_action", "fail")]),
        scenario::debug_action_fail_alone,
    );
}

#[test]
fn debug_action_log_from_the_api_writes_the_log_only() {
    run(
        Sources::api(&[("debug_action", "log"), ("log_filename", "{dir}/log.txt")]),
        scenario::debug_action_log_only_to_file,
    );
}

#[test]
fn debug_action_callback_from_the_api_calls_back_only() {
    run(
        Sources::api(&[
            ("debug_action", "VK_DBG_LAYER_ACTION_CALLBACK"),
            ("log_filename", "{dir}/log.txt"),
        ]),
        scenario::debug_action_callback_only,
    );
}

#[test]
fn log_filename_from_the_api_gets_the_log() {
    run(
        Sources::api(&[("log_filename", "{dir}/log.txt")]),
        scenario::log_filename,
    );
}

#[test]
fn message_id_filter_from_the_api_mutes_an_id() {
    run(
        Sources::api(&[(
            "message_id_filter",
            "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
        )]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn message_id_filter_from_the_api_mutes_a_message_id_number() {
    run(
        Sources::api(&[("message_id_filter", "{number}")]),
        scenario::message_id_filter_mutes_00671,
    );
}

#[test]
fn duplicate_message_limit_from_the_api_limits_reports() {
    run(Sources::api(&[("duplicate_message_limit", "3")]), |ctx| {
        scenario::duplicate_message_limit(ctx, 3, 5)
    });
}

#[test]
fn duplicate_message_limit_defaults_to_ten() {
    run(Sources::default(), |ctx| {
        scenario::duplicate_message_limit(ctx, 10, 12)
    });
}

#[test]
fn message_format_json_from_the_api_writes_json_lines() {
    run(
        Sources::api(&[
            ("message_format_json", "true"),
            ("log_filename", "{dir}/log.txt"),
        ]),
        scenario::message_format_json,
    );
}

#[test]
fn report_file_from_the_api_is_written() {
    let sources = Sources {
        child: true,
        ..Sources::api(&[("report_file", "{dir}/report-%p.json")])
    };
    if let Some(parent) = run(sources, |ctx| scenario::report_file(ctx, 10)) {
        settings_common::check_report_after_exit(&parent);
    }
}

#[test]
fn the_report_names_the_thread_of_a_finding() {
    run(
        Sources {
            child: true,
            ..Sources::api(&[("report_file", "{dir}/report-%p.json")])
        },
        scenario::report_names_the_thread,
    );
}

#[test]
fn a_bad_value_from_the_api_warns_and_keeps_the_default() {
    run(
        Sources::api(&[("debug_action", "explode"), ("colour", "red")]),
        |ctx| {
            scenario::bad_value(
                ctx,
                &[
                    &[
                        "VkLayerSettingsCreateInfoEXT: debug_action = `explode`",
                        "the default is kept",
                    ],
                    &["VkLayerSettingsCreateInfoEXT: unknown setting `colour` ignored"],
                ],
            )
        },
    );
}

// Typed values (VkLayerSettingTypeEXT other than STRING, and several values), as apps pass them.

#[test]
fn report_flags_from_the_api_as_a_string_array() {
    run(
        Sources::api_typed(&[("report_flags", SettingValues::Strings(&["error"]))]),
        scenario::report_flags_error_only,
    );
}

#[test]
fn debug_action_from_the_api_as_a_string_array() {
    run(
        Sources::api_typed(&[(
            "debug_action",
            SettingValues::Strings(&["VK_DBG_LAYER_ACTION_CALLBACK", "fail"]),
        )]),
        scenario::debug_action_fail,
    );
}

#[test]
fn duplicate_message_limit_from_the_api_as_uint32() {
    run(
        Sources::api_typed(&[("duplicate_message_limit", SettingValues::Uint32(&[3]))]),
        |ctx| scenario::duplicate_message_limit(ctx, 3, 5),
    );
}

#[test]
fn message_format_json_from_the_api_as_bool32() {
    run(
        Sources {
            api: &[("log_filename", "{dir}/log.txt")],
            api_typed: &[("message_format_json", SettingValues::Bool32(&[true]))],
            ..Sources::default()
        },
        scenario::message_format_json,
    );
}

#[test]
fn message_id_filter_from_the_api_as_an_int32_message_id_number() {
    let number: &'static [i32] = Box::leak(Box::new([id_number_00671()]));
    let typed: &'static [(&str, SettingValues)] = Box::leak(Box::new([(
        "message_id_filter",
        SettingValues::Int32(number),
    )]));
    run(
        Sources::api_typed(typed),
        scenario::message_id_filter_mutes_00671,
    );
}

// How settings combine with `fail`.

#[test]
fn a_muted_id_does_not_fail_the_call() {
    run(
        Sources::api(&[
            ("debug_action", "callback,fail"),
            (
                "message_id_filter",
                "VUID-VkMemoryGetFdInfoKHR-handleType-00671",
            ),
        ]),
        |ctx| {
            let inst = ctx.instance();
            with_fd_memory(&inst, |dev, mem| {
                assert_eq!(bad_export(dev, mem), vk::Result::SUCCESS);
                assert_no_message(&inst, "00671 is muted");
                // 00671 and 00672: 00672 is not muted, so the call fails.
                let (r, fd) = dev.get_fd(mem, OPAQUE_WIN32);
                assert_eq!(r, FAILED);
                fds::close_if_open(fd);
                expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00672);
            });
        },
    );
}

#[test]
fn calls_past_the_duplicate_limit_still_fail() {
    run(
        Sources::api(&[
            ("debug_action", "callback,fail"),
            ("duplicate_message_limit", "1"),
        ]),
        |ctx| {
            let inst = ctx.instance();
            with_fd_memory(&inst, |dev, mem| {
                bad_exports(dev, mem, 3, FAILED);
                expect_00671_up_to_limit(&inst, 1, 1);
            });
        },
    );
}

// The schema of the report (docs/report.schema.json) itself.

#[test]
fn the_report_schema_takes_the_documented_example_and_rejects_what_the_layer_never_writes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/report.md"))
        .expect("read docs/report.md");
    // The report's example (the journal's header line has an example of its own).
    let example = doc
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .find(|block| block.contains("\"exportcheck_report_version\""))
        .expect("a JSON example of the report in docs/report.md");
    let example: serde_json::Value = serde_json::from_str(example).expect("the example is JSON");
    settings_common::assert_schema_valid(&example);

    let validator = settings_common::report_validator();
    type Mutation = fn(&mut serde_json::Value);
    let mutations: &[(&str, Mutation)] = &[
        ("an unknown top-level field", |r| {
            r["extra"] = 1.into();
        }),
        ("another format version", |r| {
            r["exportcheck_report_version"] = 2.into();
        }),
        ("a severity other than error or warning", |r| {
            r["findings"][0]["severity"] = "info".into();
        }),
        ("a count of zero", |r| r["findings"][0]["count"] = 0.into()),
        ("a command counted in sync_sharing_calls zero times", |r| {
            r["process"]["sync_sharing_calls"]["vkGetSemaphoreFdKHR"] = 0.into();
        }),
        ("a finding without last_seen", |r| {
            r["findings"][0]
                .as_object_mut()
                .expect("finding")
                .remove("last_seen");
        }),
        ("a time that is not RFC 3339 UTC", |r| {
            r["findings"][0]["first_seen"] = "21/11/2026 05:00".into();
        }),
        ("an upper-case handle", |r| {
            r["findings"][0]["objects"][0]["handle"] = "0x55D0C0FFEE00".into();
        }),
        ("an object type that is not a VkObjectType", |r| {
            r["findings"][0]["objects"][0]["type"] = "VkDevice".into();
        }),
        ("an unknown debug action", |r| {
            r["settings"]["debug_action"] = serde_json::json!(["explode"]);
        }),
        ("a negative duplicate limit", |r| {
            r["settings"]["duplicate_message_limit"] = (-1).into();
        }),
        ("a thread without an id", |r| {
            r["findings"][0]["thread"] = serde_json::json!({ "name": "main" });
        }),
    ];
    for (what, mutate) in mutations {
        let mut bad = example.clone();
        mutate(&mut bad);
        assert!(
            !validator.is_valid(&bad),
            "the schema accepts {what}:\n{bad:#}"
        );
    }
}

// The other debug actions.

#[test]
fn debug_action_ignore_from_the_api_reports_nothing() {
    run(
        Sources::api(&[
            ("debug_action", "VK_DBG_LAYER_ACTION_IGNORE"),
            ("log_filename", "{dir}/log.txt"),
        ]),
        |ctx| {
            let inst = ctx.instance();
            with_fd_memory(&inst, |dev, mem| {
                assert_eq!(bad_export(dev, mem), vk::Result::SUCCESS);
                assert_no_message(&inst, "debug_action = ignore");
                assert_eq!(ctx.log_lines(), Vec::<String>::new());
            });
        },
    );
}

static TRAPS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn count_trap(_: libc::c_int) {
    TRAPS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn debug_action_break_from_the_api_raises_sigtrap_at_the_call() {
    // A signal handler is process-wide: in a child.
    let sources = Sources {
        child: true,
        ..Sources::api(&[("debug_action", "callback,break")])
    };
    run(sources, |ctx| {
        // SAFETY: installs a handler that only increments an atomic (async-signal-safe).
        let previous =
            unsafe { libc::signal(libc::SIGTRAP, count_trap as *const () as libc::sighandler_t) };
        assert_ne!(previous, libc::SIG_ERR);
        let inst = ctx.instance();
        with_fd_memory(&inst, |dev, mem| {
            assert_eq!(TRAPS.load(Ordering::SeqCst), 0);
            assert_eq!(bad_export(dev, mem), vk::Result::SUCCESS);
            assert_eq!(
                TRAPS.load(Ordering::SeqCst),
                1,
                "one SIGTRAP for one finding, during the call"
            );
            expect::one(&inst, GET_FD, FD_HANDLE_TYPE_00671);
        });
    });
}

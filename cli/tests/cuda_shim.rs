//! The CUDA interposer (`cuda/shim`, `libexportcheck_cuda.so`) as `exportcheck run` preloads it,
//! in processes that do not use CUDA: they must not notice it. Its `dlsym` keeps glibc's answers
//! for every name, `RTLD_NEXT` and `RTLD_DEFAULT` included, which glibc gives relative to the
//! caller's object (cli/tests/programs/dlsym/, compiled here with `cc`); nothing is loaded or
//! set beyond the interposer itself; `--no-cuda` and `--cuda-shim` do what they say.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

mod common;

use common::{built, exportcheck_with_layer, texts};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const SHIM: &str = "libexportcheck_cuda.so";

/// The directory of the compiled dlsym programs: `dlsym_semantics` (linked with
/// libprobe_first.so then libprobe_second.so) and `liblocal_user.so` (with its dependency
/// liblocal_dep.so), compiled once per test binary.
fn dlsym_programs() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/dlsym");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exportcheck-dlsym");
        std::fs::create_dir_all(&out).expect("create the output directory");
        let cc = |args: &[&str]| {
            let status = Command::new("cc")
                .current_dir(&out)
                .args(["-Wall", "-Werror", "-fPIC"])
                .args(args)
                .status()
                .expect("run cc");
            assert!(status.success(), "cc {args:?} failed");
        };
        let src = |name: &str| source.join(name).to_str().unwrap().to_owned();
        for lib in ["probe_first", "probe_second", "local_dep"] {
            cc(&[
                "-shared",
                "-o",
                &format!("lib{lib}.so"),
                &src(&format!("{lib}.c")),
            ]);
        }
        // --no-as-needed: the dependencies are reached only through dlsym.
        let linked = ["-L.", "-Wl,--no-as-needed", "-Wl,-rpath,$ORIGIN"];
        cc(&[
            &["-shared", "-o", "liblocal_user.so", &src("local_user.c")],
            &linked[..],
            &["-llocal_dep"],
        ]
        .concat());
        cc(&[
            &["-o", "dlsym_semantics", &src("dlsym_semantics.c")],
            &linked[..],
            &["-lprobe_first", "-lprobe_second"],
        ]
        .concat());
        out
    })
}

/// `exportcheck run --allow-no-vulkan [extra] -- program args`.
fn run_without_vulkan(extra: &[&str], program: &Path, args: &[&str]) -> std::process::Output {
    exportcheck_with_layer()
        .env_remove("LD_PRELOAD")
        .env_remove("EXPORTCHECK_CUDA_LAYER")
        .arg("run")
        .arg("--allow-no-vulkan")
        .args(extra)
        .arg("--")
        .arg(program)
        .args(args)
        .output()
        .expect("run exportcheck")
}

#[test]
fn dlsym_answers_stay_the_callers_with_the_interposer_preloaded() {
    let dir = dlsym_programs();
    let program = dir.join("dlsym_semantics");
    let dir_arg = dir.to_str().unwrap();
    // Without the interposer: what glibc answers (the program checks it).
    let plain = Command::new(&program).arg(dir_arg).output().unwrap();
    assert!(plain.status.success(), "{}", texts(&plain).0);
    // Preloaded by hand, then by `run`.
    let preloaded = Command::new(&program)
        .arg(dir_arg)
        .env("LD_PRELOAD", built(SHIM))
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&preloaded);
    assert!(preloaded.status.success(), "{stdout}{stderr}");
    assert_eq!(stdout, texts(&plain).0);
    let out = run_without_vulkan(&[], &program, &[dir_arg]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("RTLD_NEXT from libprobe_first: 2 (want 2)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("RTLD_DEFAULT from a local object: 3 (want 3)"),
        "{stdout}"
    );
}

/// A shell that prints whether its own process has the interposer and the layer mapped, and
/// the two variables.
const MAPS_PROBE: &str = "grep -c libexportcheck_cuda.so /proc/self/maps; \
    grep -c libVkLayer_exportcheck /proc/self/maps; \
    echo \"preload=$LD_PRELOAD\"; echo \"layer=$EXPORTCHECK_CUDA_LAYER\"";

#[test]
fn processes_that_never_use_cuda_only_have_the_interposer_mapped() {
    let out = run_without_vulkan(&[], Path::new("/bin/true"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);

    let shim = built(SHIM);
    let layer = built("libVkLayer_exportcheck.so");
    let out = run_without_vulkan(&[], Path::new("/bin/sh"), &["-c", MAPS_PROBE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_ne!(lines[0], "0", "grep maps the interposer: {stdout}");
    assert_eq!(lines[1], "0", "and not the layer: {stdout}");
    assert_eq!(lines[2], format!("preload={}", shim.display()));
    assert_eq!(lines[3], format!("layer={}", layer.display()));
    assert!(!stderr.contains("CUDA"), "no note about CUDA: {stderr}");
}

#[test]
fn the_users_preload_comes_before_the_interposer() {
    let user = dlsym_programs().join("libprobe_second.so");
    let out = exportcheck_with_layer()
        .env("LD_PRELOAD", &user)
        .args([
            "run",
            "--allow-no-vulkan",
            "--",
            "/bin/sh",
            "-c",
            MAPS_PROBE,
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The user's own first, as without the run (issue #34: a sanitizer runtime must be the
    // first library); the interposer still comes before every library the app loads itself.
    let expected = format!("preload={}:{}", user.display(), built(SHIM).display());
    assert!(stdout.lines().any(|l| l == expected), "{stdout}");
}

#[test]
fn no_cuda_preloads_nothing() {
    let out = run_without_vulkan(&["--no-cuda"], Path::new("/bin/sh"), &["-c", MAPS_PROBE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["0", "0", "preload=", "layer="],
        "{stdout}"
    );
}

#[test]
fn an_explicit_interposer_must_exist() {
    let out = run_without_vulkan(
        &["--cuda-shim", "/nonexistent/libexportcheck_cuda.so"],
        Path::new("/bin/true"),
        &[],
    );
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(
        stderr.contains("the CUDA interposer /nonexistent/libexportcheck_cuda.so does not exist"),
        "{stderr}"
    );
}

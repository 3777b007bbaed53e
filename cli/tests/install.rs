//! `exportcheck install` / `uninstall` with `XDG_DATA_HOME` in a temporary directory.

#![cfg(unix)]

mod common;

use common::{exportcheck, read_json, texts, Fixture};

#[test]
fn install_writes_an_absolute_manifest_and_uninstall_removes_it() {
    let f = Fixture::new();
    let data_home = f.path("data");
    let manifest = data_home.join("vulkan/explicit_layer.d/VkLayer_exportcheck.json");

    let out = exportcheck()
        .env("XDG_DATA_HOME", &data_home)
        .args(["install", "--layer"])
        .arg(&f.layer)
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains(manifest.to_str().unwrap()), "{stdout}");
    let m = read_json(&manifest);
    assert_eq!(m["layer"]["name"], "VK_LAYER_EXPORTCHECK_validation");
    assert_eq!(m["layer"]["type"], "GLOBAL");
    assert_eq!(
        m["layer"]["library_path"].as_str().unwrap(),
        f.layer.to_str().unwrap()
    );

    let out = exportcheck()
        .env("XDG_DATA_HOME", &data_home)
        .args(["uninstall", "--user"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(texts(&out).0.contains("removed"));
    assert!(!manifest.exists());

    let out = exportcheck()
        .env("XDG_DATA_HOME", &data_home)
        .arg("uninstall")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(texts(&out).0.contains("not installed"));
}

#[test]
fn a_relative_layer_path_is_made_absolute() {
    let f = Fixture::new();
    let data_home = f.path("data");
    let out = exportcheck()
        .current_dir(f.dir.path())
        .env("XDG_DATA_HOME", &data_home)
        .args(["install", "--user", "--layer", "libVkLayer_exportcheck.so"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let m = read_json(&data_home.join("vulkan/explicit_layer.d/VkLayer_exportcheck.json"));
    assert_eq!(
        m["layer"]["library_path"].as_str().unwrap(),
        f.layer.to_str().unwrap()
    );
}

#[test]
fn home_is_the_fallback_for_xdg_data_home() {
    let f = Fixture::new();
    let out = exportcheck()
        .env_remove("XDG_DATA_HOME")
        .env("HOME", f.dir.path())
        .args(["install", "--layer"])
        .arg(&f.layer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(f
        .path(".local/share/vulkan/explicit_layer.d/VkLayer_exportcheck.json")
        .is_file());
}

#[test]
fn a_missing_layer_installs_nothing() {
    let f = Fixture::new();
    let data_home = f.path("data");
    let out = exportcheck()
        .env("XDG_DATA_HOME", &data_home)
        .args(["install", "--layer"])
        .arg(f.path("missing.so"))
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(88), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!data_home.exists());
}

#[test]
fn user_and_system_are_exclusive() {
    let out = exportcheck()
        .args(["install", "--user", "--system"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#!/usr/bin/env bash
# Release artifacts in target/dist/: a Debian package of the Linux build (cargo-deb; installs
# the layer in /usr/lib/exportcheck and its manifest in /usr/share/vulkan/explicit_layer.d), and
# versioned archives, each with the library, its manifest, the licenses and the README:
#   exportcheck-<version>-linux-x86_64.tar.gz  (libVkLayer_exportcheck.so, exportcheck CLI)
#   exportcheck-<version>-windows-x86_64.zip   (VkLayer_exportcheck.dll, exportcheck.exe)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null 2>&1 || cargo install cargo-deb --locked
command -v zip >/dev/null 2>&1 || { scripts/install-deps.sh zip; }

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
scripts/build-release.sh
scripts/cross.sh >/dev/null
dist=target/dist
rm -rf "$dist" && mkdir -p "$dist" target/release/package

# The manifest the package installs: the checkout's, with the installed library's absolute path.
python3 - <<'PY'
import json
m = json.load(open("manifest/VkLayer_exportcheck.json"))
m["layer"]["library_path"] = "/usr/lib/exportcheck/libVkLayer_exportcheck.so"
open("target/release/package/VkLayer_exportcheck.json", "w").write(json.dumps(m, indent=4) + "\n")
PY
cargo deb -p exportcheck-layer --no-build --output "$dist/"

stage() { # stage DIR FILES...: a folder with the files, the licenses and the README
    local dir=$1; shift
    mkdir -p "$dir"
    cp "$@" LICENSE-MIT LICENSE-APACHE README.md "$dir/"
}
linux=exportcheck-$version-linux-x86_64
stage "$dist/$linux" target/release/libVkLayer_exportcheck.so target/release/exportcheck
python3 - "$dist/$linux/VkLayer_exportcheck.json" <<'PY'
import json, sys
m = json.load(open("manifest/VkLayer_exportcheck.json"))
m["layer"]["library_path"] = "./libVkLayer_exportcheck.so"
open(sys.argv[1], "w").write(json.dumps(m, indent=4) + "\n")
PY
tar -C "$dist" -czf "$dist/$linux.tar.gz" "$linux"

windows=exportcheck-$version-windows-x86_64
stage "$dist/$windows" target/x86_64-pc-windows-gnu/release/VkLayer_exportcheck.dll \
    target/x86_64-pc-windows-gnu/release/exportcheck.exe manifest/windows/VkLayer_exportcheck.json
(cd "$dist" && zip -qr "$windows.zip" "$windows")

rm -rf "${dist:?}/$linux" "${dist:?}/$windows"
ls -la "$dist"

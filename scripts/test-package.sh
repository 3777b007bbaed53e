#!/usr/bin/env bash
# Builds the release artifacts (scripts/package.sh) and tests them: the .deb installs, the layer
# it installs is found by the loader with no environment variable but VK_INSTANCE_LAYERS (the
# demo's bad exports are reported), it uninstalls cleanly; the archives hold what they should.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/package.sh >/dev/null
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
deb=$(ls target/dist/exportcheck_*.deb)
scripts/build-release.sh -q # the demo (built already by package.sh: one package set)

$sudo dpkg -i "$deb" >/dev/null
trap '$sudo dpkg -r exportcheck >/dev/null 2>&1 || true' EXIT
test -f /usr/share/vulkan/explicit_layer.d/VkLayer_exportcheck.json
test -x /usr/lib/exportcheck/libVkLayer_exportcheck.so

# Only VK_INSTANCE_LAYERS: no layer path, no driver selection, nothing else of ours.
out=$(env -u VK_LAYER_PATH -u VK_ADD_LAYER_PATH -u VK_DRIVER_FILES -u VK_ICD_FILENAMES \
    VK_INSTANCE_LAYERS=VK_LAYER_EXPORTCHECK_validation target/release/exportcheck-demo 2>&1)
grep -q "exportcheck: Validation Error: \[ VUID-VkMemoryGetFdInfoKHR-handleType-00671 \]" <<<"$out" || {
    echo "the installed layer did not report the demo's bad export:" >&2
    echo "$out" >&2
    exit 1
}
$sudo dpkg -r exportcheck >/dev/null
trap - EXIT
test ! -e /usr/share/vulkan/explicit_layer.d/VkLayer_exportcheck.json

tar_list=$(tar -tzf target/dist/exportcheck-*-linux-x86_64.tar.gz)
zip_list=$(unzip -Z1 target/dist/exportcheck-*-windows-x86_64.zip)
for f in libVkLayer_exportcheck.so VkLayer_exportcheck.json exportcheck LICENSE-MIT LICENSE-APACHE README.md; do
    grep -q "/$f$" <<<"$tar_list" || { echo "the Linux archive lacks $f" >&2; exit 1; }
done
for f in VkLayer_exportcheck.dll VkLayer_exportcheck.json exportcheck.exe LICENSE-MIT LICENSE-APACHE README.md; do
    grep -q "/$f$" <<<"$zip_list" || { echo "the Windows archive lacks $f" >&2; exit 1; }
done
echo "package: $(basename "$deb") installs, is found with VK_INSTANCE_LAYERS alone, uninstalls; archives complete"

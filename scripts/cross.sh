#!/usr/bin/env bash
# The other platforms, so a change that breaks them fails CI: links the real Windows layer DLL
# and CLI (x86_64-pc-windows-gnu, with mingw-w64), and runs clippy -D warnings for the Windows
# GNU and MSVC targets and for macOS (aarch64-apple-darwin). Installs what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(x86_64-pc-windows-gnu x86_64-pc-windows-msvc aarch64-apple-darwin)
installed=$(rustup target list --installed)
for t in "${targets[@]}"; do
    grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64
fi

cargo build --release --target x86_64-pc-windows-gnu -p exportcheck-layer -p exportcheck-cli
for t in "${targets[@]}"; do
    cargo clippy --target "$t" -p exportcheck-layer -p exportcheck-vuids -p exportcheck-cli -- -D warnings
done
dll=target/x86_64-pc-windows-gnu/release/VkLayer_exportcheck.dll
echo "cross-platform: $dll linked; clippy clean for ${targets[*]}"

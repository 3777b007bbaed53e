#!/usr/bin/env bash
# Installs what exportcheck needs from Debian/Ubuntu packages, if it is missing:
#   libvulkan1            the Khronos Vulkan loader the layer plugs into
#   mesa-vulkan-drivers   Mesa's lavapipe CPU driver (exposes VK_KHR_external_memory_fd)
#   libvulkan-dev         the Vulkan headers and registry (Debian's validusage.json, 1.3.239, for `exportcheck coverage --registry`)
#   piglit                third-party programs that export Vulkan memory to OpenGL: its
#                         ext_external_objects-vk-* tests run under `exportcheck run` (docs/real-programs.md)
#   libegl-mesa0          Mesa's EGL, whose surfaceless platform runs piglit without an X server
#   libgl1-mesa-dri       Mesa's llvmpipe OpenGL driver, which imports the exported fds (GL_EXT_memory_object_fd)
#   vulkan-validationlayers  the Khronos validation layer: tests/tests/stacked_khronos.rs and the
#                         piglit test stack it with ours, in both orders, and check that a valid app
#                         hears nothing from either (so the layer's own calls must be valid)
#   chromium-common       for its copy of SwiftShader, Google's CPU Vulkan driver
#                         (/usr/lib/chromium/libvk_swiftshader.so and vk_swiftshader_icd.json, off the
#                         loader's default path): the second real driver of the end-to-end tests
#                         (tests/tests/swiftshader_*.rs). About 32 MB to download, 66 MB installed;
#                         without recommends its dependencies beyond the packages above are
#                         xdg-utils and x11-utils with small X11 libraries and fontconfig: at most
#                         about 5 MB more to download, 11 MB installed (Debian 12)
# Extra package names given as arguments are installed too. Uses sudo when not root. Needs a Rust
# toolchain (rustup) already.
set -euo pipefail

packages=(libvulkan1 mesa-vulkan-drivers libvulkan-dev piglit libegl-mesa0 libgl1-mesa-dri
    vulkan-validationlayers chromium-common "$@")
missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    echo "exportcheck: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # Ubuntu ships Chromium as a snap, without chromium-common: the SwiftShader tests then fail
    # and say what is missing, everything else still installs.
    # The policy is read whole first: `apt-cache policy | grep -q` under pipefail fails when
    # grep exits before apt-cache has written everything (SIGPIPE), and the package was then
    # taken for missing on a machine that has it.
    policy=$(apt-cache policy chromium-common 2>/dev/null || true)
    if [[ " ${missing[*]} " == *" chromium-common "* ]] &&
        [[ $policy != *"Candidate: "[0-9]* ]]; then
        echo "exportcheck: chromium-common (SwiftShader) is not available here; skipping it" >&2
        kept=()
        for p in "${missing[@]}"; do [ "$p" = chromium-common ] || kept+=("$p"); done
        missing=("${kept[@]}")
    fi
    if ((${#missing[@]})); then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
fi

if ! command -v cargo >/dev/null 2>&1; then
    echo "exportcheck: cargo not found; install a Rust toolchain first (https://rustup.rs)" >&2
    exit 1
fi

#!/usr/bin/env bash
# Bundles what scripts/gpu-run.sh runs on a GPU machine that has a driver but neither a Vulkan
# loader nor a Rust toolchain (the `device` machines of the project's workplace, with NVIDIA's
# driver): the release layer, CLI and CUDA interposer (libexportcheck_cuda.so, which
# `exportcheck run` preloads from next to itself), the real-driver test binaries (memory,
# semaphores/fences, cross-process pairs of memory and semaphores, and the CUDA interop
# program's: real_driver_cuda; stripped),
# the C program of cli/tests/programs/processes.c, in .gpu/release/; Debian's libvulkan1 and GLVND
# packages in .gl/. Both folders are for .git/info/exclude. The CUDA program
# (tests/gpu/cuda_interop.cu) travels with the tree and is compiled there by gpu-run.sh with nvcc.
# See docs/real-programs.md and docs/cuda.md ("On a real GPU").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p exportcheck-layer -p exportcheck-cli -p exportcheck-cuda-shim
bins=$(cargo test --release -q -p exportcheck-tests --test real_driver --test real_driver_sync --test cross_process \
    --test cross_process_semaphores --test real_driver_cuda \
    --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
rm -rf .gpu
mkdir -p .gpu/release/deps .gl
cp target/release/libVkLayer_exportcheck.so target/release/libexportcheck_cuda.so \
    target/release/exportcheck .gpu/release/
for b in $bins; do
    name=$(basename "$b")
    cp "$b" ".gpu/release/deps/${name%-*}"
done
strip .gpu/release/deps/* .gpu/release/exportcheck .gpu/release/libVkLayer_exportcheck.so \
    .gpu/release/libexportcheck_cuda.so
cc -O2 -o .gpu/release/processes cli/tests/programs/processes.c -lvulkan
if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/amd64/partial
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    apt-get $o update -qq
    # NVIDIA's Vulkan driver is libGLX_nvidia: it needs GLVND's libraries beside the loader.
    (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
ls -la .gpu/release .gpu/release/deps .gl

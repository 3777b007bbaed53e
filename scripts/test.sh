#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs every test
# (unit tests, and end-to-end tests through the real Vulkan loader over lavapipe), plus the
# format and lint gates.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo fmt --all -- --check
# The end-to-end tests load target/debug/libVkLayer_exportcheck.so through the loader.
cargo build --workspace --all-targets
cargo clippy --workspace --all-targets -- -D warnings
# Windows and macOS: the DLL links, clippy is clean for their targets.
scripts/cross.sh
# The end-to-end tests record what they observed (a coverage report reads it): start fresh.
rm -rf target/debug/exportcheck-observed
cargo test --workspace
# VUID coverage, from what the tests just observed: every in-scope VUID checked, with a negative
# and a positive end-to-end test (or a unit test where the catalog says none is possible).
target/debug/exportcheck coverage --fail-under 100 | head -8
# Performance smoke: the benchmark runs end to end in quick mode (figures printed, no timing
# assertions; the full run and its targets: scripts/bench.sh, docs/performance.md).
scripts/bench.sh --quick | tail -n 5
# Release artifacts: the .deb installs, VK_INSTANCE_LAYERS alone enables the layer it installs,
# it uninstalls; the Linux and Windows archives are complete.
scripts/test-package.sh | tail -n 1
# Memory safety (docs/reliability.md, "Memory safety"): the layer's pure modules under Miri, and
# the unit and end-to-end tests under AddressSanitizer and LeakSanitizer (a nightly toolchain,
# installed with rustup when missing). Their full output is in target/sanitize-<mode>.log, printed
# when a mode fails. ThreadSanitizer and valgrind: scripts/sanitize.sh tsan|valgrind.
for mode in miri asan; do
    if ! scripts/sanitize.sh "$mode" >"target/sanitize-$mode.log" 2>&1; then
        tail -n 300 "target/sanitize-$mode.log"
        exit 1
    fi
    grep "^sanitize: $mode: " "target/sanitize-$mode.log"
done

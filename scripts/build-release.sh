#!/usr/bin/env bash
# Builds every release binary the scripts use (the layer, the test driver, the benchmark, the
# CLI, the demo) in one cargo invocation. Cargo resolves dependency features per invocation:
# builds of different package sets (the benchmark's, the package's) compiled the layer again
# each time with fat LTO (the release profile's), and overwrote the last one's
# target/release/libVkLayer_exportcheck.so. One set: the layer is compiled once, and the
# benchmark measures the very library the package ships. Arguments go to cargo (e.g. -q).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release "$@" -p exportcheck-layer -p exportcheck-test-icd -p exportcheck-bench \
    -p exportcheck-cli -p exportcheck-demo

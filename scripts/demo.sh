#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and runs the bundled demo
# (correct and incorrect memory exports on Mesa lavapipe) under the layer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --workspace
# Lavapipe, so the demo runs the same on any machine (exportcheck run enables the layer itself).
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
export VK_ICD_FILENAMES=$VK_DRIVER_FILES
echo
echo "== exportcheck run -- target/release/exportcheck-demo =="
# The layer's findings appear on stderr next to the step that caused them; `exportcheck run`
# then prints its summary and writes the JSON report.
status=0
target/release/exportcheck run --report target/exportcheck-demo-report.json \
    -- target/release/exportcheck-demo "$@" 2>&1 || status=$?
echo
echo "exportcheck run exited with $status (86: findings at or above --fail-on error, as the demo"
echo "means to make; 0 with --correct-only). The JSON report: target/exportcheck-demo-report.json"

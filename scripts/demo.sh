#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and runs the bundled demo
# (correct and incorrect memory exports on Mesa lavapipe) under the layer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --workspace
source scripts/env.sh
echo
echo "== running target/release/exportcheck-demo under VK_LAYER_EXPORTCHECK_validation =="
# stderr carries the layer's report; merge it so it appears next to the step that caused it.
target/release/exportcheck-demo "$@" 2>&1

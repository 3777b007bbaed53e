#!/usr/bin/env bash
# Prints what exportcheck adds to each call in instructions, counted under valgrind's callgrind
# on the test driver: the same figures every run, whatever the machine's load (docs/performance.md,
# "Instruction counts (deterministic)"). For iterating on the layer's hot paths:
#   scripts/instructions.sh                            # none, exportcheck, khronos: about 10 s
#   scripts/instructions.sh --configs none,exportcheck # without the Khronos layer: about 2 s
#   scripts/instructions.sh --fail-on-miss             # exit 2 when a target is missed
#   EXPORTCHECK_BENCH_SHARED_EXPORTS_DIR=$(mktemp -d) scripts/instructions.sh --configs none,exportcheck
#                                                      # with cross-process checking on
# Builds the release binaries first (scripts/build-release.sh, incremental), and
# installs valgrind and the Khronos layer if missing (scripts/install-deps.sh). Other arguments
# go to exportcheck-bench. Writes target/bench/results-instructions.json; the callgrind
# profiles are in target/bench/callgrind/ (callgrind_annotate reads them).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh vulkan-validationlayers valgrind >&2
scripts/build-release.sh -q
exec target/release/exportcheck-bench --instructions "$@"

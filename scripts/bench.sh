#!/usr/bin/env bash
# Measures what exportcheck costs an application (docs/performance.md): installs what the
# benchmark needs if it is missing, builds the release binaries, runs exportcheck-bench and draws
# the figures. Arguments go to exportcheck-bench, e.g.
#   scripts/bench.sh                 # full run (a few minutes): target/bench/results.json, docs/*.svg
#   scripts/bench.sh --quick         # smoke run (under a minute): target/bench/results-quick.json
#                                    # and target/bench/plots/*.svg; docs/ is left alone
#   scripts/bench.sh --instructions  # instruction counts only (seconds; no figures drawn):
#                                    # target/bench/results-instructions.json (scripts/instructions.sh)
# Both runs end with the instruction counts under callgrind (--no-instructions: timings only).
# Needs, from Debian/Ubuntu packages (installed with apt-get, through sudo when not root):
#   libvulkan1               the Khronos Vulkan loader
#   mesa-vulkan-drivers      Mesa's lavapipe CPU driver
#   vulkan-validationlayers  the Khronos validation layer, the comparison
#   valgrind                 callgrind, which counts the instructions per call
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh vulkan-validationlayers valgrind

# The same package set as every release build of the scripts (scripts/build-release.sh): the layer
# measured is the one the package ships, compiled once.
scripts/build-release.sh

quick=0
only_instructions=0
results=""
prev=""
for arg in "$@"; do
    if [ "$arg" = "--quick" ]; then quick=1; fi
    if [ "$arg" = "--instructions" ]; then only_instructions=1; fi
    if [ "$prev" = "--out" ]; then results="$arg"; fi
    prev="$arg"
done

status=0
target/release/exportcheck-bench "$@" || status=$?
# 1: a measurement could not run (no results to plot); 2: --fail-on-miss and a target missed.
if [ "$status" -eq 1 ]; then
    exit 1
fi
# Instruction counts only: no timings to draw.
if [ "$only_instructions" -eq 1 ]; then
    exit "$status"
fi
if [ "$quick" -eq 1 ]; then
    target/release/exportcheck-bench plot "${results:-target/bench/results-quick.json}" \
        --out-dir target/bench/plots
else
    target/release/exportcheck-bench plot "${results:-target/bench/results.json}" --out-dir docs
fi
exit "$status"

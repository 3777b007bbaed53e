#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs every test
# (unit tests, and end-to-end tests through the real Vulkan loader over lavapipe), plus the
# format and lint gates.
#
# CI (.ci/run, from a clean clone, incremental compilation off) on the 2-core machine: 19.4
# minutes (1,163 s, 2026-11-27, nothing else running; the CI machine took 1,771 s before the
# sanitizers skipped the layer's grid tests, which were 320 s of ASan and 224 s of TSan). Every
# release binary is built once (scripts/build-release.sh), the dev profile keeps line tables
# only, and the sanitizer modes build their libraries with the tests' features. target/debug
# after the first build and clippy: about 2 GB. The stages, in order: the workspace build,
# clippy, the cross-platform builds and every test (about 5 minutes), the benchmark's quick run,
# the stress test, the fuzzing smoke and the package test (about 4; Miri, 323 s on one core,
# runs beside them), then ASan (219 s) and TSan (342 s).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo fmt --all -- --check
# The end-to-end tests load target/debug/libVkLayer_exportcheck.so through the loader. Built
# here, so the tests need not build it themselves (tests/src/built.rs).
cargo build --workspace --all-targets
export EXPORTCHECK_TEST_PREBUILT=1
cargo clippy --workspace --all-targets -- -D warnings
# The panic-injection test build (tests/tests/panic_injection.rs and panic_after_call.rs load it): its
# own target dir, since the layer's library file names carry no hash (a cdylib's), so that build
# would overwrite the real one in target/debug. Its clippy run writes only hashed metadata files,
# so it shares target/debug and the checks above (about 8 crates to check instead of 54).
cargo build -q -p exportcheck-layer --features panic-injection --target-dir target/panic-injection
cargo clippy -q -p exportcheck-layer --features panic-injection -- -D warnings
# Windows and macOS: the DLL links, clippy is clean for their targets.
scripts/cross.sh
# The end-to-end tests record what they observed (a coverage report reads it): start fresh.
rm -rf target/debug/exportcheck-observed
cargo test --workspace
# VUID coverage, from what the tests just observed: every in-scope VUID checked, with a negative
# and a positive end-to-end test (or a unit test where the catalog says none is possible).
target/debug/exportcheck coverage --fail-under 100 | head -8
# Memory safety (docs/reliability.md, "Memory safety"): the layer's pure modules under Miri, and
# the unit and end-to-end tests under AddressSanitizer with LeakSanitizer, and under
# ThreadSanitizer (a nightly toolchain, installed with rustup when missing). Their full output is
# in target/sanitize-<mode>.log, printed when a mode fails. valgrind (about 4 minutes):
# scripts/sanitize.sh valgrind. Miri interprets on one core, so it runs in the background from
# here on, beside the benchmark's quick run (callgrind: one core), the release stress test, the
# fuzzing smoke (one target at a time) and the package test; the toolchain is installed first,
# so that Miri and the fuzzing smoke never install it at once. No end-to-end suite of the
# debug or sanitizer builds runs beside it: ASan waits for its verdict.
scripts/sanitize.sh setup
scripts/sanitize.sh miri >target/sanitize-miri.log 2>&1 &
miri=$!
trap 'kill "$miri" 2>/dev/null || true' EXIT
# Performance smoke: the benchmark runs end to end in quick mode (figures printed, no timing
# assertions; the full run and its targets: scripts/bench.sh, docs/performance.md). Shown: the
# timing targets' count, then the instruction counts under callgrind (their table and a
# met/missed line per target), which the benchmark prints last.
scripts/bench.sh --quick | sed -n '/^targets: /,$p'
# Concurrency stress, long version (docs/reliability.md#concurrency-stress): 10,000 instance
# cycles with stable memory, in release (about 20 s; 45 to 90 s in debug). The default
# suite above ran the 64-thread test and 1,000 cycles. The layer and the test driver it loads are
# the release build of scripts/bench.sh above (scripts/build-release.sh: nothing to rebuild).
scripts/build-release.sh -q
cargo test -q --release -p exportcheck-tests --test stress -- --ignored
# Fuzzing smoke (docs/fuzzing.md): each cargo-fuzz target briefly, on the committed seeds
# (nightly toolchain and cargo-fuzz installed if missing; long runs: scripts/fuzz.sh 600).
scripts/fuzz.sh 10 | tail -n 4
# Release artifacts: the .deb installs, VK_INSTANCE_LAYERS alone enables the layer it installs,
# it uninstalls; the Linux and Windows archives are complete.
scripts/test-package.sh | tail -n 1
# A mode's verdict line, or its log's end and the run's failure.
verdict() {
    local mode=$1 status=$2
    if ((status != 0)); then
        tail -n 300 "target/sanitize-$mode.log"
        exit 1
    fi
    grep "^sanitize: $mode: " "target/sanitize-$mode.log"
}
status=0
wait "$miri" || status=$?
trap - EXIT
verdict miri "$status"
for mode in asan tsan; do
    status=0
    scripts/sanitize.sh "$mode" >"target/sanitize-$mode.log" 2>&1 || status=$?
    verdict "$mode" "$status"
done

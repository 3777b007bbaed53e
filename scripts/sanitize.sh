#!/usr/bin/env bash
# Memory-safety evidence (docs/reliability.md, "Memory safety"):
#
#   scripts/sanitize.sh miri       the layer's unit tests (checks, state, the pNext walker and the
#                                  readers of raw pointers, settings) under Miri
#   scripts/sanitize.sh asan       the end-to-end suite and the unit tests of the layer (but its
#                                  three grid tests, below), the test ICD and the harness under
#                                  AddressSanitizer and LeakSanitizer
#   scripts/sanitize.sh tsan       the same under ThreadSanitizer (std rebuilt: -Zbuild-std)
#   scripts/sanitize.sh valgrind   the debug build of the same tests under valgrind memcheck
#   scripts/sanitize.sh all        every mode (the default)
#   scripts/sanitize.sh setup      only installs the nightly toolchain and the components they use
#
# Each mode prints "sanitize: <mode>: PASS" or "FAIL" with its time; the script exits non-zero
# when a mode failed: a test failed, or a sanitizer or valgrind reported anything (their reports
# are written to target/<mode>/reports/ and printed). Miri, ASan and TSan need a nightly toolchain
# ($SANITIZE_TOOLCHAIN, default "nightly"); it and its components are installed with rustup when
# missing. The sanitizer builds have their own target directories (target/asan, target/tsan,
# target/miri); the end-to-end tests find the layer and the test ICD next to their own binary.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# Every mode builds what its tests load, with its own flags, before running them: the tests must
# not build it again with cargo's defaults (tests/src/built.rs).
export EXPORTCHECK_TEST_PREBUILT=1
toolchain=${SANITIZE_TOOLCHAIN:-nightly}
host=$(rustc -vV | sed -n 's/^host: //p')
supp=$repo/scripts/sanitizers
# Everything that runs the layer, the test ICD, the test CUDA library or their unit tests. Not the
# CUDA interposer: it exports `dlsym`, which the sanitizer runtimes call while they initialise,
# before instrumented code can run (its unit tests and the CUDA end-to-end tests, which skip
# themselves under a sanitizer, run in the ordinary run).
packages=(-p exportcheck-layer -p exportcheck-test-icd -p exportcheck-test-cuda -p exportcheck-tests)
# The cdylibs the end-to-end tests load through the Vulkan loader (`cargo test` does not build
# them where the tests look), built with the tests themselves: the same package set and targets as
# `cargo test` below, so that cargo resolves the same dependency features and the test run
# compiles nothing again (a build of the two libraries alone compiled ash, the layer, the test
# ICD and the catalog a second time, with other features).
sanitizer_build=("${packages[@]}" --lib --tests)
# The cdylibs alone, for valgrind's ordinary debug build.
libraries=(-p exportcheck-layer -p exportcheck-test-icd -p exportcheck-test-cuda --lib)
# Needs the allocator to hand a just-freed VkDeviceMemory handle out again (lavapipe's handles
# are heap addresses). ASan's quarantine and valgrind's allocator delay reuse on purpose, so the
# ASan mode runs it apart with the quarantine off, and valgrind cannot run it (see the docs).
reuse_test=a_freed_objects_name_is_not_shown_for_a_reused_handle
# The layer's three grid tests (layer/src/rules/evaluate_tests.rs): every rule of every command
# over every device, allocation and handle-type mask, pure logic with no unsafe code, which Miri
# ignores too. The sanitizers and valgrind find nothing there that the ordinary run of the same
# code does not, and instrumented allocation made them most of the sanitizer runs (the layer's
# unit tests took 320 s under ASan, with the exact allocation stacks below, and 224 s under TSan;
# the grids take 6 s in the ordinary run). Every other test runs in every mode.
grid_tests=(each_broken_export_rule_is_described_once each_broken_allocate_rule_is_described_once
    freeing_live_memory_finds_nothing)
skip_grid_tests=()
for t in "${grid_tests[@]}"; do
    skip_grid_tests+=(--skip "$t")
done
runner_var="CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$host")_RUNNER"

usage() {
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

# Installs the nightly toolchain and the components given, if missing.
ensure_nightly() {
    if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
        echo "sanitize: installing the $toolchain toolchain"
        rustup toolchain install "$toolchain" --profile minimal
    fi
    local installed c
    installed=$(rustup component list --toolchain "$toolchain" --installed)
    for c in "$@"; do
        if ! grep -q "^$c" <<<"$installed"; then
            echo "sanitize: installing $c for $toolchain"
            rustup component add --toolchain "$toolchain" "$c"
        fi
    done
}

# Builds scripts/sanitizers/keep-loaded.c (dlclose keeps libraries loaded, so leak checks see
# what their globals still reach and name every frame); prints its path.
keep_loaded() {
    local src=$supp/keep-loaded.c out=$repo/target/sanitize/libkeep_loaded.so
    if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
        mkdir -p "$(dirname "$out")"
        "${CC:-cc}" -shared -fPIC -O2 -o "$out" "$src"
    fi
    echo "$out"
}

# Builds the panic-injection layer (tests/tests/panic_injection.rs, panic_after_call.rs) with the mode's flags, and
# tells the test where it is (the test's own build would not pass them).
panic_layer() {
    local mode=$1
    shift
    cargo "+$toolchain" build "$@" --target-dir "target/$mode/panic-injection" \
        -p exportcheck-layer --lib --features panic-injection
    export EXPORTCHECK_TEST_PANIC_LAYER="$repo/target/$mode/panic-injection/$host/debug/libVkLayer_exportcheck.so"
}

# Link flags that export the sanitizer runtime (linked into the test executables only) to the
# cdylibs the loader dlopens, which call into it.
export_runtime() {
    local prefix
    for prefix in "$@"; do
        printf -- ' -Clink-arg=-Wl,--export-dynamic-symbol=%s*' "$prefix"
    done
}

# Fresh report directory for a mode.
reports_dir() {
    local dir=$repo/target/$1/reports
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "$dir"
}

# Prints every non-empty report in $1; fails if there is one.
check_reports() {
    local found=0 f
    for f in "$1"/*; do
        [ -s "$f" ] || continue
        found=$((found + 1))
        echo "---- $f"
        head -n 80 "$f"
    done
    if ((found)); then
        echo "sanitize: $found report(s) in $1"
        return 1
    fi
}

mode_miri() {
    ensure_nightly miri rust-src
    # The layer's unit tests are its pure modules: checks, state, raw (the pNext walker and
    # readers), settings, report rendering. None needs FFI, so none is ignored under Miri.
    cargo "+$toolchain" miri test -p exportcheck-layer --lib
}

mode_asan() {
    ensure_nightly
    local reports status=0
    reports=$(reports_dir asan)
    # No -Zbuild-std: ASan needs no instrumented std (the std code our crates instantiate is
    # instrumented; rustc allows an uninstrumented std with -Zsanitizer=address).
    export RUSTFLAGS="-Zsanitizer=address$(export_runtime __asan_ __lsan_ __sanitizer_)"
    export EXPORTCHECK_SANITIZER=asan # tests skip resident-memory bounds (shadow memory)
    local cargo_args=(--target "$host" --target-dir target/asan)
    cargo "+$toolchain" build "${cargo_args[@]}" "${sanitizer_build[@]}"
    panic_layer asan --target "$host"
    export "$runner_var=env LD_PRELOAD=$(keep_loaded)"
    # fast_unwind_on_malloc=0: exact allocation stacks (frame-pointer unwinding skips frames),
    # which the suppressions match by function name.
    local options="detect_leaks=1:fast_unwind_on_malloc=0:detect_stack_use_after_return=1"
    export ASAN_OPTIONS="$options:log_path=$reports/asan"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    cargo "+$toolchain" test "${cargo_args[@]}" "${packages[@]}" --tests --no-fail-fast -- \
        --skip "$reuse_test" "${skip_grid_tests[@]}" || status=1
    # (The same packages as above, so that no dependency is rebuilt with other features.)
    ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0" \
        cargo "+$toolchain" test "${cargo_args[@]}" "${packages[@]}" --test reporting -- \
        --exact "$reuse_test" || status=1
    check_reports "$reports" || status=1
    return $status
}

mode_tsan() {
    ensure_nightly rust-src
    local reports status=0
    reports=$(reports_dir tsan)
    # -Zbuild-std: std rebuilt with TSan, so its synchronisation is seen (rustc refuses to mix
    # an uninstrumented std with -Zsanitizer=thread).
    export RUSTFLAGS="-Zsanitizer=thread$(export_runtime __tsan_ __sanitizer_)"
    export EXPORTCHECK_SANITIZER=tsan # tests skip resident-memory bounds (shadow memory)
    local cargo_args=(-Zbuild-std --target "$host" --target-dir target/tsan)
    cargo "+$toolchain" build "${cargo_args[@]}" "${sanitizer_build[@]}"
    panic_layer tsan -Zbuild-std --target "$host"
    export "$runner_var=env LD_PRELOAD=$(keep_loaded)"
    export TSAN_OPTIONS="second_deadlock_stack=1:suppressions=$supp/tsan.supp:log_path=$reports/tsan"
    cargo "+$toolchain" test "${cargo_args[@]}" "${packages[@]}" --tests --no-fail-fast -- \
        "${skip_grid_tests[@]}" || status=1
    check_reports "$reports" || status=1
    return $status
}

mode_valgrind() {
    command -v valgrind >/dev/null || scripts/install-deps.sh valgrind
    local reports status=0
    reports=$(reports_dir valgrind)
    # The ordinary debug build (target/debug), as scripts/test.sh builds it.
    cargo build "${libraries[@]}"
    # Built here, so that the panic-injection test does not run cargo under valgrind.
    cargo build -q -p exportcheck-layer --lib --features panic-injection \
        --target-dir target/panic-injection
    export EXPORTCHECK_TEST_PANIC_LAYER="$repo/target/panic-injection/debug/libVkLayer_exportcheck.so"
    # Errors: invalid accesses, uses of uninitialised values, bad frees, and definite leaks
    # ("possibly lost" blocks are interior pointers, which Rust's containers make routinely).
    # Child processes (tests re-run themselves) are traced too.
    local valgrind=(valgrind -q --error-exitcode=1 --leak-check=full
        --errors-for-leak-kinds=definite --show-leak-kinds=definite
        --suppressions="$supp/valgrind.supp" --trace-children=yes
        --log-file="$reports/vg.%p.log")
    export "$runner_var=env LD_PRELOAD=$(keep_loaded) ${valgrind[*]}"
    cargo test "${packages[@]}" --tests --no-fail-fast -- --skip "$reuse_test" \
        "${skip_grid_tests[@]}" || status=1
    check_reports "$reports" || status=1
    return $status
}

case "${1:-all}" in
setup)
    # The nightly toolchain and every component the modes use, installed now: for a caller that
    # runs a mode beside other nightly work (scripts/test.sh), so that two never install at once.
    ensure_nightly miri rust-src
    exit 0
    ;;
miri | asan | tsan | valgrind) modes=("$1") ;;
all) modes=(miri asan tsan valgrind) ;;
*) usage ;;
esac

failed=()
summary=()
for mode in "${modes[@]}"; do
    echo "sanitize: $mode"
    start=$SECONDS
    set +e
    (
        set -e
        "mode_$mode"
    )
    status=$?
    set -e
    verdict=PASS
    if ((status != 0)); then
        verdict=FAIL
        failed+=("$mode")
    fi
    line="sanitize: $mode: $verdict ($((SECONDS - start)) s)"
    echo "$line"
    summary+=("$line")
done

if ((${#modes[@]} > 1)); then
    printf '%s\n' "${summary[@]}"
fi
if ((${#failed[@]})); then
    echo "sanitize: FAIL (${failed[*]})"
    exit 1
fi
echo "sanitize: PASS (${modes[*]})"

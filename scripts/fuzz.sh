#!/usr/bin/env bash
# Fuzzes the layer (cargo-fuzz, libFuzzer; docs/fuzzing.md):
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# runs each target (default: checks, pnext_walker, settings, shared_exports) for SECONDS (default 600), one after
# the other, starting from a temporary copy of its seed corpus (fuzz/corpus/<target>/ is never
# written), and prints per target the runs executed, exec/s, coverage (cov, ft) and the corpus
# size it reached. Exits non-zero when a target crashed (the input is in
# fuzz/artifacts/<target>/). CI: `scripts/fuzz.sh 20`.
#
# FUZZ_WORK_DIR=dir keeps the working corpora in dir/<target> (to resume a long run) instead of
# a temporary directory. Installs cargo-fuzz when it is missing; needs a nightly toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(checks pnext_walker settings shared_exports)

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# One build of every target: release with debug assertions (overflow checks) and AddressSanitizer.
# All targets: one cargo invocation, which links them in parallel.
start=$(date +%s)
if (($# == 0)); then
    cargo +nightly fuzz build --debug-assertions
else
    for target in "${targets[@]}"; do
        cargo +nightly fuzz build --debug-assertions "$target"
    done
fi
echo "fuzz: built in $(($(date +%s) - start)) s"
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
bin_dir="fuzz/target/$host/release"

if [ -n "${FUZZ_WORK_DIR:-}" ]; then
    work="$FUZZ_WORK_DIR"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

failed=()
summary=()
for target in "${targets[@]}"; do
    corpus="$work/$target"
    mkdir -p "$corpus" "fuzz/artifacts/$target"
    cp -n fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    dict=()
    [ -f "fuzz/dict/$target.dict" ] && dict=("-dict=fuzz/dict/$target.dict")
    log="$work/$target.log"
    echo "fuzz: $target for $seconds s"
    status=0
    "$bin_dir/$target" "$corpus" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="fuzz/artifacts/$target/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
    line="$target: ${runs:-?} runs, ${rate:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        line+=", CRASHED (exit $status)"
        grep -E "panicked at|^(SUMMARY|==[0-9]+==ERROR)|Test unit written to" "$log" | head -n 5 || true
        echo "fuzz: $target: full log:"
        tail -n 60 "$log"
    else
        line+=", no crash"
    fi
    echo "fuzz: $line"
    summary+=("$line")
done

echo "fuzz: summary ($seconds s per target, $(($(date +%s) - start)) s in all)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (inputs under fuzz/artifacts/; reproduce with" \
        "cargo +nightly fuzz run -a TARGET fuzz/artifacts/TARGET/crash-...)"
    exit 1
fi

#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, a package of its own) and runs each for a bounded
# time, starting from the seed corpus in fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
#
# Prints executions per target and any crash; exits 1 if a target crashed, leaked, hung
# (an input running over 20 s) or ran out of memory. A crashing input is kept in
# .build-fuzz/crashes/<target>/ and replays with
#   SWIFT_BACKTRACE=enable=no .build-fuzz/debug/arcloud-fuzz <target> <that file>
# Inputs libFuzzer finds interesting accumulate in .build-fuzz/corpus/<target>/ across runs
# (fuzz/corpus/ in the repository stays the small seed set). See docs/hardening.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi
shift $(( $# > 0 ? 1 : 0 ))
if (( $# > 0 )); then
    targets=("$@")
else
    targets=()
    for d in fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi

scripts/setup.sh
scratch=$PWD/.build-fuzz
build_started=$SECONDS
# Coverage and AddressSanitizer in every module, Swift and C/C++ alike. VisionCore at -O2:
# Eigen at -O0 is ~50x slower (see scripts/test.sh).
# SwiftPM plans a path dependency's source files only when the root manifest changes:
# touching it makes files added to the main package since the last fuzz build visible.
touch fuzz/Package.swift
(cd fuzz && swift build --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address \
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address -Xcxx -O2)
echo "fuzz: build $((SECONDS - build_started)) s"
binary=$scratch/debug/arcloud-fuzz

# Swift's backtracer would race libFuzzer's own crash handling.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0}
# Leaks are findings too; the suppressions are documented false positives in system libraries.
export LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0

# Each libFuzzer process runs on one core: targets run as many at a time as there are cores,
# each for its full time, and their rows print in the targets' order.
fuzz_one() {  # target: its row into $scratch/logs/<target>.row, its exit status into .status
    local target=$1
    local work=$scratch/corpus/$target crashes=$scratch/crashes/$target log=$scratch/logs/$target.log
    mkdir -p "$work" "$crashes" "$(dirname "$log")"
    local started=$SECONDS status=0 runs corpus elapsed result
    # -timeout: one input running longer is a hang, reported as a crash.
    # -rss_limit_mb / -malloc_limit_mb: an allocation over 2 GB is a finding (a size read
    # from the input and trusted), not something to wait for.
    timeout --kill-after=30 $((seconds + 300)) "$binary" "$target" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -malloc_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "fuzz/corpus/$target" \
        > "$log" 2>&1 || status=$?
    elapsed=$((SECONDS - started))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [[ -z $runs ]]; then
        # libFuzzer stopped at a finding before its final statistics; its last status line counts.
        runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    runs=${runs:-0}
    corpus=$(find "$work" -type f | wc -l)
    if (( status == 0 )); then
        result=ok
    else
        result="FAILED (exit $status): $(grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|SUMMARY' "$log" | cut -c1-160 || true)"
    fi
    {
        printf '%-18s %8d %12d %10d %8d  %s\n' "$target" "$elapsed" "$runs" $(( runs / (elapsed > 0 ? elapsed : 1) )) "$corpus" "$result"
        if (( status != 0 )); then
            grep -E '^(artifact_prefix|Test unit written to)' "$log" | sed 's/^/    /' || true
            echo "    log: $log"
        fi
    } > "$scratch/logs/$target.row"
    echo "$status" > "$scratch/logs/$target.status"
}

for target in "${targets[@]}"; do
    if [[ ! -d fuzz/corpus/$target ]]; then
        echo "fuzz: no target '$target' (targets are the folders of fuzz/corpus/)" >&2
        exit 2
    fi
done
mkdir -p "$scratch/logs"
jobs_at_once=$(nproc)
for target in "${targets[@]}"; do
    rm -f "$scratch/logs/$target.row" "$scratch/logs/$target.status"
    while (( $(jobs -rp | wc -l) >= jobs_at_once )); do wait -n || true; done
    fuzz_one "$target" &
done
wait
failed=()
printf '%-18s %8s %12s %10s %8s  %s\n' target seconds executions "exec/s" corpus result
for target in "${targets[@]}"; do
    cat "$scratch/logs/$target.row"
    [[ $(cat "$scratch/logs/$target.status" 2>/dev/null || echo 1) == 0 ]] || failed+=("$target")
done

if (( ${#failed[@]} > 0 )); then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi

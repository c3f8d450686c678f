#!/usr/bin/env bash
# The test suite under a sanitizer, in a build folder of its own (.build-asan, .build-tsan)
# so that the sanitizer flags never invalidate .build.
#
#   scripts/sanitize.sh asan [swift test options]   AddressSanitizer + UndefinedBehaviorSanitizer
#                                                   (leak checking included), every test target
#   scripts/sanitize.sh tsan [swift test options]   ThreadSanitizer, the concurrent tests: the lock,
#                                                   server, SDK, batch localizer, Vision's concurrency
#
# Options after the mode go to `swift test` (e.g. `--filter VPSServerTests`; with tsan they
# replace its default filter). Without options, asan runs every test in two passes as
# scripts/test.sh does (the real-photo suites last). Exits 1 on any sanitizer report, even
# from a test that passed. Suppressions (scripts/sanitizers/*.supp) hold only documented
# false positives in system libraries. See docs/hardening.md.
# As in scripts/test.sh, a scratch PostgreSQL serves the PostgreSQL token store tests
# unless ARCLOUD_TEST_POSTGRES_URL names one.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
shift $(( $# > 0 ? 1 : 0 ))
case $mode in
    asan)
        scratch=.build-asan
        # Swift has no -sanitize=undefined on Linux (its own overflow, bounds and
        # conversion checks trap in debug builds anyway): UBSan covers the C and C++
        # targets; ASan's runtime carries UBSan's handlers.
        flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcxx -fsanitize=undefined)
        # Two passes, as in scripts/test.sh: the real-photo, capture-format and venue suites'
        # long map builds hold the cores, and server tests waiting on in-flight requests time
        # out behind them.
        heavy='RealPhotoTests|RealPhotoMapTests|CaptureFormatsTests|VenueCommandTests'
        default_passes=("--skip $heavy" "--filter $heavy")
        ;;
    tsan)
        scratch=.build-tsan
        flags=(--sanitize=thread)
        default_passes=("--filter LockedTests|VPSServerTests|GraffityARCloudTests|BatchLocalizer|ConcurrencyTests|ShippedLocalization")
        ;;
    *)
        echo "usage: scripts/sanitize.sh asan|tsan [swift test options]" >&2
        exit 2
        ;;
esac

scripts/setup.sh postgres
# VisionCore at -O2 as in scripts/test.sh: Eigen at -O0 is ~50x slower. Sanitizers still
# instrument optimised C++; -fno-omit-frame-pointer keeps their stack traces whole.
cxx=(-Xcxx -O2 -Xcxx -fno-omit-frame-pointer)
started=$SECONDS
swift build --build-tests --scratch-path "$scratch" "${flags[@]}" "${cxx[@]}"
built=$SECONDS
echo "sanitize $mode: build $((built - started)) s"

supp=$PWD/scripts/sanitizers
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=1:suppressions=$supp/asan.supp:detect_stack_use_after_return=0
export LSAN_OPTIONS=suppressions=$supp/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp
if [ -z "${ARCLOUD_TEST_POSTGRES_URL:-}" ]; then
    pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/arcloud-sanitize-pg.XXXXXX")
    trap 'scripts/postgres-scratch.sh stop "$pg_dir"; rm -rf "$pg_dir"' EXIT
    ARCLOUD_TEST_POSTGRES_URL=$(scripts/postgres-scratch.sh start "$pg_dir")
    export ARCLOUD_TEST_POSTGRES_URL
fi
log=$scratch/sanitize-$mode.log
: > "$log"
status=0
run_tests() {  # swift test options
    swift test --skip-build --scratch-path "$scratch" "${flags[@]}" "${cxx[@]}" "$@" 2>&1 | tee -a "$log" || status=$?
}
if (( $# > 0 )); then
    run_tests "$@"
else
    for pass in "${default_passes[@]}"; do
        read -r -a pass_options <<< "$pass"
        run_tests "${pass_options[@]}"
    done
fi
tests_run=$(grep -oE 'Test run with [0-9]+ tests' "$log" | awk '{ n += $4 } END { print n + 0 }')
echo "sanitize $mode: $tests_run tests run in $((SECONDS - built)) s"

# A report in a child process (the EndToEnd tests run the built `arcloud`) or in a
# test that caught the failure still counts.
reports=$(grep -cE '^(==[0-9]+==ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer)|runtime error: ' "$log" || true)
if (( status != 0 || reports > 0 )); then
    echo "sanitize $mode: FAILED (swift test exit $status, $reports sanitizer reports; log: $log)" >&2
    exit 1
fi
echo "sanitize $mode: clean"

#!/usr/bin/env bash
# The whole test suite on a fresh machine: packages, build, tests.
#
#   scripts/test.sh [swift test options]     (e.g. --filter GraffityARCloudTests)
#
# Installs the build's libraries and PostgreSQL's server binaries (scripts/setup.sh
# postgres): the PostgreSQL token store tests run against a real server. Unless
# ARCLOUD_TEST_POSTGRES_URL names one, a scratch server is started in a temporary folder for
# the run (Unix socket only, no TCP port) and stopped afterwards.
# VisionCore (C++: OpenCV, Eigen) is compiled at -O2 even in this debug build: Eigen at -O0
# is ~50x slower and the tests localize real images. The package itself carries no unsafe
# flags (it must build as a dependency), so the flag is given here; use the same flags when
# building tests by hand, or the C++ objects are rebuilt: swift build --build-tests -Xcxx -O2
# Real photos: the tests that read them (../shared/real beside the clone, or
# ARCLOUD_REAL_PHOTOS=/path) are skipped when they are absent, and the count is printed at
# the end; ARCLOUD_REQUIRE_REAL_PHOTOS=1 (CI) makes their absence a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh postgres
# Every target declares exactly the package targets it imports (scripts/check-imports.py);
# SwiftPM's own check then refuses an import outside a target's dependencies.
python3 scripts/check-imports.py
swift build --build-tests -Xcxx -O2 --explicit-target-dependency-import-check error
log=$(mktemp "${TMPDIR:-/tmp}/arcloud-test-log.XXXXXX")
pg_dir=""
cleanup() {
  if [ -n "$pg_dir" ]; then scripts/postgres-scratch.sh stop "$pg_dir"; rm -rf "$pg_dir"; fi
  rm -f "$log"
}
trap cleanup EXIT
if [ -z "${ARCLOUD_TEST_POSTGRES_URL:-}" ]; then
  pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/arcloud-test-pg.XXXXXX")
  ARCLOUD_TEST_POSTGRES_URL=$(scripts/postgres-scratch.sh start "$pg_dir")
  export ARCLOUD_TEST_POSTGRES_URL
fi

# Output goes to the terminal and to $log, where the skipped real-photo tests are counted.
run() { swift test --skip-build "$@" 2>&1 | tee -a "$log"; }
report_skipped() {
  local n
  n=$(grep -cE 'Test .* skipped: "needs the real photos' "$log" || true)
  if [ "$n" -gt 0 ]; then
    echo "test.sh: $n real-photo tests skipped: no real photos beside the clone (ARCLOUD_REAL_PHOTOS=/path/to/shared/real runs them)"
  else
    echo "test.sh: no real-photo test skipped"
  fi
}

if [ $# -gt 0 ]; then
  run "$@"
  report_skipped
  exit 0
fi
# The real-photo suites and the capture-format and venue end-to-end tests build maps in long
# synchronous stretches (in-process, or waiting on an arcloud child process) that keep both
# threads of a 2-core machine's concurrency pool busy; the server tests that wait on
# in-flight requests time out behind them. They run after the rest.
heavy='RealPhotoTests|RealPhotoMapTests|CaptureFormatsTests|VenueCommandTests'
run --skip "$heavy"
run --filter "$heavy"
report_skipped

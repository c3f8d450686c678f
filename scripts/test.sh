#!/usr/bin/env bash
# The whole test suite on a fresh machine: packages, build, tests.
# VisionCore (C++: OpenCV, Eigen) is compiled at -O2 even in this debug build: Eigen at -O0
# is ~50x slower and the tests localize real images. The package itself carries no unsafe
# flags (it must build as a dependency), so the flag is given here; use the same flags when
# building tests by hand, or the C++ objects are rebuilt: swift build --build-tests -Xcxx -O2
# The PostgreSQL token store tests need a server: unless ARCLOUD_TEST_POSTGRES_URL names
# one, a scratch server is started for the run and stopped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests -Xcxx -O2
if [ -z "${ARCLOUD_TEST_POSTGRES_URL:-}" ]; then
  pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/arcloud-test-pg.XXXXXX")
  trap 'scripts/postgres-scratch.sh stop "$pg_dir"; rm -rf "$pg_dir"' EXIT
  ARCLOUD_TEST_POSTGRES_URL=$(scripts/postgres-scratch.sh start "$pg_dir")
  export ARCLOUD_TEST_POSTGRES_URL
fi
# No exec: the EXIT trap must stop the scratch PostgreSQL.
if [ $# -gt 0 ]; then swift test --skip-build "$@"; exit; fi
# The real-photo suites and the capture-format and venue end-to-end tests build maps in long
# synchronous stretches (in-process, or waiting on an arcloud child process) that keep both
# cores of a 2-core machine busy; the server tests that wait on in-flight requests time out
# behind them. They run after the rest.
heavy='RealPhotoTests|RealPhotoMapTests|CaptureFormatsTests|VenueCommandTests'
swift test --skip-build --skip "$heavy"
swift test --skip-build --filter "$heavy"

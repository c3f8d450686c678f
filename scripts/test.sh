#!/usr/bin/env bash
# The whole test suite on a fresh machine: packages, build, tests.
# VisionCore (C++: OpenCV, Eigen) is compiled at -O2 even in this debug build: Eigen at -O0
# is ~50x slower and the tests localize real images. The package itself carries no unsafe
# flags (it must build as a dependency), so the flag is given here; use the same flags when
# building tests by hand, or the C++ objects are rebuilt: swift build --build-tests -Xcxx -O2
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests -Xcxx -O2
if [ $# -gt 0 ]; then exec swift test --skip-build "$@"; fi
# The real-photo suites build maps in long synchronous stretches that keep both threads of a
# 2-core machine's concurrency pool busy; the server tests that wait on in-flight requests
# time out behind them. They run after the rest.
heavy='RealPhotoTests|RealPhotoMapTests'
swift test --skip-build --skip "$heavy"
swift test --skip-build --filter "$heavy"

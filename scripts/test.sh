#!/usr/bin/env bash
# The whole test suite on a fresh machine: packages, build, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"

#!/usr/bin/env bash
# The main job on a fresh machine: install what is needed, build in release, and localize
# the shipped query session against the shipped map with the embedded VPS (all cores).
# Extra arguments go to `arcloud localize` (e.g. --mode tracking).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product arcloud
exec .build/release/arcloud localize --map Maps/gallery.vpsmap Datasets/gallery-query-walk --out out/gallery-query-walk "$@"

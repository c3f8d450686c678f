#!/usr/bin/env bash
# Issue 14's COLMAP-frame check: the shipped gallery map rebuilt from a COLMAP export of
# Datasets/gallery-mapping re-expressed y-down at another scale (scripts/colmap-frame.py),
# built with `--up 0,-1,0` (units unknown), then the walk session localized against it
# WITH each frame's gravity must place as many frames within (5 cm, 2°) as the shipped
# map does from the images alone (`--no-gravity`), and none wrongly.
# Usage: scripts/check-colmap-frame.sh [scale]   (default 0.3)
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-0.3}"
start=$(date +%s)
swift build -c release --product arcloud >&2
bin="$(swift build -c release --show-bin-path)/arcloud"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/colmap-frame.py export Datasets/gallery-mapping Datasets/gallery-query-walk "$work" --scale "$scale"
"$bin" map build --colmap "$work/colmap" --images Datasets/gallery-mapping --up 0,-1,0 --out "$work/flipped.vpsmap" --quiet
"$bin" map inspect "$work/flipped.vpsmap" | sed -n 2,4p
"$bin" localize --map "$work/flipped.vpsmap" "$work/query" --out "$work/out-flipped" > /dev/null
"$bin" localize --map Maps/gallery.vpsmap --no-gravity Datasets/gallery-query-walk --out "$work/out-baseline" > /dev/null
python3 scripts/colmap-frame.py compare "$work/out-flipped/results.jsonl" "$work/out-baseline/results.jsonl" --scale "$scale"
echo "check-colmap-frame: $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# The COLMAP-frame check (maps in any units and any frame): the shipped gallery map rebuilt from a COLMAP export of
# Datasets/gallery-mapping re-expressed y-down at another scale (scripts/colmap-frame.py),
# built with `--up 0,-1,0` (units unknown). Then the walk and the hard (blurred) sessions,
# localized against it WITH each frame's gravity, must place at least as many frames within
# (5 cm, 2°) as the shipped map does from the images alone (`--no-gravity`), and none more
# than 25 cm off. On the hard session gravity is what places the blurred frames, so this
# also shows the gravity is related to the map's up correctly.
#
# Usage: scripts/check-colmap-frame.sh [scale]   (default 0.3)
# ARCLOUD_CHECK_BUILD=release (default) builds arcloud in release; =debug uses the test build
# (`swift build -Xcxx -O2`, as scripts/test.sh builds it), which CI has already made.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-0.3}"
start=$(date +%s)
case "${ARCLOUD_CHECK_BUILD:-release}" in
  release) build_flags=(-c release) ;;
  debug) build_flags=(-Xcxx -O2) ;;
  *) echo "check-colmap-frame: ARCLOUD_CHECK_BUILD must be release or debug" >&2; exit 2 ;;
esac
swift build "${build_flags[@]}" --product arcloud >/dev/null
bin="$(swift build "${build_flags[@]}" --show-bin-path)/arcloud"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for session in walk hard; do
    python3 scripts/colmap-frame.py export Datasets/gallery-mapping "Datasets/gallery-query-$session" "$work/$session" --scale "$scale"
done
# Both exports hold the same mapping model; the map is built once.
"$bin" map build --colmap "$work/walk/colmap" --images Datasets/gallery-mapping --up 0,-1,0 --out "$work/flipped.vpsmap" --quiet
"$bin" map inspect "$work/flipped.vpsmap" | sed -n 2,4p
failed=0
for session in walk hard; do
    echo "check-colmap-frame: gallery-query-$session"
    "$bin" localize --map "$work/flipped.vpsmap" "$work/$session/query" --out "$work/out-flipped-$session" 2>/dev/null \
        | grep '^within (2 %' | sed 's/^/  flipped map, summary: /'
    "$bin" localize --map Maps/gallery.vpsmap --no-gravity "Datasets/gallery-query-$session" \
        --out "$work/out-baseline-$session" >/dev/null 2>&1
    python3 scripts/colmap-frame.py compare "$work/out-flipped-$session/results.jsonl" \
        "$work/out-baseline-$session/results.jsonl" --scale "$scale" || failed=1
done
echo "check-colmap-frame: $(( $(date +%s) - start )) s"
exit $failed

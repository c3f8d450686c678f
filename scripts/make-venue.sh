#!/usr/bin/env bash
# Makes a synthetic building venue on demand (too large to commit): its mapping session,
# a walk and a hard query session in the first wing of the ground floor, and its map.
# The same arguments always give the same sessions byte for byte (and the same map, but
# for the creation time it records).
#
#   scripts/make-venue.sh [FLOORSxWINGSxROOMS] [OUT]     (default: 1x4x6 into out/venue-1x4x6)
#
# Sizes: about 8 k map points a room, 75 k a wing of six rooms with its corridor and hall
# (1x1x2: ~35 k points, 1x4x6: ~300 k, 3x5x6: ~1.1 M, 6x5x6: ~2.2 M). Then, e.g.:
#   .build/release/arcloud localize --map OUT/map.vpsmap OUT/hard
# `arcloud bench scale` makes and measures several sizes in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
shape="${1:-1x4x6}"
IFS=x read -r floors wings rooms <<<"$shape"
if ! [[ "$floors" =~ ^[0-9]+$ && "$wings" =~ ^[0-9]+$ && "$rooms" =~ ^[0-9]+$ ]]; then
    echo "make-venue: the size is FLOORSxWINGSxROOMS, e.g. 1x4x6, got '$shape'" >&2
    exit 2
fi
out="${2:-out/venue-$shape}"

swift build -c release --product arcloud >&2
arcloud="$(swift build -c release --show-bin-path)/arcloud"
# The gallery's scene and session seeds and image settings.
scene=(--layout building --floors "$floors" --wings "$wings" --rooms "$rooms" --seed 7 --size 640x480 --quality 85)
"$arcloud" dataset synth "$out/mapping" "${scene[@]}" --session-seed 11 --trajectory mapping
"$arcloud" dataset synth "$out/walk" "${scene[@]}" --session-seed 21 --trajectory walk --frames 70
"$arcloud" dataset synth "$out/hard" "${scene[@]}" --session-seed 31 --trajectory hard --frames 70
"$arcloud" map build --session "$out/mapping" --out "$out/map.vpsmap" --name "venue-$shape" --quiet
"$arcloud" map inspect "$out/map.vpsmap" | head -8

#!/usr/bin/env bash
# Makes a venue of separately mapped scenes on demand: the shipped gallery map and N-1
# other galleries (`dataset synth --layout gallery`, scene seeds 101, 102, …), each
# mapped on its own with the gallery's mapping route, then joined by `arcloud map merge`
# 100 m apart along x. The gallery keeps its place at the origin, so the shipped query
# sessions (Datasets/gallery-query-walk, -hard) score against the venue as they are.
# Look-alike galleries (the same floor plan, other art) are what makes place search hard.
#
#   scripts/make-gallery-venue.sh [N] [OUT]      (default: 9 into out/gallery-venue-9)
#
# Then: .build/release/arcloud localize --map OUT/venue.vpsmap Datasets/gallery-query-hard
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-9}"
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ]; then
    echo "make-gallery-venue: N is a count of galleries (1 or more), got '$n'" >&2
    exit 2
fi
out="${2:-out/gallery-venue-$n}"
mkdir -p "$out"

swift build -c release --product arcloud >&2
arcloud="$(swift build -c release --show-bin-path)/arcloud"
parts=(Maps/gallery.vpsmap)
for ((i = 1; i < n; i++)); do
    seed=$((100 + i))
    dir="$out/gallery-$seed"
    if [ ! -f "$dir/map.vpsmap" ]; then
        "$arcloud" dataset synth "$dir/mapping" --layout gallery --seed "$seed" --size 640x480 --quality 85 \
            --session-seed 11 --trajectory mapping --frames 180
        "$arcloud" map build --session "$dir/mapping" --out "$dir/map.vpsmap" --name "gallery-$seed" --quiet
    fi
    parts+=("$dir/map.vpsmap@$((100 * i)),0,0")
done
"$arcloud" map merge "$out/venue.vpsmap" "${parts[@]}" --name "gallery-venue-$n"

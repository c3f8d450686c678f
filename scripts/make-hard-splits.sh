#!/usr/bin/env bash
# Derives the harder real-photo splits from ../shared/real (or $1) into $2 (default
# out/hard-splits): the kinds of capture the shared splits do not show, on which poses
# must still be placed or refused, never accepted off.
#
#   scripts/make-hard-splits.sh [shared/real] [out dir]
#   arcloud bench real out/hard-splits --peers all
#
# - four photos far apart as the map (herz-jesus-P25, monstree, tum-office) and three
#   (fountain-P11): queries up to 45–60° from every map photo;
# - a forward stretch (herz-jesus-P25: its first six photos, walking along the facade, as
#   the map; the rest of the walk as queries).
# Plain Python (scripts/make-real-splits.py), no packages.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-../shared/real}
out=${2:-out/hard-splits}
[ -d "$src" ] || { echo "make-hard-splits: no $src (the shared real photos)" >&2; exit 1; }
make() { python3 scripts/make-real-splits.py "$src/$1" "$out/$1" "$2" --map "$3"; }
make herz-jesus-P25 four 0000.jpg,0008.jpg,0016.jpg,0024.jpg
make herz-jesus-P25 forward 0000.jpg,0001.jpg,0002.jpg,0003.jpg,0004.jpg,0005.jpg
make fountain-P11 three 0000.jpg,0005.jpg,0010.jpg
make tum-office four tum_000.jpg,tum_005.jpg,tum_010.jpg,tum_015.jpg
make monstree four-b IMG_1027.jpg,IMG_1040.jpg,IMG_1053.jpg,IMG_1063.jpg

#!/usr/bin/env bash
# False-positive check on real photos: every photo of each scene under ../shared/real (or
# $1) localized against the map of every split of every other scene, single-shot. No
# pose can be right, yet these are real photos with real texture (fountain-P11 and
# herz-jesus-P25 are both carved stone façades of one survey). A VPS must refuse them
# all: exits 1 when any frame is accepted. About 25 s on 2 cores (release) with ORB maps;
# everything goes to a scratch folder ($2, default a new temporary one). $3 is the maps'
# feature type (map build --feature-type: orb, the default, or sift).
#
#   scripts/check-negatives-real.sh [shared/real] [scratch dir] [orb|sift]
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-../shared/real}
work=${2:-$(mktemp -d)}
features=${3:-orb}
[ -d "$src" ] || { echo "check-negatives-real: no $src (the shared real photos)" >&2; exit 1; }
mkdir -p "$work/out"
quiet() {  # log, command...: the command's output goes to the log, shown only if it fails
    local log=$1
    shift
    "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
}
swift build -c release --product arcloud >/dev/null
arcloud="$(swift build -c release --show-bin-path)/arcloud"

scenes=()
for scene in "$src"/*/; do
    scene=$(basename "$scene")
    splits=("$src/$scene"/split-*/)
    [ -d "${splits[0]}" ] || continue
    scenes+=("$scene")
    # Every photo of the scene: one split's map and query photos together.
    for part in map query; do
        [ -f "$work/$scene-$part/session.json" ] || quiet "$work/out/import-$scene-$part.log" \
            "$arcloud" dataset import-colmap "${splits[0]}$part" "$work/$scene-$part" --images "$src/$scene/images"
    done
    for split in "${splits[@]}"; do
        map="$work/$scene-$(basename "$split").vpsmap"
        [ -f "$map" ] || quiet "$map.log" \
            "$arcloud" map build --colmap "${split}map" --images "$src/$scene/images" --out "$map" \
                --feature-type "$features"
    done
done

accepted_total=0 frames_total=0
for map in "$work"/*.vpsmap; do
    map_scene=$(basename "$map" .vpsmap)
    for scene in "${scenes[@]}"; do
        [[ $map_scene == "$scene"-split-* ]] && continue
        for part in map query; do
            out="$work/out/$map_scene--$scene-$part"
            quiet "$out.log" "$arcloud" localize --map "$map" "$work/$scene-$part" --mode single-shot --out "$out"
            accepted=$(grep -c '"status":"localized"' "$out/results.jsonl" || true)
            frames=$(wc -l <"$out/results.jsonl")
            printf "%-28s <- %-22s accepted %d of %d\n" "$map_scene" "$scene $part" "$accepted" "$frames"
            accepted_total=$((accepted_total + accepted)); frames_total=$((frames_total + frames))
        done
    done
done
echo "accepted $accepted_total of $frames_total photos of other scenes ($work)"
[[ $accepted_total == 0 ]]

#!/usr/bin/env bash
# False-positive check beyond the shipped data: renders a second scene (studio) with its own
# mapping session and map, plus gallery floor plans with other textures, then localizes
# every session against the map of a scene it was NOT recorded in (both modes) and the
# studio sessions against their own map (as positives). A wrong scene must give 0 accepted
# frames. About 2-3 minutes on 2 cores (release); everything goes to a scratch folder.
#
#   scripts/check-negatives.sh [scratch dir] [-- extra arcloud localize arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d)}"
shift || true
[[ "${1:-}" == "--" ]] && shift
mkdir -p "$work"
swift build -c release --product arcloud >/dev/null
arcloud="$(swift build -c release --show-bin-path)/arcloud"
size=(--size 640x480 --quality 85)

synth() {  # dir, then dataset synth options; skipped when already there
    [[ -f "$work/$1/session.json" ]] || "$arcloud" dataset synth "$work/$1" "${@:2}" "${size[@]}" >/dev/null
}
synth studio-mapping --layout studio --seed 99 --session-seed 12 --trajectory mapping --frames 180
synth studio-walk    --layout studio --seed 99 --session-seed 22 --trajectory walk --frames 70
synth studio-hard    --layout studio --seed 99 --session-seed 32 --trajectory hard --frames 70
synth gallery6-walk  --layout gallery --seed 6 --session-seed 23 --trajectory walk --frames 70
synth gallery6-hard  --layout gallery --seed 6 --session-seed 33 --trajectory hard --frames 70
synth gallery5-hard  --layout gallery --seed 5 --session-seed 34 --trajectory hard --frames 70
[[ -f "$work/studio.vpsmap" ]] || "$arcloud" map build --session "$work/studio-mapping" \
    --out "$work/studio.vpsmap" --name studio >"$work/map-build.log" 2>&1

gallery=Maps/gallery.vpsmap studio="$work/studio.vpsmap"
failed=0
run() {  # kind map session
    local kind=$1 map=$2 session=$3 mode out accepted within
    for mode in single-shot tracking; do
        out=$("$arcloud" localize --map "$map" "$session" --mode "$mode" --out "$work/out/$(basename "$map" .vpsmap)-$(basename "$session")-$mode" "${extra[@]}" 2>&1)
        accepted=$(sed -n 's/^frames.*(localized \([0-9]*\),.*/\1/p' <<<"$out")
        within=$(sed -n 's/^within (5 cm, 2°) *//p' <<<"$out")
        printf "%-8s %-8s %-20s %-11s accepted %3s   within (5 cm, 2°) %s\n" \
            "$kind" "$(basename "$map" .vpsmap)" "$(basename "$session")" "$mode" "$accepted" "$within"
        if [[ $kind == negative && $accepted != 0 ]]; then failed=1; fi
    done
}
extra=("$@")
run positive "$studio" "$work/studio-walk"
run positive "$studio" "$work/studio-hard"
for s in Datasets/other-scene-query "$work/studio-walk" "$work/studio-hard" "$work/gallery6-walk" \
         "$work/gallery6-hard" "$work/gallery5-hard"; do
    run negative "$gallery" "$s"
done
for s in Datasets/gallery-query-walk Datasets/gallery-query-hard "$work/gallery6-hard"; do
    run negative "$studio" "$s"
done
if [[ $failed == 1 ]]; then echo "a session was localized in the map of another scene" >&2; exit 1; fi
echo "no frame of another scene accepted ($work)"

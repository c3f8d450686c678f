#!/usr/bin/env bash
# Regenerates the shipped recorded sessions in Datasets/ bit-for-bit with the project's own
# synthetic scene generator (`arcloud dataset synth`).
#
#   scripts/make-datasets.sh            # rebuild (release) and rewrite Datasets/
#   scripts/make-datasets.sh --check    # regenerate into a scratch folder and compare
#                                       # byte for byte with Datasets/ (exit 1 on a difference)
#   OUT=dir scripts/make-datasets.sh    # write somewhere else than Datasets/
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [[ "${1:-}" == "--check" ]]; then check=1; fi
out="${OUT:-Datasets}"
if [[ $check == 1 ]]; then out="$(mktemp -d)/Datasets"; fi

swift build -c release --product arcloud >/dev/null
arcloud="$(swift build -c release --show-bin-path)/arcloud"

# The gallery scene (seed 7): three rooms joined by two corridors.
scene=(--layout gallery --seed 7 --size 640x480 --quality 85)
start=$(date +%s)
"$arcloud" dataset synth "$out/gallery-mapping"    "${scene[@]}" --session-seed 11 --trajectory mapping --frames 180
"$arcloud" dataset synth "$out/gallery-query-walk" "${scene[@]}" --session-seed 21 --trajectory walk    --frames 70
"$arcloud" dataset synth "$out/gallery-query-hard" "${scene[@]}" --session-seed 31 --trajectory hard    --frames 70
# Another scene entirely (other layout and seed): localization against the gallery map must reject it.
"$arcloud" dataset synth "$out/other-scene-query" --layout studio --seed 99 --size 640x480 --quality 85 \
    --session-seed 41 --trajectory tour --frames 20
# The street (seed 5): walked forward between two rows of buildings toward a far skyline.
street=(--layout street --seed 5 --size 640x480 --quality 85)
"$arcloud" dataset synth "$out/street-mapping"     "${street[@]}" --session-seed 51 --trajectory mapping --frames 90
"$arcloud" dataset synth "$out/street-query-walk"  "${street[@]}" --session-seed 52 --trajectory walk    --frames 32
echo "generated in $(( $(date +%s) - start )) s"

for d in gallery-mapping gallery-query-walk gallery-query-hard other-scene-query street-mapping street-query-walk; do
    "$arcloud" dataset validate "$out/$d"
done
du -sh "$out"

if [[ $check == 1 ]]; then
    # script.json files are written by hand (timed user actions), not by the generator.
    if diff -r -x README.md -x script.json "$out" Datasets >/dev/null; then
        echo "Datasets/ is reproduced byte for byte"
    else
        diff -rq -x README.md -x script.json "$out" Datasets | head -20
        echo "Datasets/ differs from a fresh generation" >&2
        exit 1
    fi
fi

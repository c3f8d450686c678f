#!/usr/bin/env bash
# Rebuilds the shipped maps from the shipped mapping sessions with arcloud's own builder:
#   Datasets/<scene>-mapping  ->  Maps/<scene>.vpsmap
# Usage: scripts/make-map.sh [scene ...] [-- extra `arcloud map build` options]
# With no scene, every Datasets/*-mapping session is built. The build is deterministic
# for a given session and options (map metadata records the creation time).
set -euo pipefail
cd "$(dirname "$0")/.."

scenes=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; break; fi
    scenes+=("$1"); shift
done
if [ ${#scenes[@]} -eq 0 ]; then
    for dir in Datasets/*-mapping; do
        [ -f "$dir/session.json" ] && scenes+=("$(basename "$dir" -mapping)")
    done
fi
if [ ${#scenes[@]} -eq 0 ]; then
    echo "make-map: no Datasets/<scene>-mapping session found" >&2
    exit 1
fi

swift build -c release --product arcloud >&2
bin="$(swift build -c release --show-bin-path)/arcloud"
mkdir -p Maps
for scene in "${scenes[@]}"; do
    session="Datasets/$scene-mapping"
    [ -f "$session/session.json" ] || { echo "make-map: $session/session.json is missing" >&2; exit 1; }
    "$bin" map build --session "$session" --out "Maps/$scene.vpsmap" --name "$scene" "$@"
    "$bin" map inspect "Maps/$scene.vpsmap" | head -12
done

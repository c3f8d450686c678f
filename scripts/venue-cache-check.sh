#!/usr/bin/env bash
# Serves two venues' maps from one `arcloud serve` process under a map cache smaller than
# both maps together, and asks it to localize their walk sessions in turns, so every turn
# evicts the other map and loads its own. Prints each turn's recall and the cache's
# counters from /metrics, and fails when an answer differs from what `arcloud localize`
# answers for the same frame in a process of its own (status, or pose by more than 1 mm),
# when one is wrong (more than 25 cm or 5° from the ground truth, as `localize` scores it),
# or when no map was evicted.
#
#   scripts/venue-cache-check.sh BIG SMALL [CACHE_MB] [TURNS]
#
# BIG and SMALL are venue folders of scripts/make-venue.sh (map.vpsmap and walk/). CACHE_MB
# (default: what BIG's map holds in memory plus half of SMALL's, so one fits, not both) is
# passed as `serve --map-cache-mb`; TURNS (default 4) is how many times each map is asked.
# The maps are large: build in release first (swift build -c release).
set -euo pipefail
cd "$(dirname "$0")/.."
big="${1:?usage: venue-cache-check.sh BIG SMALL [CACHE_MB] [TURNS]}"
small="${2:?usage: venue-cache-check.sh BIG SMALL [CACHE_MB] [TURNS]}"
turns="${4:-4}"
for v in "$big" "$small"; do
    [[ -f "$v/map.vpsmap" && -f "$v/walk/session.json" ]] || {
        echo "venue-cache-check: $v needs map.vpsmap and walk/ (scripts/make-venue.sh makes them)" >&2; exit 2; }
done
arcloud="$(swift build -c release --show-bin-path)/arcloud"
[[ -x "$arcloud" ]] || { echo "venue-cache-check: build first: swift build -c release" >&2; exit 2; }

work="$(mktemp -d)"
server=""
cleanup() { [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/maps"
ln -s "$(realpath "$big/map.vpsmap")" "$work/maps/big.vpsmap"
ln -s "$(realpath "$small/map.vpsmap")" "$work/maps/small.vpsmap"

# What each map holds in memory, as the cache measures it: the heap a map adds when served.
heap_mb() {
    "$arcloud" bench scale --probe --map "$1" --walk "$2/walk" --hard "$2/walk" --probe-out "$work/probe.json" >/dev/null
    python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['heapBytes'] / 1e6))" "$work/probe.json"
}
if [[ -n "${3:-}" ]]; then cache_mb="$3"; else
    big_mb=$(heap_mb "$big/map.vpsmap" "$big"); small_mb=$(heap_mb "$small/map.vpsmap" "$small")
    cache_mb=$((big_mb + small_mb / 2 + 1))
    echo "maps in memory: big $big_mb MB, small $small_mb MB; cache budget $cache_mb MB"
fi

# The answers to expect: each walk localized single-shot in a process with one map.
for m in big small; do
    v=$([[ $m == big ]] && echo "$big" || echo "$small")
    "$arcloud" localize --map "$v/map.vpsmap" "$v/walk" --mode single-shot --out "$work/expected-$m" >/dev/null
done

token=$("$arcloud" token create --db "$work/tokens.sqlite" --name cache-check | tail -1)
"$arcloud" serve --maps "$work/maps" --db "$work/tokens.sqlite" --port 0 --map-cache-mb "$cache_mb" \
    --budget 60 --access-log "$work/access.log" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 100); do grep -q "http://" "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o "http://[^ ]*" "$work/serve.out" | head -1)
[[ -n "$url" ]] || { cat "$work/serve.err" >&2; exit 1; }

# Each turn sends one map's whole walk through the service (`localize --server`, the
# real HTTP client), then the other's, so each turn loads its map and evicts the other.
python3 - "$arcloud" "$url" "$token" "$turns" "$big" "$small" "$work" <<'PY'
import json, math, subprocess, sys
arcloud, url, token, turns, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[7]
venues = {"big": sys.argv[5], "small": sys.argv[6]}

def results(folder):
    return {r["frameId"]: r for r in map(json.loads, open(f"{folder}/results.jsonl"))}

def scored(folder):
    """Frames within (5 cm, 2°) and wrong (localized beyond (25 cm, 5°)), from the run's summary."""
    s = json.load(open(f"{folder}/summary.json"))
    share = {(r["threshold"]["translation"], r["threshold"]["degrees"]): r["fraction"] for r in s["recall"]}
    n = s["framesWithGroundTruth"]
    return round(share[(0.05, 2)] * n), s["localized"] - round(share[(0.25, 5)] * n)

def metrics():
    text = subprocess.run(["curl", "-sS", f"{url}/metrics"], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: float(line.split()[1]) for line in text.splitlines()
            if line.startswith(("arcloud_map_cache_", "process_resident_memory_bytes"))}

expected = {m: results(f"{work}/expected-{m}") for m in venues}
failed = []
for turn in range(1, turns + 1):
    for m, venue in venues.items():
        out = f"{work}/served-{m}-{turn}"
        subprocess.run([arcloud, "localize", "--server", url, "--token", token, "--map", m, f"{venue}/walk",
                        "--mode", "single-shot", "--concurrency", "2", "--out", out],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        served = results(out)
        within, wrong = scored(out)
        differ = sum(1 for frame, x in expected[m].items()
                     if served[frame]["result"]["status"] != x["result"]["status"]
                     or ("pose" in x["result"] and math.dist(served[frame]["result"]["pose"]["t"], x["result"]["pose"]["t"]) > 0.001))
        c = metrics()
        print(f"turn {turn} {m:5s}: {within}/{len(served)} within (5 cm, 2°), {wrong} wrong, {differ} unlike alone; "
              f"cache loads {c.get('arcloud_map_cache_loads_total', 0):.0f}, "
              f"evictions {c.get('arcloud_map_cache_evictions_total', 0):.0f}, "
              f"hits {c.get('arcloud_map_cache_hits_total', 0):.0f}, "
              f"resident {c.get('arcloud_map_cache_resident_bytes', 0) / 1e6:.0f} MB "
              f"of {c.get('arcloud_map_cache_budget_bytes', 0) / 1e6:.0f} MB; "
              f"process {c.get('process_resident_memory_bytes', 0) / 1e6:.0f} MB")
        if wrong or differ:
            failed.append(f"turn {turn} {m}: {wrong} wrong, {differ} unlike the single-map run")
if metrics().get("arcloud_map_cache_evictions_total", 0) < 1:
    failed.append("no map was evicted: the budget holds both maps")
if failed:
    print("FAILED: " + "; ".join(failed)); sys.exit(1)
print("ok: both maps answered from one process under the cache budget, as each does alone")
PY

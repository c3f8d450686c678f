#!/usr/bin/env bash
# Names and times survive import, checked with evo: the shipped walk session is written
# out as a TUM RGB-D sequence with Unix timestamps (rgb.txt, rgb/<time>.jpg,
# groundtruth.txt), imported with `arcloud dataset import-tum`, localized, and
# `evo_ape tum groundtruth.txt trajectory.tum` is run on the sequence's OWN ground-truth
# file. Fails unless evo associates every localized pose and its APE equals the ATE the
# summary reports. Builds the release `arcloud` (or uses $ARCLOUD when set) and installs
# evo through scripts/python-tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bin=$(scripts/python-tools.sh)
arcloud=${ARCLOUD:-}
if [ -z "$arcloud" ]; then
  swift build -c release --product arcloud >&2
  arcloud=.build/release/arcloud
fi
work=$(mktemp -d /tmp/arcloud-evo-XXXXXX)
trap 'rm -rf "$work"' EXIT

"$bin/python" scripts/make-tum-sequence.py Datasets/gallery-query-walk "$work/seq" 1305031102.175304
read -r fx fy cx cy size < <("$bin/python" -c "
import json,sys; c=json.load(open('Datasets/gallery-query-walk/session.json'))['camera']
print(c['fx'], c['fy'], c['cx'], c['cy'], '%dx%d' % (c['width'], c['height']))")
"$arcloud" dataset import-tum "$work/seq" "$work/session" --fx "$fx" --fy "$fy" --cx "$cx" --cy "$cy" --size "$size"
"$arcloud" localize --map Maps/gallery.vpsmap "$work/session" --out "$work/run" --min-recall 0.9 | tail -n 12

"$bin/evo_ape" tum "$work/seq/groundtruth.txt" "$work/run/trajectory.tum" --save_results "$work/ape.zip" --no_warnings \
  | tee "$work/ape.txt"
"$bin/python" - "$work" <<'PY'
import json, sys, zipfile
work = sys.argv[1]
poses = [l for l in open(f"{work}/run/trajectory.tum") if l.strip() and not l.startswith("#")]
summary = json.load(open(f"{work}/run/summary.json"))
with zipfile.ZipFile(f"{work}/ape.zip") as z:
    stats = json.loads(z.read("stats.json"))
    info = json.loads(z.read("info.json"))
# evo's result keeps the associated estimate: one timestamp per matched pose.
import numpy as np, io
with zipfile.ZipFile(f"{work}/ape.zip") as z:
    stamps = np.load(io.BytesIO(z.read("timestamps.npy")))
matched, expected = len(stamps), len(poses)
print(f"evo associated {matched} of {expected} localized poses with the sequence's own groundtruth.txt; "
      f"evo APE RMSE {stats['rmse']*100:.3f} cm, arcloud ATE RMSE {summary['ateRMSE']*100:.3f} cm")
assert expected == summary["localized"] > 0, (expected, summary["localized"])
assert matched == expected, f"evo matched {matched} of {expected} poses"
assert abs(stats["rmse"] - summary["ateRMSE"]) < 1e-4, (stats["rmse"], summary["ateRMSE"])
PY
echo "evo round trip: passed in $(( $(date +%s) - start )) s"

#!/usr/bin/env python3
"""Scenes no shipped map, test or tuning has seen, with exact ground truth.

For each LAYOUT:SEED, renders a mapping route and two query routes (walk and hard) with
`arcloud dataset synth`, builds the map from the mapping session, localizes each query
session single-shot and in tracking mode, and prints per session: frames, accepted,
placed within (5 cm, 2°), accepted frames within their own claimed 95 % accuracy, and the
worst accepted error. A localizer tuned on the shipped scenes must hold its claims here too.

    scripts/unseen-scenes.py [LAYOUT:SEED ...]      (default: street:11 street:12 street:13
                                                     street:14 gallery:21 studio:3)

Sessions and maps are kept in out/unseen-scenes/ and reused (the same options always render
the same files); results are rewritten on every run. Uses the release build
(`swift build -c release --product arcloud`, run first). Frames accepted outside their
claim are listed with their error and claim. Exits 1 when an accepted frame lies more
than 1 m or 10 degrees from the truth (localize's loosest threshold on a metric map).
"""
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCLOUD = os.path.join(ROOT, ".build", "release", "arcloud")
WORK = os.path.join(ROOT, "out", "unseen-scenes")
DEFAULT = ["street:11", "street:12", "street:13", "street:14", "gallery:21", "studio:3"]
QUERIES = ["walk", "hard"]


def run(args):
    p = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"unseen-scenes: {' '.join(args)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p.stdout


def rendered(folder, layout, seed, route):
    """The session of `route` in `folder`, rendered unless it is there."""
    if not os.path.exists(os.path.join(folder, "session.json")):
        run([ARCLOUD, "dataset", "synth", folder, "--layout", layout, "--seed", str(seed), "--trajectory", route,
             "--session-seed", str(seed + (0 if route == "mapping" else 100))])
    return folder


def rotation_degrees(q, r):
    dot = abs(sum(a * b for a, b in zip(q, r))) / math.sqrt(sum(a * a for a in q) * sum(b * b for b in r))
    return math.degrees(2 * math.acos(min(1.0, dot)))


def score(out):
    """Accepted, placed (5 cm, 2°), within claim, the worst accepted error (by position), the
    frames accepted outside their claim and how many lie more than 1 m or 10° off, of one run."""
    accepted = placed = within = far = 0
    worst = (0.0, 0.0)
    outside = []
    with open(os.path.join(out, "results.jsonl")) as f:
        for line in f:
            frame = json.loads(line)
            r, truth = frame["result"], frame.get("groundTruth")
            if r["status"] != "localized" or not truth:
                continue
            accepted += 1
            metres = math.dist(r["pose"]["t"], truth["t"])
            degrees = rotation_degrees(r["pose"]["q"], truth["q"])
            placed += metres <= 0.05 and degrees <= 2
            far += metres > 1 or degrees > 10
            claim = r.get("accuracy")
            if claim and metres <= claim["position"] and degrees <= claim["rotationDegrees"]:
                within += 1
            else:
                outside.append(f"{frame['frameId']} {100 * metres:.1f} cm, {degrees:.2f}° against "
                               + (f"{100 * claim['position']:.1f} cm, {claim['rotationDegrees']:.2f}°" if claim else "none"))
            worst = max(worst, (metres, degrees))
    return accepted, placed, within, worst, outside, far


def main():
    scenes = sys.argv[1:] or DEFAULT
    if any(a.startswith("-") for a in scenes):
        print(__doc__.strip())
        sys.exit(0 if scenes[0] in ("-h", "--help") else 2)
    run(["swift", "build", "-c", "release", "--product", "arcloud"])
    print(f"{'scene':<12} {'session':<6} {'mode':<11} {'frames':>6} {'accepted':>8} {'placed':>7} "
          f"{'in claim':>8}  worst accepted")
    wrong = 0
    totals = [0, 0, 0, 0]
    for scene in scenes:
        layout, _, seed = scene.partition(":")
        if not seed.isdigit():
            sys.exit(f"unseen-scenes: '{scene}' is not LAYOUT:SEED (e.g. street:11)")
        base = os.path.join(WORK, f"{layout}-{seed}")
        mapping = rendered(os.path.join(base, "mapping"), layout, int(seed), "mapping")
        vpsmap = os.path.join(base, "map.vpsmap")
        if not os.path.exists(vpsmap):
            run([ARCLOUD, "map", "build", "--session", mapping, "--out", vpsmap])
        for route in QUERIES:
            query = rendered(os.path.join(base, route), layout, int(seed), route)
            for mode in ("single-shot", "tracking"):
                out = os.path.join(base, f"out-{route}-{mode}")
                run([ARCLOUD, "localize", "--map", vpsmap, query, "--mode", mode, "--out", out])
                with open(os.path.join(query, "session.json")) as f:
                    frames = len(json.load(f)["frames"])
                accepted, placed, within, (metres, degrees), outside, far = score(out)
                wrong += far
                for i, v in enumerate((frames, accepted, placed, within)):
                    totals[i] += v
                print(f"{scene:<12} {route:<6} {mode:<11} {frames:>6} {accepted:>8} {placed:>7} {within:>8}  "
                      f"{100 * metres:.1f} cm, {degrees:.2f}°", flush=True)
                for line in outside:
                    print(f"    outside its claim: {line}")
    frames, accepted, placed, within = totals
    print(f"all: {accepted} of {frames} frames accepted, {placed} placed within (5 cm, 2°), "
          f"{within} within their claim ({100 * within / max(accepted, 1):.1f} %)")
    if wrong:
        print(f"unseen-scenes: {wrong} accepted frames lie more than 1 m or 10° off", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

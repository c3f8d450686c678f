#!/usr/bin/env python3
"""Writes the figure tables of README.md and docs/ from the commands that produce them.

Each table sits between two markers:

    <!-- figures: NAME -->
    | ... |
    <!-- /figures -->

and NAME is one of GENERATORS below: a function that runs the command and returns the
table's rows. `figures.py` rewrites every block (or the blocks named on the command line)
in place; `figures.py --check` reruns the fast generators and exits 1 when a figure in a
block has moved beyond its column's tolerance (a ratio ±15 %, a time ±50 %, a recall ±2
points: one frame in 70 is 1.4), naming the file, the row, the column and both values.
Generators that need ../shared/real are skipped, with a note, when it is absent. The venue
tables keep what they generate in out/ (bench scale's sessions, the nine galleries), as
their commands do, so a rerun skips the generating; `--list` names the slow ones, most of
which take minutes and the sanitizer and CI tables most of an hour.

Run through scripts/figures.sh, which builds the release binary first.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCLOUD = os.path.join(ROOT, ".build", "release", "arcloud")
SHIPPED_REAL = os.path.join(ROOT, "Tests", "Fixtures", "real")
SHARED_REAL = os.environ.get("ARCLOUD_REAL_PHOTOS") or os.path.join(os.path.dirname(ROOT), "shared", "real")
DOCUMENTS = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
BLOCK = re.compile(r"(<!-- figures: ([\w-]+) -->\n)(.*?)(<!-- /figures -->)", re.S)
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


class Skip(Exception):
    """A generator that cannot run here (its inputs are absent)."""


@dataclass
class Table:
    header: List[str]
    rows: List[List[str]]
    # Per column: "text" (must match), "pp" (±2 points), "ratio" (±15 %), "ms" (±50 %),
    # "rel" (±10 %: medians of errors).
    kinds: List[str]
    # A table of one figure per row ("what | figure | reproduce with"): the figure column's
    # kind, row by row; the other columns are text.
    row_kinds: Optional[List[str]] = None

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.header) + " |", "| " + " | ".join("---" for _ in self.header) + " |"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines) + "\n"


TOLERANCE = {"pp": ("abs", 2.0), "ratio": ("rel", 0.15), "ms": ("rel", 0.5), "rel": ("rel", 0.10)}


def run(args: List[str], cwd: str = ROOT) -> str:
    """Runs a command and returns its stdout; a failure stops the script with its stderr."""
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"figures: {' '.join(args)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p.stdout


_memo: Dict[str, object] = {}


def memo(key: str, compute: Callable[[], object]) -> object:
    if key not in _memo:
        _memo[key] = compute()
    return _memo[key]


# ---------------------------------------------------------------------------- generators

def localize_summary(session: str, *flags: str) -> dict:
    """`arcloud localize` on a shipped session against the shipped map: its summary.json."""
    def go():
        with tempfile.TemporaryDirectory() as out:
            run([ARCLOUD, "localize", "--map", "Maps/gallery.vpsmap", f"Datasets/{session}", "--out", out, *flags])
            with open(os.path.join(out, "summary.json")) as f:
                return json.load(f)
    return memo("localize " + session + " " + " ".join(flags), go)


def recall_at_5cm(summary: dict) -> float:
    """The share of a localize summary's frames within (5 cm, 2°)."""
    return next((r["fraction"] for r in summary["recall"] if r["threshold"]["translation"] == 0.05), 0)


def pct(x: float) -> str:
    return f"{100 * x:.1f} %".replace(".0 %", " %")


def sessions() -> Table:
    rows = []
    for session, mode, flags in [("gallery-query-walk", "single-shot", []), ("gallery-query-walk", "tracking", ["--mode", "tracking"]),
                                 ("gallery-query-hard", "single-shot", []), ("gallery-query-hard", "tracking", ["--mode", "tracking"]),
                                 ("gallery-query-hard", "single-shot, `--no-gravity`", ["--no-gravity"])]:
        s = localize_summary(session, *flags)
        recall = recall_at_5cm(s)
        c = s["calibration"]
        rows.append([f"`{session}`", mode, pct(s["successRate"]), pct(recall),
                     f"{c['withinClaim']} of {c['accepted']}",
                     f"{100 * s['medianTranslationError']:.2f} cm, {s['medianRotationErrorDegrees']:.2f}°"])
    for mode, flags in [("single-shot", []), ("tracking", ["--mode", "tracking"])]:
        s = localize_summary("other-scene-query", *flags)
        rows.append(["`other-scene-query` (another scene)", mode, pct(s["successRate"]), "—", "—",
                     f"{s['frames'] - s['localized']} of {s['frames']} rejected"])
    return Table(["session", "mode", "localized", "within (5 cm, 2°)", "within claimed accuracy", "median error"],
                 rows, ["text", "text", "pp", "pp", "text", "rel"])


def bench_localize(session: str, *flags: str) -> dict:
    """`arcloud bench localize` on a shipped session: its rows and ratios (with `--venue`, the
    venue's row and its ratio to the map alone too)."""
    def go():
        out = run([ARCLOUD, "bench", "localize", "--map", "Maps/gallery.vpsmap", f"Datasets/{session}", *flags])
        return parse_bench_localize(out)
    return memo("bench " + session + " " + " ".join(flags), go)


def parse_bench_localize(out: str) -> dict:
    rows = {}
    for line in out.splitlines():
        m = re.match(r"(orb only|arcloud venue|arcloud\+decode|arcloud|image only|opencv)\s+([\d-].*)$", line)
        if m:
            rows[m.group(1)] = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", m.group(2))]
    ratio = lambda label: float(re.search(re.escape(label) + r"\s+([\d.]+)x", out).group(1))
    parsed = {"rows": rows, "speedup": ratio("speed-up arcloud / opencv:"), "orb": ratio("arcloud end-to-end / ORB alone:")}
    for key, label in [("stages", "arcloud mean ms per stage:"), ("refineSteps", "arcloud mean ms in refine, by step:"),
                       ("verifyChecks", "arcloud mean ms in verify, by check:")]:
        found = re.search(re.escape(label) + r"\s+(.*)$", out, re.M)
        if found:
            parsed[key] = {k: float(v) for k, v in re.findall(r"(\w+) ([\d.]+)", found.group(1))}
    venue = re.search(r"arcloud on the venue / on the map alone: ([\d.]+)x .*?(\d+) accepted outside", out)
    if venue:
        parsed["venue"], parsed["venueOff"] = float(venue.group(1)), int(venue.group(2))
    return parsed


def bench_localize_parts_table() -> Table:
    """The two costliest stages beyond ORB, refine by step and verify by check, from the same runs."""
    rows = []
    for session in ["gallery-query-walk", "gallery-query-hard"]:
        b = bench_localize(session)
        steps, checks = b.get("refineSteps", {}), b.get("verifyChecks", {})
        rows.append([f"`{session}`", f"{b['stages']['refine']:.2f}", ", ".join(f"{k} {v:.2f}" for k, v in steps.items()),
                     f"{b['stages']['verify']:.2f}", ", ".join(f"{k} {v:.2f}" for k, v in checks.items())])
    return Table(["session", "refine (mean ms)", "by step", "verify (mean ms)", "by check"], rows,
                 ["text", "ms", "ms", "ms", "ms"])


def bench_localize_table() -> Table:
    rows = []
    for session in ["gallery-query-walk", "gallery-query-hard"]:
        b = bench_localize(session)
        ours, peer, orb = b["rows"]["arcloud"], b["rows"]["opencv"], b["rows"]["orb only"]
        # arcloud: success, within, err cm, err deg, median ms, fps; orb only: median ms, fps.
        st = b.get("stages", {})
        beyond = ", ".join(f"{k} {st[k]:.2f}" for k in ["deblur", "retrieve", "match", "solve", "refine", "verify"] if k in st)
        rows.append([f"`{session}`", f"{orb[0]:.2f}", f"{ours[4]:.2f}", f"{peer[4]:.0f}", f"{b['orb']:.2f}×",
                     f"{b['speedup']:.1f}×", f"{ours[1]:.1f} % / {peer[1]:.1f} %", beyond])
    return Table(["session", "ORB alone ms/frame", "arcloud ms/frame", "peer ms/frame",
                  "arcloud / ORB alone (mean time)", "speed-up on the peer (mean time)",
                  "within (5 cm, 2°) (arcloud / peer)", "arcloud's stages beyond ORB (mean ms)"],
                 rows, ["text", "ms", "ms", "ms", "ratio", "ratio", "pp", "ms"])


def bench_real(folder: str, peers: str, *flags: str) -> dict:
    def go():
        if not os.path.isdir(folder):
            raise Skip(f"{folder} is absent")
        return json.loads(run([ARCLOUD, "bench", "real", folder, "--peers", peers, *flags, "--json"]))
    return memo(f"real {folder} {peers} {' '.join(flags)}", go)


def real_counts(method: dict) -> dict:
    frames = method["frames"]
    placed = sum(1 for f in frames if f["verdict"] == "success")
    wrong = sum(1 for f in frames if f["verdict"] == "wrong")
    accepted = sum(1 for f in frames if f.get("pose") is not None)
    claim = sum(1 for f in frames if f.get("withinClaim") is True)
    ms = [f["milliseconds"] for f in frames if f.get("milliseconds") is not None]
    return {"placed": placed, "wrong": wrong, "accepted": accepted, "claim": claim, "n": len(frames),
            "ms": sum(ms) / len(ms) if ms else 0}


def bench_real_table(folder: str = SHARED_REAL, peers: str = "all") -> Table:
    d = bench_real(folder, peers)
    totals: Dict[str, dict] = {}
    rows = []
    for split in d["splits"]:
        by = {method_key(m["method"]): real_counts(m) for m in split["methods"]}
        for name, c in by.items():
            t = totals.setdefault(name, {"placed": 0, "wrong": 0, "accepted": 0, "claim": 0, "n": 0, "msum": 0.0})
            for k in ("placed", "wrong", "accepted", "claim", "n"):
                t[k] += c[k]
            t["msum"] += c["ms"] * c["n"]
        rows.append(real_row(f"{split['scene']} {split['split'].removeprefix('split-')}", str(split["mapPhotos"]), by))
    for t in totals.values():
        t["ms"] = t["msum"] / max(t["n"], 1)
    rows.append(real_row(f"all {len(d['splits'])}", "", totals))
    return Table(["split", "map photos", "arcloud placed", "wrong", "acc", "in claim", "ms", "ORB peer placed", "wrong", "ms",
                  "SIFT peer placed", "wrong"], rows,
                 ["text", "text", "text", "text", "text", "text", "ms", "text", "text", "ms", "text", "text"])


def real_row(name: str, photos: str, by: dict) -> List[str]:
    a = by["arcloud"]
    row = [name, photos, f"{a['placed']}/{a['n']}", str(a["wrong"]), str(a["accepted"]), f"{a['claim']}/{a['accepted']}",
           f"{a['ms']:.0f}"]
    for peer, with_ms in (("orb", True), ("sift", False)):
        p = by.get(peer)
        cells = [f"{p['placed']}/{p['n']}", str(p["wrong"]), f"{p['ms']:.0f}"] if p else ["—", "—", "—"]
        row += cells if with_ms else cells[:2]
    return row


HARD_SPLITS = os.path.join("out", "hard-splits")


def sift_maps() -> Table:
    """ORB and SIFT maps (`--feature-type sift`) against the SIFT and ORB scripts, on the shared
    splits and on the harder ones `scripts/make-hard-splits.sh` derives from them."""
    if not os.path.isdir(SHARED_REAL):
        raise Skip(f"{SHARED_REAL} is absent")
    run(["scripts/make-hard-splits.sh", SHARED_REAL, HARD_SPLITS])

    def cells(c: Optional[dict], claim: bool) -> str:
        if c is None:
            return "—"
        text = f"{c['placed']}/{c['n']}, {c['wrong']} wrong"
        return text + (f", {c['claim']}/{c['accepted']} in claim" if claim else "") + f", {c['ms']:.0f} ms"

    def split_counts(d: dict) -> List[tuple]:
        return [(f"{s['scene']} {s['split'].removeprefix('split-')}", s["mapPhotos"],
                 {method_key(m["method"]): real_counts(m) for m in s["methods"]}) for s in d["splits"]]

    def total(counts: List[dict]) -> dict:
        t = {k: sum(c[k] for c in counts) for k in ("placed", "wrong", "accepted", "claim", "n")}
        t["ms"] = sum(c["ms"] * c["n"] for c in counts) / max(t["n"], 1)
        return t

    rows = []
    for label, folder, each in (("the shared splits", SHARED_REAL, False), ("the harder splits", HARD_SPLITS, True)):
        orb, sift = split_counts(bench_real(folder, "all")), split_counts(bench_real(folder, "none", "--feature-type", "sift"))
        lines = [(name, photos, by, s_by["arcloud"]) for (name, photos, by), (_, _, s_by) in zip(orb, sift)]
        if each:
            rows += [[name, str(photos), cells(by["arcloud"], True), cells(s, True), cells(by.get("sift"), False),
                      cells(by.get("orb"), False)] for name, photos, by, s in lines]
        rows.append([f"all {len(lines)} of {label}", "", cells(total([by["arcloud"] for _, _, by, _ in lines]), True),
                     cells(total([s for _, _, _, s in lines]), True), cells(total([by["sift"] for _, _, by, _ in lines]), False),
                     cells(total([by["orb"] for _, _, by, _ in lines]), False)])
    return Table(["splits", "map photos", "arcloud, ORB map", "arcloud, SIFT map", "SIFT script", "ORB script"], rows,
                 ["text", "text", "text", "text", "text", "text"])


def method_key(name: str) -> str:
    """`bench real`'s method names ("orb peer (cv::ORB 4000, own map)") by their first word."""
    return name.split()[0]


def overview() -> Table:
    """The README's one table: the headline figure of each job and the command behind it."""
    walk = localize_summary("gallery-query-walk")
    hard = localize_summary("gallery-query-hard")
    other = localize_summary("other-scene-query")
    bw, bh = bench_localize("gallery-query-walk"), bench_localize("gallery-query-hard")
    rows = [
        ["walk, single-shot, within (5 cm, 2°)", pct(recall_at_5cm(walk)), "`arcloud localize --map Maps/gallery.vpsmap Datasets/gallery-query-walk`"],
        ["blurred and dimmed, single-shot, within (5 cm, 2°)", pct(recall_at_5cm(hard)), "`arcloud localize --map Maps/gallery.vpsmap Datasets/gallery-query-hard`"],
        ["accepted frames within their claimed 95 % accuracy (walk, blurred)",
         f"{pct(walk['calibration']['withinClaim'] / walk['calibration']['accepted'])}, "
         f"{pct(hard['calibration']['withinClaim'] / hard['calibration']['accepted'])}", "the same two commands (their summary)"],
        ["frames of another scene accepted", f"{other['localized']} of {other['frames']}", "`arcloud localize --map Maps/gallery.vpsmap Datasets/other-scene-query`"],
        ["time per frame / ORB extraction alone (walk, blurred; one thread, mean)", f"{bw['orb']:.2f}×, {bh['orb']:.2f}×", "`arcloud bench localize --map Maps/gallery.vpsmap Datasets/gallery-query-walk` (and `-hard`)"],
        ["speed-up on an OpenCV-only localizer (walk, blurred)", f"{bw['speedup']:.0f}×, {bh['speedup']:.0f}×", "the same"],
    ]
    kinds = ["pp", "pp", "pp", "text", "ratio", "ratio"]

    # The real photos, when they are beside the clone.
    try:
        d = bench_real(SHARED_REAL, "none")
        t = {"placed": 0, "wrong": 0, "n": 0, "accepted": 0, "claim": 0}
        for split in d["splits"]:
            c = real_counts(next(m for m in split["methods"] if m["method"] == "arcloud"))
            for k in t:
                t[k] += c[k]
        rows.append(["real photos (`../shared/real`): placed, wrong, within claim",
                     f"{t['placed']}/{t['n']}, {t['wrong']} wrong, {t['claim']}/{t['accepted']}", "`arcloud bench real`"])
    except Skip:
        pass
    return Table(["what", "figure", "reproduce with"], rows, ["text", "text", "text"],
                 row_kinds=kinds + ["text"] * (len(rows) - len(kinds)))


def median(xs: List[float]) -> Optional[float]:
    xs = sorted(xs)
    if not xs:
        return None
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else 0.5 * (xs[m - 1] + xs[m])


def real_calibration(d: dict) -> List[str]:
    """accepted, placed of accepted, within claim, median error / claim (position) of a bench real run."""
    frames = [f for s in d["splits"] for m in s["methods"] if m["method"] == "arcloud" for f in m["frames"]]
    accepted = [f for f in frames if f.get("pose") is not None]
    placed = sum(1 for f in accepted if f["verdict"] == "success")
    claim = sum(1 for f in accepted if f.get("withinClaim"))
    ratio = median([f["translationFraction"] / f["claimedTranslationFraction"] for f in accepted
                    if f.get("claimedTranslationFraction")])
    share = f" ({100 * claim / len(accepted):.0f} %)" if accepted else ""
    return [str(len(accepted)), str(placed), f"{claim}{share}", f"{ratio:.2f}" if ratio is not None else "—"]


def calibration() -> Table:
    rows = [["the shared splits (`arcloud bench real`)"] + real_calibration(bench_real(SHARED_REAL, "none"))]
    with tempfile.TemporaryDirectory() as tmp:
        run(["scripts/make-hard-splits.sh", SHARED_REAL, os.path.join(tmp, "splits")])
        hard = json.loads(run([ARCLOUD, "bench", "real", os.path.join(tmp, "splits"), "--peers", "none", "--json"]))
        rows.append(["the harder splits (`scripts/make-hard-splits.sh`)"] + real_calibration(hard))
        for session in ("gallery-query-walk", "gallery-query-hard"):
            ss, tr = localize_summary(session), localize_summary(session, "--mode", "tracking")
            placed = lambda s: round(recall_at_5cm(s) * s["frames"])
            rows.append([f"`{session}`, single-shot / tracking",
                         f"{ss['calibration']['accepted']} / {tr['calibration']['accepted']}",
                         f"{placed(ss)} / {placed(tr)} (5 cm, 2°)",
                         f"{ss['calibration']['withinClaim']} / {tr['calibration']['withinClaim']}",
                         f"{ss['calibration']['medianPositionRatio']:.2f} / {tr['calibration']['medianPositionRatio']:.2f}"])
        street = os.path.join(tmp, "street.vpsmap")
        run([ARCLOUD, "map", "build", "--session", "Datasets/street-mapping", "--out", street])
        out = os.path.join(tmp, "street")
        run([ARCLOUD, "localize", "--map", street, "Datasets/street-query-walk", "--out", out])
        with open(os.path.join(out, "summary.json")) as f:
            st = json.load(f)
        rows.append(["`street-query-walk` (its own map, built from `street-mapping`)", str(st["calibration"]["accepted"]),
                     f"{round(recall_at_5cm(st) * st['frames'])} (5 cm, 2°)", str(st["calibration"]["withinClaim"]),
                     f"{st['calibration']['medianPositionRatio']:.2f}"])
    return Table(["set", "accepted", "placed of accepted", "within claim", "median error / claim (position)"], rows,
                 ["text", "text", "text", "text", "rel"])


# The eight blurred gallery sessions beside the shipped one (docs/localizer.md's footnote).
BLURRED_SEEDS = [61, 62, 63, 64, 65, 81, 82, 83]
BLURRED_SESSIONS = os.path.join("out", "blurred-sessions")


def blurred_sessions() -> List[str]:
    """The shipped hard session and eight more of its kind (rendered into out/ once)."""
    folders = ["Datasets/gallery-query-hard"]
    for seed in BLURRED_SEEDS:
        folder = os.path.join(BLURRED_SESSIONS, f"s{seed}")
        if not os.path.exists(os.path.join(folder, "session.json")):
            run([ARCLOUD, "dataset", "synth", folder, "--layout", "gallery", "--seed", "7", "--size", "640x480",
                 "--quality", "85", "--trajectory", "hard", "--frames", "70", "--session-seed", str(seed)])
        folders.append(folder)
    return folders


def deblur_effect() -> Table:
    """Single-shot / tracking (and image-only) recall at (5 cm, 2°) on the blurred sessions,
    with and without the motion-blur removal, and the frames accepted more than 25 cm off."""
    folders = blurred_sessions()
    modes = {"single-shot": [], "tracking": ["--mode", "tracking"], "image only": ["--no-gravity"]}
    recall: Dict[tuple, List[float]] = {}
    far = {"--no-deblur": 0, "default": 0}
    frames = 0
    for deblur, extra in (("--no-deblur", ["--no-deblur"]), ("default", [])):
        for mode, flags in modes.items():
            for folder in folders:
                with tempfile.TemporaryDirectory() as out:
                    run([ARCLOUD, "localize", "--map", "Maps/gallery.vpsmap", folder, "--out", out, *flags, *extra])
                    with open(os.path.join(out, "summary.json")) as f:
                        recall.setdefault((deblur, mode), []).append(recall_at_5cm(json.load(f)))
                    with open(os.path.join(out, "results.jsonl")) as f:
                        for line in f:
                            r = json.loads(line)
                            frames += deblur == "default"
                            pose, truth = r["result"].get("pose"), r.get("groundTruth")
                            if pose and truth and sum((a - b) ** 2 for a, b in zip(pose["t"], truth["t"])) > 0.25 ** 2:
                                far[deblur] += 1
    mean = lambda k: sum(recall[k]) / len(recall[k])
    both = lambda d, f: f"{pct(f((d, 'single-shot')))} / {pct(f((d, 'tracking')))}"
    shipped = lambda k: recall[k][0]
    return Table(["blurred session (single-shot / tracking)", "`--no-deblur`", "default"], [
        ["shipped gallery (`Datasets/gallery-query-hard`)", both("--no-deblur", shipped), both("default", shipped)],
        ["nine gallery sessions (the shipped one and eight more¹), mean", both("--no-deblur", mean), both("default", mean)],
        ["the same nine from the images alone (`--no-gravity`), single-shot",
         pct(mean(("--no-deblur", "image only"))), pct(mean(("default", "image only")))],
        ["accepted more than 25 cm off, those nine in all three modes",
         f"{far['--no-deblur']} of {frames:,}", f"{far['default']} of {frames:,}"],
    ], ["text", "text", "text"])


def unseen_scenes() -> Table:
    """`scripts/unseen-scenes.py` on its default scenes: single-shot / tracking per query route."""
    p = subprocess.run(["scripts/unseen-scenes.py"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):  # 1: a frame accepted far off, which the table shows
        sys.exit(f"figures: scripts/unseen-scenes.py exited {p.returncode}:\n{p.stderr[-2000:]}")
    found: Dict[tuple, Dict[str, tuple]] = {}
    for m in re.finditer(r"^(\S+)\s+(walk|hard)\s+(single-shot|tracking)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(.*)$",
                         p.stdout, re.M):
        found.setdefault((m.group(1), m.group(2)), {})[m.group(3)] = m.groups()[3:]
    rows = []
    for (scene, route), modes in found.items():
        s, t = modes["single-shot"], modes["tracking"]
        rows.append([f"`{scene}` {route}", s[0], f"{s[1]} / {t[1]}", f"{s[2]} / {t[2]}", f"{s[3]} / {t[3]}",
                     f"{s[4]} / {t[4]}"])
    return Table(["scene, route", "frames", "accepted (single-shot / tracking)", "placed (5 cm, 2°)", "within claim",
                  "worst accepted error (by position)"], rows,
                 ["text"] * 6)


# ------------------------------------------------------------------- docs/venues.md

# `bench scale`'s sizes: the buildings of about 30 k points (1x1x2), 300 k (1x4x6) and 1 M
# (3x5x6). About 30 minutes on 2 cores the first time, most of it generating the sessions.
SCALE_SIZES = "30k,300k,1M"
SCALE_WORK = os.path.join("out", "bench-scale")


def bench_scale() -> dict:
    """`arcloud bench scale --json`: sessions are made once in out/bench-scale and reused, maps built every run."""
    return memo("scale", lambda: json.loads(run([ARCLOUD, "bench", "scale", "--sizes", SCALE_SIZES, "--work", SCALE_WORK,
                                                  "--json"])))


def percent_pair(a: float, b: float) -> str:
    f = lambda x: f"{x:.1f}".removesuffix(".0")
    return f"{f(a)} / {f(b)} %"


def scale_row(r: dict, ratios: Dict[str, float]) -> List[str]:
    p, b = r["probe"], r.get("build")
    runs = {(x["session"], x["mode"]): x for x in p["runs"]}
    share = lambda s, m: 100 * runs[(s, m)]["within"] / max(runs[(s, m)]["frames"], 1)
    single, tracking = p["p50"]["single-shot"], p["p50"]["tracking"]
    ratio = ratios.get(r["label"])
    return [r.get("building") or "gallery (shipped)", f"{p['keyframes']:,}", f"{p['points']:,}",
            f"{b['wallSeconds']:.0f} s" if b else "—", f"{b['peakResidentBytes'] / 1e9:.2f} GB" if b else "—",
            f"{p['fileBytes'] / 1e6:.1f} MB", f"{p['loadSeconds']:.2f} / {p['readySeconds']:.2f} s",
            f"{p['residentBytes'] / 1e6:.0f} MB ({p['residentBytes'] / max(p['points'], 1):.0f} B)",
            f"{p['heapBytes'] / 1e6:.0f} MB",
            percent_pair(share("walk", "single-shot"), share("walk", "tracking")),
            percent_pair(share("hard", "single-shot"), share("hard", "tracking")),
            f"{sum(x['wrong'] for x in p['runs'])}/{sum(x['frames'] for x in p['runs'])}",
            f"{single['total']:.2f} ({single.get('retrieve', 0) + single.get('match', 0):.2f})", f"{tracking['total']:.2f}",
            f"{ratio:.2f}×" if ratio is not None else "—"]


def venue_scale() -> Table:
    d = bench_scale()
    failed = [f"{r['label']}: {r['failure']}" for r in d["results"] if r.get("failure")]
    if failed:
        sys.exit("figures: bench scale failed: " + "; ".join(failed))
    return Table(["map", "keyframes", "points", "build", "build peak", "file", "load / ready", "resident (per point)", "heap",
                  "walk single / tracking", "hard single / tracking", "wrong", "single-shot ms (retrieve+match)",
                  "tracking ms", "single-shot / gallery"],
                 [scale_row(r, d["singleShotRatioToBaseline"]) for r in d["results"]],
                 ["text", "text", "text", "ms", "ms", "rel", "ms", "ms", "ms", "pp", "pp", "text", "ms", "ms", "ratio"])


GALLERY_VENUE = os.path.join("out", "gallery-venue-9")


def gallery_venue() -> Table:
    """The nine-gallery venue (made once by scripts/make-gallery-venue.sh, its parts reused), each
    shipped query session through `bench localize --venue`."""
    run(["scripts/make-gallery-venue.sh", "9", GALLERY_VENUE])
    rows = []
    for label in ("walk", "hard"):
        b = bench_localize(f"gallery-query-{label}", "--venue", os.path.join(GALLERY_VENUE, "venue.vpsmap"))
        alone, venue = b["rows"]["arcloud"], b["rows"]["arcloud venue"]
        # success, within, err cm, err deg, median ms, fps
        rows.append([label, f"{pct(alone[0] / 100)} / {pct(venue[0] / 100)}", f"{pct(alone[1] / 100)} / {pct(venue[1] / 100)}",
                     str(b["venueOff"]), f"{b['venue']:.2f}×", f"{venue[4]:.2f} / {alone[4]:.2f}"])
    return Table(["session", "localized, gallery alone / venue", "within (5 cm, 2°), gallery alone / venue",
                  "venue: accepted outside (25 cm, 5°)", "mean time, venue / gallery", "median ms, venue / gallery"],
                 rows, ["text", "pp", "pp", "text", "ratio", "ms"])


# --------------------------------------------------------------------- docs/geo.md

GEO_TRUTH = "52.3731,4.8922,2.5,30"


def geo_poses() -> Table:
    """GeoPose errors against the exact truth of synthetic streets: maps georeferenced from
    their mapping session's GPS (three captures, and one with noisier GPS), and by hand."""
    def localize_geo(tmp: str, vpsmap: str, walk: str, name: str) -> dict:
        out = os.path.join(tmp, name)
        run([ARCLOUD, "localize", "--map", vpsmap, walk, "--out", out])
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)["geoPoses"]

    def cells(g: dict) -> List[str]:
        return [f"{g['medianHorizontalError']:.2f} / {g['maxHorizontalError']:.2f} m", f"{g['withinClaim']} of {g['frames']}"]

    street = ["--layout", "street", "--seed", "5", "--georef", GEO_TRUTH]
    rows, fits = [], []
    with tempfile.TemporaryDirectory() as tmp:
        walk = os.path.join(tmp, "walk")
        run([ARCLOUD, "dataset", "synth", walk, *street, "--gps-noise", "5", "--session-seed", "52", "--trajectory", "walk",
             "--frames", "32"])
        for seed, noise in (("51", "5"), ("61", "5"), ("71", "5"), ("51", "12")):
            mapping, vpsmap = os.path.join(tmp, f"mapping-{seed}-{noise}"), os.path.join(tmp, f"street-{seed}-{noise}.vpsmap")
            run([ARCLOUD, "dataset", "synth", mapping, *street, "--gps-noise", noise, "--session-seed", seed, "--frames", "90"])
            run([ARCLOUD, "map", "build", "--session", mapping, "--out", vpsmap, "--quiet"])
            g = localize_geo(tmp, vpsmap, walk, f"walk-{seed}-{noise}")
            if noise == "5":
                fits.append(g)
            per_axis = " (about 5 m per axis)" if noise == "12" else ""
            rows.append([f"GPS, {noise} m accuracy{per_axis}, mapping session-seed {seed}"] + cells(g))
        hand = os.path.join(tmp, "hand.vpsmap")
        run(["cp", os.path.join(tmp, "street-51-5.vpsmap"), hand])
        origin, heading = GEO_TRUTH.rsplit(",", 1)
        run([ARCLOUD, "map", "georef", hand, "--origin", origin, "--heading", heading])
        rows.append(["by hand (`map georef` on the true origin and heading)"] + cells(localize_geo(tmp, hand, walk, "walk-hand")))
    within, frames = sum(g["withinClaim"] for g in fits), sum(g["frames"] for g in fits)
    rows.insert(3, ["the three 5 m fits together", "—", f"{within} of {frames} ({100 * within / max(frames, 1):.0f} %)"])
    return Table(["georeference", "GeoPose error, median / max horizontally", "within their claimed accuracy"], rows,
                 ["text", "rel", "text"])


# ----------------------------------------------------------------- docs/service.md

SERVE = [ARCLOUD, "bench", "serve", "--maps", "Maps", "--map", "gallery", "--dataset", "Datasets/gallery-query-walk", "--json"]
SERVE_RUNS = 3


def bench_serve_runs() -> List[dict]:
    """`bench serve` with its defaults (7 rounds × 100 timed requests per concurrency), three runs."""
    return memo("serve", lambda: [json.loads(run(SERVE)) for _ in range(SERVE_RUNS)])


def span(values: List[float], fmt: str = "{:.2f}", signed: bool = False) -> str:
    """The range of `values` ("1.98–2.01", or one value when they agree); signed: "−0.25 to +0.07"."""
    def f(v: float) -> str:
        text = (("+" if v >= 0 else "−") + fmt.format(abs(v))) if signed else fmt.format(v)
        return text
    lo, hi = f(min(values)), f(max(values))
    if lo == hi:
        return lo
    return f"{lo} to {hi}" if signed else f"{lo}–{hi}"


def cpu_total(cpu: dict) -> float:
    return cpu["workersMs"] + cpu["connectionThreadsMs"] + cpu["clientMs"] + cpu["otherMs"]


def level(report: dict, concurrency: int) -> dict:
    return next(l for l in report["summary"]["levels"] if l["combined"]["concurrency"] == concurrency)


def serve_throughput() -> Table:
    runs = bench_serve_runs()
    summaries = [r["summary"] for r in runs]
    cores = summaries[0]["cores"]
    concurrencies = [l["combined"]["concurrency"] for l in summaries[0]["levels"]]
    top = concurrencies[-1]
    added = [cpu_total(level(r, top)["combined"]["cpu"]) - r["summary"]["parallelCPUMs"] for r in runs]
    added_pct = [a / r["summary"]["parallelCPUMs"] * 100 for a, r in zip(added, runs)]
    steal = [r["stolenCPUPercent"] for r in runs if r.get("stolenCPUPercent") is not None]
    answered = [l["combined"] for r in runs for l in r["summary"]["levels"]]
    requests, localized = sum(a["requests"] for a in answered), sum(a["localized"] for a in answered)
    errors = sum(a["errors"] for a in answered)
    rows = [
        ["in-process, 1 thread", f"{span([s['singleThreadRequestsPerSecond'] for s in summaries], '{:.1f}')} req/s", "ms"],
        # Per run: it shows how much of the machine each run had, and so how to read its scaling.
        [f"in-process, {cores} threads (each run)",
         " / ".join(f"{s['parallelSpeedup']:.2f}" for s in summaries) + " × the 1-thread rate", "ratio"],
        [f"scaling at concurrency {' / '.join(map(str, concurrencies))} (each run's medians)",
         "; ".join(" / ".join(f"{l['combined']['scaling']:.2f}" for l in s["levels"]) for s in summaries), "ratio"],
        [f"worst single round at concurrency {cores}", span([level(r, cores)["worstScaling"] for r in runs]), "ratio"],
        ["HTTP overhead at concurrency 1", f"{span([s['overheadMs'] for s in summaries], signed=True)} ms", "ms"],
        [f"CPU per request at concurrency {top}, HTTP over in-process on {cores} threads",
         f"{span(added, signed=True)} ms ({span(added_pct, '{:.1f}', signed=True)} %)", "ms"],
        ["CPU time stolen by the hypervisor (whole run)", f"{span(steal, '{:.1f}')} %" if steal else "—", "ms"],
        # Other work on the machine takes cores the scaling counts on: the load shows it.
        ["load average (1 min) before and after each run",
         span([x for r in runs for x in (r["loadAverageBefore"][0], r["loadAverageAfter"][0])], "{:.1f}"), "ms"],
        ["answered", f"{requests:,} / {requests:,} localized, {errors} errors" if localized == requests
         else f"{localized:,} of {requests:,} localized, {errors} errors", "text"],
    ]
    return Table(["", f"{len(runs)} runs"], [r[:2] for r in rows], ["text", "text"], row_kinds=[r[2] for r in rows])


def serve_cpu() -> Table:
    """CPU per request by thread at each concurrency (the same runs), against the in-process
    localizations at the same parallelism."""
    runs = bench_serve_runs()
    rows = []
    for l in runs[0]["summary"]["levels"]:
        c = l["combined"]["concurrency"]
        cpus = [level(r, c)["combined"]["cpu"] for r in runs]
        same = [r["summary"]["inProcessCPUMs"] if c == 1 else r["summary"]["parallelCPUMs"] for r in runs]
        rows.append([str(c)] + [span([x[k] for x in cpus]) for k in ("workersMs", "connectionThreadsMs", "clientMs", "otherMs")]
                    + [span([cpu_total(x) for x in cpus]), span(same)])
    return Table(["concurrency", "workers", "connection threads", "client", "other", "all threads",
                  "in-process, same parallelism"], rows, ["text", "ms", "ms", "ms", "ms", "ms", "ms"])


def serve_idle_helpers() -> Table:
    """`bench serve --rounds 5` with the default idle-core helpers (cores − 1) and with none, back to back."""
    rows = []
    first = None
    for helpers in ("default", "0"):
        flags = ["--rounds", "5"] + (["--idle-helpers", helpers] if helpers != "default" else [])
        r = json.loads(run(SERVE + flags))
        s = r["summary"]
        first = first or s
        one = level(r, 1)["combined"]
        label = f"{s['cores'] - 1} (the default: cores − 1)" if helpers == "default" else helpers
        rows.append([label, " / ".join(f"{l['combined']['scaling']:.2f}" for l in s["levels"]),
                     f"{span([s['overheadMs']], signed=True)} ms ({span([s['overheadPercent']], '{:.1f}', signed=True)} %)",
                     f"{one['p50Ms']:.1f} ms", f"{s['parallelSpeedup']:.2f} ×"])
    concurrencies = " / ".join(str(l["combined"]["concurrency"]) for l in first["levels"])
    # The last column says whether a core was free for the helpers to lend.
    return Table(["`--idle-helpers`", f"scaling at concurrency {concurrencies}", "HTTP overhead at concurrency 1",
                  "p50 latency at concurrency 1", f"in-process, {first['cores']} threads (how much of the machine there was)"],
                 rows, ["text", "ratio", "ms", "ms", "ratio"])


def parse_venue_cache(out: str) -> dict:
    """scripts/venue-cache-check.sh's lines: what each map holds, the budget, and each turn's
    recall, differences from the single-map runs, cache counters and the process's memory."""
    held = re.search(r"maps in memory: big (\d+) MB, small (\d+) MB; cache budget (\d+) MB", out)
    turns = [dict(zip(("turn", "map", "within", "frames", "wrong", "differ", "loads", "evictions", "hits", "process"),
                      (int(t[0]), t[1], *map(int, t[2:]))))
             for t in re.findall(r"^turn (\d+) (big|small)\s*: (\d+)/(\d+) within \(5 cm, 2°\), (\d+) wrong, (\d+) unlike alone; "
                                 r"cache loads (\d+), evictions (\d+), hits (\d+), resident \d+ MB of \d+ MB; process (\d+) MB",
                                 out, re.M)]
    return {"big": int(held.group(1)), "small": int(held.group(2)), "budget": int(held.group(3)), "turns": turns}


def venue_cache() -> Table:
    """scripts/venue-cache-check.sh on bench scale's 1 M-point building and its 30 k-point one
    (made by the venue-scale table's run, kept in out/bench-scale)."""
    big, small = (os.path.join(SCALE_WORK, f"building-{s}") for s in ("3x5x6", "1x1x2"))
    for v in (big, small):
        if not os.path.isfile(os.path.join(ROOT, v, "map.vpsmap")):
            raise Skip(f"{v} is absent (scripts/figures.sh venue-scale makes it)")
    out, seconds = timed(["scripts/venue-cache-check.sh", big, small])
    d = parse_venue_cache(out)
    points = {}
    for v in (big, small):
        with open(os.path.join(ROOT, v, "probe.json")) as f:
            points[v] = json.load(f)["points"]
    turns, last = d["turns"], d["turns"][-1]
    within = lambda m: sorted({f"{t['within']}/{t['frames']}" for t in turns if t["map"] == m})
    process = lambda m: span([t["process"] for t in turns if t["map"] == m], "{:,.0f}")
    rows = [
        ["the maps, as the cache measures them", f"3x5x6 building ({points[big]:,} points): {d['big']:,} MB; "
         f"1x1x2 ({points[small]:,} points): {d['small']:,} MB", "rel"],
        ["`--map-cache-mb` (the building and half the small map)", f"{d['budget']:,}", "rel"],
        [f"{len(turns) // 2} turns of both walks: loads, evictions, hits",
         f"{last['loads']}, {last['evictions']}, {last['hits']}", "text"],
        ["answers unlike the single-map runs; wrong", f"{sum(t['differ'] for t in turns)}; {sum(t['wrong'] for t in turns)}",
         "text"],
        ["walk within (5 cm, 2°), every turn: building; small map", f"{', '.join(within('big'))}; {', '.join(within('small'))}",
         "text"],
        ["process resident with the small map loaded; with the building", f"{process('small')} MB; {process('big')} MB", "ms"],
        ["the whole check", f"{seconds:.0f} s", "ms"],
    ]
    return Table(["what", "figure"], [r[:2] for r in rows], ["text", "text"], row_kinds=[r[2] for r in rows])


# ------------------------------------------------ docs/hardening.md, docs/development.md

def ci_asan_skip() -> str:
    """The `--skip` pattern CI's ASan step passes (.ci/run's asan_skip), so the figure is CI's."""
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        return "".join(re.findall(r"^asan_skip\+?='([^']*)'", f.read(), re.M))


def timed(args: List[str]) -> tuple:
    """Runs a script (stdout and stderr together) and returns its output and wall seconds."""
    t0 = time.monotonic()
    p = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit(f"figures: {' '.join(args)} exited {p.returncode}:\n{p.stdout[-3000:]}")
    return p.stdout, time.monotonic() - t0


def parse_sanitize(out: str, mode: str) -> dict:
    """scripts/sanitize.sh's own lines: the build's seconds, the tests run and their seconds,
    the suites (swift-testing's "Test run with N tests in M suites"), clean or not."""
    build = int(re.search(rf"sanitize {mode}: build (\d+) s", out).group(1))
    tests, seconds = map(int, re.search(rf"sanitize {mode}: (\d+) tests run in (\d+) s", out).groups())
    suites = sum(int(x) for x in re.findall(r"Test run with \d+ tests? in (\d+) suites?", out))
    return {"build": build, "tests": tests, "seconds": seconds, "suites": suites,
            "clean": f"sanitize {mode}: clean" in out}


def parse_fuzz(out: str) -> dict:
    """scripts/fuzz.sh's table: target, seconds, executions, exec/s, corpus, result."""
    rows = re.findall(r"^([\w-]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(ok|FAILED.*)$", out, re.M)
    return {"targets": len(rows), "executions": sum(int(r[2]) for r in rows),
            "findings": [r[0] for r in rows if r[5] != "ok"]}


def load_average() -> str:
    """The 1-minute load average: how much other work shared the machine."""
    return f"{os.getloadavg()[0]:.0f}"


def hardening() -> Table:
    """CI's ASan+UBSan step, the concurrent suites under TSan, and CI's fuzzing, each rerun."""
    asan_out, _ = timed(["scripts/sanitize.sh", "asan", "--skip", ci_asan_skip()])
    asan = parse_sanitize(asan_out, "asan")
    tsan_out, _ = timed(["scripts/sanitize.sh", "tsan"])
    tsan = parse_sanitize(tsan_out, "tsan")
    fuzz = parse_fuzz(timed(["scripts/fuzz.sh", "20"])[0])
    verdict = lambda s: "clean" if s["clean"] else "NOT clean"
    return Table(["what", "figure", "reproduce with"], [
        ["CI's ASan+UBSan step (every suite but the real-photo map builds and the whole-session repeats)",
         f"{asan['tests']} tests, {asan['seconds']} s after a {asan['build']} s build, {verdict(asan)}", "`.ci/run` (its last step)"],
        ["the concurrent suites under TSan",
         f"{tsan['tests']} tests in {tsan['suites']} suites, {tsan['seconds']} s after a {tsan['build']} s build, {verdict(tsan)}",
         "`scripts/sanitize.sh tsan`"],
        ["fuzzing in CI", f"{fuzz['targets']} targets × 20 s, {fuzz['executions'] / 1e6:.2f} M executions, "
         + (f"findings in {', '.join(fuzz['findings'])}" if fuzz["findings"] else "no finding"), "`scripts/fuzz.sh 20`"],
    ], ["text", "text", "text"], row_kinds=["text", "text", "text"])


def cluster_test() -> Table:
    """`scripts/cluster.sh test` (release build): its own report lines."""
    out, seconds = timed(["scripts/cluster.sh", "test"])
    said = lambda pattern: re.search(pattern, out)
    batch = said(r"localized (\d+) frames through the balancer in (\d+) s .*?per replica: ([^\n]*)")
    kill = said(r"mid-batch during (\d+) curl localizations: all answered 200 in \d+ s, (\d+) retried")
    passed = said(r"PASSED in (\d+) s")
    identical = "poses identical to the embedded run" if said(r"equal the embedded run's") else "poses NOT identical"
    figure = (f"{passed.group(1)} s in all (release build; load {load_average()} after it): {batch.group(1)} frames through nginx "
              f"in {batch.group(2)} s, {' / '.join(batch.group(3).split())} per replica, {identical}; a replica SIGKILLed mid-batch: "
              f"{kill.group(1)} / {kill.group(1)} answered 200, {kill.group(2)} retried by nginx")
    return Table(["what", "figure", "reproduce with"], [["the cluster test", figure, "`scripts/cluster.sh test`"]],
                 ["text", "text", "text"], row_kinds=["text"])


def ci_time() -> Table:
    """`.ci/run` in a fresh clone of HEAD beside ../shared (as CI runs it): each step's seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = os.path.join(tmp, "arcloud")
        run(["git", "clone", "-q", ROOT, clone])
        if not os.path.isdir(SHARED_REAL):
            raise Skip(f"{SHARED_REAL} is absent")
        os.symlink(os.path.dirname(SHARED_REAL), os.path.join(tmp, "shared"))
        t0 = time.monotonic()
        p = subprocess.run([".ci/run"], cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        total = time.monotonic() - t0
        # The whole output, and the sanitizer's test log, outlive the clone: a failure
        # late in the run is otherwise known only by the tail printed below.
        os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
        with open(os.path.join(ROOT, "out", "ci-time.log"), "w") as f:
            f.write(p.stdout)
        for log in glob.glob(os.path.join(clone, ".build-*", "sanitize-*.log")):
            shutil.copy(log, os.path.join(ROOT, "out", "ci-time-" + os.path.basename(log)))
        if p.returncode != 0:
            sys.exit(f"figures: .ci/run exited {p.returncode} (whole output: out/ci-time.log):\n{p.stdout[-3000:]}")
    return Table(["what", "figure", "reproduce with"], [["CI", ci_figure(p.stdout, total), "`.ci/run` in a fresh clone beside `shared/`"]],
                 ["text", "text", "text"], row_kinds=["text"])


def ci_figure(out: str, total: float) -> str:
    """One line from .ci/run's output: the whole time, then each step's, with what its own lines count."""
    steps = dict((name, int(s)) for name, s in re.findall(r"^=== ci: (.*?) passed in (\d+) s", out, re.M))
    by = lambda prefix: next((s for name, s in steps.items() if name.startswith(prefix)), None)
    tests = sum(int(x) for x in re.findall(r"Test run with (\d+) tests?", out.split("=== ci: SDK")[0]))
    fuzz = parse_fuzz(out)
    asan = re.search(r"sanitize asan: (\d+) tests run", out)
    parts = [f"tests {by('tests')} s (clean build included; {tests} tests)", f"dependency {by('SDK')} s",
             f"figures {by('figures')} s (the release build included)",
             f"real-photo negatives {by('real-photo negatives')} s", f"cluster {by('cluster')} s",
             f"fuzzing {by('fuzzing')} s ({fuzz['targets']} targets × 20 s, "
             + (f"findings in {', '.join(fuzz['findings'])})" if fuzz["findings"] else "no finding)"),
             f"evo {by('evo')} s", f"ASan+UBSan {by('ASan')} s ({asan.group(1) if asan else '?'} tests, clean)"]
    return f"{int(total) // 60} min {int(total) % 60} s from a fresh clone: " + ", ".join(parts)


def max_rss(args: List[str], expect_ok: bool = True) -> tuple:
    """Runs a command under /usr/bin/time: (wall seconds, max RSS in kB). A command expected
    to fail (a decode-only run) may exit non-zero."""
    p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M", *args], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if expect_ok and p.returncode != 0:
        sys.exit(f"figures: {' '.join(args)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    m = re.findall(r"^TIME ([\d.]+) (\d+)$", p.stderr, re.M)[-1]
    return float(m[0]), int(m[1])


def long_sessions() -> Table:
    """localize's and dataset validate's time and memory on long sessions made from the walk.
    Reading session.json alone is measured up to 100,000 frames and its growth per frame
    taken from 50,000 on: a short session's read fits under the peak that start-up itself
    reaches (about 39 MB), so only the step between two long ones measures its cost."""
    run(["scripts/setup.sh", "time"])  # /usr/bin/time, for the max RSS
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rss = {}
        for n in (5000, 50000, 100000):
            folder = os.path.join(tmp, f"long{n}")
            run(["python3", "scripts/long-session.py", "Datasets/gallery-query-walk", str(n), folder])
            if n < 100000:  # localizing 100,000 frames takes a quarter of an hour
                seconds, rss[("localize", n)] = max_rss([ARCLOUD, "localize", "--map", "Maps/gallery.vpsmap", folder,
                                                         "--out", os.path.join(tmp, f"out{n}")])
                rows.append([f"`localize`, {n:,} frames (2 workers)", f"{seconds:.0f} s", f"{rss[('localize', n)]:,} kB"])
            # Decode only: the same session with a camera no reader accepts stops right after
            # reading session.json.
            with open(os.path.join(folder, "session.json")) as f:
                session = json.load(f)
            session["camera"]["fx"] = 0
            with open(os.path.join(folder, "session.json"), "w") as f:
                json.dump(session, f)
            seconds, rss[("decode", n)] = max_rss([ARCLOUD, "localize", "--map", "Maps/gallery.vpsmap", folder,
                                                   "--out", os.path.join(tmp, f"bad{n}")], expect_ok=False)
            rows.append([f"reading its `session.json` alone, {n:,} frames", f"{seconds:.1f} s", f"{rss[('decode', n)]:,} kB"])
            shutil.rmtree(folder)
        for what, a, b in (("localize", 5000, 50000), ("decode", 50000, 100000)):
            per = (rss[(what, b)] - rss[(what, a)]) * 1024 / (b - a)
            rows.append([f"growth per frame, {'localize' if what == 'localize' else 'reading the session'} "
                         f"({a:,} to {b:,} frames)", "—", f"{per:,.0f} bytes"])
        # validate: 100,000 frames naming one small image, and 10,000 distinct files.
        walk = json.load(open(os.path.join(ROOT, "Datasets/gallery-query-walk/session.json")))
        for n, distinct in ((100000, False), (10000, True)):
            folder = os.path.join(tmp, f"validate{n}")
            os.makedirs(os.path.join(folder, "frames"))
            frames = []
            for i in range(n):
                f = dict(walk["frames"][i % len(walk["frames"])])
                name = f"frames/{i:06d}.jpg" if distinct else "frames/one.jpg"
                if distinct or i == 0:
                    shutil.copyfile(os.path.join(ROOT, "Datasets/gallery-query-walk", f["image"]), os.path.join(folder, name))
                f.update(id=f"{i:06d}", image=name, timestamp=i / 30)
                frames.append(f)
            with open(os.path.join(folder, "session.json"), "w") as fp:
                json.dump(dict(walk, frames=frames), fp)
            seconds, kb = max_rss([ARCLOUD, "dataset", "validate", folder, "--quiet"])
            what = "naming one 640×480 image" if not distinct else "of distinct 640×480 files"
            rows.append([f"`dataset validate`, {n:,} frames {what}", f"{seconds:.1f} s", f"{kb:,} kB"])
            shutil.rmtree(folder)
    return Table(["run", "wall time (2 cores)", "max RSS / per frame"], rows, ["text", "ms", "text"])


@dataclass
class Generator:
    make: Callable[[], Table]
    fast: bool  # rerun by --check
    what: str


GENERATORS: Dict[str, Generator] = {
    "overview": Generator(overview, True, "README's table: localize and bench localize on the shipped sessions, bench real"),
    "sessions": Generator(sessions, True, "arcloud localize on every shipped session, both modes"),
    "bench-localize": Generator(bench_localize_table, True, "arcloud bench localize on the shipped query sessions"),
    "bench-localize-parts": Generator(bench_localize_parts_table, True,
                                      "the same runs: refine by step and verify by check"),
    "calibration": Generator(calibration, False, "how often accepted frames lie within their claim: every set with truth"),
    "deblur-effect": Generator(deblur_effect, False, "arcloud localize on the nine blurred gallery sessions, three modes, "
                               "with and without --no-deblur (eight rendered into out/blurred-sessions)"),
    "unseen-scenes": Generator(unseen_scenes, False, "scripts/unseen-scenes.py: synthetic streets, a gallery and a studio "
                               "no tuning has seen, single-shot and tracking"),
    "bench-real": Generator(bench_real_table, False, "arcloud bench real --peers all on ../shared/real"),
    "bench-real-shipped": Generator(lambda: bench_real_table(SHIPPED_REAL, "orb"), True,
                                    "arcloud bench real --peers orb on the photos shipped with the tests"),
    "sift-maps": Generator(sift_maps, False, "bench real --peers all, ORB and SIFT maps, on ../shared/real and the harder "
                           "splits of scripts/make-hard-splits.sh"),
    "venue-scale": Generator(venue_scale, False, f"arcloud bench scale --sizes {SCALE_SIZES} (sessions kept in out/bench-scale)"),
    "long-sessions": Generator(long_sessions, False, "localize and dataset validate on long sessions: time and max RSS"),
    "gallery-venue": Generator(gallery_venue, False, "scripts/make-gallery-venue.sh 9, then bench localize --venue on both sessions"),
    "geo-poses": Generator(geo_poses, False, "GeoPose errors on synthetic streets: GPS-fitted and hand-placed maps"),
    "serve-throughput": Generator(serve_throughput, False, f"arcloud bench serve, {SERVE_RUNS} runs of its defaults"),
    "serve-cpu": Generator(serve_cpu, False, "CPU per request by thread, from the same bench serve runs"),
    "venue-cache": Generator(venue_cache, False, "scripts/venue-cache-check.sh on bench scale's 3x5x6 and 1x1x2 buildings"),
    "serve-idle-helpers": Generator(serve_idle_helpers, False, "arcloud bench serve --rounds 5, idle-core helpers on and off"),
    "hardening": Generator(hardening, False, "sanitize.sh asan (CI's skips) and tsan, fuzz.sh 20"),
    "cluster-test": Generator(cluster_test, False, "scripts/cluster.sh test"),
    "ci-time": Generator(ci_time, False, ".ci/run in a fresh clone beside ../shared"),
}


# ------------------------------------------------------------------------------ checking

def numbers(cell: str) -> List[float]:
    return [float(x.replace(",", "")) for x in NUMBER.findall(cell)]


def differences(old: str, new: Table, kinds_for_row) -> List[str]:
    """Where the table written in a document differs from the fresh one beyond tolerance."""
    old_rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in old.strip().splitlines()[2:]]
    if len(old_rows) != len(new.rows):
        return [f"{len(old_rows)} rows written, {len(new.rows)} now"]
    found = []
    for r, (a, b) in enumerate(zip(old_rows, new.rows)):
        if len(a) != len(b):
            found.append(f"row {r + 1}: {len(a)} columns written, {len(b)} now")
            continue
        for c, (x, y) in enumerate(zip(a, b)):
            kind = kinds_for_row(r, c)
            if kind == "text" or kind not in TOLERANCE:
                if x != y:
                    found.append(f"row '{a[0]}', column '{new.header[c]}': written {x!r}, now {y!r}")
                continue
            xs, ys = numbers(x), numbers(y)
            how, tol = TOLERANCE[kind]
            bad = len(xs) != len(ys) or any(
                abs(p - q) > (tol if how == "abs" else tol * max(abs(q), 1e-9)) for p, q in zip(xs, ys))
            if bad:
                found.append(f"row '{a[0]}', column '{new.header[c]}': written {x!r}, now {y!r} (tolerance {kind})")
    return found


def kinds_of(table: Table):
    if table.row_kinds is not None:
        return lambda r, c: table.row_kinds[r] if c == 1 else "text"
    return lambda r, c: table.kinds[c]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    if "--list" in sys.argv:
        for name, g in GENERATORS.items():
            print(f"{name:16} {'fast' if g.fast else 'slow'}  {g.what}")
        return 0
    unknown = [a for a in args if a not in GENERATORS]
    if unknown:
        sys.exit(f"figures: unknown table {', '.join(unknown)} (figures.sh --list names them)")
    failures, checked, skipped = [], 0, set()
    tables: Dict[str, Optional[Table]] = {}
    for doc in DOCUMENTS:
        path = os.path.join(ROOT, doc)
        with open(path) as f:
            text = f.read()

        def replace(m):
            nonlocal checked
            name = m.group(2)
            if name not in GENERATORS:
                failures.append(f"{doc}: a block names '{name}', which no generator writes")
                return m.group(0)
            g = GENERATORS[name]
            if (args and name not in args) or (check and not g.fast):
                return m.group(0)
            if name not in tables:
                try:
                    print(f"figures: {name}: {g.what}", file=sys.stderr)
                    tables[name] = g.make()
                except Skip as why:
                    tables[name] = None
                    skipped.add(f"{name} ({why})")
            table = tables[name]
            if table is None:
                return m.group(0)
            if check:
                checked += 1
                failures.extend(f"{doc}: {name}: {d}" for d in differences(m.group(3), table, kinds_of(table)))
                return m.group(0)
            return m.group(1) + table.markdown() + m.group(4)

        updated = BLOCK.sub(replace, text)
        if not check and updated != text:
            with open(path, "w") as f:
                f.write(updated)
            print(f"figures: rewrote {doc}", file=sys.stderr)
    for s in sorted(skipped):
        print(f"figures: skipped {s}", file=sys.stderr)
    if failures:
        print("\n".join(f"figures: {x}" for x in failures), file=sys.stderr)
        return 1
    if check:
        print(f"figures: {checked} blocks within tolerance", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
Generators that need ../shared/real are skipped, with a note, when it is absent.

Run through scripts/figures.sh, which builds the release binary first.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
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


def bench_localize(session: str) -> dict:
    """`arcloud bench localize` on a shipped session: its rows and ratios."""
    def go():
        out = run([ARCLOUD, "bench", "localize", "--map", "Maps/gallery.vpsmap", f"Datasets/{session}"])
        rows = {}
        for line in out.splitlines():
            m = re.match(r"(orb only|arcloud\+decode|arcloud|image only|opencv)\s+([\d-].*)$", line)
            if m:
                nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", m.group(2))]
                rows[m.group(1)] = nums
        ratio = lambda label: float(re.search(re.escape(label) + r"\s+([\d.]+)x", out).group(1))
        return {"rows": rows, "speedup": ratio("speed-up arcloud / opencv:"),
                "orb": ratio("arcloud end-to-end / ORB alone:")}
    return memo("bench " + session, go)


def bench_localize_table() -> Table:
    rows = []
    for session in ["gallery-query-walk", "gallery-query-hard"]:
        b = bench_localize(session)
        ours, peer, orb = b["rows"]["arcloud"], b["rows"]["opencv"], b["rows"]["orb only"]
        # arcloud: success, within, err cm, err deg, median ms, fps; orb only: median ms, fps.
        rows.append([f"`{session}`", f"{orb[0]:.2f}", f"{ours[4]:.2f}", f"{peer[4]:.0f}", f"{b['orb']:.2f}×",
                     f"{b['speedup']:.1f}×", f"{ours[1]:.1f} % / {peer[1]:.1f} %"])
    return Table(["session", "ORB alone ms/frame", "arcloud ms/frame", "peer ms/frame",
                  "arcloud / ORB alone (mean time)", "speed-up on the peer (mean time)",
                  "within (5 cm, 2°) (arcloud / peer)"],
                 rows, ["text", "ms", "ms", "ms", "ratio", "ratio", "pp"])


def bench_real(folder: str, peers: str) -> dict:
    def go():
        if not os.path.isdir(folder):
            raise Skip(f"{folder} is absent")
        return json.loads(run([ARCLOUD, "bench", "real", folder, "--peers", peers, "--json"]))
    return memo(f"real {folder} {peers}", go)


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


@dataclass
class Generator:
    make: Callable[[], Table]
    fast: bool  # rerun by --check
    what: str


GENERATORS: Dict[str, Generator] = {
    "overview": Generator(overview, True, "README's table: localize and bench localize on the shipped sessions, bench real"),
    "sessions": Generator(sessions, True, "arcloud localize on every shipped session, both modes"),
    "bench-localize": Generator(bench_localize_table, True, "arcloud bench localize on the shipped query sessions"),
    "calibration": Generator(calibration, False, "how often accepted frames lie within their claim: every set with truth"),
    "bench-real": Generator(bench_real_table, False, "arcloud bench real --peers all on ../shared/real"),
    "bench-real-shipped": Generator(lambda: bench_real_table(SHIPPED_REAL, "orb"), True,
                                    "arcloud bench real --peers orb on the photos shipped with the tests"),
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

#!/usr/bin/env python3
"""Every target declares exactly the package targets it imports.

SwiftPM's own check (`--explicit-target-dependency-import-check error`, which scripts/test.sh
also passes) accepts a module reached through another dependency; this one does not: a
target that imports `Vision` must list `Vision`, and a target that lists a dependency must
import it (a C library reached only through another target is that target's business).

    scripts/check-imports.py        exit 1, naming each target's missing and unused declarations

Reads `swift package describe --type json` and each Swift target's sources.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def main() -> int:
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    package = json.loads(out)
    names = {t["name"] for t in package["targets"]}
    problems = []
    for t in package["targets"]:
        if t.get("module_type") != "SwiftTarget":
            continue
        declared = set(t.get("target_dependencies", []))
        imported = set()
        for source in t.get("sources", []):
            with open(os.path.join(t["path"], source), encoding="utf-8") as f:
                imported |= {m for m in IMPORT.findall(f.read()) if m in names and m != t["name"]}
        for m in sorted(imported - declared):
            problems.append(f"{t['name']} imports {m} but does not declare it")
        for m in sorted(declared - imported):
            problems.append(f"{t['name']} declares {m} but never imports it")
    for p in problems:
        print(f"check-imports: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

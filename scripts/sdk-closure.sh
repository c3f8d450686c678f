#!/usr/bin/env bash
# What an app that depends on the SDK (the GraffityARCloud product) compiles and links: the
# product's transitive target closure, each target with its source files, from
# `swift package describe`. Fails when a benchmark, peer, baseline or load-generator file is
# in it: those belong to the `arcloud` executable and the tests alone.
#
#   scripts/sdk-closure.sh [--files]     (--files lists every source file of the closure)
set -euo pipefail
cd "$(dirname "$0")/.."
swift package describe --type json | python3 -c '
import json, re, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
product = next(p for p in package["products"] if p["name"] == "GraffityARCloud")
closure, todo = [], list(product["targets"])
while todo:
    name = todo.pop()
    if name in closure or name not in targets: continue   # system libraries have no entry
    closure.append(name)
    todo += targets[name].get("target_dependencies", [])
files = [(n, targets[n]["path"] + "/" + s) for n in closure for s in targets[n].get("sources", [])]
print("GraffityARCloud closure: %d targets, %d source files" % (len(closure), len(files)))
for n in sorted(closure):
    print("  %-16s %3d files" % (n, len(targets[n].get("sources", []))))
if "--files" in sys.argv[1:]:
    for _, f in files: print("    " + f)
forbidden = re.compile(r"peer|baseline|loadgenerator|loadconnection|keepalivehttp|loadtally|realphoto|"
                       r"syntheticimages|test_images|benchmark|stolentime|scaleprobe", re.I)
bad = [f for _, f in files if forbidden.search(f.replace("/", " "))]
bad += [n for n in closure if n in ("Benchmarks", "Baselines", "BaselineCore", "TestSupport")]
if bad:
    print("sdk-closure: benchmark or peer code in the SDK closure:", *bad, sep="\n  ")
    sys.exit(1)
print("sdk-closure: no benchmark, peer, baseline or load-generator file in it")
' "$@"

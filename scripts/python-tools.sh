#!/usr/bin/env bash
# The PyPI tools the project's checks use, in a virtual environment under .build/
# (idempotent: quiet and quick when they are there). Prints the environment's bin folder.
#   evo       reads the TUM trajectories `arcloud localize` writes (scripts/evo-roundtrip.sh)
#   pycolmap  writes COLMAP binary models (scripts/make-colmap-fixtures.py)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-tools
packages=(evo pycolmap)
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
if ! "$venv/bin/python" -c "import evo, pycolmap" 2>/dev/null; then
  echo "python-tools: installing ${packages[*]} into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}" >&2
fi
echo "$PWD/$venv/bin"

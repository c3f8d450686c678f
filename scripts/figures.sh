#!/usr/bin/env bash
# Writes every figure table of README.md and docs/ from the command that produces it
# (between `<!-- figures: NAME -->` and `<!-- /figures -->`), or checks them.
#
#   scripts/figures.sh                 rerun every table's command and rewrite the tables
#   scripts/figures.sh NAME...         only those tables
#   scripts/figures.sh --check         rerun the fast ones; exit 1 when a written figure has
#                                      moved beyond its tolerance (ratio ±15 %, time ±50 %,
#                                      recall ±2 points; counts exactly)
#   scripts/figures.sh --list          the tables and what produces them
#
# Builds the release binary first (as a user would measure). Tables from ../shared/real
# (or ARCLOUD_REAL_PHOTOS) are skipped when the photos are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--list" ]; then
  scripts/setup.sh >/dev/null
  swift build -c release --product arcloud >/dev/null
fi
if [ "${1:-}" = "--check" ]; then python3 scripts/test_figures.py -q 2>&1 | tail -1; fi
exec python3 scripts/figures.py "$@"

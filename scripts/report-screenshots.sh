#!/usr/bin/env bash
# Renders the HTML report of the shipped runs in a real browser (headless Chromium, a
# Debian package installed here, not needed by the build or the tests) and writes
# screenshots to look at: out/report-screenshots/<session>-NN.png.
#
#   scripts/report-screenshots.sh            # walk and hard sessions, single-shot
#   scripts/report-screenshots.sh --no-run   # reuse the reports already in out/report-screenshots/
#
# Each report is shot in slices 1280 px wide and 1400 px tall, top to bottom.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/setup.sh chromium
out=out/report-screenshots
mkdir -p "$out"
if [ "${1:-}" != "--no-run" ]; then
  swift build -c release --product arcloud >/dev/null
  for s in gallery-query-walk gallery-query-hard; do
    .build/release/arcloud localize --map Maps/gallery.vpsmap "Datasets/$s" --out "$out/$s" >/dev/null
  done
fi
shoot() { # url png
  timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=3000 \
    --window-size=1280,1400 --screenshot="$2" "$1" >/dev/null 2>&1 || { echo "chromium failed on $1" >&2; return 1; }
}
# The page is shot in 1400-px slices: each slice is a small page that shows the report in
# an iframe shifted up by the slice's offset (a headless screenshot shows only the window).
for s in gallery-query-walk gallery-query-hard; do
  page="$(pwd)/$out/$s/report.html"
  [ -f "$page" ] || { echo "no report at $page (run without --no-run)" >&2; exit 1; }
  rm -f "$out/$s"-*.png
  for i in $(seq 0 19); do
    wrapper="$out/$s/slice-$i.html"
    cat > "$wrapper" <<HTML
<!DOCTYPE html><html><body style="margin:0;overflow:hidden"><div style="width:1280px;height:1400px;overflow:hidden;position:relative">
<iframe src="file://$page" scrolling="no" style="position:absolute;top:-$((i * 1400))px;left:0;width:1280px;height:40000px;border:0"></iframe>
</div></body></html>
HTML
    png="$out/$s-$(printf %02d "$i").png"
    shoot "file://$(pwd)/$wrapper" "$png"
    rm -f "$wrapper"
    # Past the end of the report a slice is blank: a few kilobytes of white.
    if [ "$(stat -c %s "$png")" -lt 12000 ]; then rm -f "$png"; break; fi
    echo "wrote $png"
  done
done
echo "report screenshots: $(( $(date +%s) - start )) s"

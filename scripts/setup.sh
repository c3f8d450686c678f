#!/usr/bin/env bash
# Installs the Debian packages arcloud needs. Idempotent and quiet when they are there.
# Extra package names as arguments are installed too (e.g. `scripts/setup.sh chromium`
# for scripts/report-screenshots.sh); the build and the tests need none of them.
set -euo pipefail
packages=(libopencv-dev libpng-dev libjpeg-dev libeigen3-dev libmicrohttpd-dev libsqlite3-dev libcurl4-openssl-dev pkg-config curl
          libpq-dev libssl-dev postgresql nginx "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain is not on PATH" >&2; exit 1; }

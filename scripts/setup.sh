#!/usr/bin/env bash
# Installs the Debian packages a command of this repository needs. Idempotent, and quiet
# when they are there (nothing is fetched then, not even the package lists).
#
#   scripts/setup.sh [PROFILE|PACKAGE ...]
#
# The build's libraries are always installed (OpenCV, Eigen, libpng, libjpeg,
# libmicrohttpd, SQLite, libcurl, libpq, OpenSSL's libcrypto, pkg-config). Profiles add:
#   postgres   the PostgreSQL server binaries: scripts/test.sh starts a scratch server in a
#              temporary folder for the token-store tests; scripts/cluster.sh its shared
#              token store (neither uses a server the package may have set up itself)
#   nginx      the load balancer of scripts/cluster.sh, and curl, which drives it
# Any other argument is a Debian package name (e.g. `chromium` for
# scripts/report-screenshots.sh).
#
# Who asks for what: scripts/main-job.sh the build only; scripts/test.sh `postgres`;
# scripts/cluster.sh `postgres nginx`.
set -euo pipefail
packages=(libopencv-dev libpng-dev libjpeg-dev libeigen3-dev libfftw3-dev libmicrohttpd-dev libsqlite3-dev
          libcurl4-openssl-dev libpq-dev libssl-dev pkg-config)
for arg in "$@"; do
  case $arg in
    postgres) packages+=(postgresql) ;;
    nginx) packages+=(nginx curl) ;;
    -*) echo "usage: scripts/setup.sh [postgres|nginx|PACKAGE ...]" >&2; exit 2 ;;
    *) packages+=("$arg") ;;
  esac
done
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
command -v swift >/dev/null || {
  echo "setup: the Swift 6 toolchain is not on PATH (install it as swift.org's installation instructions for Linux say, then add its usr/bin to PATH)" >&2
  exit 1
}
major=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\..*/\1/p' | head -1)
[ "${major:-0}" -ge 6 ] || { echo "setup: Swift 6 or later is needed; PATH has: $(swift --version 2>&1 | head -1)" >&2; exit 1; }

#!/usr/bin/env bash
# A throw-away PostgreSQL server in a scratch folder, reachable only through a Unix socket
# in that folder (no TCP port to collide with anything else on the machine).
#   scripts/postgres-scratch.sh start <dir>   initdb + start; prints the connection URL
#   scripts/postgres-scratch.sh stop <dir>    stop the server (the folder is left for the caller)
# initdb refuses to run as root: as root the server runs as the `postgres` user, which
# then owns <dir>.
set -euo pipefail
command=${1:?usage: postgres-scratch.sh start|stop <dir>}
dir=${2:?usage: postgres-scratch.sh start|stop <dir>}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres-scratch: no PostgreSQL server binaries (scripts/setup.sh postgres installs them)" >&2; exit 1; }
# From /: `postgres` may not enter the caller's folder (a `mktemp -d` clone is mode 700),
# and would say so on every call. Every path passed is absolute.
# runuser lives in /usr/sbin or /sbin, which a minimal PATH may leave out.
runuser=$(PATH="$PATH:/usr/sbin:/sbin" command -v runuser || true)
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    [ -n "$runuser" ] || { echo "postgres-scratch: runuser not found (util-linux)" >&2; exit 1; }
    (cd / && "$runuser" -u postgres -- "$@")
  else "$@"; fi
}
owner=$([ "$(id -u)" -eq 0 ] && echo postgres || id -un)
case "$command" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U "$owner" --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # No TCP listener; the socket lives in the scratch folder. fsync off: scratch data.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://$owner@/postgres?host=$dir"
    ;;
  stop)
    [ -d "$dir" ] && dir=$(cd "$dir" && pwd)
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null || true
    ;;
  *) echo "usage: postgres-scratch.sh start|stop <dir>" >&2; exit 2 ;;
esac

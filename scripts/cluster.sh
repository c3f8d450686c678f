#!/usr/bin/env bash
# What a multi-machine deployment runs, on one machine: a PostgreSQL server holding the
# tokens, N `arcloud serve` replicas sharing it, and nginx in front with
# deploy/nginx/arcloud-balancer.conf.
#
#   scripts/cluster.sh up [N]   start everything (N replicas, default 2); prints the URL
#   scripts/cluster.sh test [N] localizations, a revocation and a replica kill through the
#                               balancer; fails on any client error. Starts the cluster
#                               first (and always stops it after) when it is not up.
#   scripts/cluster.sh down     stop everything and remove the scratch folder
#
# State lives in $ARCLOUD_CLUSTER_DIR (default: a folder under /tmp named after this
# checkout): cluster.env, logs, the PostgreSQL data, the rendered nginx config.
# ARCLOUD_CLUSTER_BUILD=release (default) runs a release build of arcloud, as a deployment
# does; =debug runs the test build (`swift build -Xcxx -O2`, as scripts/test.sh builds it),
# which CI has already built.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
dir=${ARCLOUD_CLUSTER_DIR:-${TMPDIR:-/tmp}/arcloud-cluster-$(id -u)-$(printf '%s' "$repo" | cksum | cut -d' ' -f1)}
case "${ARCLOUD_CLUSTER_BUILD:-release}" in
  release) build_flags=(-c release) ;;
  debug) build_flags=(-Xcxx -O2) ;;
  *) echo "cluster: ARCLOUD_CLUSTER_BUILD must be release or debug" >&2; exit 2 ;;
esac
map_id=gallery
session=$repo/Datasets/gallery-query-walk

say() { printf 'cluster: %s\n' "$*" >&2; }
fail() { printf 'cluster: FAILED: %s\n' "$*" >&2; exit 1; }

# A TCP port nothing listens on now (nginx cannot pick its own).
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  fail "no free port found"
}

nginx_bin() {
  for b in nginx /usr/sbin/nginx; do command -v "$b" >/dev/null 2>&1 && { command -v "$b"; return; }; done
  fail "nginx is not installed (scripts/setup.sh nginx installs it)"
}

# Starts replica $1 (1-based) on a free port; waits for its "listening" line.
start_replica() {
  local i=$1 out="$dir/replica-$1.out"
  # Every connection comes from nginx's address: no per-client connection cap. Disowned, so
  # this shell does not report the replica the test kills as a killed job (it still reaps it).
  "$arcloud" serve --maps "$dir/maps" --db "$PG_URL" --port 0 --access-log "$dir/replica-$i.access.log" \
    --max-connections-per-client 0 >"$out" 2>"$dir/replica-$i.err" </dev/null &
  echo $! >"$dir/replica-$i.pid"
  disown $!
  for _ in $(seq 1 300); do
    if grep -q "listening on" "$out" 2>/dev/null; then
      sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out" | head -1 >"$dir/replica-$i.port"
      return
    fi
    kill -0 "$(cat "$dir/replica-$i.pid")" 2>/dev/null || { cat "$dir/replica-$i.err" >&2; fail "replica $i exited at start"; }
    sleep 0.1
  done
  fail "replica $i did not start within 30 s"
}

render_nginx() {
  local servers="" i
  for i in $(seq 1 "$REPLICAS"); do
    servers+="    server 127.0.0.1:$(cat "$dir/replica-$i.port") max_fails=1 fail_timeout=5s;\n"
  done
  mkdir -p "$dir/nginx/temp"
  chmod 1777 "$dir/nginx/temp"      # nginx workers run as an unprivileged user when started by root
  awk -v servers="$servers" -v listen="    listen 127.0.0.1:$NGINX_PORT;" '
    /# BEGIN REPLICAS/ { print; printf "%s", servers; skip = 1; next }
    /# END REPLICAS/   { skip = 0 }
    /# BEGIN LISTEN/   { print; print listen; skipl = 1; next }
    /# END LISTEN/     { skipl = 0 }
    !skip && !skipl' deploy/nginx/arcloud-balancer.conf >"$dir/nginx/arcloud-balancer.conf"
  cat >"$dir/nginx/nginx.conf" <<EOF
worker_processes 2;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
    # Which replicas each request went to ("a, b" when nginx retried it on another).
    log_format upstreams '\$request_method \$uri \$status upstreams=\$upstream_addr statuses=\$upstream_status';
    access_log $dir/nginx/access.log upstreams;
    client_body_temp_path $dir/nginx/temp/body;
    proxy_temp_path $dir/nginx/temp/proxy;
    fastcgi_temp_path $dir/nginx/temp/fastcgi;
    uwsgi_temp_path $dir/nginx/temp/uwsgi;
    scgi_temp_path $dir/nginx/temp/scgi;
    include $dir/nginx/arcloud-balancer.conf;
}
EOF
}

# Where the build puts arcloud.
arcloud_path() { echo "$(swift build "${build_flags[@]}" --show-bin-path)/arcloud"; }

build_arcloud() {
  local log=${TMPDIR:-/tmp}/arcloud-cluster-build.log
  say "building arcloud (${ARCLOUD_CLUSTER_BUILD:-release})"
  swift build "${build_flags[@]}" --product arcloud >"$log" 2>&1 || { tail -30 "$log" >&2; fail "build"; }
}

up() {
  REPLICAS=${1:-2}
  [ -f "$dir/cluster.env" ] && fail "already up ($dir/cluster.env); run scripts/cluster.sh down first"
  local started=$SECONDS
  scripts/setup.sh postgres nginx >/dev/null
  build_arcloud
  rm -rf "$dir"; mkdir -p "$dir/maps"
  # From here on a failure stops whatever was started.
  trap 'down' EXIT
  cp "$repo/Maps/$map_id.vpsmap" "$dir/maps/"
  arcloud=$(arcloud_path)
  say "starting PostgreSQL in $dir/postgres"
  PG_URL=$(scripts/postgres-scratch.sh start "$dir/postgres")
  # Create the tokens table once, before replicas race for it.
  "$arcloud" token list --db "$PG_URL" >/dev/null
  for i in $(seq 1 "$REPLICAS"); do start_replica "$i"; done
  NGINX_PORT=$(free_port)
  render_nginx
  # -e: nginx's own error log in the scratch folder from the start (not /var/log/nginx).
  "$(nginx_bin)" -t -q -e "$dir/nginx/error.log" -c "$dir/nginx/nginx.conf" -p "$dir/nginx" 2>"$dir/nginx/configtest.log" \
    || { cat "$dir/nginx/configtest.log" >&2; fail "nginx rejects the rendered config"; }
  "$(nginx_bin)" -e "$dir/nginx/error.log" -c "$dir/nginx/nginx.conf" -p "$dir/nginx"
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$NGINX_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  curl -fsS "http://127.0.0.1:$NGINX_PORT/healthz" >/dev/null || fail "GET /healthz through nginx"
  cat >"$dir/cluster.env" <<EOF
PG_URL='$PG_URL'
REPLICAS=$REPLICAS
NGINX_PORT=$NGINX_PORT
BALANCER=http://127.0.0.1:$NGINX_PORT
arcloud='$arcloud'
EOF
  trap - EXIT
  local ports; ports=$(cat "$dir"/replica-*.port | tr '\n' ' ')
  say "up in $((SECONDS - started)) s: balancer http://127.0.0.1:$NGINX_PORT, replicas on ports $ports, tokens in $PG_URL"
}

down() {
  [ -d "$dir" ] || { say "not up"; return 0; }
  [ -f "$dir/nginx/nginx.pid" ] && kill "$(cat "$dir/nginx/nginx.pid")" 2>/dev/null || true
  local f
  for f in "$dir"/replica-*.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$dir"/replica-*.pid; do
    [ -f "$f" ] || continue
    for _ in $(seq 1 100); do kill -0 "$(cat "$f")" 2>/dev/null || break; sleep 0.1; done
  done
  scripts/postgres-scratch.sh stop "$dir/postgres"
  rm -rf "$dir"
  say "down"
}

load_env() {
  [ -f "$dir/cluster.env" ] || fail "not up (no $dir/cluster.env)"
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
}

# POST one frame to $1 (base URL) with token $2; prints the HTTP status, saves the body
# in $3.
localize_frame() {
  local base=$1 token=$2 body=$3 frame=$4
  local request
  request=$(printf '{"mapId":"%s","intrinsics":%s}' "$map_id" "$CAMERA")
  curl -sS -o "$body" -w '%{http_code}' --max-time 30 \
    -H "Authorization: Bearer $token" \
    -F "request=$request;type=application/json" \
    -F "image=@$session/frames/$frame.jpg;type=image/jpeg" \
    "$base/v1/localize" || echo "000"
}

# Localizes frames "$@" through the balancer, 4 at a time; fails on any non-200.
localize_through_balancer() {
  local token=$1 label=$2; shift 2
  mkdir -p "$dir/test/$label"
  export -f localize_frame
  export CAMERA map_id session
  printf '%s\n' "$@" | xargs -P 4 -I{} bash -c \
    'status=$(localize_frame "$0" "$1" "$2/{}.json" {}); echo "{} $status"' \
    "$BALANCER" "$token" "$dir/test/$label" >"$dir/test/$label.status"
  local bad; bad=$(awk '$2 != 200' "$dir/test/$label.status" | head -5)
  [ -z "$bad" ] || { for f in $(awk '$2 != 200 {print $1}' "$dir/test/$label.status" | head -3); do cat "$dir/test/$label/$f.json" >&2 2>/dev/null; echo >&2; done
                     fail "$label: client errors (frame status): $(echo "$bad" | tr '\n' ' ')"; }
  grep -h -o '"status":"[a-zA-Z]*"' "$dir/test/$label"/*.json | sort | uniq -c | tr -s ' ' | tr '\n' ';'
}

status_of() { curl -sS -o /dev/null -w '%{http_code}' --max-time 10 "$@" || echo "000"; }

cluster_test() {
  local started=$SECONDS
  # A cluster this test starts is stopped however the test ends.
  if [ ! -f "$dir/cluster.env" ]; then up "${1:-2}"; trap 'down' EXIT; fi
  load_env
  rm -rf "$dir/test"; mkdir -p "$dir/test"
  CAMERA=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["camera"], separators=(",",":")))' "$session/session.json")
  mapfile -t frames < <(ls "$session/frames" | sed 's/\.jpg$//' | sort)
  local token rc
  token=$("$arcloud" token create --db "$PG_URL" --name cluster-test 2>/dev/null)

  # 1. Health and the map list (with its content version) through the balancer; every
  #    replica serves the same version of the map.
  [ "$(status_of "$BALANCER/healthz")" = 200 ] || fail "GET /healthz through the balancer"
  local maps; maps=$(curl -fsS -H "Authorization: Bearer $token" "$BALANCER/v1/maps") || fail "GET /v1/maps"
  local version; version=$(printf '%s' "$maps" | python3 -c 'import json,sys; m=json.load(sys.stdin)["maps"]; print(m[0].get("version",""))')
  [ ${#version} = 64 ] || fail "/v1/maps carries no 64-hex content version: $maps"
  local i p
  for i in $(seq 1 "$REPLICAS"); do
    p=$(cat "$dir/replica-$i.port")
    curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$p/v1/maps" | grep -q "\"$version\"" \
      || fail "replica $i does not serve map version $version"
  done
  say "maps: $map_id version ${version:0:12}… on all $REPLICAS replicas"

  # 2. Every frame of the session through the balancer with `arcloud localize --server`
  #    (no retry allowed: nginx must absorb everything); the load spreads over replicas.
  local t0=$SECONDS
  "$arcloud" localize --server "$BALANCER" --token "$token" --map "$map_id" "$session" --concurrency 6 \
    --out "$dir/test/batch" >"$dir/test/batch.out" 2>"$dir/test/batch.err" \
    || { cat "$dir/test/batch.out" "$dir/test/batch.err" >&2; fail "arcloud localize --server through the balancer"; }
  grep -q "service: 0 retries; map version ${version:0:12}" "$dir/test/batch.out" \
    || { cat "$dir/test/batch.out" >&2; fail "the batch needed client retries or saw another map version"; }
  [ "$(wc -l <"$dir/test/batch/results.jsonl")" = "${#frames[@]}" ] || fail "results.jsonl does not hold ${#frames[@]} frames"
  local spread=""
  for i in $(seq 1 "$REPLICAS"); do
    spread+="$(grep -c '"/v1/localize"' "$dir/replica-$i.access.log" || true) "
  done
  say "localized ${#frames[@]} frames through the balancer in $((SECONDS - t0)) s ($(grep -o 'success rate [0-9.]* %' "$dir/test/batch.out")); per replica: $spread"
  for n in $spread; do [ "$n" -gt 0 ] || fail "a replica served no localization (spread: $spread)"; done
  #    The same frames localized in this process, on the same map file: the same poses.
  "$arcloud" localize --map "$dir/maps/$map_id.vpsmap" "$session" --out "$dir/test/embedded" >"$dir/test/embedded.out" 2>&1 \
    || { cat "$dir/test/embedded.out" >&2; fail "the embedded run"; }
  cmp -s "$dir/test/embedded/trajectory.tum" "$dir/test/batch/trajectory.tum" \
    || { diff "$dir/test/embedded/trajectory.tum" "$dir/test/batch/trajectory.tum" | head -6 >&2
         fail "the poses through the balancer differ from the embedded run's"; }
  say "poses through the balancer equal the embedded run's ($(grep -vc "^#" "$dir/test/batch/trajectory.tum") localized frames, trajectory.tum identical)"

  # 3. Revocation: a second token works on every replica, is revoked once, and then
  #    every replica (and the balancer) refuses it on the very next request.
  local doomed; doomed=$("$arcloud" token create --db "$PG_URL" --name cluster-doomed 2>/dev/null)
  for i in $(seq 1 "$REPLICAS"); do
    p=$(cat "$dir/replica-$i.port")
    [ "$(status_of -H "Authorization: Bearer $doomed" "http://127.0.0.1:$p/v1/maps")" = 200 ] \
      || fail "replica $i refuses a fresh token"
  done
  "$arcloud" token revoke --db "$PG_URL" --name cluster-doomed >/dev/null
  for i in $(seq 1 "$REPLICAS"); do
    p=$(cat "$dir/replica-$i.port")
    rc=$(status_of -H "Authorization: Bearer $doomed" "http://127.0.0.1:$p/v1/maps")
    [ "$rc" = 401 ] || fail "replica $i answered $rc, not 401, right after the revocation"
  done
  rc=$(localize_frame "$BALANCER" "$doomed" "$dir/test/revoked.json" "${frames[0]}")
  [ "$rc" = 401 ] && grep -q 'invalid_token.*revoked' "$dir/test/revoked.json" || fail "the balancer answered $rc to a revoked token"
  say "revocation: all $REPLICAS replicas and the balancer refuse the revoked token at once (401)"

  # 4. A replica killed (SIGKILL, no drain) while localizations run: every request
  #    still succeeds, nginx retrying on the others what the dead replica held or refused.
  #    The kill comes once the victim has answered 5 of this batch's localizations, so it
  #    lands mid-batch however fast the machine is.
  local victim=$REPLICAS counts before_victim before_nginx
  before_victim=$(grep -c '"/v1/localize"' "$dir/replica-$victim.access.log" || true)
  before_nginx=$(wc -l <"$dir/nginx/access.log")
  (
    for _ in $(seq 1 600); do
      [ "$(grep -c '"/v1/localize"' "$dir/replica-$victim.access.log" || true)" -ge $((before_victim + 5)) ] && break
      sleep 0.05
    done
    kill -9 "$(cat "$dir/replica-$victim.pid")"
  ) &
  local killer=$!
  t0=$SECONDS
  counts=$(localize_through_balancer "$token" kill "${frames[@]}")
  wait "$killer"
  kill -0 "$(cat "$dir/replica-$victim.pid")" 2>/dev/null && fail "replica $victim is still running"
  counts+=" then $(localize_through_balancer "$token" after-kill "${frames[@]}")"
  grep -L "\"mapVersion\":\"$version\"" "$dir/test/kill"/*.json "$dir/test/after-kill"/*.json | head -1 | grep -q . \
    && fail "a localize answer lacks mapVersion $version"
  local retried
  retried=$(tail -n +"$((before_nginx + 1))" "$dir/nginx/access.log" | grep -c '^POST /v1/localize 200 upstreams=[^ ]*, ' || true)
  [ "$retried" -gt 0 ] || fail "no localization was retried on another replica: the kill did not land mid-batch"
  say "replica $victim killed (SIGKILL) mid-batch during $(( ${#frames[@]} * 2 )) curl localizations: all answered 200 in $((SECONDS - t0)) s, $retried retried by nginx on another replica ($counts)"
  rm -f "$dir/replica-$victim.pid"

  # 5. nginx's own answers are JSON; /metrics is not public.
  check_json() {
    local want=$1 what=$2; shift 2
    local got; got=$(curl -sS -o "$dir/test/edge.json" -w '%{http_code} %{content_type}' --max-time 10 "$@" || echo "000 -")
    case "$got" in
      "$want application/json"*) grep -q '"error"' "$dir/test/edge.json" || fail "$what: not the JSON envelope" ;;
      *) fail "$what: wanted $want JSON, got $got: $(head -c 200 "$dir/test/edge.json")" ;;
    esac
  }
  check_json 404 "GET /metrics through the balancer" "$BALANCER/metrics"
  check_json 414 "a 100 KB URL" "$BALANCER/healthz?$(head -c 100000 /dev/zero | tr '\0' a)"
  check_json 431 "a 20 KB header line" -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)" "$BALANCER/healthz"
  check_json 413 "a 20 MB body" -H "Authorization: Bearer $token" -H "Content-Type: multipart/form-data; boundary=x" \
    --data-binary @<(head -c 20000000 /dev/zero) "$BALANCER/v1/localize"
  local garbage
  garbage=$(exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PORT"; printf 'GARBAGE\r\n\r\n' >&3; timeout 5 cat <&3 || true)
  case "$garbage" in
    "HTTP/1.1 400"*"application/json"*'"error"'*) ;;
    *) fail "a garbage request line: wanted a JSON 400, got: ${garbage:0:200}" ;;
  esac
  say "edge: /metrics 404, and 414, 431, 413 and 400 (garbage request line) answered by nginx in JSON"
  say "PASSED in $((SECONDS - started)) s"
}

case "${1:-}" in
  up) shift; up "$@" ;;
  test) shift; cluster_test "$@" ;;
  down) down ;;
  *) echo "usage: scripts/cluster.sh up [N] | test [N] | down" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# A throwaway PostgreSQL for the replica tests and benchmarks: Debian's package
# (installed on first use), a new cluster in a temporary directory, owned by and
# run as an unprivileged user, listening on 127.0.0.1 at a free port only, with
# trust authentication (nothing else can reach it: loopback, and a socket
# directory of its own).
#
# Usage:
#   eval "$(scripts/postgres.sh start)"   # exports CHARON_TEST_POSTGRES_URL and
#                                         # CHARON_TEST_POSTGRES_DIR
#   scripts/postgres.sh stop "$CHARON_TEST_POSTGRES_DIR"   # stops it, removes it
#   scripts/postgres.sh restart "$CHARON_TEST_POSTGRES_DIR" # (the fault tests)
# Progress goes to stderr; `start` prints only the export lines.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "postgres.sh: $*" >&2; }

PG_USER=${CHARON_PG_USER:-charon-pg}

pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return; }
  done
  return 1
}

install_postgres() {
  if ! pg_bin >/dev/null; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    log "installing Debian's postgresql package"
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends postgresql >&2
  fi
  # The package creates a cluster of its own on some systems: it is not used.
}

# as_owner CMD...: runs CMD as the cluster's owner (root may not run PostgreSQL).
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$PG_USER" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

start() {
  install_postgres
  local bin dir port
  bin=$(pg_bin)
  if [ "$(id -u)" = 0 ] && ! id "$PG_USER" >/dev/null 2>&1; then
    log "creating the unprivileged user $PG_USER"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/charon-pg.XXXXXX")
  chmod 700 "$dir"
  [ "$(id -u)" = 0 ] && chown "$PG_USER" "$dir"
  port=$(free_port)
  as_owner "$bin/initdb" -D "$dir/data" -U charon --auth=trust --no-sync -E UTF8 >/dev/null
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >&2
  echo "$port" > "$dir/port"
  log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, data in $dir"
  echo "export CHARON_TEST_POSTGRES_URL='postgresql://charon@127.0.0.1:$port/postgres'"
  echo "export CHARON_TEST_POSTGRES_DIR='$dir'"
}

stop() {
  local dir=${1:?the cluster directory}
  [ -d "$dir/data" ] || return 0
  as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  rm -rf "$dir"
}

restart() {
  local dir=${1:?the cluster directory} port
  port=$(cat "$dir/port")
  as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >&2
}

halt() {
  local dir=${1:?the cluster directory}
  as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m immediate -w stop >&2
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  restart) restart "${2:-}" ;;
  halt) halt "${2:-}" ;;
  *) echo "usage: scripts/postgres.sh start | stop DIR | halt DIR | restart DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Hot reload time: `charon http KB` (default examples/rbac.pl, RBAC-1000) gets
# SIGHUP ROUNDS times; for each, the time from the signal until GET /health counts
# one more reload (wall clock, as a client sees it), and the server's own figure
# (the `elapsed_ms` of its "reloaded" log line: loading and checking the new
# knowledge base, then the swap). Prints both, each reload and the median.
#
# Usage: scripts/bench-reload.sh     Environment: KB [examples/rbac.pl], ROUNDS [7],
#        PORT [18090], SKIP_BUILD [0]; ARGS: extra flags for charon http.
set -euo pipefail
cd "$(dirname "$0")/.."
KB=${KB:-examples/rbac.pl}
ROUNDS=${ROUNDS:-7}
PORT=${PORT:-18090}
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
[ "${SKIP_BUILD:-0}" = 1 ] || cargo build --release -p charon-cli >&2
log=$(mktemp)
"$BIN" http "$KB" --port "$PORT" --log info ${ARGS:-} 2> "$log" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 240); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.25; done
reloads() { curl -sf "http://127.0.0.1:$PORT/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["reload"]["reloads"])'; }
walls=()
for i in $(seq "$ROUNDS"); do
  before=$(reloads)
  t0=$(date +%s%N)
  kill -HUP "$server"
  while [ "$(reloads)" = "$before" ]; do sleep 0.005; done
  t1=$(date +%s%N)
  walls+=($(( (t1 - t0) / 1000000 )))
  sleep 0.5
done
server_ms=$(grep -o 'elapsed_ms=[0-9]*' "$log" | cut -d= -f2 | tr '\n' ' ')
python3 - "$KB" "${walls[*]}" "$server_ms" <<'PY'
import statistics, sys
kb, walls, server = sys.argv[1], [int(x) for x in sys.argv[2].split()], [int(x) for x in sys.argv[3].split()]
print(f"{kb}: {len(walls)} reloads on SIGHUP")
print(f"  signal to /health showing it (ms): {walls}, median {statistics.median(walls)}")
print(f"  server's own load + check + swap (ms): {server}, median {statistics.median(server)}")
PY

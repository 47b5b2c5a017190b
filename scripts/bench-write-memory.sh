#!/usr/bin/env bash
# What a write leaves in a worker's memory: `charon http tests/kbs/counter.pl
# --workers 1`, the worker's RSS (/proc/PID/smaps_rollup) after one write and again
# after WRITES (20,000) more `PUT /put_increment` calls (each a retract/1 and an
# assertz/1 of counter/1, plus the changes Charon records to replicate them), sent one
# after the other on one keep-alive connection. The engine never reuses the code of a
# retracted clause, so some growth per write is the engine's; more was the undo log of
# every assert and retract and its arena slot, which the engine kept
# (vendor/scryer-prolog/CHARON.md, sixth change; BENCHMARKS.md, "What a write leaves
# in memory").
#
# Usage:
#   scripts/bench-write-memory.sh             # builds charon-cli; ~1 min once built
#   CHARON_BIN=/path/to/charon WRITES=5000 scripts/bench-write-memory.sh
# Output: one line on stdout. Installs curl and python3 with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
WRITES=${WRITES:-20000}
source scripts/tools.sh
need_commands curl=curl python3=python3
bench_binary bench-write-memory

kib() { awk -v k="$2" '$1 == k":" { print $2; exit }' "$1"; }
log=$(mktemp)
"$BIN" http tests/kbs/counter.pl --workers 1 --port 0 2> "$log" > /dev/null &
SERVER=$!
trap 'kill "$SERVER" 2> /dev/null || true; rm -f "$log"' EXIT
until grep -q 'listening on' "$log"; do
  kill -0 "$SERVER" 2> /dev/null || { tail -n 5 "$log" >&2; exit 1; }
  sleep 0.1
done
addr=$(grep -o 'listening on http://[0-9.:]*' "$log" | head -n 1 | sed 's|listening on http://||')
# The server's child is the template; the worker is its child.
template=$(pgrep -P "$SERVER" | head -n 1)
worker=$(pgrep -P "$template" | head -n 1)
curl -sf -X PUT "http://$addr/put_increment" > /dev/null
before=$(kib "/proc/$worker/smaps_rollup" Rss)
python3 - "$addr" "$WRITES" <<'PY'
import http.client, sys
host, port = sys.argv[1].rsplit(":", 1)
c = http.client.HTTPConnection(host, int(port))
for _ in range(int(sys.argv[2])):
    c.request("PUT", "/put_increment")
    r = c.getresponse()
    r.read()
    if r.status != 200:
        sys.exit(f"put_increment answered {r.status}")
PY
sleep 0.5
now=$(pgrep -P "$template" | head -n 1)
[ "$now" = "$worker" ] || { echo "bench-write-memory: the worker was replaced during the run" >&2; exit 1; }
after=$(kib "/proc/$worker/smaps_rollup" Rss)
count=$(curl -sf "http://$addr/get_counter")
[ "$count" = "$((WRITES + 1))" ] || { echo "bench-write-memory: counter is $count, not $((WRITES + 1))" >&2; exit 1; }
echo "worker RSS $((before / 1024)) MB -> $((after / 1024)) MB after $WRITES writes: $(( (after - before) * 1024 / WRITES )) bytes a write"

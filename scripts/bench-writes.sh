#!/usr/bin/env bash
# Write latency and read throughput during writes, by database size.
#
# For N = 10, 1 000, 10 000 and 100 000 dynamic facts (examples/library.pl with its
# book/4 facts replaced by N generated ones), starts `charon http` with 2 workers and:
#   1. write latency: wrk, 1 connection, PUT /put_book with a fresh id each request
#      (so the database grows by one fact per request), 5 s;
#   2. reads during a write stream: wrk, 4 connections, GET /get_book on ids spread
#      over the whole key space, 5 s, while a second wrk runs the write stream of 1.
#      Reported with the answer cache on and off (--answer-cache 0).
# Needs wrk (apt-get install wrk) and a release build of the CLI.
# Usage: scripts/bench-writes.sh [sizes...]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
[ -x "$BIN" ] || { echo "build first: cargo build --release -p charon-cli" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(10 1000 10000 100000)
WORK=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
PORT=8097

cat > "$WORK/put.lua" <<'LUA'
local n = 0
request = function()
  n = n + 1
  local body = string.format('{"Title":"T","Author":"A","Year":%d}', 1900 + n % 120)
  return wrk.format("PUT", string.format("/put_book?Id=w%d_%d", math.random(1e9), n),
    {["Content-Type"] = "application/json"}, body)
end
LUA

kb_of_size() {
  python3 - "$1" "$2" <<'PY'
import re, sys
n, out = int(sys.argv[1]), sys.argv[2]
src = open("examples/library.pl").read()
facts = "".join(f'book(b{i}, "Title {i}", "Author {i % 97}", {1900 + i % 120}).\n' for i in range(n))
src = re.sub(r"(?m)^book\(.*\n", "", src, count=0)
src = src.replace("% book(Id, Title, Author, Year).\n", "% book(Id, Title, Author, Year).\n" + facts)
open(out, "w").write(src)
PY
}

cat > "$WORK/get.lua" <<LUA
request = function()
  return wrk.format("GET", string.format("/get_book?Id=b%d", math.random(0, SIZE - 1)))
end
LUA

latency_ms() { awk '/Latency/ { v=$2; if (v ~ /us$/) { sub(/us/,"",v); v/=1000 } else if (v ~ /ms$/) { sub(/ms/,"",v) } else if (v ~ /s$/) { sub(/s/,"",v); v*=1000 }; print v }'; }
rps() { awk '/Requests\/sec/ { printf "%d", $2 }'; }

start_server() {
  cp "$WORK/lib_$1.pl" "$WORK/kb.pl"
  "$BIN" http "$WORK/kb.pl" --port $PORT --workers 2 --log warn "${@:2}" 2>"$WORK/server.log" &
  server=$!
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done
}
stop_server() { kill $server; wait $server 2>/dev/null || true; }

printf "| facts | put_book latency ms (mean) | writes/s | reads/s during writes, cache on | reads/s during writes, cache off |\n|---|---|---|---|---|\n"
for n in "${SIZES[@]}"; do
  kb_of_size "$n" "$WORK/lib_$n.pl"
  sed "s/SIZE/$n/" "$WORK/get.lua" > "$WORK/get_n.lua"
  # Each phase on a fresh server, so that one phase's writes do not grow the next
  # one's database.
  start_server "$n"
  out=$(wrk -t1 -c1 -d5s -s "$WORK/put.lua" "http://127.0.0.1:$PORT")
  stop_server
  row="| $n | $(echo "$out" | latency_ms) | $(echo "$out" | rps) |"
  for cache in on off; do
    if [ $cache = off ]; then start_server "$n" --answer-cache 0; else start_server "$n"; fi
    wrk -t1 -c1 -d7s -s "$WORK/put.lua" "http://127.0.0.1:$PORT" >/dev/null &
    writer=$!
    sleep 1
    reads=$(wrk -t1 -c4 -d5s -s "$WORK/get_n.lua" "http://127.0.0.1:$PORT" | rps)
    wait $writer
    row="$row $reads |"
    stop_server
  done
  echo "$row"
done

#!/usr/bin/env bash
# Replicated mode beside single-server --persist: write latency and throughput,
# replication lag under a write load, and read throughput of 1 and 2 replicas.
#
# What is measured, on tests/kbs/replica/ledger.pl (`put` replaces a value under a
# key and appends it to a history; `get` reads one), with a throwaway PostgreSQL
# 15 started by scripts/postgres.sh on the same machine (fsync on):
#   latency     one client, WRITES `POST /put` one after the other, on
#               persist (charon http --persist, journal + fdatasync per write) and
#               replicated (charon http --replicate, one replica; a second one
#               follows the log): p50/p90/p99/max ms;
#   throughput  CLIENTS clients, WRITES writes in all: persist on its one server,
#               replicated spread over the two replicas (every write takes the
#               log's lock, so they run one at a time across replicas): writes/s;
#   lag         a write on replica A, then replica B polled every millisecond until
#               it answers the new value (notification, apply, one read): LAG
#               writes, p50/p99 ms;
#   reads       wrk, 2 processes of 1 thread and 16 connections each, DURATION s,
#               POST /get with --answer-cache 0 (every read runs in the engine):
#               both on one replica (--workers 2), then one on each of two
#               replicas (--workers 1 each): the same cores, served by one process
#               or by two.
#   snapshot    the ledger with SNAPSHOT_FACTS more entry/2 facts (strings): the time
#               `charon http --workers 2` takes to be ready on it alone; replica A
#               (--replicate-compact-after 4096) takes 200 writes, the first ~25 of
#               which make a snapshot of the whole state due: its time, size and
#               parts (A's log), and the writes' latency while it is taken; then the
#               records up to the snapshot are deleted, as the next snapshot would
#               delete them (psql), and replica B joins: its time to be ready
#               (load, snapshot, records) beside the plain load.
# Loopback, everything on this one machine: PostgreSQL, the replicas and the load
# share its cores.
#
# Output: Markdown tables on stdout, progress on stderr, one JSON line per
# measurement in $BENCH_OUT/results.jsonl.
#
# Usage:
#   scripts/bench-replicas.sh                 # builds charon-cli; ~3 min
#   SKIP_BUILD=1 WRITES=200 scripts/bench-replicas.sh
# Environment (defaults in brackets): WRITES [1000], CLIENTS [4], LAG [300],
#   DURATION [10], SNAPSHOT_FACTS [100000; 0 skips the phase], BENCH_OUT [a new temporary folder], SKIP_BUILD [0], CHARON_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."

WRITES=${WRITES:-1000}
CLIENTS=${CLIENTS:-4}
LAG=${LAG:-300}
DURATION=${DURATION:-10}
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-replicas.XXXXXX")}
mkdir -p "$BENCH_OUT"
RESULTS="$BENCH_OUT/results.jsonl"
: > "$RESULTS"
log() { echo "bench-replicas: $*" >&2; }

source scripts/tools.sh
need_commands curl=curl python3=python3 wrk=wrk
bench_binary bench-replicas

eval "$(scripts/postgres.sh start)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/postgres.sh stop "$CHARON_TEST_POSTGRES_DIR"
}
trap cleanup EXIT

PORT=18300
# serve NAME ARGS...: starts charon http on the next port, waits for /health; sets
# SERVED to the port.
serve() {
  local name=$1; shift
  PORT=$((PORT + 1))
  "$BIN" http "$@" --port "$PORT" --log warn > "$BENCH_OUT/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && { SERVED=$PORT; return; }
    sleep 0.1
  done
  log "$name did not start"; cat "$BENCH_OUT/$name.log" >&2; exit 1
}
stop_all() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${PIDS[@]}" 2>/dev/null || true
  PIDS=()
}
record() { echo "{\"measure\":\"$1\",\"mode\":\"$2\",\"result\":$3}" >> "$RESULTS"; }

kb() { cp tests/kbs/replica/ledger.pl "$BENCH_OUT/$1.pl"; echo "$BENCH_OUT/$1.pl"; }
export CHARON_REPLICATE_URL=$CHARON_TEST_POSTGRES_URL

# Writes.
log "persist"
serve persist "$(kb persist)" --persist --workers 2
r=$(python3 bench/replica/load.py latency "$SERVED" "$WRITES"); record latency persist "$r"
r=$(python3 bench/replica/load.py throughput "$SERVED" "$WRITES" "$CLIENTS"); record throughput persist "$r"
stop_all

log "replicated"
KB=$(kb replicated)
serve replica-a "$KB" --replicate --replicate-table bench_writes --workers 2; A=$SERVED
serve replica-b "$KB" --replicate --replicate-table bench_writes --workers 2; B=$SERVED
r=$(python3 bench/replica/load.py latency "$A" "$WRITES"); record latency replicated "$r"
r=$(python3 bench/replica/load.py throughput "$A,$B" "$WRITES" "$CLIENTS"); record throughput replicated "$r"
r=$(python3 bench/replica/load.py lag "$A" "$B" "$LAG"); record lag replicated "$r"
stop_all

# Reads: the same two wrk processes against one replica, then one each.
reads() {
  local mode=$1 p1=$2 p2=$3
  wrk -t1 -c16 -d"${DURATION}s" -s bench/wrk/replica_get.lua "http://127.0.0.1:$p1" > "$BENCH_OUT/wrk-$mode-1.txt" &
  local w1=$!
  wrk -t1 -c16 -d"${DURATION}s" -s bench/wrk/replica_get.lua "http://127.0.0.1:$p2" > "$BENCH_OUT/wrk-$mode-2.txt" &
  wait $w1 $!
  python3 - "$BENCH_OUT/wrk-$mode-1.txt" "$BENCH_OUT/wrk-$mode-2.txt" <<'PY'
import json, sys
runs = [json.loads([l for l in open(f) if l.startswith("{")][-1]) for f in sys.argv[1:]]
print(json.dumps({"rps": sum(r["rps"] for r in runs),
                  "p99_ms": max(r["p99_ms"] for r in runs),
                  "non2xx": sum(r["non2xx"] for r in runs),
                  "errors": sum(r["errors"] for r in runs)}))
PY
}
log "reads, one replica"
KB=$(kb reads)
serve reads-one "$KB" --replicate --replicate-table bench_reads --workers 2 --answer-cache 0
curl -sf -X POST -H 'content-type: application/json' -d '{"Key":"k1","Value":"v"}' "http://127.0.0.1:$SERVED/put" >/dev/null
r=$(reads one "$SERVED" "$SERVED"); record reads one "$r"
stop_all
log "reads, two replicas"
serve reads-a "$KB" --replicate --replicate-table bench_reads --workers 1 --answer-cache 0; A=$SERVED
serve reads-b "$KB" --replicate --replicate-table bench_reads --workers 1 --answer-cache 0; B=$SERVED
r=$(reads two "$A" "$B"); record reads two "$r"
stop_all

SNAPSHOT_FACTS=${SNAPSHOT_FACTS:-100000}
# ready NAME ARGS...: like serve, until /health/ready; sets SERVED, and READY_S to
# the seconds it took.
ready() {
  local name=$1; shift
  PORT=$((PORT + 1))
  local t0; t0=$(date +%s.%N)
  "$BIN" http "$@" --port "$PORT" --log info > "$BENCH_OUT/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 3000); do
    if curl -sf "http://127.0.0.1:$PORT/health/ready" >/dev/null; then
      SERVED=$PORT
      READY_S=$(python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))" "$t0" "$(date +%s.%N)")
      return
    fi
    sleep 0.1
  done
  log "$name did not get ready"; cat "$BENCH_OUT/$name.log" >&2; exit 1
}
if [ "$SNAPSHOT_FACTS" -gt 0 ]; then
  log "snapshot at $SNAPSHOT_FACTS facts"
  BIG=$BENCH_OUT/big.pl
  python3 - "$SNAPSHOT_FACTS" "$BIG" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write(open("tests/kbs/replica/ledger.pl").read() + "\n")
    f.writelines(f'entry(k{i}, "Title {i}").\n' for i in range(n))
PY
  ready plain "$BIG" --workers 2; plain=$READY_S; stop_all
  ready snap-a "$BIG" --replicate --replicate-table bench_snap --replicate-compact-after 4096 --workers 2
  A=$SERVED joined_a=$READY_S
  r=$(python3 bench/replica/load.py latency "$A" 200); record latency snapshot "$r"
  for _ in $(seq 1 1200); do grep -q "took the log's snapshot" "$BENCH_OUT/snap-a.log" && break; sleep 0.1; done
  taken=$(grep -m1 "took the log's snapshot" "$BENCH_OUT/snap-a.log" | python3 -c "
import json, re, sys
line = sys.stdin.read()
print(json.dumps({k: int(v) for k, v in re.findall(r'(seq|parts|bytes|elapsed_ms)=(\d+)', line)}))")
  [ -n "$taken" ] || { log "no snapshot was taken"; exit 1; }
  PSQL=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql
  "$PSQL" "$CHARON_REPLICATE_URL" -qAtc "DELETE FROM bench_snap WHERE seq <= (SELECT max(seq) FROM bench_snap_snapshot)"
  ready snap-b "$BIG" --replicate --replicate-table bench_snap --workers 2
  B=$SERVED joined_b=$READY_S
  grep -q "applied the log's snapshot" "$BENCH_OUT/snap-b.log" || { log "B did not load the snapshot"; exit 1; }
  same=$(python3 - "$A" "$B" <<'PY'
import json, sys, urllib.request
def get(port, key):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/get", json.dumps({"Key": key}).encode(), {"Content-Type": "application/json"})
    return urllib.request.urlopen(req).read()
print(all(get(sys.argv[1], k) == get(sys.argv[2], k) for k in ["k0", "k7", "k49", "k99"]))
PY
)
  [ "$same" = True ] || { log "A and B answer differently"; exit 1; }
  record snapshot taken "$taken"
  record ready "$SNAPSHOT_FACTS" "{\"plain_s\": $plain, \"first_replica_s\": $joined_a, \"from_snapshot_s\": $joined_b}"
  stop_all
fi

python3 - "$RESULTS" "$WRITES" "$CLIENTS" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
get = lambda m, mode: next(r["result"] for r in rows if r["measure"] == m and r["mode"] == mode)
print(f"| mode | write p50 ms | p90 ms | p99 ms | max ms | writes/s ({sys.argv[3]} clients) |")
print("|---|---|---|---|---|---|")
for mode, name in [("persist", "one server, --persist"), ("replicated", "replicated (2 replicas)")]:
    l, t = get("latency", mode), get("throughput", mode)
    print(f"| {name} | {l['p50_ms']:.2f} | {l['p90_ms']:.2f} | {l['p99_ms']:.2f} | {l['max_ms']:.1f} | {t['writes_per_s']:.0f} |")
l = get("lag", "replicated")
print()
print(f"Replication lag (write on A answered → B answers it), {l['writes']} writes: p50 {l['p50_ms']:.2f} ms, p90 {l['p90_ms']:.2f} ms, p99 {l['p99_ms']:.2f} ms, max {l['max_ms']:.1f} ms.")
one, two = get("reads", "one"), get("reads", "two")
print()
print("| reads (no cache) | req/s | p99 ms | non-2xx |")
print("|---|---|---|---|")
print(f"| one replica, 2 workers | {one['rps']:.0f} | {one['p99_ms']:.2f} | {one['non2xx']} |")
print(f"| two replicas, 1 worker each | {two['rps']:.0f} | {two['p99_ms']:.2f} | {two['non2xx']} |")
print(f"\nTwo replicas ÷ one: {two['rps'] / one['rps']:.2f}.")
snap = [r for r in rows if r["measure"] == "snapshot"]
if snap:
    t, l = snap[0]["result"], get("latency", "snapshot")
    ready = next(r for r in rows if r["measure"] == "ready")
    n, rd = ready["mode"], ready["result"]
    print()
    print(f"Snapshot at {n} facts: record {t['seq']}, {t['bytes'] / 1e6:.1f} MB in {t['parts']} parts, taken in {t['elapsed_ms'] / 1000:.1f} s beside the writes;")
    print(f"200 writes meanwhile: p50 {l['p50_ms']:.1f} ms, p99 {l['p99_ms']:.1f} ms, max {l['max_ms']:.1f} ms.")
    print()
    print("| ready on the file (2 workers) | s |")
    print("|---|---|")
    print(f"| alone, no replication | {rd['plain_s']:.1f} |")
    print(f"| first replica, empty log | {rd['first_replica_s']:.1f} |")
    print(f"| joining replica: file, snapshot, records | {rd['from_snapshot_s']:.1f} |")
PY
log "results: $RESULTS"

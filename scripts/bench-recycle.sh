#!/usr/bin/env bash
# Recycling without stalls: does replacing engine workers show in the tail latency
# when the knowledge base is big?
#
# What is measured. Two knowledge bases of the same shape, written by
# bench/gen_facts.py: BIG_FACTS (100,000) and SMALL_FACTS (100) facts fact(fK, V) and
# one point query, get_fact(+Id, -Value) is semidet (GET /get_fact?Id=fK). A worker
# that replaces a recycled one has to load the whole file, so with the big one each
# replacement costs far more; if callers wait for it, p99 and max grow with the size.
#
# How. For each knowledge base, a fresh `charon http --workers 2 --answer-cache 0
# --recycle-after RECYCLE_AFTER` (every call runs in the engine, and each worker is
# replaced after RECYCLE_AFTER calls, 20,000 by default: several times per run); a
# WARMUP-second wrk run that is not counted; then one wrk run (1 thread, CONNS=64
# connections, DURATION=30 s, --timeout TIMEOUT=5 s) of ids drawn uniformly from
# f1..fN (bench/wrk/fact_uniform.lua). Printed: req/s, p50, p99, max, timeouts,
# other errors and non-2xx responses from wrk, and the workers started during the
# run: from GET /health ("workers_started", before and after) when the server reports
# it, otherwise the new worker processes (children of the server) seen by polling
# /proc every 20 ms (a lower bound: a worker that lived less than that can be
# missed). Last, the ratio p99(big) / p99(small): 1 means no stall due to size.
# If the binary has no --recycle-after flag, the script says so and runs without it
# (the built-in period of calls per worker applies).
#
# Output: a Markdown table and the ratio line on stdout, progress on stderr, one JSON
# line per run in $BENCH_OUT/results.jsonl.
#
# Usage:
#   scripts/bench-recycle.sh                        # builds charon-cli, ~70 s
#   SKIP_BUILD=1 DURATION=2 WARMUP=1 scripts/bench-recycle.sh   # smoke run
# Environment (defaults in brackets): DURATION [30] seconds, WARMUP [2] seconds,
#   CONNS [64], TIMEOUT [5] seconds, RECYCLE_AFTER [20000], WORKERS [2],
#   BIG_FACTS [100000], SMALL_FACTS [100], PORT [18091],
#   BENCH_OUT [a new temporary folder], SKIP_BUILD [0] (1: use the existing
#   ${CARGO_TARGET_DIR:-target}/release/charon). Installs wrk, curl and python3 with
#   apt-get when missing (sudo when not root).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-30}
WARMUP=${WARMUP:-2}
CONNS=${CONNS:-64}
TIMEOUT=${TIMEOUT:-5}
RECYCLE_AFTER=${RECYCLE_AFTER:-20000}
WORKERS=${WORKERS:-2}
BIG_FACTS=${BIG_FACTS:-100000}
SMALL_FACTS=${SMALL_FACTS:-100}
PORT=${PORT:-18091}
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-recycle.XXXXXX")}
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
URL="http://127.0.0.1:$PORT"
mkdir -p "$BENCH_OUT"
RESULTS="$BENCH_OUT/results.jsonl"
log() { echo "bench-recycle: $*" >&2; }

source scripts/tools.sh
need_commands wrk=wrk curl=curl python3=python3
if [ "${SKIP_BUILD:-0}" != 1 ]; then cargo build --release -p charon-cli >&2; fi
[ -x "$BIN" ] || { log "no $BIN (build it, or unset SKIP_BUILD)"; exit 1; }

recycle=(--recycle-after "$RECYCLE_AFTER")
if ! "$BIN" http --help | grep -q -- '--recycle-after'; then
  log "this charon has no --recycle-after flag: running with its built-in recycling period"
  recycle=()
fi

# `helper.py run ROOT_PID -- wrk ARGS…`: runs wrk, polls the server's children meanwhile,
# prints wrk's JSON line plus "workers_started". `helper.py tree PID`: descendants.
HELPER="$BENCH_OUT/helper.py"
cat > "$HELPER" <<'PY'
import json, os, subprocess, sys, threading, time, urllib.request

def children(root):
    """Every descendant of root."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    s = f.read()
            except OSError:
                continue
            parent[int(name)] = int(s[s.rindex(")") + 2:].split()[1])
    found, todo = set(), [root]
    while todo:
        p = todo.pop()
        for pid, pp in parent.items():
            if pp == p and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found

def workers_started(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            h = json.load(r)
    except Exception:
        return None
    def find(o):
        if isinstance(o, dict):
            if isinstance(o.get("workers_started"), int):
                return o["workers_started"]
            for v in o.values():
                r = find(v)
                if r is not None:
                    return r
        return None
    return find(h)

if sys.argv[1] == "tree":
    print(" ".join(map(str, children(int(sys.argv[2])))))
    sys.exit()
root, url = int(sys.argv[2]), sys.argv[3]
cmd = sys.argv[sys.argv.index("--") + 1:]
initial = children(root)
seen, stop = set(initial), threading.Event()
def poll():
    while not stop.is_set():
        seen.update(children(root))
        time.sleep(0.02)
w0 = workers_started(url)
t = threading.Thread(target=poll, daemon=True)
t.start()
out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
stop.set()
t.join()
w1 = workers_started(url)
r = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
if w0 is not None and w1 is not None:
    r.update(workers_started=w1 - w0, workers_from="health")
else:
    # Worker processes seen during the run, less the ones there at its start.
    r.update(workers_started=len(seen - initial), workers_from="processes")
print(json.dumps(r))
PY

SERVER_PID=""
stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  local kids; kids=$(python3 "$HELPER" tree "$SERVER_PID" 2>/dev/null || true)
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  for k in $kids; do kill "$k" 2>/dev/null || true; done
  SERVER_PID=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

: > "$RESULTS"
for size in big small; do
  if [ $size = big ]; then n=$BIG_FACTS; else n=$SMALL_FACTS; fi
  kb="$BENCH_OUT/facts_$n.pl"
  python3 bench/gen_facts.py "$n" "$kb"
  if curl -s -o /dev/null "$URL/health"; then log "port $PORT is already in use (set PORT)"; exit 1; fi
  "$BIN" http "$kb" --port "$PORT" --log warn --workers "$WORKERS" --answer-cache 0 "${recycle[@]}" \
    >"$BENCH_OUT/server_$n.log" 2>&1 &
  SERVER_PID=$!
  up=""
  for _ in $(seq 600); do
    if curl -sf -o /dev/null "$URL/health"; then up=1; break; fi
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.25
  done
  if [ -z "$up" ]; then
    if kill -0 "$SERVER_PID" 2>/dev/null; then log "server on $n facts: no answer on /health after 150 s"
    else rc=0; wait "$SERVER_PID" || rc=$?; SERVER_PID=""; log "server on $n facts exited with status $rc"; fi
    cat "$BENCH_OUT/server_$n.log" >&2; exit 1
  fi
  answer=$(curl -sf "$URL/get_fact?Id=f$n")
  log "$n facts: get_fact(f$n) = $answer"
  [ "$answer" = "$(( n * 7919 % 1000003 ))" ] || { log "unexpected answer"; exit 1; }
  export FACTS=$n
  if [ "$WARMUP" != 0 ]; then
    wrk -t1 -c"$CONNS" -d"${WARMUP}s" --timeout "${TIMEOUT}s" -s bench/wrk/fact_uniform.lua "$URL" >/dev/null
  fi
  line=$(python3 "$HELPER" run "$SERVER_PID" "$URL/health" -- \
    wrk -t1 -c"$CONNS" -d"${DURATION}s" --timeout "${TIMEOUT}s" -s bench/wrk/fact_uniform.lua "$URL")
  line=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r.update(facts=int(sys.argv[2]), size=sys.argv[3]); print(json.dumps(r))' "$line" "$n" "$size")
  echo "$line" >> "$RESULTS"
  log "$n facts: $line"
  stop_server
done

python3 - "$RESULTS" "$WORKERS" "${recycle[*]:-built-in period}" <<'PY'
import json, sys
runs = {r["size"]: r for r in map(json.loads, open(sys.argv[1]))}
def ms(x):
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:.0f}"
print(f"charon http --workers {sys.argv[2]} --answer-cache 0, recycling: {sys.argv[3]}")
print()
print("| facts | req/s | p50 ms | p99 ms | max ms | timeouts | other errors | non-2xx | workers started |")
print("|---|---|---|---|---|---|---|---|---|")
for size in ("big", "small"):
    r = runs[size]
    workers = str(r["workers_started"])
    if r.get("workers_from") != "health":
        workers = f"≥ {workers} (processes seen)"
    print(f"| {r['facts']:,} | {r['rps']:,.0f} | {ms(r['p50_ms'])} | {ms(r['p99_ms'])} | "
          f"{ms(r['max_ms'])} | {r['timeouts']} | {r['errors'] - r['timeouts']} | {r['non2xx']} | {workers} |"
          .replace(",", " "))
print()
big, small = runs["big"], runs["small"]
print(f"ratio p99 big/small = {big['p99_ms'] / small['p99_ms']:.2f}× "
      f"(max: {big['max_ms'] / small['max_ms']:.2f}×, req/s: {big['rps'] / small['rps']:.2f}×)")
PY
log "raw runs: $RESULTS"

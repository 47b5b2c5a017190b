#!/usr/bin/env bash
# Persisted write latency by database size: what one `put_book` costs with
# --persist (journal append + fdatasync before the answer, folds when the journal
# outgrows the file), beside the same write without --persist.
#
# What is measured. For each N in SIZES (10, 10,000, 100,000, 1,000,000):
# examples/library.pl with its book/4 facts replaced by N generated ones,
# book(bK, "Title K", "Author K", Year), whose ids are K in base 36 after a `b`
# (at most 6 characters: scryer-prolog 0.10 copies its atom table for every new
# atom longer than that, see BENCHMARKS.md). For each N and each mode (memory,
# persist), a fresh copy of the file and a fresh `charon http --workers 2`; once
# /health answers, one client on one keep-alive connection (Python http.client)
# sends WARMUP then WRITES requests `PUT /put_book?Id=wK` (a new book each time,
# ids again base 36, so the database grows by one fact per write), one after the
# other, and times each from send to the end of the answer. The table gives the
# median, 90th and 99th percentile, and the ratio of the persisted median to the
# persisted median at the smallest size, and the slowest write. The journal folds
# into the .pl when it outgrows the file (at least 1 MiB), in a thread of its own
# beside the writes; the "folds" column counts them (from the server's log) with
# the longest one's duration. TITLE_BYTES pads each written title, so that a run
# of a few thousand writes outgrows even a large file and the folds of a large
# knowledge base happen during the run.
#
# Output: a Markdown table on stdout, progress on stderr, one JSON line per
# measurement in $BENCH_OUT/results.jsonl.
#
# Usage:
#   scripts/bench-persist.sh                          # builds charon-cli; ~10 min
#   SKIP_BUILD=1 SIZES="10 1000" WRITES=100 scripts/bench-persist.sh   # smoke run
# Environment (defaults in brackets): SIZES ["10 10000 100000 1000000"], WRITES
#   [500], WARMUP [50], TITLE_BYTES [0], LOAD_TIMEOUT_MS [1800000], MEMORY_MB [16384] (the workers'
#   --max-memory-mb), BENCH_OUT [a new temporary
#   folder], SKIP_BUILD [0], CHARON_BIN (a charon binary to use instead).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"10 10000 100000 1000000"}
WRITES=${WRITES:-500}
WARMUP=${WARMUP:-50}
TITLE_BYTES=${TITLE_BYTES:-0}
LOAD_TIMEOUT_MS=${LOAD_TIMEOUT_MS:-1800000}
# 1,000,000 dynamic facts with two strings each take about 2.4 GB in scryer-prolog
# 0.10, over the default worker memory limit (4 GiB of address space while loading).
MEMORY_MB=${MEMORY_MB:-16384}
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-persist.XXXXXX")}
mkdir -p "$BENCH_OUT"
RESULTS="$BENCH_OUT/results.jsonl"
: > "$RESULTS"
log() { echo "bench-persist: $*" >&2; }

source scripts/tools.sh
need_commands curl=curl python3=python3
bench_binary bench-persist

SERVER=""
stop_server() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2> /dev/null || true; wait "$SERVER" 2> /dev/null || true; fi
  SERVER=""
}
trap stop_server EXIT

# kb_of_size N OUT: the library example with N generated books.
kb_of_size() {
  python3 - "$1" "$2" <<'PY'
import re, sys
n, out = int(sys.argv[1]), sys.argv[2]
def b36(k):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        k, r = divmod(k, 36)
        s = digits[r] + s
        if k == 0:
            return s
src = open("examples/library.pl").read()
src = re.sub(r"(?m)^book\(.*\n", "", src)
with open(out, "w") as f:
    head, tail = src.split("% book(Id, Title, Author, Year).\n", 1)
    f.write(head + "% book(Id, Title, Author, Year).\n")
    f.writelines(f'book(b{b36(k)}, "Title {k}", "Author {k % 97}", {1900 + k % 120}).\n'
                 for k in range(n))
    f.write(tail)
PY
}

for n in $SIZES; do
  base="$BENCH_OUT/library_$n.pl"
  [ -f "$base" ] || kb_of_size "$n" "$base"
  for mode in memory persist; do
    kb="$BENCH_OUT/kb_${n}_$mode.pl"
    cp "$base" "$kb"; rm -f "$kb.journal"
    flags=(); [ "$mode" = persist ] && flags=(--persist)
    slog="$BENCH_OUT/server_${n}_$mode.log"
    t0=$(date +%s.%N)
    "$BIN" http "$kb" --workers 2 --port 0 --load-timeout-ms "$LOAD_TIMEOUT_MS" --max-memory-mb "$MEMORY_MB" \
      --log info "${flags[@]}" \
      2> "$slog" > /dev/null &
    SERVER=$!
    addr=""
    while :; do
      [ -n "$addr" ] || addr=$(grep -o 'listening on http://[0-9.:]*' "$slog" | head -n 1 | sed 's|listening on http://||') || true
      if [ -n "$addr" ] && curl -sf -m 5 "http://$addr/health" > /dev/null 2>&1; then break; fi
      if ! kill -0 "$SERVER" 2> /dev/null; then log "charon stopped on $kb:"; tail -n 5 "$slog" >&2; exit 1; fi
      sleep 0.05
    done
    log "$n facts, $mode: ready in $(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }') s"
    python3 - "$addr" "$n" "$mode" "$WARMUP" "$WRITES" "$TITLE_BYTES" > "$BENCH_OUT/run.json" <<'PY'
import http.client, json, statistics, sys, time
addr, n, mode, warmup, writes = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
pad = " " + "x" * int(sys.argv[6]) if int(sys.argv[6]) > 0 else ""
host, port = addr.rsplit(":", 1)
conn = http.client.HTTPConnection(host, int(port))
def b36(k):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        k, r = divmod(k, 36)
        s = digits[r] + s
        if k == 0:
            return s
times = []
for i in range(warmup + writes):
    body = json.dumps({"Title": f"New {i}{pad}", "Author": "Bench", "Year": 1900 + i % 120})
    t = time.perf_counter()
    conn.request("PUT", f"/put_book?Id=w{b36(i)}", body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    dt = time.perf_counter() - t
    if r.status != 200:
        sys.exit(f"put_book answered {r.status}")
    if i >= warmup:
        times.append(dt * 1000)
q = statistics.quantiles(times, n=100)
print(json.dumps({"facts": n, "mode": mode, "writes": len(times),
                  "median_ms": statistics.median(times), "p90_ms": q[89], "p99_ms": q[98],
                  "max_ms": max(times)}))
PY
    stop_server
    # The folds the server logged during the run (and at its stop): how many, and
    # the longest.
    python3 - "$BENCH_OUT/run.json" "$slog" >> "$RESULTS" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))
took = [int(m) for m in re.findall(r"journal folded into the file.*?elapsed_ms=(\d+)", open(sys.argv[2]).read())]
run.update(folds=len(took), longest_fold_ms=max(took, default=0))
print(json.dumps(run))
PY
    if [ "$mode" = persist ]; then
      # The file holds every write once the server stopped (the journal folded in).
      got=$(grep -c '^book(w' "$kb" || true)
      [ "$got" = $((WARMUP + WRITES)) ] || { log "$kb holds $got of $((WARMUP + WRITES)) written books"; exit 1; }
    fi
  done
done

python3 - "$RESULTS" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {(r["facts"], r["mode"]): r for r in rows}
sizes = sorted({r["facts"] for r in rows})
base = by[(sizes[0], "persist")]["median_ms"]
print("| facts | put_book in memory, median ms | --persist median ms | p90 ms | p99 ms | slowest ms | ÷ --persist at %s facts | writes | folds (longest ms) |" % f"{sizes[0]:,}")
print("|---|---|---|---|---|---|---|---|---|")
for n in sizes:
    m, p = by[(n, "memory")], by[(n, "persist")]
    print(f"| {n:,} | {m['median_ms']:.2f} | {p['median_ms']:.2f} | {p['p90_ms']:.2f} | {p['p99_ms']:.2f} "
          f"| {p['max_ms']:.1f} | {p['median_ms'] / base:.2f} | {p['writes']} | {p['folds']} ({p['longest_fold_ms']}) |")
EOF
log "results: $RESULTS"

#!/usr/bin/env bash
# Loading large knowledge bases: how long `charon http` takes to answer /health, and
# how much memory its workers hold, with the workers loading the knowledge base by
# the wrapper's '$charon_consult'/1 (the default) and by scryer's consult/1
# (CHARON_LOADER=consult, the loader before), beside SWI-Prolog's consult/1 of the
# same file.
#
# What is measured. Knowledge bases written by bench/gen_load.py: STATIC_FACTS
# (100,000) static facts fact(fK, V) (ids of at most 6 characters), DYNAMIC_FACTS
# (100,000) facts book(bK, "Title K", "Author K", Year) under `:- dynamic(book/4).`,
# INT_FACTS (1,000,000) static facts fact(K, V) with integer keys, DYNINT_FACTS
# (1,000,000) dynamic facts score(K, V) with integer keys, and LONG_FACTS (100,000)
# dynamic facts book(b0000001, ...) whose ids are 8-character atoms (the release of
# scryer-prolog 0.10.0 copied its whole atom table for each new atom longer than 6
# bytes, which made this load quadratic; vendor/scryer-prolog has the fix: see
# BENCHMARKS.md), and BOOKS_FACTS (100,000) of the same facts, static (not in the
# default KINDS: what the same data costs where no clause can be retracted). For
# each, RUNS (3)
# rounds, each round running every contender once, one after the other
# (interleaved, so that a slow patch of a shared machine hits all of them alike):
#   swi              `swipl -g "consult('F'),…,halt"` (SWI-Prolog from Debian's
#                    swi-prolog-nox): wall time of the whole process, its CPU time
#                    (statistics(cputime)), its RSS and PSS once the file is loaded
#   charon, consult  for each worker count in WORKERS ("1 2 4"): `charon http F
#                    --workers W --port 0`, with CHARON_LOADER=charon and =consult:
#                    wall time from start until GET /health answers (polled every
#                    20 ms; this includes reading the PlDoc, the template's load and
#                    the analysis, which reads the file once more); one second
#                    later: the RSS of the template (the process that loaded the
#                    file and forked the workers), the mean RSS and private memory
#                    (Private_Clean + Private_Dirty) of the workers, the CPU time of
#                    template and workers, and the PSS of the server, the template
#                    and the workers together (/proc/PID/smaps_rollup: pages shared
#                    copy-on-write count once in all)
# The table gives the median of the rounds and the ratios of the medians to SWI's.
#
# Output: a Markdown table on stdout, progress on stderr, one JSON line per
# measurement in $BENCH_OUT/results.jsonl.
#
# Usage:
#   scripts/bench-load.sh                       # builds charon-cli; ~40 min on 2 cores
#   SKIP_BUILD=1 RUNS=1 KINDS=static STATIC_FACTS=2000 scripts/bench-load.sh   # smoke run
# Environment (defaults in brackets): RUNS [3], KINDS ["static dynamic int dynint
#   long"], STATIC_FACTS [100000], DYNAMIC_FACTS [100000], INT_FACTS [1000000],
#   DYNINT_FACTS [1000000], LONG_FACTS [100000], BOOKS_FACTS [100000], WORKERS ["1 2 4"], LOADERS ["consult
#   charon"] (the CHARON_LOADER values to run), LOAD_TIMEOUT_MS
#   [900000], BENCH_OUT [a new temporary folder], SKIP_BUILD [0] (1: use the
#   existing ${CARGO_TARGET_DIR:-target}/release/charon), CHARON_BIN (a charon binary
#   to use instead). Installs swi-prolog-nox, curl and python3 with apt-get when
#   missing (sudo when not root).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
KINDS=${KINDS:-"static dynamic int dynint long"}
STATIC_FACTS=${STATIC_FACTS:-100000}
DYNAMIC_FACTS=${DYNAMIC_FACTS:-100000}
INT_FACTS=${INT_FACTS:-1000000}
DYNINT_FACTS=${DYNINT_FACTS:-1000000}
LONG_FACTS=${LONG_FACTS:-100000}
BOOKS_FACTS=${BOOKS_FACTS:-100000}
WORKERS=${WORKERS:-"1 2 4"}
LOADERS=${LOADERS:-"consult charon"}
LOAD_TIMEOUT_MS=${LOAD_TIMEOUT_MS:-900000}
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-load.XXXXXX")}
mkdir -p "$BENCH_OUT"
RESULTS="$BENCH_OUT/results.jsonl"
: > "$RESULTS"
log() { echo "bench-load: $*" >&2; }

source scripts/tools.sh
need_commands swipl=swi-prolog-nox curl=curl python3=python3
bench_binary bench-load

SERVER=""
trap 'stop_server' EXIT

# kb_file KIND: generates the knowledge base of KIND (once) and prints its path.
kb_file() {
  local kind=$1 n
  case $kind in
    static) n=$STATIC_FACTS ;;
    dynamic) n=$DYNAMIC_FACTS ;;
    int) n=$INT_FACTS ;;
    dynint) n=$DYNINT_FACTS ;;
    long) n=$LONG_FACTS ;;
    books) n=$BOOKS_FACTS ;;
    *) log "unknown kind $kind"; exit 1 ;;
  esac
  local file="$BENCH_OUT/${kind}_$n.pl"
  [ -f "$file" ] || python3 bench/gen_load.py "$kind" "$n" "$file"
  echo "$file"
}

now() { date +%s.%N; }
# sum A B: A + B, printed with a leading digit (valid JSON).
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a + b }'; }
kib() { awk -v k="$2" '$1 == k":" { print $2; exit }' "$1"; }

# cpu_seconds PID: user + system CPU time of a live process.
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}

# swi KIND FILE RUN: one load by SWI-Prolog.
swi() {
  local kind=$1 file=$2 run=$3 err="$BENCH_OUT/swi.err"
  local goal="consult('$file'),statistics(cputime,C),format(user_error,'cpu: ~w~n',[C]),"
  goal+="read_file_to_string('/proc/self/smaps_rollup',S,[]),write(user_error,S),halt"
  local t0 t1
  t0=$(now)
  swipl -g "$goal" > /dev/null 2> "$err" < /dev/null
  t1=$(now)
  local rss pss cpu
  rss=$(kib "$err" Rss); pss=$(kib "$err" Pss)
  cpu=$(sum 0 "$(awk '$1 == "cpu:" { print $2; exit }' "$err")")
  echo "{\"kb\":\"$kind\",\"system\":\"swi\",\"workers\":1,\"run\":$run,\"ready_s\":$(sum "$t1" "-$t0"),\"cpu_s\":$cpu,\"template_rss_mb\":$((rss / 1024)),\"worker_rss_mb\":null,\"worker_private_mb\":null,\"total_pss_mb\":$((pss / 1024))}" >> "$RESULTS"
}

# charon KIND FILE LOADER WORKERS RUN: one start of `charon http`.
charon() {
  local kind=$1 file=$2 loader=$3 workers=$4 run=$5
  local slog="$BENCH_OUT/server-$kind-$loader-$workers-$run.log"
  local t0 t1 addr=""
  : > "$slog"
  t0=$(now)
  CHARON_LOADER=$loader "$BIN" http "$file" --workers "$workers" --port 0 \
    --load-timeout-ms "$LOAD_TIMEOUT_MS" --log info 2> "$slog" > /dev/null &
  SERVER=$!
  while :; do
    if [ -z "$addr" ]; then
      addr=$(grep -o 'listening on http://[0-9.:]*' "$slog" | head -n 1 | sed 's|listening on http://||') || true
    fi
    if [ -n "$addr" ] && curl -sf -m 5 "http://$addr/health" > /dev/null 2>&1; then break; fi
    if ! kill -0 "$SERVER" 2> /dev/null; then
      log "charon ($loader, $workers workers) stopped on $file:"; tail -n 5 "$slog" >&2
      SERVER=""; return 1
    fi
    sleep 0.02
  done
  t1=$(now)
  sleep 1
  # The server's child is the template, which loaded the file; the workers are its
  # children (forks of it, sharing its pages).
  local template p rss pss cpu priv workers_rss=0 workers_priv=0 n=0
  template=$(pgrep -P "$SERVER" | head -n 1 || true)
  pss=$(( $(kib "/proc/$SERVER/smaps_rollup" Pss) + $(kib "/proc/$template/smaps_rollup" Pss) ))
  rss=$(kib "/proc/$template/smaps_rollup" Rss)
  cpu=$(cpu_seconds "$template")
  for p in $(pgrep -P "$template" || true); do
    workers_rss=$((workers_rss + $(kib "/proc/$p/smaps_rollup" Rss)))
    priv=$(( $(kib "/proc/$p/smaps_rollup" Private_Clean) + $(kib "/proc/$p/smaps_rollup" Private_Dirty) ))
    workers_priv=$((workers_priv + priv))
    pss=$((pss + $(kib "/proc/$p/smaps_rollup" Pss)))
    cpu=$(sum "$cpu" "$(cpu_seconds "$p")")
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || n=1
  stop_server
  local system=charon; [ "$loader" = consult ] && system=consult
  echo "{\"kb\":\"$kind\",\"system\":\"$system\",\"workers\":$workers,\"run\":$run,\"ready_s\":$(sum "$t1" "-$t0"),\"cpu_s\":$cpu,\"template_rss_mb\":$((rss / 1024)),\"worker_rss_mb\":$((workers_rss / n / 1024)),\"worker_private_mb\":$((workers_priv / n / 1024)),\"total_pss_mb\":$((pss / 1024))}" >> "$RESULTS"
}

for kind in $KINDS; do
  file=$(kb_file "$kind")
  log "$kind: $file ($(du -h "$file" | cut -f1))"
  for run in $(seq 1 "$RUNS"); do
    log "$kind: round $run of $RUNS"
    swi "$kind" "$file" "$run"
    for w in $WORKERS; do
      for loader in $LOADERS; do
        charon "$kind" "$file" "$loader" "$w" "$run" || true
      done
    done
  done
done

python3 - "$RESULTS" "$STATIC_FACTS" "$DYNAMIC_FACTS" "$INT_FACTS" "$DYNINT_FACTS" "$LONG_FACTS" "$BOOKS_FACTS" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
kinds = ["static", "dynamic", "int", "dynint", "long", "books"]
sizes = dict(zip(kinds, map(int, sys.argv[2:8])))
names = {"static": "static facts", "dynamic": "dynamic facts", "int": "static facts, integer keys",
         "dynint": "dynamic facts, integer keys", "long": "dynamic facts, 8-character atom ids",
         "books": "static facts, 8-character atom ids (the same books)"}
systems = {"swi": "SWI-Prolog consult/1", "consult": "Charon, consult/1 (before)",
           "charon": "Charon, '$charon_consult'/1"}
med = lambda xs: statistics.median(xs) if xs else float("nan")
print("| knowledge base | loader | workers | ready s | ÷ SWI | CPU s | loaded RSS MB | RSS per worker MB | private per worker MB | total PSS MB | ÷ SWI | rounds |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
fmt = lambda xs: f"{med(xs):.0f}" if xs else "–"
for kind in kinds:
    mine = [r for r in rows if r["kb"] == kind]
    if not mine:
        continue
    swi = [r for r in mine if r["system"] == "swi"]
    swi_t = med([r["ready_s"] for r in swi]); swi_p = med([r["total_pss_mb"] for r in swi])
    groups = sorted({(r["system"], r["workers"]) for r in mine},
                    key=lambda g: (g[1], ["swi", "consult", "charon"].index(g[0])))
    for system, w in groups:
        rs = [r for r in mine if r["system"] == system and r["workers"] == w]
        t = med([r["ready_s"] for r in rs]); p = med([r["total_pss_mb"] for r in rs])
        print(f"| {sizes[kind]:,} {names[kind]} | {systems[system]} | {w if system != 'swi' else '–'} "
              f"| {t:.2f} | {t / swi_t:.2f} | {med([r['cpu_s'] for r in rs]):.2f} "
              f"| {fmt([r['template_rss_mb'] for r in rs])} "
              f"| {fmt([r['worker_rss_mb'] for r in rs if r['worker_rss_mb'] is not None])} "
              f"| {fmt([r['worker_private_mb'] for r in rs if r['worker_private_mb'] is not None])} "
              f"| {p:.0f} | {p / swi_p:.2f} | {len(rs)} |")
EOF
log "results: $RESULTS"

#!/usr/bin/env bash
# HTTP benchmark: Charon beside SWI-Prolog's own HTTP server, on the same knowledge base.
#
# What is measured. Six servers, one at a time, all serving examples/rbac.pl
# (1,000 users, 14 permissions) on 127.0.0.1 with the same routes and the same JSON:
#   swi             bench/peers/swi_server.pl: SWI-Prolog's thread pool HTTP server
#                   (library(http/thread_httpd)), SWI_WORKERS=4 worker threads;
#   charon          charon http (answer cache on, the default; workers: one per core);
#   charon-nocache  charon http --answer-cache 0 (every call runs in the engine;
#                   default adaptive counting: once an operation's first 100 calls
#                   ended within the limits, its inferences are checked after each
#                   call instead of counted during it — the warm-up gets there);
#   charon-io1      charon-nocache with --io-threads 1 (one thread for HTTP, so the
#                   engine workers have the cores: the setting for an engine-bound
#                   server on a small machine);
#   charon-strict   charon-io1 with --inference-counting strict (every call under
#                   scryer's inference counter);
#   charon-nocount  charon-io1 with --max-inferences 0 (no inference limit at all:
#                   the time limit alone bounds a call);
#   charon-metrics, charon-nocache-metrics
#                   charon and charon-nocache with --metrics (calls are counted
#                   only then): with ONLY="charon charon-metrics", an A/B of the
#                   cost of counting (the ratio lines compare each with its base).
# Four workloads (wrk scripts in bench/wrk/):
#   point_fixed     GET /get_user_has_permission?User=user_0042&Perm=deploy (→ false);
#   point_uniform   the same route, (user, permission) drawn uniformly from the
#                   1,000 × 14 pairs (14,000 keys: the whole key space, all of which
#                   the byte-bounded answer cache holds);
#   point_zipf      the same pairs, drawn with a Zipf distribution (s = 1) over a
#                   fixed random ranking of the pairs;
#   list            POST /users_with_permission {"Perm":"deploy"} (→ 106 users).
#
# How. wrk, THREADS=1 thread, CONNS=64 keep-alive connections, closed loop, loopback.
# ROUNDS rounds; in each, every server in turn is started fresh and, for every
# workload, gets one WARMUP-second run that is not counted (it fills the answer
# cache, so the hit rate is a warm cache's), then REPEATS runs of DURATION seconds.
# Rounds spread each server's runs over the whole benchmark, so a slow spell of the
# machine does not fall on one server's runs alone (on a shared VM the same server
# varies by ±5 % from one minute to the next); even rounds take the servers in the
# reverse order, so that none always runs first or last. For each run:
#   * req/s, p50, p90, p99 and max latency, errors and non-2xx responses, from wrk
#     (bench/wrk/report.lua prints them as one JSON line);
#   * server CPU per request: the utime + stime of the server process and of every
#     descendant (Charon's engine workers are child processes), plus the cutime +
#     cstime of them all (children that exited and were reaped during the run, e.g.
#     replaced workers), read from /proc/PID/stat and /proc/*/stat before and after
#     the run; the difference over the run, divided by the requests wrk completed, in
#     µs;
#   * the load generator's CPU (wrk's rusage) and the machine's (/proc/stat, without
#     irq/softirq); "other CPU" = machine − server − wrk: anything else that ran
#     during the run, in % of one core. Re-run a figure whose other CPU is more than
#     a few percent;
#   * Charon only: GET /health before and after the run; when it reports
#     "cache": {"hits", "misses", …}, the hit rate over the run is
#     Δhits / (Δhits + Δmisses) (n/a otherwise; the wrk warm-up is not counted).
# Every statistic of the table is the median over the ROUNDS × REPEATS runs, taken separately
# (the median p99 is not necessarily the p99 of the median run); "req/s range" is the
# minimum and maximum over the runs. Ratio lines divide Charon's median req/s by SWI's.
#
# Output: the Markdown table and the ratio lines on stdout; progress on stderr; one
# JSON line per run in $BENCH_OUT/results.jsonl and the server logs in $BENCH_OUT.
#
# Usage:
#   scripts/bench-http.sh                          # builds charon-cli, full run (~14 min)
#   SKIP_BUILD=1 DURATION=2 ROUNDS=1 WARMUP=1 scripts/bench-http.sh   # smoke run
# Environment (defaults in brackets):
#   DURATION [10] seconds per run   ROUNDS [3]   REPEATS [1] per round
#   WARMUP [2] seconds   CONNS [64]
#   THREADS [1] wrk threads         ONLY ["swi charon charon-nocache charon-io1 charon-strict charon-nocount"]
#   WORKLOADS ["point_fixed point_uniform point_zipf list"]
#   SWI_WORKERS [4]   CHARON_ARGS [""] extra flags for both charon servers
#   KB [examples/rbac.pl]   PORT [18081]   BENCH_OUT [a new temporary folder]
#   SKIP_BUILD [0]: 1 uses the existing ${CARGO_TARGET_DIR:-target}/release/charon
# Installs swi-prolog-nox, wrk, curl and python3 with apt-get when they are missing
# (sudo when not root).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
REPEATS=${REPEATS:-1}
WARMUP=${WARMUP:-2}
CONNS=${CONNS:-64}
THREADS=${THREADS:-1}
ONLY=${ONLY:-"swi charon charon-nocache charon-io1 charon-strict charon-nocount"}
WORKLOADS=${WORKLOADS:-"point_fixed point_uniform point_zipf list"}
SWI_WORKERS=${SWI_WORKERS:-4}
CHARON_ARGS=${CHARON_ARGS:-}
KB=${KB:-examples/rbac.pl}
PORT=${PORT:-18081}
BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-http.XXXXXX")}
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
URL="http://127.0.0.1:$PORT"
mkdir -p "$BENCH_OUT"
RESULTS="$BENCH_OUT/results.jsonl"
log() { echo "bench-http: $*" >&2; }

# --- tools ------------------------------------------------------------------------
source scripts/tools.sh
need_commands wrk=wrk curl=curl python3=python3
case " $ONLY " in *" swi "*) need_commands swipl=swi-prolog-nox ;; esac
case " $ONLY " in *" charon"*)
  if [ "${SKIP_BUILD:-0}" != 1 ]; then cargo build --release -p charon-cli >&2; fi
  [ -x "$BIN" ] || { log "no $BIN (build it, or unset SKIP_BUILD)"; exit 1; }
esac

# --- measurement helper -------------------------------------------------------------
# `measure.py run ROOT_PID HEALTH_URL SERVER CONNS RUN -- wrk ARGS…` runs wrk and
# prints one JSON line: wrk's (report.lua) plus the CPU accounting and the cache
# counters (and a progress line on stderr).
# `measure.py tree PID` prints PID's descendants. `measure.py table FILE` prints the
# Markdown table and the ratios from the JSON lines.
HELPER="$BENCH_OUT/measure.py"
cat > "$HELPER" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.request

TICK = os.sysconf("SC_CLK_TCK")

def procs():
    """pid -> (ppid, utime + stime + cutime + cstime in ticks), for every process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                s = f.read()
        except OSError:
            continue  # exited meanwhile
        fields = s[s.rindex(")") + 2:].split()
        # fields[0] is field 3 (state): ppid is field 4, utime..cstime fields 14-17.
        out[int(name)] = (int(fields[1]), sum(int(x) for x in fields[11:15]))
    return out

def tree(root, table):
    """root and all its descendants."""
    kids = {}
    for pid, (ppid, _) in table.items():
        kids.setdefault(ppid, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            found.append(pid)
            todo.extend(kids.get(pid, []))
    return found

def tree_ticks(root):
    table = procs()
    return sum(table[p][1] for p in tree(root, table))

def machine():
    """(busy ticks without irq/softirq, all ticks) summed over every CPU."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq = v[:7]
    steal = v[7] if len(v) > 7 else 0
    return user + nice + system, sum(v[:8]), steal

def health(url):
    if not url:
        return None
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except Exception:
        return None

def find(obj, key):
    """The first value under `key` anywhere in a JSON object."""
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for v in obj.values():
            r = find(v, key)
            if r is not None:
                return r
    return None

def run(root, health_url, server, cmd):
    h0 = health(health_url)
    cpu0, (busy0, total0, steal0) = tree_ticks(root), machine()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    cpu1, (busy1, total1, steal1) = tree_ticks(root), machine()
    h1 = health(health_url)
    if status != 0:
        sys.exit(f"wrk failed ({status}):\n{out}")
    line = [l for l in out.splitlines() if l.startswith("{")][-1]
    r = json.loads(line)
    ncpu = os.cpu_count()
    core_ticks = (total1 - total0) / ncpu  # ticks of one core over the run
    server_s = (cpu1 - cpu0) / TICK
    wrk_s = usage.ru_utime + usage.ru_stime
    r.update(server=server, wall_s=round(wall, 3),
             server_cpu_us_per_req=round(server_s * 1e6 / r["requests"], 2) if r["requests"] else None,
             server_cpu_pct=round(100 * server_s / wall, 1),
             loadgen_cpu_pct=round(100 * wrk_s / wall, 1))
    if core_ticks > 0:
        busy_pct = 100 * (busy1 - busy0) / core_ticks
        r["machine_busy_pct"] = round(busy_pct, 1)
        r["other_cpu_pct"] = round(max(0.0, busy_pct - r["server_cpu_pct"] - r["loadgen_cpu_pct"]), 1)
        r["steal_pct"] = round(100 * (steal1 - steal0) / core_ticks, 1)
    c0, c1 = find(h0, "cache"), find(h1, "cache")
    r["cache_hit_rate"] = None
    if isinstance(c0, dict) and isinstance(c1, dict) and "hits" in c0 and "misses" in c0:
        hits, misses = c1["hits"] - c0["hits"], c1["misses"] - c0["misses"]
        r.update(cache_hits=hits, cache_misses=misses, cache_entries=c1.get("entries"),
                 cache_bytes=c1.get("bytes"))
        if hits + misses > 0:
            r["cache_hit_rate"] = round(hits / (hits + misses), 4)
    w0, w1 = find(h0, "workers_started"), find(h1, "workers_started")
    if isinstance(w0, int) and isinstance(w1, int):
        r["workers_started"] = w1 - w0
    return r

def fmt(x, digits=0):
    if x is None:
        return "n/a"
    if digits == 0:
        return f"{x:,.0f}".replace(",", " ")
    return f"{x:.{digits}f}"

def ms(x):
    return "n/a" if x is None else (f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:.0f}")

def table(path, servers, workloads):
    runs = [json.loads(l) for l in open(path) if l.strip()]
    med = {}
    def median(xs):
        xs = [x for x in xs if x is not None]
        return statistics.median(xs) if xs else None
    print("| server | workload | req/s | req/s range | p50 ms | p99 ms | CPU µs/req | cache hit rate | other CPU % | errors + non-2xx |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in servers:
        for w in workloads:
            rs = [r for r in runs if r["server"] == s and r["workload"] == w]
            if not rs:
                continue
            m = {k: median([r.get(k) for r in rs]) for k in
                 ("rps", "p50_ms", "p99_ms", "server_cpu_us_per_req", "cache_hit_rate", "other_cpu_pct")}
            med[s, w] = m
            bad = sum(r["errors"] + r["non2xx"] for r in rs)
            lo, hi = min(r["rps"] for r in rs), max(r["rps"] for r in rs)
            hit = "—" if s == "swi" else ("n/a" if m["cache_hit_rate"] is None
                                          else f"{100 * m['cache_hit_rate']:.1f} %")
            print(f"| {s} | {w} | {fmt(m['rps'])} | {fmt(lo)}–{fmt(hi)} | {ms(m['p50_ms'])} | "
                  f"{ms(m['p99_ms'])} | {fmt(m['server_cpu_us_per_req'], 1)} | {hit} | "
                  f"{fmt(m['other_cpu_pct'], 1)} | {bad} |")
    print()
    for w in workloads:
        base = med.get(("swi", w))
        parts = []
        for s in servers:
            if s != "swi" and (s, w) in med and base and base["rps"]:
                parts.append(f"{s}/swi = {med[s, w]['rps'] / base['rps']:.2f}×")
        if parts:
            print(f"ratio req/s {w}: " + ", ".join(parts))
    # The cost of counting calls: each *-metrics server against its base.
    for w in workloads:
        for s in servers:
            base = s[:-len("-metrics")] if s.endswith("-metrics") else None
            if base and (s, w) in med and (base, w) in med:
                a, b = med[s, w], med[base, w]
                print(f"metrics {w}: {s}/{base} req/s = {a['rps'] / b['rps']:.3f}, "
                      f"CPU µs/req {fmt(b['server_cpu_us_per_req'], 1)} → {fmt(a['server_cpu_us_per_req'], 1)}")

if __name__ == "__main__":
    what = sys.argv[1]
    if what == "run":
        root, url, server = int(sys.argv[2]), sys.argv[3], sys.argv[4]
        r = run(root, url, server, sys.argv[sys.argv.index("--") + 1:])
        r.update(conns=int(sys.argv[5]), run=int(sys.argv[6]))
        print(json.dumps(r))
        hit = r["cache_hit_rate"]
        print(f"bench-http: {server} {r['workload']} run {r['run']}: {r['rps']:.0f} req/s, "
              f"p99 {r['p99_ms']} ms, {r['server_cpu_us_per_req']} µs CPU/req, hit rate "
              f"{'n/a' if hit is None else hit}, other CPU {r.get('other_cpu_pct')} %",
              file=sys.stderr)
    elif what == "tree":
        print(" ".join(str(p) for p in tree(int(sys.argv[2]), procs())[1:]))
    elif what == "table":
        table(sys.argv[2], sys.argv[3].split(), sys.argv[4].split())
PY

# --- servers ------------------------------------------------------------------------
SERVER_PID=""
stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  local kids; kids=$(python3 "$HELPER" tree "$SERVER_PID" 2>/dev/null || true)
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  # Charon's workers leave with their parent; make sure, by PID.
  for k in $kids; do kill "$k" 2>/dev/null || true; done
  SERVER_PID=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

start_server() {  # name
  local name=$1 cmd
  case $name in
    swi) cmd=(swipl bench/peers/swi_server.pl --port="$PORT" --workers="$SWI_WORKERS" --kb="$KB") ;;
    charon) cmd=("$BIN" http "$KB" --port "$PORT" --log warn $CHARON_ARGS) ;;
    charon-nocache) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --answer-cache 0 $CHARON_ARGS) ;;
    charon-io1) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --answer-cache 0 --io-threads 1 $CHARON_ARGS) ;;
    charon-strict) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --answer-cache 0 --io-threads 1 --inference-counting strict $CHARON_ARGS) ;;
    charon-nocount) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --answer-cache 0 --io-threads 1 --max-inferences 0 $CHARON_ARGS) ;;
    charon-metrics) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --metrics $CHARON_ARGS) ;;
    charon-nocache-metrics) cmd=("$BIN" http "$KB" --port "$PORT" --log warn --answer-cache 0 --metrics $CHARON_ARGS) ;;
    *) log "unknown server $name (ONLY takes swi, charon, charon-nocache, charon-io1, charon-strict, charon-nocount, charon-metrics, charon-nocache-metrics)"; exit 2 ;;
  esac
  if curl -s -o /dev/null "$URL/health"; then log "port $PORT is already in use (set PORT)"; exit 1; fi
  "${cmd[@]}" >"$BENCH_OUT/$name.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 240); do
    curl -sf -o /dev/null "$URL/health" && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then log "$name: no answer on /health after 60 s"
  else local rc=0; wait "$SERVER_PID" || rc=$?; SERVER_PID=""; log "$name exited with status $rc"; fi
  cat "$BENCH_OUT/$name.log" >&2; exit 1
}

# The answers every server must give before it is measured.
sanity() {  # name
  local point list n
  point=$(curl -sf "$URL/get_user_has_permission?User=user_0042&Perm=deploy")
  list=$(curl -sf -X POST -H 'Content-Type: application/json' -d '{"Perm":"deploy"}' "$URL/users_with_permission")
  n=$(python3 -c 'import json,sys; v=json.loads(sys.argv[1]); assert isinstance(v, list); print(len(v))' "$list")
  log "$1: point user_0042/deploy = $point, list deploy = $n users"
  [ "$point" = false ] || { log "$1: unexpected point answer '$point'"; exit 1; }
  echo "$n" > "$BENCH_OUT/$1.list_len"
}

# --- run ----------------------------------------------------------------------------
log "results in $BENCH_OUT"
{
  echo "- machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- wrk $(wrk -v 2>&1 | awk 'NR==1 {print $2}'), -t$THREADS -c$CONNS, ${DURATION} s runs, $ROUNDS rounds × $REPEATS per server and workload (medians), each after a ${WARMUP} s warm-up, KB $KB"
  case " $ONLY " in *" swi "*) echo "- $(swipl --version), $SWI_WORKERS workers" ;; esac
  case " $ONLY " in *" charon"*) echo "- $("$BIN" --version) ($BIN)${CHARON_ARGS:+, flags: $CHARON_ARGS}" ;; esac
  echo
} | tee "$BENCH_OUT/context.md"

: > "$RESULTS"
for round in $(seq "$ROUNDS"); do
  [ "$ROUNDS" = 1 ] || log "round $round of $ROUNDS"
  order=$ONLY
  if [ $((round % 2)) = 0 ]; then order=$(echo $ONLY | tr ' ' '\n' | tac | tr '\n' ' '); fi
  for server in $order; do
    start_server "$server"
    sanity "$server"
    health_url=""; [ "$server" = swi ] || health_url="$URL/health"
    for w in $WORKLOADS; do
      script="bench/wrk/$w.lua"
      [ -f "$script" ] || { log "no workload $w ($script)"; exit 2; }
      if [ "$WARMUP" != 0 ]; then
        wrk -t"$THREADS" -c"$CONNS" -d"${WARMUP}s" -s "$script" "$URL" >/dev/null
      fi
      for i in $(seq "$REPEATS"); do
        run=$(( (round - 1) * REPEATS + i ))
        python3 "$HELPER" run "$SERVER_PID" "$health_url" "$server" "$CONNS" "$run" -- \
          wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" -s "$script" "$URL" >> "$RESULTS"
      done
    done
    stop_server
  done
done

lens=$(cat "$BENCH_OUT"/*.list_len | sort -u | wc -l)
[ "$lens" -le 1 ] || log "WARNING: the servers answered the list query with different lengths"
python3 "$HELPER" table "$RESULTS" "$ONLY" "$WORKLOADS" | tee "$BENCH_OUT/table.md"
log "raw runs: $RESULTS"

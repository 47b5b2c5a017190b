#!/usr/bin/env bash
# RBAC-1000 reasoning benchmark: accuracy and latency of POST /reason on
# `charon http --reasoning`, the same workload as Euclid-MCP's RBAC-1000 benchmark.
#
# Steps: builds charon-cli (release), writes the workload and its expected answers
# with bench/reason/gen_rbac.py, then runs bench/reason/bench_reason.py, which starts
# and stops its own servers (cache=on: the default answer cache; cache=off:
# --answer-cache 0) and prints one line per figure. See bench_reason.py's docstring
# for what is measured and how.
#
# Usage:
#   scripts/bench-reason.sh                      # build, generate, full run
#   SKIP_BUILD=1 scripts/bench-reason.sh --calls 20 --realistic 50   # quick run
# Arguments are passed to bench_reason.py (--calls, --warmup, --realistic,
# --server-args "...", --startup-timeout).
# Environment (defaults in brackets):
#   BENCH_OUT  [${TMPDIR:-/tmp}]: data, results.json and server logs go to
#              $BENCH_OUT/charon-reason-bench
#   CHARON_BIN [${CARGO_TARGET_DIR:-target}/release/charon]
#   SKIP_BUILD [0]: 1 uses the existing binary
# Exit status: bench_reason.py's (0 ok, 1 a wrong answer, 2 a setup error).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${BENCH_OUT:-${TMPDIR:-/tmp}}/charon-reason-bench"
BIN="${CHARON_BIN:-${CARGO_TARGET_DIR:-target}/release/charon}"
log() { echo "bench-reason: $*" >&2; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "cargo build --release -p charon-cli"
  cargo build --release -p charon-cli >&2
fi
[ -x "$BIN" ] || { log "no $BIN (build it, unset SKIP_BUILD, or set CHARON_BIN)"; exit 2; }

python3 -I bench/reason/gen_rbac.py --out "$OUT" >&2
exec python3 -I bench/reason/bench_reason.py --out "$OUT" --bin "$BIN" "$@"

#!/usr/bin/env bash
# RBAC-1000 reasoning benchmark, Charon beside its peer in one run:
#   1. Charon over HTTP: accuracy and latency of POST /reason on
#      `charon http --reasoning` (bench/reason/bench_reason.py, which starts and
#      stops its own servers: cache=on, the default answer cache; cache=off,
#      --answer-cache 0);
#   2. Charon in process: `cargo bench -p charon --bench reason` (criterion:
#      Reasoner::reason, cache on and off, and knowledge never seen before);
#   3. Euclid-MCP in process: bench/reason/euclid_peer.py, with euclid-mcp (PyPI,
#      pinned below) in a virtualenv under $CHARON_TOOLS and SWI-Prolog from the
#      system packages, both installed on first use.
# The workload and its expected answers come from bench/reason/gen_rbac.py; the
# docstrings of the two Python scripts say what is measured and how. Figures are one
# line each on stdout.
#
# Usage:
#   scripts/bench-reason.sh                      # build, generate, full run
#   SKIP_BUILD=1 CRITERION=0 scripts/bench-reason.sh --calls 20 --realistic 50   # quick
# Arguments are passed to bench_reason.py (--calls, --warmup, --realistic,
# --server-args "...", --startup-timeout); --calls and --warmup also to euclid_peer.py.
# Environment (defaults in brackets):
#   BENCH_OUT  [${TMPDIR:-/tmp}]: data, results.json and server logs go to
#              $BENCH_OUT/charon-reason-bench
#   CHARON_BIN [${CARGO_TARGET_DIR:-target}/release/charon]
#   SKIP_BUILD [0]: 1 uses the existing binary
#   CRITERION  [1]: 0 skips the in-process criterion run
#   EUCLID     [1]: 0 skips Euclid-MCP
# Exit status: 0, 1 when an answer is wrong (Charon's or Euclid's), 2 on a setup error.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${BENCH_OUT:-${TMPDIR:-/tmp}}/charon-reason-bench"
BIN="${CHARON_BIN:-${CARGO_TARGET_DIR:-target}/release/charon}"
log() { echo "bench-reason: $*" >&2; }
EUCLID_VERSION=0.4.5

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "cargo build --release -p charon-cli"
  cargo build --release -p charon-cli >&2
fi
[ -x "$BIN" ] || { log "no $BIN (build it, unset SKIP_BUILD, or set CHARON_BIN)"; exit 2; }

python3 -I bench/reason/gen_rbac.py --out "$OUT" >&2
status=0
python3 -I bench/reason/bench_reason.py --out "$OUT" --bin "$BIN" "$@" || status=$?

if [ "${CRITERION:-1}" = 1 ]; then
  log "cargo bench -p charon --bench reason"
  cargo bench -p charon --bench reason 2>/dev/null \
    | awk '/^reason_/ { name = $1 } /time:/ { sub(/.*time: */, ""); print "charon-in-process", name, $0 }'
fi

if [ "${EUCLID:-1}" = 1 ]; then
  source scripts/tools.sh
  need_commands swipl=swi-prolog-nox
  EUCLID_VENV="$TOOLS/euclid-venv"
  if ! "$EUCLID_VENV/bin/python" -c "import euclid_mcp" 2>/dev/null; then
    log "installing euclid-mcp==$EUCLID_VERSION into $EUCLID_VENV"
    mkdir -p "$TOOLS"
    python3 -m venv "$EUCLID_VENV"
    "$EUCLID_VENV/bin/pip" install --quiet --disable-pip-version-check "euclid-mcp==$EUCLID_VERSION" >&2
  fi
  peer_args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --calls|--warmup) peer_args+=("$1" "$2"); shift 2 ;;
      *) shift ;;
    esac
  done
  "$EUCLID_VENV/bin/python" bench/reason/euclid_peer.py --out "$OUT" "${peer_args[@]}" \
    || status=$?
fi
exit "$status"

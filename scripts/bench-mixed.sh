#!/usr/bin/env bash
# Mixed-workload benchmark: reads with 1 % writes, Charon beside SWI-Prolog's HTTP
# server in one run (scripts/bench-http.sh does the measuring; its header says how).
#
# The knowledge base is examples/rbac.pl (RBAC-1000) with direct_grant/2 declared
# dynamic and the two writes of bench/peers/rbac_writes.pl added:
#   grant(User, Perm)  changes direct_grant/2, which every permission check reads;
#   add_note(Text)     changes note/1, which no read looks at.
# Three workloads, each on a fresh server (bench/wrk/):
#   point_zipf   the point query, Zipf-distributed keys, reads only;
#   mixed_note   the same reads, every 100th request of a connection POST /add_note;
#   mixed_grant  the same reads, every 100th request POST /grant of a uniformly drawn
#                (user, permission) pair.
# Charon runs with its defaults (answer cache on): a write forgets only the cached
# answers of operations that can read what it changed (`charon check` lists them).
#
# Usage: scripts/bench-mixed.sh        (environment as scripts/bench-http.sh; ONLY
#        defaults to "swi charon", WORKLOADS to the three above)
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_OUT=${BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/charon-bench-mixed.XXXXXX")}
mkdir -p "$BENCH_OUT"
kb="$BENCH_OUT/rbac_mixed.pl"
{
  echo "% examples/rbac.pl with the writes of bench/peers/rbac_writes.pl (scripts/bench-mixed.sh)."
  echo ":- dynamic(direct_grant/2)."
  cat examples/rbac.pl bench/peers/rbac_writes.pl
} > "$kb"
export KB="$kb"
export ONLY=${ONLY:-"swi charon"}
export WORKLOADS=${WORKLOADS:-"point_zipf mixed_note mixed_grant"}
exec scripts/bench-http.sh

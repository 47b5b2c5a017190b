#!/usr/bin/env bash
# Instructions Charon executes in the calling process per call, typed method against
# JSON call (valgrind's callgrind: counts, not seconds, so repeatable on a busy VM).
# The worker process is not traced: both kinds of call send it the same goals, so the
# difference is all on this side. Each figure: (count for N calls − count for 0 calls) / N.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "bench-typed.sh: install valgrind (apt-get install valgrind)" >&2; exit 1; }
N=${N:-2000}
cargo build --release -q -p charon --example typed_vs_json
bin="${CARGO_TARGET_DIR:-target}/release/examples/typed_vs_json"
count() {
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" 2>/dev/null >/dev/null
  awk '/^summary:/ {print $2}' "$out"; rm -f "$out"
}
base=$(count none point 0)
for query in point list; do
  json=$(( ($(count json "$query" "$N") - base) / N ))
  typed=$(( ($(count typed "$query" "$N") - base) / N ))
  echo "$query: json $json instructions/call, typed $typed instructions/call, typed/json $(awk "BEGIN {printf \"%.3f\", $typed / $json}")"
done

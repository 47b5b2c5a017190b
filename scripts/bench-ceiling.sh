#!/usr/bin/env bash
# The engine's own ceiling on this machine: how many list queries per second two
# engine workers can run when nothing but the engine runs — the bound the HTTP
# server's cache-off list figure is compared with (BENCHMARKS.md).
#
# What is measured. Charon's worker process (the `charon` binary with CHARON_WORKER=1,
# speaking its line protocol on stdin/stdout: what every engine worker is) loads
# examples/rbac.pl and runs N requests read from a file, as fast as it can:
#   raw      the bare goal `users_with_permission(deploy, _)` (106 users) — scryer
#            running the query, nothing of Charon's around it;
#   checked  the call as the server makes it once adaptive counting has promoted the
#            operation: the operation's stub (the clause Charon writes beside the
#            wrapper, see codec::stubs) called with checked(10000000), the answer
#            written and sent back;
#   strict   the same under scryer's inference counter (limit 10,000,000).
# Each is run by one worker alone, then by two workers at once (one per core, as the
# server runs them). A run with no request (the load alone) is subtracted.
#
# Output: µs per goal for one worker, and the goals per second of two workers at
# once, for each form; the last is the ceiling (raw) and what the engine path allows
# (checked, strict). Medians of REPEATS runs.
#
# Usage:
#   scripts/bench-ceiling.sh                  # builds charon-cli, ~1 min
#   SKIP_BUILD=1 N=1000 scripts/bench-ceiling.sh
# Environment: N [3000] goals per run, REPEATS [3], SKIP_BUILD [0].
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-3000}
REPEATS=${REPEATS:-3}
BIN="${CARGO_TARGET_DIR:-target}/release/charon"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release -p charon-cli >&2
fi
[ -x "$BIN" ] || { echo "bench-ceiling: no binary at $BIN" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench-ceiling: python3 is needed" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK" "$N" "$PWD" <<'EOF'
import json, sys
work, n, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# The wrapper as the engine loads it: the operation's stub first (the form
# codec::stubs writes for a det operation with one input and one output).
stub = "'$charon_o0'(L,I0) :- '$charon_once'(sol(O1),users_with_permission(I0,O1),L,_).\n"
# The wrapper's parts, in the order the engine consults them (engine/mod.rs).
parts = ["calls", "changes", "loading", "analysis", "explain", "rewriting"]
wrapper = "".join(open(f"{root}/charon/src/engine/wrapper/{p}.pl").read() for p in parts)
open(f"{work}/wrapper.pl", "w").write(stub + wrapper)
load = json.dumps({"load": {"wrapper": f"{work}/wrapper.pl",
                            "kb": f"{root}/examples/rbac.pl"}})
forms = {
    "raw": "users_with_permission(deploy, _).",
    "checked": "'$charon_o0'(checked(10000000),deploy).",
    "strict": "'$charon_o0'(10000000,deploy).",
}
open(f"{work}/none.jsonl", "w").write(load + "\n")
for name, query in forms.items():
    run = json.dumps({"run": {"query": query, "spin_us": 0, "changes": False, "id": 0}})
    open(f"{work}/{name}.jsonl", "w").write("\n".join([load] + [run] * n) + "\n")
EOF

# Seconds (wall clock) that `procs` workers take to serve file $1 at once.
timed() {  # file procs
  local start end
  start=$(date +%s.%N)
  for _ in $(seq "$2"); do CHARON_WORKER=1 "$BIN" < "$1" > "$WORK/out.$RANDOM" & done
  wait
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

median() { python3 -c 'import sys,statistics; print(statistics.median(map(float, sys.argv[1:])))' "$@"; }

# Check the answers first: the wrapped forms must give the 106 users.
CHARON_WORKER=1 "$BIN" < "$WORK/checked.jsonl" | sed -n 2p > "$WORK/first"
python3 - "$WORK/first" <<'EOF'
import json, sys
result = json.loads(open(sys.argv[1]).read())["ran"]["result"]
users = result.count("user_")
assert users == 106, f"expected 106 users in the answer, got {users}: {result[:200]}"
EOF

load_one=(); load_two=()
for _ in $(seq "$REPEATS"); do
  load_one+=("$(timed "$WORK/none.jsonl" 1)")
  load_two+=("$(timed "$WORK/none.jsonl" 2)")
done
L1=$(median "${load_one[@]}"); L2=$(median "${load_two[@]}")
echo "- machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ); $("$BIN" --version)"
echo "- $N goals per run, medians of $REPEATS runs; load alone: ${L1} s (one worker), ${L2} s (two)"
echo
echo "| form | µs per goal, one worker | goals/s, two workers at once |"
echo "|---|---|---|"
for form in raw checked strict; do
  one=(); two=()
  for _ in $(seq "$REPEATS"); do
    one+=("$(timed "$WORK/$form.jsonl" 1)")
    two+=("$(timed "$WORK/$form.jsonl" 2)")
  done
  python3 - "$form" "$N" "$L1" "$L2" "$(median "${one[@]}")" "$(median "${two[@]}")" <<'EOF'
import sys
form, n, l1, l2, one, two = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
print(f"| {form} | {(one - l1) / n * 1e6:.0f} | {2 * n / (two - l2):.0f} |")
EOF
done

#!/usr/bin/env python3
"""The peer of the reasoning benchmark: Euclid-MCP's `reason` on RBAC-1000.

Euclid-MCP (https://pypi.org/project/euclid-mcp/) is the Python reference
implementation of the Euclid-IR reasoning tools: it lowers the knowledge to Prolog
and runs it in one long-lived SWI-Prolog process, keeping the loaded knowledge by
its text. This script calls its `reason` function in process (no MCP transport),
with the whole knowledge on every call, the way a client of the tool sends it, and
`max_solutions=1000, max_depth=30`, for the two questions of bench_reason.py:

  list   user_has_permission($u, delete_repo)   (the users who may delete a repo)
  point  user_has_permission(user_0042, deploy)

Figures, one line each on stdout:
  1. first_call: the first call in the process (SWI-Prolog started, knowledge parsed
     and loaded, list question answered); one sample;
  2. repeated: the same knowledge again (Euclid answers from the loaded copy):
     WARMUP calls not counted, then CALLS timed calls, per question;
  3. new_knowledge: CALLS calls per question whose knowledge is the workload plus a
     comment line that makes it new, so each one is parsed and loaded again on the
     running engine.
A call's time is `time.perf_counter()` around the `reason(...)` call; percentiles
are deciles (statistics.quantiles, method="inclusive").

Every answer is checked against expected.json (from gen_rbac.py): the list question
must give exactly the expected distinct users, the point question the expected
yes/no. Exit status: 0, 1 on a wrong answer, 2 when euclid_mcp does not import.

Usage (the Python that has euclid-mcp installed; scripts/bench-reason.sh sets it up):
  python bench/reason/euclid_peer.py --out DIR [--calls N] [--warmup N]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

LIST_QUERY = "user_has_permission($u, delete_repo)"
POINT_QUERY = "user_has_permission(user_0042, deploy)"


def summary(kind: str, run: str, samples: list[float]) -> None:
    deciles = statistics.quantiles(samples, n=10, method="inclusive")
    print(f"euclid {kind} {run} median_ms={statistics.median(samples):.2f} "
          f"p10_ms={deciles[0]:.2f} p90_ms={deciles[8]:.2f} n={len(samples)}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="gen_rbac.py's output directory")
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    args = ap.parse_args()
    if args.calls < 2:
        ap.error("--calls must be at least 2 (percentiles)")

    os.environ.setdefault("EUCLID_LOG_LEVEL", "ERROR")
    os.environ.setdefault("EUCLID_BACKEND", "prolog")
    try:
        from euclid_mcp.server import reason  # type: ignore[import-not-found]
    except ImportError as exc:
        print(f"euclid_peer: euclid_mcp does not import ({exc}); "
              "run it with the Python scripts/bench-reason.sh sets up", file=sys.stderr)
        return 2
    logging.disable(logging.WARNING)

    out = Path(args.out)
    knowledge = (out / "rbac_1000.euclid").read_text(encoding="utf-8")
    expected = json.loads((out / "expected.json").read_text(encoding="utf-8"))
    want = {
        "list": set(expected["delete_repo_users"]),
        "point": "user_0042" in expected["users_by_permission"]["deploy"],
    }
    queries = {"list": LIST_QUERY, "point": POINT_QUERY}
    misses = 0

    def call(kind: str, text: str) -> float:
        nonlocal misses
        t0 = time.perf_counter()
        result = reason(knowledge=text, query=queries[kind], max_solutions=1000, max_depth=30)
        ms = (time.perf_counter() - t0) * 1e3
        solutions = result.solutions or []
        if result.error:
            got = f"error {result.error}"
        elif kind == "list":
            got = {s.substitutions.get("u") for s in solutions}
        else:
            got = bool(solutions)
        if got != want[kind]:
            misses += 1
            print(f"MISS euclid {kind}: {str(got)[:200]}", file=sys.stderr, flush=True)
        return ms

    from importlib.metadata import version
    print(f"# euclid-mcp {version('euclid-mcp')}, in process; knowledge "
          f"{len(knowledge.encode())} bytes; calls={args.calls} warmup={args.warmup}",
          flush=True)
    print(f"euclid list first_call ms={call('list', knowledge):.2f}", flush=True)
    fresh = 0
    for kind in ("list", "point"):
        for _ in range(args.warmup):
            call(kind, knowledge)
        summary(kind, "repeated", [call(kind, knowledge) for _ in range(args.calls)])
        samples = []
        for _ in range(args.calls):
            fresh += 1
            samples.append(call(kind, f"{knowledge}\n# new knowledge {fresh}\n"))
        summary(kind, "new_knowledge", samples)
    if misses:
        print(f"euclid accuracy FAILED: {misses} wrong answers", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

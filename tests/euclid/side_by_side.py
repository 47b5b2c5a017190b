#!/usr/bin/env python3
"""Euclid-IR side by side: Charon's `reason` beside the reference implementation's.

The reference is Euclid-MCP (https://pypi.org/project/euclid-mcp/), called in
process (its `reason` tool function, SWI-Prolog behind it); Charon is the `charon`
binary (`charon reason FILE QUERY --json`). Both get the same knowledge and query,
with max_solutions 1000 and max_depth 30, and their solutions must be the same set
of bindings (values compared as text; the order of solutions is each one's own).

The cases: every `.euclid` file under examples/reasoning, asked every predicate it
defines with all arguments unbound, and the questions of
examples/reasoning/it-security/questions.json.

Usage (a Python with euclid-mcp installed; scripts/euclid-side-by-side.sh sets it up):
  python tests/euclid/side_by_side.py CHARON_BINARY
Exit status: 0 when every case agrees but those listed in DELIBERATE (each with its
reason), 1 otherwise (each difference printed).
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "reasoning"
MAX_SOLUTIONS = 1000
MAX_DEPTH = 30

# Cases where the two answer differently on purpose, each with its reason (README,
# "Reasoning with proofs", the comparison with the reference).
DELIBERATE = {
    "examples/reasoning/reference-style/audit.euclid: must_follow($a0, $a1)": (
        "`$level != low`: the reference's SWI-Prolog backend compares with =\\= and "
        "fails on constants (engine_error); its language, and its own Python engine, "
        "read != as `not the same value`, as Charon does"
    ),
    "examples/reasoning/reference-style/audit.euclid: outside_team($a0, $a1)": (
        "`$x != $t` between constants: the same"
    ),
}

HEAD = re.compile(r"^\s*([a-z][A-Za-z0-9_]*)\(([^)]*)\)\s+(?i:if)\b")


def cases() -> list[tuple[str, Path, str]]:
    """(case name, knowledge file, query)."""
    out = []
    for file in sorted(EXAMPLES.rglob("*.euclid")):
        seen = set()
        for line in file.read_text().splitlines():
            m = HEAD.match(line)
            if not m:
                continue
            name, args = m.group(1), m.group(2)
            arity = len(args.split(",")) if args.strip() else 0
            if (name, arity) in seen:
                continue
            seen.add((name, arity))
            query = f"{name}({', '.join(f'$a{i}' for i in range(arity))})"
            out.append((f"{file.relative_to(ROOT)}: {query}", file, query))
    questions = json.loads((EXAMPLES / "it-security" / "questions.json").read_text())
    for variant in questions["variants"]:
        file = EXAMPLES / "it-security" / variant["file"]
        for q in variant["questions"]:
            out.append((f"{file.relative_to(ROOT)}: {q['id']}", file, q["query"]))
    return out


def as_set(solutions: list[dict]) -> set[tuple]:
    return {tuple(sorted((k, str(v)) for k, v in s.items())) for s in solutions}


def reference(knowledge: str, query: str) -> set[tuple] | str:
    """The reference's answer, in a process of its own: its SWI-Prolog process is
    long-lived and keeps state between calls (seen here: after some questions, later
    ones on the same knowledge answer nothing), so each case starts it afresh."""
    code = (
        "import json, logging, sys\n"
        "logging.disable(logging.CRITICAL)\n"
        "from euclid_mcp.server import reason\n"
        "a = json.load(sys.stdin)\n"
        "r = reason(knowledge=a['k'], query=a['q'], max_solutions=a['s'], max_depth=a['d'])\n"
        "print(json.dumps({'error': r.error, 'solutions': [s.substitutions for s in r.solutions]}))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps({"k": knowledge, "q": query, "s": MAX_SOLUTIONS, "d": MAX_DEPTH}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        r = json.loads(run.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return f"error: exit {run.returncode}: {run.stderr.strip()[-300:]}"
    if r["error"]:
        return f"error: {r['error']}"
    return as_set(r["solutions"])


def charon(binary: str, file: Path, query: str) -> set[tuple] | str:
    run = subprocess.run(
        [
            binary,
            "reason",
            str(file),
            query,
            "--json",
            "--max-solutions",
            str(MAX_SOLUTIONS),
            "--max-depth",
            str(MAX_DEPTH),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        result = json.loads(run.stdout)
    except json.JSONDecodeError:
        return f"error: exit {run.returncode}: {run.stderr.strip()[-300:]}"
    if not result.get("ok", True) or "solutions" not in result:
        return f"error: {result.get('error')}"
    return as_set([s["bindings"] for s in result["solutions"]])


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    logging.disable(logging.CRITICAL)
    all_cases = cases()
    differ = []
    for name, file, query in all_cases:
        ref = reference(file.read_text(), query)
        got = charon(binary, file, query)
        if ref != got:
            differ.append((name, ref, got))
    unexplained = 0
    for name, ref, got in differ:
        why = DELIBERATE.get(name)
        unexplained += why is None
        print(f"{'deliberate' if why else 'DIFFERS'}: {name}"
              f"\n  reference: {sorted(ref) if isinstance(ref, set) else ref}"
              f"\n  charon:    {sorted(got) if isinstance(got, set) else got}"
              + (f"\n  why: {why}" if why else ""))
    stale = set(DELIBERATE) - {name for name, _, _ in differ}
    for name in sorted(stale):
        print(f"DELIBERATE BUT AGREES (remove it from DELIBERATE): {name}")
    print(f"{len(all_cases) - len(differ)} of {len(all_cases)} cases agree with the reference; "
          f"{len(differ) - unexplained} differ on purpose, {unexplained} otherwise")
    return 1 if unexplained or stale or not all_cases else 0


if __name__ == "__main__":
    sys.exit(main())

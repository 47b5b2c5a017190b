#!/usr/bin/env python3
"""Euclid-IR side by side: Charon's `reason` beside the reference implementation's.

The reference is Euclid-MCP (https://pypi.org/project/euclid-mcp/): its `reason` tool
function, on its default backend (SWI-Prolog), each answer from a fresh process (a fork
of this one made before the reference has started anything: its SWI-Prolog process,
kept between calls, answered nothing to some questions after others on the same
knowledge). Charon is the `charon` binary (`charon reason - [QUERY] --json`, the
knowledge on stdin). Both get the same knowledge, query, max_solutions and max_depth.

The cases, from three corpora:

  examples  every `.euclid` file under examples/reasoning, asked every predicate it
            defines with all arguments unbound, and the questions of
            examples/reasoning/it-security/questions.json (1000 solutions, depth 30);
  tests     every (knowledge, query, max_solutions, max_depth) the reference's own test
            suite passes to its reasoning entry points: its sdist's pytest suite is run
            with tests/euclid/reference_recorder.py installed, which records each call
            of `server.reason` (the tool, also behind explain, diagnose, what_if, the
            MCP server and the CLI), `engine.execute`, `prolog_bridge.execute` and
            `ir_engine.solve_kb` (the backends), the callee's defaults filled in;
            regenerated on every run from the sdist given (about 15 s). Three of its
            test modules import what the sdist does not ship and are not collected;
            calls with no knowledge to compare (an unknown kb_id, none given) are
            counted, not compared. A case is named by its first test, the hash of its
            knowledge and its limits;
  readme    the sdist's README.md: its Euclid-IR code blocks (text or YAML; with a `?`
            line that query, else every predicate a rule defines, all unbound, as for
            the examples), and, recorded the same way, every call its runnable examples
            make (Python blocks, `curl -d` bodies, `python3 -c`, inline `euclid-cli`).

Cases asked more than once (the same knowledge, query and limits) are run once. The
backend a test ran on is recorded (some run the reference's Python engine), but every
reference answer is its default backend's; beside each difference the Python engine's
answer is printed as evidence.

What agrees: the same set of bindings (values compared as text, a variable left free
inside a value written `_`; each side orders its solutions its own way), or both
refusing (an error each; the messages are not compared). When one side stops at
max_solutions, each shows its own first ones (the reference in search order, Charon
merged and sorted: README, "Reasoning with proofs"), so the complete answers are
compared instead, asked again with 1000. Without a query (or with an empty one), the
reference answers the knowledge's last `?` line, Charon every one: its last answer is
compared.

Usage (a Python with euclid-mcp and pytest installed; scripts/euclid-corpora.sh sets it
up, and the test command runs it):
  python tests/euclid/corpora.py CHARON_BINARY SDIST_DIR [--save-corpus FILE] [-v]
SDIST_DIR is the unpacked euclid-mcp sdist (tests/, README.md). --save-corpus writes
the cases of the three corpora as JSON; --verbose prints every case.
Exit status: 0 when every case agrees but those listed in DELIBERATE (each with its
reason), 1 otherwise (each difference printed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "examples" / "reasoning"
MAX_SOLUTIONS = 1000  # the most either side gives at once
MAX_DEPTH = 30

sys.path.insert(0, str(HERE))
import reference_recorder  # noqa: E402  (fenced_blocks; records nothing here)

# Cases where the two answer differently on purpose, each with its reason: a reference
# bug (the evidence said), or a difference Charon's docs document (docs/reasoning.md,
# "Beside the reference implementation, Euclid-MCP").
SWI_NOT_EQUAL = (
    "`$level != low`: the reference's SWI-Prolog backend compares with =\\= and "
    "fails on constants (engine_error); its language, and its own Python engine, "
    "read != as `not the same value`, as Charon does"
)
OR = ("docs/reasoning.md (Charon): disjunction (`OR`) is left out by design and refused "
      "when read (write one rule per case); the reference expands it into one clause per "
      "branch")
UNIFY = ("docs/reasoning.md (Charon): unification with `=` is refused by design (repeat "
         "the variable, or compare with ==); the reference's own backends disagree on it: "
         "its Python engine binds, its SWI-Prolog backend answers nothing")
NUMBER = ("reference bug: its SWI-Prolog backend reads the number its language rejects "
          "(its Python engine refuses it: 'Unsupported numeric literal', which is what "
          "its test expects); Charon refuses it too (docs/reasoning.md: exponents, "
          "hexadecimal)")
DOTS = ("reference bug: it strips every trailing `.` of a line (language.py: "
        "line.rstrip('.')), so the README's elided pseudo-code `has_role(alice, admin) "
        "...` is the fact has_role(alice, admin) and `? $role ...` the query `$role`; "
        "Charon allows one final full stop and refuses the rest")
T = "tests/test_"
DELIBERATE = {
    "examples/reasoning/reference-style/audit.euclid: must_follow($a0, $a1)": SWI_NOT_EQUAL,
    "examples/reasoning/reference-style/audit.euclid: outside_team($a0, $a1)": (
        "`$x != $t` between constants: the same"
    ),
    T + "native_engine.py::test_syntactic_equality_on_atoms: deployable "
        "[kb da61f4a4, 5 solutions, depth 30]": (
        "reference bug: `$x == ready`, as for != above: its SWI-Prolog backend compares "
        "with =:= (engine_error), its Python engine (this test's) says it holds, as Charon"
    ),
    T + "native_engine.py::test_unsupported_numeric_literals_are_rejected: n(_) "
        "[kb 1a4e5538, 5 solutions, depth 30]": NUMBER + " (1e3)",
    T + "native_engine.py::test_unsupported_numeric_literals_are_rejected: n(_) "
        "[kb 5e11c3cc, 5 solutions, depth 30]": NUMBER + " (0x10)",
    T + "native_engine.py::test_unsupported_numeric_literals_are_rejected: n(_) "
        "[kb 41da202b, 5 solutions, depth 30]": NUMBER + " (1_000)",
    T + "native_engine.py::test_unsupported_numeric_literals_are_rejected: n(_) "
        "[kb d174fe57, 5 solutions, depth 30]": NUMBER + " (12abc)",
    T + "native_engine.py::test_missing_argument_comma_is_a_parse_error: p($x) "
        "[kb 09a4b5b9, 5 solutions, depth 30]": (
        "reference bug: `p(1-2)`: its SWI-Prolog backend binds $x to the term 1-2, its "
        "Python engine refuses it ('Expected , or ) after argument', the test's "
        "expectation), as Charon does"
    ),
    T + "tools.py::TestRuleIDs::test_hostile_rule_id_rejected: (its ? line) "
        "[kb bb0b1c11, 5 solutions, depth 30]": (
        "reference bug: its sanitizer regex reads trailing comments, so `# rule: '); "
        "halt.` is refused (so is `# we halt. here`); the id is inert text: Charon "
        "keeps it as the rule_id and writes no Prolog from it"
    ),
    T + "native_engine.py::test_unification_equality_keeps_term: level(role_level, $who) "
        "[kb 5109dc99, 5 solutions, depth 30]": UNIFY,
    T + "native_engine.py::test_equals_unification_binds_variables: same_as(alice, $who) "
        "[kb 4eff5044, 5 solutions, depth 30]": UNIFY,
    T + "or_rules.py::test_parity_simple_or[native]: (its ? line) "
        "[kb 7bb8c736, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_parity_group_with_not[native]: (its ? line) "
        "[kb c87e5e24, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_parity_arithmetic_or[native]: (its ? line) "
        "[kb 13e5c076, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_parity_expanded_rule_id_in_proofs[native]: (its ? line) "
        "[kb 47ac970a, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_explain_cites_the_expanded_rule_id_on_every_branch: "
        "mortal($who) [kb 2a50160d, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_what_if_works_with_or_rules: mortal($who) "
        "[kb bc4d774f, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_what_if_works_with_or_rules: mortal($who) "
        "[kb 53709bb4, 5 solutions, depth 30]": OR,
    T + "or_rules.py::test_what_if_without_or_branch_still_counts: mortal($who) "
        "[kb 56201f81, 5 solutions, depth 30]": OR,
    "README.md:148: can_deploy($a0, $a1)": OR,
    "README.md:346: can_deploy($user, prod) [kb f8a5958e, 5 solutions, depth 30]": DOTS,
    "README.md:349: can_deploy($user, staging) [kb 6ffa2a50, 5 solutions, depth 30]": DOTS,
}

HEAD = re.compile(r"^\s*([a-z][A-Za-z0-9_]*)\(([^)]*)\)\s+(?i:if)\b")
STATEMENT = re.compile(r"^(\?\s*)?[A-Za-z_][\w]*\(")


@dataclass
class Case:
    name: str
    corpus: str
    knowledge: str
    query: str | None
    max_solutions: int = MAX_SOLUTIONS
    max_depth: int = MAX_DEPTH
    origins: list[str] = field(default_factory=list)  # where it was asked

    def key(self) -> tuple:
        return (self.knowledge, self.query, self.max_solutions, self.max_depth)


def every_predicate(knowledge: str) -> list[str]:
    """A query per predicate a rule of the knowledge defines, all arguments unbound."""
    seen, out = set(), []
    for line in knowledge.splitlines():
        m = HEAD.match(line)
        if not m:
            continue
        name, args = m.group(1), m.group(2)
        arity = len(args.split(",")) if args.strip() else 0
        if (name, arity) not in seen:
            seen.add((name, arity))
            out.append(f"{name}({', '.join(f'$a{i}' for i in range(arity))})")
    return out


def example_cases() -> list[Case]:
    out = []
    for file in sorted(EXAMPLES.rglob("*.euclid")):
        text = file.read_text()
        for query in every_predicate(text):
            out.append(Case(f"{file.relative_to(ROOT)}: {query}", "examples", text, query))
    questions = json.loads((EXAMPLES / "it-security" / "questions.json").read_text())
    for variant in questions["variants"]:
        file = EXAMPLES / "it-security" / variant["file"]
        for q in variant["questions"]:
            out.append(Case(f"{file.relative_to(ROOT)}: {q['id']}", "examples",
                            file.read_text(), q["query"]))
    return out


def recorded_cases(corpus: str, records: list[dict]) -> tuple[list[Case], list[dict]]:
    """The cases of recorded calls, and the records that are no case (with `skip`)."""
    cases, skipped = [], []
    for r in records:
        if "skip" in r:
            skipped.append(r)
            continue
        kb = hashlib.sha256(r["knowledge"].encode()).hexdigest()[:8]
        query = r["query"] if r["query"] is not None else "(its ? line)"
        if len(query) > 80:
            digest = hashlib.sha256(query.encode()).hexdigest()[:8]
            query = f"{query[:40]}... ({len(query)} characters, {digest})"
        name = (f"{r['source']}: {query} [kb {kb}, {r['max_solutions']} solutions, "
                f"depth {r['max_depth']}]")
        cases.append(Case(name, corpus, r["knowledge"], r["query"], r["max_solutions"],
                          r["max_depth"], [f"{r['source']} ({r['entry']}, {r['backend']})"]))
    return cases, skipped


def record(command: list[str], cwd: Path, pythonpath: Path | None) -> tuple[list[dict], str]:
    """Run `command` with the recorder's records going to a file; (records, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "records.jsonl"
        env = dict(os.environ, EUCLID_RECORD=str(out), PYTHONDONTWRITEBYTECODE="1")
        env.pop("EUCLID_BACKEND", None)
        env.pop("EUCLID_KB_PATH", None)
        if pythonpath:
            env["PYTHONPATH"] = str(pythonpath)
        run = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                             timeout=600)
        if run.returncode not in (0, 1):  # 1: some of its tests fail here (see below)
            sys.exit(f"side_by_side: {command} exited {run.returncode}:\n"
                     f"{run.stdout[-2000:]}{run.stderr[-2000:]}")
        records = [json.loads(line) for line in out.read_text().splitlines()] \
            if out.exists() else []
        return records, run.stdout + run.stderr


def reference_test_cases(sdist: Path) -> tuple[list[Case], list[dict], str]:
    """Runs the sdist's test suite in a scratch copy, the recorder installed as the
    copy's sitecustomize (so the subprocesses its tests start record too). Three of its
    test modules import modules the sdist does not ship (integrations/, the LSP's
    document_model) and are not collected; the tests that need them fail."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "sdist"
        shutil.copytree(sdist, copy)
        shutil.copy(HERE / "reference_recorder.py", copy / "sitecustomize.py")
        records, output = record(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "--continue-on-collection-errors", "tests"], copy, copy)
    summary = next((line for line in reversed(output.splitlines())
                    if re.search(r"\d+ (passed|failed)", line)), "no pytest summary")
    if not records:
        sys.exit(f"side_by_side: the reference's tests recorded nothing:\n{output[-3000:]}")
    cases, skipped = recorded_cases("tests", records)
    return cases, skipped, summary.strip("= ")


def readme_cases(sdist: Path) -> tuple[list[Case], list[dict]]:
    readme = sdist / "README.md"
    out = []
    for line, lang, body in reference_recorder.fenced_blocks(readme.read_text()):
        first = next((t.strip() for t in body.splitlines()
                      if t.strip() and not t.strip().startswith(("#", "%", "//"))), "")
        euclid = lang in ("", "text", "euclid") and STATEMENT.match(first)
        yaml = lang == "yaml" and re.search(r"^(facts|rules|query|queries):", body, re.M)
        if not (euclid or yaml):
            continue
        queries = [None] if re.search(r"^\s*\?|^query:|^queries:", body, re.M) \
            else every_predicate(body)
        for query in queries:
            out.append(Case(f"README.md:{line}: {query or '(its ? line)'}", "readme",
                            body, query, origins=[f"README.md:{line} ({lang or 'text'} block)"]))
    records, _ = record([sys.executable, str(HERE / "reference_recorder.py"), "readme",
                         str(readme)], Path(tempfile.gettempdir()), None)
    cases, skipped = recorded_cases("readme", records)
    return out + cases, skipped


def deduplicate(cases: list[Case]) -> list[Case]:
    first: dict[tuple, Case] = {}
    for case in cases:
        if case.key() in first:
            first[case.key()].origins.extend(case.origins)
        else:
            first[case.key()] = case
    return list(first.values())


# ── Asking both ───────────────────────────────────────────────────────────────


# A variable left free inside a value: SWI-Prolog names it afresh each run (`_28240`;
# the reference normalizes such names in proofs, not in values), the reference's
# native engine and Charon write `_`.
FRESH = re.compile(r"(?<![\w'\"])_G?\d+(?![\w'\"])")


def as_set(solutions: list[dict]) -> set[tuple]:
    return {tuple(sorted((k, FRESH.sub("_", str(v))) for k, v in s.items()))
            for s in solutions}


def reference(case: Case, max_solutions: int | None = None, backend: str = "prolog") -> dict:
    """{"error": message} or {"solutions": [bindings, ...]}, from a fork of this
    process: a fresh reference (nothing of it has run here), on `backend`."""
    from euclid_mcp import prolog_bridge
    from euclid_mcp.server import reason

    read, write = os.pipe()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(120)
        os.environ["EUCLID_BACKEND"] = backend
        try:
            r = reason(knowledge=case.knowledge, query=case.query,
                       max_solutions=max_solutions or case.max_solutions,
                       max_depth=case.max_depth)
            out = {"error": r.error} if r.error else \
                {"solutions": [s.substitutions for s in r.solutions]}
        except BaseException as exc:  # the tool raising: an error over MCP too
            out = {"error": f"{type(exc).__name__}: {exc}"}
        data = json.dumps(out, default=str).encode()
        while data:
            data = data[os.write(write, data):]
        prolog_bridge.close()
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return {"error": f"reference process died ({status})"}
    return json.loads(b"".join(chunks))


def charon(binary: str, case: Case, max_solutions: int | None = None) -> dict:
    """{"error": message} or {"solutions": [...], "count": n, "truncated": bool}."""
    run = subprocess.run(
        [binary, "reason", "-", *([case.query] if case.query else []),  # "": none, as there
         "--json", "--max-solutions", str(max_solutions or case.max_solutions),
         "--max-depth", str(case.max_depth)],
        input=case.knowledge, capture_output=True, text=True, timeout=120,
    )
    try:
        result = json.loads(run.stdout)
    except json.JSONDecodeError:
        return {"error": f"exit {run.returncode}: {run.stderr.strip()[-300:]}"}
    if isinstance(result, list):  # one answer per `?` line; the reference: the last
        if not result:
            return {"error": "no answer"}
        result = result[-1]
    if not result.get("ok", True) or "solutions" not in result:
        return {"error": json.dumps(result.get("error"))}
    return {"solutions": [s["bindings"] for s in result["solutions"]],
            "count": result["solution_count"], "truncated": result["truncated"]}


def compare(binary: str, case: Case) -> tuple[bool, dict, dict, str]:
    """(agree, reference's answer, Charon's, how they were compared)."""
    ref, got = reference(case), charon(binary, case)
    if "error" in ref or "error" in got:
        both = "error" in ref and "error" in got
        return both, ref, got, "both refuse" if both else "one refuses"
    capped = len(ref["solutions"]) >= case.max_solutions or got["truncated"]
    if capped and case.max_solutions < MAX_SOLUTIONS:
        ref, got = reference(case, MAX_SOLUTIONS), charon(binary, case, MAX_SOLUTIONS)
        if "error" in ref or "error" in got:
            return False, ref, got, "complete answers (one refuses)"
        how = f"complete answers (asked again with {MAX_SOLUTIONS})"
    else:
        how = "solutions"
    return as_set(ref["solutions"]) == as_set(got["solutions"]), ref, got, how


def short(text: str | None, most: int = 300) -> str | None:
    return text if text is None or len(text) <= most else \
        f"{text[:most]}... ({len(text)} characters)"


def shown(answer: dict) -> str:
    if "error" in answer:
        return f"error: {short(answer['error'])}"
    return short(str(sorted(as_set(answer["solutions"]))), 2000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("sdist", type=Path)
    parser.add_argument("--save-corpus", type=Path)
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every case and how it agrees")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    started = time.monotonic()

    tests, tests_skipped, pytest_summary = reference_test_cases(args.sdist)
    readme, readme_skipped = readme_cases(args.sdist)
    print(f"reference tests (pytest: {pytest_summary}): {len(tests)} calls recorded, "
          f"{len(tests_skipped)} without knowledge to compare "
          f"({'; '.join(sorted({r['skip'] for r in tests_skipped}))})")
    print(f"reference README: {len(readme)} examples and calls, "
          f"{len(readme_skipped)} without knowledge to compare")
    corpora = {"examples": deduplicate(example_cases()), "tests": deduplicate(tests),
               "readme": deduplicate(readme)}
    if args.save_corpus:
        args.save_corpus.write_text(json.dumps(
            {name: [c.__dict__ for c in cases] for name, cases in corpora.items()},
            ensure_ascii=False, indent=1))

    import euclid_mcp.server  # noqa: F401  (imported once, before the forks)

    differ, agree, total = [], {}, 0
    for name, cases in corpora.items():
        agree[name] = 0
        for case in cases:
            total += 1
            same, ref, got, how = compare(args.binary, case)
            agree[name] += same
            if same and args.verbose:
                print(f"agrees ({how}): {case.name}")
            if not same:
                differ.append((case, ref, got, how))

    unexplained = 0
    for case, ref, got, how in differ:
        why = DELIBERATE.get(case.name)
        unexplained += why is None
        native = reference(case, MAX_SOLUTIONS if how.startswith("complete") else None,
                           backend="native")
        print(f"{'deliberate' if why else 'DIFFERS'}: {case.name}"
              + (f"\n  asked by: {', '.join(case.origins)}" if case.origins else "")
              + f"\n  query: {short(case.query)}   max_solutions {case.max_solutions}, "
                f"max_depth {case.max_depth}; compared: {how}"
              + ("" if case.corpus == "examples" else
                 "\n  knowledge: " + short(case.knowledge, 2000).replace("\n", "\n             "))
              + f"\n  reference: {shown(ref)}"
                f"\n  charon:    {shown(got)}"
                f"\n  (the reference's native engine: {shown(native)})"
              + (f"\n  why: {why}" if why else ""))
    stale = set(DELIBERATE) - {case.name for case, *_ in differ}
    for name in sorted(stale):
        print(f"DELIBERATE BUT AGREES (remove it from DELIBERATE): {name}")
    for name, cases in corpora.items():
        print(f"{name}: {agree[name]} of {len(cases)} cases agree")
    print(f"{total - len(differ)} of {total} cases agree with the reference; "
          f"{len(differ) - unexplained} differ on purpose, {unexplained} otherwise "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if unexplained or stale or not all(corpora.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

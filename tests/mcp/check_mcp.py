#!/usr/bin/env python3
"""Drives `charon mcp` with the official Python MCP SDK and checks the MCP surface's promises.

    check_mcp.py --charon BIN --root DIR stdio   # spawns `charon mcp KB --stdio`
    check_mcp.py --charon BIN --root DIR http    # starts `charon mcp KB --port 0`

Each check prints one line; the last line is `N passed, M failed`, and the exit
status is non-zero when anything failed.
"""

import argparse
import asyncio
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError as McpError

RESULTS = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


class Warnings(logging.Handler):
    """Collects what the SDK logs at WARNING or above (a closed session must log nothing)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


SDK_WARNINGS = Warnings()
logging.getLogger("mcp").addHandler(SDK_WARNINGS)


def streams_of(transport):
    return transport[0], transport[1]


async def types_suite(session, args):
    """Tools of tests/kbs/types.pl: list, shapes, errors, output, resource."""
    await session.initialize()
    listed = (await session.list_tools()).tools
    tools = {t.name: t for t in listed}
    doc = json.loads(subprocess.run(
        [args.charon, "openapi", str(args.kb), "--log", "warn"],
        check=True, capture_output=True, text=True).stdout)
    ops = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            ops[op["operationId"]] = (method, op)
    exposed = [o for o in ops if o not in ("health", "health.ready", "openapi", "docs")]
    check("tools/list names every operation", sorted(tools) == sorted(exposed),
          f"{sorted(tools)} vs {sorted(exposed)}")
    same = True
    for name, (method, op) in ops.items():
        if name not in tools:
            continue
        if method in ("post", "put"):
            want = op["requestBody"]["content"]["application/json"]["schema"]
        else:
            props = {p["name"]: (p.get("schema") or p["content"]["application/json"]["schema"]) for p in op.get("parameters", [])}
            want = None  # compared below through the properties
            got = tools[name].input_schema
            got_props = {k: {kk: vv for kk, vv in v.items() if kk != "description"} for k, v in got["properties"].items()}
            if got_props != props:
                same = False
                print(f"     {name}: {got_props} != {props}")
            continue
        # Paging (nondet and multi): query parameters over HTTP, properties of the tool.
        got = dict(tools[name].input_schema)
        props = dict(got.get("properties", {}))
        paging_got = {k: {kk: vv for kk, vv in props.pop(k).items() if kk != "description"}
                      for k in ("page_size", "cursor") if k in props}
        paging_want = {p["name"]: p["schema"] for p in op.get("parameters", []) if p["name"] in ("page_size", "cursor")}
        got["properties"] = props
        if got != want or paging_got != paging_want:
            same = False
            print(f"     {name}: {got} != {want} or {paging_got} != {paging_want}")
    check("inputSchema equals the OpenAPI request schema of every tool", same)
    out = tools["det2"].output_schema
    check("outputSchema wraps the 200 schema in an object",
          out["type"] == "object" and out["required"] == ["result"]
          and out["properties"]["result"] == ops["det2"][1]["responses"]["200"]["content"]["application/json"]["schema"],
          json.dumps(out))

    # Paging: the SDK validates each page against the outputSchema (next_cursor included).
    walked, cursor, pages = [], None, 0
    while True:
        page_args = {"N": 250, "page_size": 100} | ({"cursor": cursor} if cursor else {})
        r = await session.call_tool("nd1", page_args)
        walked += (r.structured_content or {}).get("result", [])
        pages += 1
        cursor = (r.structured_content or {}).get("next_cursor")
        if r.is_error or not cursor or pages > 5:
            break
    check("the SDK pages through nd1 with page_size and next_cursor",
          walked == list(range(1, 251)) and pages == 3, f"{pages} pages, {len(walked)} solutions")

    for name, arguments, expected in [
        ("det0", {"X": 1}, True), ("det1", {"X": 1}, 2), ("det2", {"X": 2}, {"Y": 4, "Z": "even"}),
        ("semi0", {"X": 0}, False), ("semi1", {"X": 2}, 4), ("semi1", {"X": 0}, None),
        ("semi2", {"X": 1}, {"Y": 2, "Z": 3}), ("nd0", {"N": 2}, [True, True]),
        ("nd1", {"N": 3}, [1, 2, 3]), ("nd2", {"N": 1}, [{"I": 1, "Sq": 1}]),
        ("multi1", {"N": 2}, [1, 2]), ("failure0", {}, []), ("undeclared1", {"N": 0}, []),
        ("echo_atom", {"In": "'), halt, ('"}, "'), halt, ('"),
        ("echo_int", {"In": 123456789012345678901234567890}, 123456789012345678901234567890),
    ]:
        r = await session.call_tool(name, arguments)
        text = r.content[0].text if r.content else None
        check(f"tools/call {name}({json.dumps(arguments)}) → {json.dumps(expected)}",
              not r.is_error and r.structured_content == {"result": expected}
              and text is not None and json.loads(text) == {"result": expected},
              f"is_error={r.is_error} structured={r.structured_content} text={text}")

    for name, arguments, words in [
        ("det1", {"X": "1"}, "expected an integer"),
        ("det1", {}, "missing input argument `X`"),
        ("det1", {"X": 1, "Q": 2}, "unknown argument `Q`"),
        ("det1", {"X": 1, "Y": 2}, "output argument"),
        ("throws", {"X": 3}, "my_error(3)"),
        ("det_fails", {"X": 1}, "declared det but failed"),
        ("spin", {}, "inferences"),
    ]:
        r = await session.call_tool(name, arguments)
        text = r.content[0].text if r.content else ""
        check(f"tools/call {name}({json.dumps(arguments)}) is an isError result naming the problem",
              r.is_error is True and words in text, f"is_error={r.is_error} text={text}")

    try:
        await session.call_tool("no_such_tool", {})
        check("an unknown tool is a protocol error", False, "no error")
    except McpError as e:
        check("an unknown tool is a protocol error", "no_such_tool" in str(e), str(e))

    r = await session.call_tool("chatty", {"X": "bob"})
    check("a predicate that writes with write/1 and format/2 answers normally",
          not r.is_error and r.structured_content == {"result": "bob"}, str(r))
    r = await session.call_tool("det1", {"X": 41})
    check("the session is intact after the predicate wrote output",
          r.structured_content == {"result": 42}, str(r))

    resources = (await session.list_resources()).resources
    check("resources/list offers charon://source",
          [str(x.uri) for x in resources] == ["charon://source"], str(resources))
    read = await session.read_resource("charon://source")
    check("resources/read charon://source is the knowledge base's text",
          read.contents[0].text == Path(args.kb).read_text(), read.contents[0].text[:80])


async def library_suite(session, args):
    """Annotations and visibility of changes (examples/library.pl)."""
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    a = lambda n: tools[n].annotations
    check("get_ tools are readOnlyHint", a("get_book") is not None and a("get_book").read_only_hint is True, str(a("get_book")))
    check("put_ tools are idempotentHint", a("put_book") is not None and a("put_book").idempotent_hint is True, str(a("put_book")))
    check("delete_ tools are destructiveHint", a("delete_book") is not None and a("delete_book").destructive_hint is True, str(a("delete_book")))
    check("other tools carry no hints", a("count_books") is None, str(a("count_books")))
    r = await session.call_tool("put_book", {"Id": "mcp", "Title": "T", "Author": "A", "Year": 2026})
    check("put_book answers true", r.structured_content == {"result": True}, str(r))
    # Calls sent after the mutating call's response see its change, even when sent
    # concurrently with each other.
    results = await asyncio.gather(*[session.call_tool("count_books", {}) for _ in range(20)])
    check("20 concurrent calls after a change all see it",
          all(x.structured_content == {"result": 5} for x in results),
          str([x.structured_content for x in results]))
    results = await asyncio.gather(*[session.call_tool("get_book", {"Id": i}) for i in ["sicp", "aop", "mcp", "none"] * 5])
    check("concurrent reads return the right answer each",
          [x.structured_content["result"] and x.structured_content["result"]["Year"] for x in results[:4]] == [1985, 1986, 2026, None],
          str([x.structured_content for x in results[:4]]))
    r = await session.call_tool("delete_book", {"Id": "mcp"})
    r2 = await session.call_tool("count_books", {})
    check("a delete is visible to the next call", r2.structured_content == {"result": 4}, str(r2))


FAMILY = """parent(tom, bob)
parent(bob, ann)
ancestor($x, $y) IF parent($x, $y)
ancestor($x, $y) IF parent($x, $z) AND
    ancestor($z, $y)
"""


async def reasoning_suite(session, args):
    """The reasoning tools of `charon mcp --reasoning` (no knowledge base)."""
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    check("tools/list names the four reasoning tools", sorted(tools) == ["check_kb", "diagnose", "reason", "what_if"], str(sorted(tools)))
    check("reasoning tools are read-only", all(t.annotations and t.annotations.read_only_hint for t in tools.values()))
    # The SDK validates structuredContent against the tool's outputSchema itself.
    r = await session.call_tool("reason", {"knowledge": FAMILY, "query": "ancestor(tom, $who)"})
    sc = r.structured_content or {}
    check("reason answers both ancestors", not r.is_error and sc.get("solution_count") == 2
          and [s["bindings"]["who"] for s in sc["solutions"]] == ["ann", "bob"], str(r))
    def leaves(n):
        return [n] if not n.get("children") else [l for c in n["children"] for l in leaves(c)]
    check("every proof ends in facts", all(l["kind"] == "fact" for s in sc.get("solutions", []) for p in s["proofs"] for l in leaves(p)), str(sc))
    again = await session.call_tool("reason", {"knowledge": FAMILY, "query": "ancestor(tom, $who)"})
    check("the same question gives the same bytes", json.dumps(again.structured_content, sort_keys=False) == json.dumps(sc, sort_keys=False))
    yaml = "facts:\n  - parent(tom, bob)\n  - parent(bob, ann)\nrules:\n  - head: ancestor($x, $y)\n    body: [ parent($x, $y) ]\n  - head: ancestor($x, $y)\n    body: [ parent($x, $z), ancestor($z, $y) ]\n"
    y = await session.call_tool("reason", {"knowledge": yaml, "query": "ancestor(tom, $who)"})
    def goals(n):
        return [n["goal"]] + [g for c in n.get("children", []) for g in goals(c)]
    def shape(result):  # bindings and proof goals (lines differ between the forms)
        return [(s["bindings"], [goals(p) for p in s["proofs"]]) for s in (result or {}).get("solutions", [])]
    check("the YAML form gives the same answers and proofs", shape(y.structured_content) == shape(sc) != [], str(y))
    bad = await session.call_tool("reason", {"knowledge": "p($x) IF q($x) ; r($x)", "query": "p($x)"})
    err = (bad.structured_content or {}).get("error", {})
    check("unsupported constructs are ok: false, named, with line and column",
          bad.is_error and bad.structured_content["ok"] is False and err.get("construct") == "disjunction"
          and err.get("line") == 1 and err.get("column"), str(bad))
    c = await session.call_tool("check_kb", {"knowledge": "p($x) IF NOT p($x)\nq(a)\nq(a)"})
    kinds = sorted({i["kind"] for i in (c.structured_content or {}).get("issues", [])})
    check("check_kb reports the negation cycle and the duplicate", c.structured_content and c.structured_content["valid"] is False
          and "negation_cycle" in kinds and "duplicate_fact" in kinds, str(c))
    # diagnose: why_not traced two rule levels down, what_needs verified by re-running.
    d = await session.call_tool("diagnose", {"knowledge": ACCESS, "query": "can_deploy(bob)", "mode": "why_not"})
    t = (d.structured_content or {}).get("trace", {})
    premise = t.get("attempts", [{}])[0].get("because", [{}])[0].get("attempts", [{}])[0].get("because", [{}])[0]
    check("diagnose why_not names the premise that failed two rules down",
          not d.is_error and d.structured_content["holds"] is False
          and premise.get("goal") == "background_check(bob, passed)" and premise.get("reason") == "no_matching_fact", str(d))
    u = await session.call_tool("diagnose", {"knowledge": "human(socrates)", "query": "mortal(plato)", "mode": "why_not"})
    check("diagnose why_not calls out an undefined predicate",
          (u.structured_content or {}).get("trace", {}).get("reason") == "undefined", str(u))
    n = await session.call_tool("diagnose", {"knowledge": ACCESS, "query": "can_deploy(carol)", "mode": "what_needs"})
    proposals = (n.structured_content or {}).get("proposals") or []
    ok = bool(proposals)
    for p in proposals:
        added = ACCESS + "\n".join(p["facts"]) + "\n"
        r = await session.call_tool("reason", {"knowledge": added, "query": "can_deploy(carol)"})
        ok = ok and (r.structured_content or {}).get("solution_count", 0) > 0
    check("diagnose what_needs proposes facts that make the goal hold (re-run)", ok, str(n))
    w = await session.call_tool("what_if", {"base_knowledge": ACCESS, "modifications": "+ tenure(dave, 5)\n- engineer(bob)", "query": "engineer($u) AND background_check($u, passed)"})
    wc = w.structured_content or {}
    check("what_if reports the counts and what appeared and disappeared",
          not w.is_error and wc.get("before_count") == 2 and wc.get("after_count") == 2
          and wc.get("appeared") == [] and wc.get("disappeared") == [], str(w))
    w = await session.call_tool("what_if", {"base_knowledge": ACCESS, "modifications": "+ engineer(erin)\n+ background_check(erin, passed)", "query": "engineer($u) AND background_check($u, passed)"})
    wc = w.structured_content or {}
    check("what_if lists a solution that appeared", wc.get("after_count") == 3 and wc.get("appeared") == [{"u": "erin"}], str(w))
    m = await session.call_tool("what_if", {"base_knowledge": ACCESS, "modifications": "- engineer(zed)", "query": "engineer($u)"})
    check("what_if refuses to remove a fact that is not there", m.is_error and m.structured_content["ok"] is False
          and m.structured_content["error"].get("line") == 1, str(m))


ACCESS = """engineer(alice)
engineer(bob)
engineer(dave)
background_check(alice, passed)
background_check(bob, pending)
background_check(dave, passed)
suspended(alice)
tenure(dave, 2)
can_deploy($u) IF engineer($u) AND cleared($u)
cleared($u) IF background_check($u, passed) AND NOT suspended($u) AND senior($u)
senior($u) IF tenure($u, $y) AND $y >= 3
"""


async def explain_suite(session, args):
    """`charon mcp examples/rbac.pl --explain`: a call's answer with its proof tree."""
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    check("tools/list has explain, read-only", "explain" in tools and tools["explain"].annotations.read_only_hint, str(sorted(tools)))
    plain = await session.call_tool("get_user_has_permission", {"User": "user_0006", "Perm": "merge"})
    e = await session.call_tool("explain", {"operation": "get_user_has_permission", "arguments": {"User": "user_0006", "Perm": "merge"}})
    ec = e.structured_content or {}
    def leaves(n):
        return [n] if not n.get("children") else [l for c in n["children"] for l in leaves(c)]
    check("explain gives the plain answer and a proof tree ending in facts",
          not e.is_error and ec.get("result") == (plain.structured_content or {}).get("result") is True
          and len(ec.get("proofs", [])) == 1 and all(l["kind"] in ("fact", "builtin") for l in leaves(ec["proofs"][0])), str(e))
    f = await session.call_tool("explain", {"operation": "users_with_permission", "arguments": {"Perm": "deploy"}})
    check("explain refuses findall, naming it", f.is_error and "findall" in f.content[0].text, str(f))


async def run(args):
    suites = [("types", [str(args.root / "tests/kbs/types.pl")], types_suite),
              ("library", [str(args.root / "examples/library.pl")], library_suite),
              ("reasoning", ["--reasoning"], reasoning_suite),
              ("explain", [str(args.root / "examples/rbac.pl"), "--explain"], explain_suite)]
    for label, served, suite in suites:
        args.kb = served[0]
        print(f"# {args.transport}: {label} ({' '.join(served)})", flush=True)
        if args.transport == "stdio":
            params = StdioServerParameters(command=args.charon, args=["mcp", *served, "--stdio", "--log", "info"], cwd=str(args.root))
            async with stdio_client(params) as transport:
                read, write = streams_of(transport)
                async with ClientSession(read, write) as session:
                    await suite(session, args)
        else:
            env = dict(os.environ)
            if args.token:
                env["CHARON_TOKEN"] = args.token
            proc = subprocess.Popen([args.charon, "mcp", *served, "--port", "0", "--log", "info"],
                                    stderr=subprocess.PIPE, text=True, env=env)
            try:
                url = None
                for line in proc.stderr:
                    m = re.search(r"listening on (http://[0-9.:]+)", line)
                    if m:
                        url = m.group(1) + "/mcp"
                        break
                if url is None:
                    raise RuntimeError("charon mcp did not start")
                if args.token:
                    # Without the token the server refuses the session…
                    async with create_mcp_http_client() as bare:
                        refused = await bare.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "ping"},
                                                  headers={"Accept": "application/json, text/event-stream"})
                    check("http: no token, no session", refused.status_code == 401, str(refused.status_code))
                # …and with it, the whole suite runs as without one.
                headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
                client = create_mcp_http_client(headers=headers)
                SDK_WARNINGS.messages.clear()
                async with client, streamable_http_client(url, http_client=client) as transport:
                    read, write = streams_of(transport)
                    async with ClientSession(read, write) as session:
                        await suite(session, args)
                # Leaving the context sent DELETE: the SDK takes 200 or 204 without a word.
                check(f"http: {label}: the session closes without a warning from the SDK",
                      SDK_WARNINGS.messages == [], str(SDK_WARNINGS.messages))
            finally:
                proc.terminate()
                proc.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--charon", required=True)
    ap.add_argument("--root", required=True, type=Path)
    ap.add_argument("transport", choices=["stdio", "http"])
    ap.add_argument("--token", help="http: start the server with this token and send it")
    args = ap.parse_args()
    try:
        asyncio.run(run(args))
    except Exception as e:  # a crash is a failure, reported like one
        check("session ran to the end", False, repr(e))
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()

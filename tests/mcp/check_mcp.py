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
        if tools[name].input_schema != want:
            same = False
            print(f"     {name}: {tools[name].input_schema} != {want}")
    check("inputSchema equals the OpenAPI request schema of every tool", same)
    out = tools["det2"].output_schema
    check("outputSchema wraps the 200 schema in an object",
          out["type"] == "object" and out["required"] == ["result"]
          and out["properties"]["result"] == ops["det2"][1]["responses"]["200"]["content"]["application/json"]["schema"],
          json.dumps(out))

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


async def run(args):
    suites = [("types", args.root / "tests/kbs/types.pl", types_suite),
              ("library", args.root / "examples/library.pl", library_suite)]
    for label, kb, suite in suites:
        args.kb = kb
        print(f"# {args.transport}: {label} ({kb})", flush=True)
        if args.transport == "stdio":
            params = StdioServerParameters(command=args.charon, args=["mcp", str(kb), "--stdio", "--log", "info"], cwd=str(args.root))
            async with stdio_client(params) as transport:
                read, write = streams_of(transport)
                async with ClientSession(read, write) as session:
                    await suite(session, args)
        else:
            env = dict(os.environ)
            if args.token:
                env["CHARON_TOKEN"] = args.token
            proc = subprocess.Popen([args.charon, "mcp", str(kb), "--port", "0", "--log", "info"],
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
                async with client, streamable_http_client(url, http_client=client) as transport:
                    read, write = streams_of(transport)
                    async with ClientSession(read, write) as session:
                        await suite(session, args)
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

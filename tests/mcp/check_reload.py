#!/usr/bin/env python3
"""Hot reload seen by the official Python MCP SDK: `charon mcp KB --watch` over
streamable HTTP, the KB edited while a session is open.

    check_reload.py --charon BIN

The session must get `notifications/tools/list_changed`, and `tools/list` after it
must show the edit (a tool added, one removed); a broken edit must change nothing.
Each check prints one line; the last line is `N passed, M failed`, and the exit
status is non-zero when anything failed.
"""

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

RESULTS = {"passed": 0, "failed": 0}

V1 = "%! a(-X:int) is det.\na(1).\n%! gone(-X:int) is det.\ngone(1).\n"
V2 = "%! a(-X:int) is det.\na(2).\n%! fresh(+N:int, -X:int) is det.\nfresh(N, X) :- X is N * 10.\n"


def check(name, ok, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def save(path, text):
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


async def session_suite(url, kb):
    changed = asyncio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    client = create_mcp_http_client()
    async with client, streamable_http_client(url, http_client=client) as transport:
        read, write = transport[0], transport[1]
        async with ClientSession(read, write, message_handler=on_message) as session:
            init = await session.initialize()
            tools = init.capabilities.tools
            check("the server declares tools.listChanged", bool(tools and tools.list_changed), str(tools))
            names = {t.name for t in (await session.list_tools()).tools}
            check("before: a and gone", names == {"a", "gone"}, str(names))

            # A broken edit: no notification, the tools stay.
            save(kb, V1 + "broken(1\n")
            try:
                await asyncio.wait_for(changed.wait(), timeout=3)
                check("a broken edit sends no list_changed", False, "a notification came")
            except asyncio.TimeoutError:
                check("a broken edit sends no list_changed", True)
            names = {t.name for t in (await session.list_tools()).tools}
            check("after a broken edit: the same tools", names == {"a", "gone"}, str(names))

            save(kb, V2)
            try:
                await asyncio.wait_for(changed.wait(), timeout=20)
                check("notifications/tools/list_changed arrives", True)
            except asyncio.TimeoutError:
                check("notifications/tools/list_changed arrives", False, "none within 20 s")
            names = {t.name for t in (await session.list_tools()).tools}
            check("after: a and fresh", names == {"a", "fresh"}, str(names))
            result = await session.call_tool("fresh", {"N": 4})
            check("the new tool answers", result.structured_content == {"result": 40},
                  str(result.structured_content))
            result = await session.call_tool("a", {})
            check("a changed tool answers anew", result.structured_content == {"result": 2},
                  str(result.structured_content))


async def run(args):
    with tempfile.TemporaryDirectory(prefix="charon-reload-") as tmp:
        kb = Path(tmp) / "kb.pl"
        save(kb, V1)
        proc = subprocess.Popen([args.charon, "mcp", str(kb), "--watch", "--port", "0", "--log", "info"],
                                stderr=subprocess.PIPE, text=True)
        try:
            url = None
            for line in proc.stderr:
                m = re.search(r"listening on (http://[0-9.:]+)", line)
                if m:
                    url = m.group(1) + "/mcp"
                    break
            if url is None:
                raise RuntimeError("charon mcp did not start")
            await session_suite(url, kb)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--charon", required=True)
    args = ap.parse_args()
    try:
        asyncio.run(run(args))
    except Exception as e:  # a crash is a failure, reported like one
        check("session ran to the end", False, repr(e))
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()

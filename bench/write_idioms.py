#!/usr/bin/env python3
"""Write idioms by database size, Charon beside SWI-Prolog's HTTP server.

For each size N, a knowledge base of N dynamic book/4 facts (ids b0 .. b<N-1>) and
four operations:

  add_book     assertz/1 of a new book (a fresh id each call);
  upsert_book  retractall(book(Id, _, _, _)), then assertz/1: the upsert by key;
  move_book    retract(book(Id, T, A, Y)), then assertz/1 of it: a retract by key
               (the assertz keeps the size);
  find_book    book(Id, T, _, _): a read by key, for scale.

Each server serves the file alone, on 127.0.0.1, one at a time: `charon http
--workers 1 --answer-cache 0` (every call runs in the engine) and
bench/peers/swi_server.pl with one worker thread. A client on one keep-alive
connection makes WARMUP calls, then CALLS calls of each idiom, ids drawn from the
whole key space with a fixed seed, and reports the median and the 90th percentile
of the wall time per call (request to whole answer).

Usage: write_idioms.py CHARON_BINARY SWIPL N [N ...]   (environment: CALLS, WARMUP)
Output: a Markdown table on stdout; progress on stderr.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS = int(os.environ.get("CALLS", "300"))
WARMUP = int(os.environ.get("WARMUP", "50"))
IDIOMS = ["add_book", "upsert_book", "move_book", "find_book"]

HEADER = """:- dynamic(book/4).

%! add_book(+Id:atom, +Title:string, +Author:string, +Year:int) is det.
%
%  assertz/1 of a new book.
add_book(Id, Title, Author, Year) :- assertz(book(Id, Title, Author, Year)).

%! upsert_book(+Id:atom, +Title:string, +Author:string, +Year:int) is det.
%
%  The upsert by key.
upsert_book(Id, Title, Author, Year) :-
    retractall(book(Id, _, _, _)),
    assertz(book(Id, Title, Author, Year)).

%! move_book(+Id:atom) is semidet.
%
%  A retract by key, and the same book asserted again at the end.
move_book(Id) :- retract(book(Id, T, A, Y)), !, assertz(book(Id, T, A, Y)).

%! find_book(+Id:atom, -Title:string) is semidet.
%
%  A read by key.
find_book(Id, Title) :- book(Id, Title, _, _), !.

"""


def write_kb(n: int, path: Path) -> None:
    with path.open("w") as f:
        f.write(HEADER)
        for i in range(n):
            f.write(f'book(b{i}, "Title {i}", "Author {i % 97}", {1900 + i % 120}).\n')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 900) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/health")
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not answer /health")


def body(idiom: str, i: int, n: int, rng: random.Random) -> dict:
    if idiom == "add_book":
        return {"Id": f"new{i}", "Title": "T", "Author": "A", "Year": 2000}
    key = f"b{rng.randrange(n)}"
    if idiom == "upsert_book":
        return {"Id": key, "Title": f"T{i}", "Author": "A", "Year": 2000}
    return {"Id": key}


def measure(port: int, n: int) -> dict[str, list[float]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    out = {}
    for idiom in IDIOMS:
        rng = random.Random(42)
        times = []
        for i in range(WARMUP + CALLS):
            payload = json.dumps(body(idiom, i, n, rng))
            started = time.perf_counter()
            conn.request("POST", f"/{idiom}", payload, {"Content-Type": "application/json"})
            reply = conn.getresponse()
            data = reply.read()
            took = time.perf_counter() - started
            if reply.status != 200:
                raise RuntimeError(f"{idiom}: {reply.status} {data[:200]!r}")
            if i >= WARMUP:
                times.append(took * 1e3)
        out[idiom] = times
    return out


def run(cmd: list[str], port: int, n: int) -> dict[str, list[float]]:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(port, proc)
        return measure(port, n)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> int:
    charon, swipl, sizes = sys.argv[1], sys.argv[2], [int(a) for a in sys.argv[3:]]
    results: dict[tuple[str, int], dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            kb = Path(tmp) / f"books_{n}.pl"
            write_kb(n, kb)
            for server in ("charon", "swi"):
                port = free_port()
                cmd = (
                    [charon, "http", str(kb), "--port", str(port), "--workers", "1",
                     "--answer-cache", "0", "--load-timeout-ms", "900000"]
                    if server == "charon"
                    else [swipl, str(ROOT / "bench/peers/swi_server.pl"), f"--port={port}",
                          "--workers=1", f"--kb={kb}"]
                )
                print(f"write_idioms: {server}, {n} facts", file=sys.stderr)
                results[(server, n)] = run(cmd, port, n)
    base = sizes[0]
    print("| idiom | facts | Charon median ms | p90 | ÷ Charon at "
          f"{base:,} | SWI-Prolog median ms | p90 | Charon ÷ SWI |")
    print("|---|---|---|---|---|---|---|---|")
    for idiom in IDIOMS:
        for n in sizes:
            c = results[("charon", n)][idiom]
            s = results[("swi", n)][idiom]
            cm, sm = statistics.median(c), statistics.median(s)
            c90 = statistics.quantiles(c, n=10)[-1]
            s90 = statistics.quantiles(s, n=10)[-1]
            cb = statistics.median(results[("charon", base)][idiom])
            print(f"| {idiom} | {n:,} | {cm:.3f} | {c90:.3f} | {cm / cb:.2f} | {sm:.3f} | "
                  f"{s90:.3f} | {cm / sm:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

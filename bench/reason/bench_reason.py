#!/usr/bin/env python3
"""RBAC-1000 reasoning benchmark: accuracy and latency of `POST /reason`.

Runs against `charon http --reasoning` servers that this script starts and stops
itself, on a free loopback port, with the knowledge base and expected answers that
bench/reason/gen_rbac.py wrote into --out (rbac_1000.euclid, expected.json).

Every request carries the whole knowledge base (the reasoning tools are stateless):
  {"knowledge": <rbac_1000.euclid>, "query": ..., "max_solutions": 1000}

For each cache mode, cache=on (the server's default answer cache) and cache=off
(`--answer-cache 0`):
  1. first calls: on a fresh server, the first `user_has_permission($u, delete_repo)`
     (the knowledge has never been seen); then on another fresh server the first
     `user_has_permission(user_0042, deploy)`. Each is a single sample, and includes
     opening the TCP connection.
  2. repeated calls, on that second server: WARMUP calls not counted, then CALLS
     timed calls of the list query, then the same for the point query;
  3. new knowledge, on the same (warm) server: CALLS calls of each query whose
     knowledge is the workload's text plus a comment line that makes it new, so each
     one is parsed, checked, lowered and loaded into a worker before the search;
  4. a "realistic" point run: REALISTIC point queries over (user, permission) pairs
     drawn with a fixed seed from the 1000 users x 16 permissions;
  5. accuracy, after the timings so it does not warm the cache they measure: every
     permission's `user_has_permission($u, PERM)` must give exactly the expected
     distinct users, and every point check `user_has_permission(USER, PERM)` must
     give solution_count 1 when it holds and 0 when it does not.

Timed calls go over one persistent HTTP/1.1 connection (http.client, keep-alive);
a call's time is from sending the request to having read the whole response body
(JSON decoding excluded). Percentiles are deciles of the samples (p10, p90),
computed with statistics.quantiles(method="inclusive").

Output: one line per figure on stdout, e.g.
  reason list first_call cache=on ms=8.12
  reason point repeated cache=off median_ms=0.91 p10_ms=0.85 p90_ms=1.10 n=50
and every sample in --out/results.json; server logs in --out/server-*.log.
Exit status: 0 when every accuracy check passes, 1 when one misses (each miss is
printed), 2 on a setup error (no binary, server did not start, ...).

Usage:
  python3 bench/reason/bench_reason.py [--out DIR] [--bin PATH] [--calls N]
      [--warmup N] [--realistic N] [--server-args "ARGS"]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

LIST_QUERY = "user_has_permission($u, delete_repo)"
POINT_QUERY = "user_has_permission(user_0042, deploy)"
MAX_SOLUTIONS = 1000
REALISTIC_SEED = 20240611
HTTP_TIMEOUT_S = 120


class SetupError(Exception):
    """Something other than a wrong answer stopped the benchmark."""


def default_out() -> str:
    base = os.environ.get("BENCH_OUT") or os.environ.get("TMPDIR") or "/tmp"
    return str(Path(base) / "charon-reason-bench")


def default_bin() -> str:
    if os.environ.get("CHARON_BIN"):
        return os.environ["CHARON_BIN"]
    repo = Path(__file__).resolve().parents[2]
    target = os.environ.get("CARGO_TARGET_DIR") or str(repo / "target")
    return str(Path(target) / "release" / "charon")


def free_port() -> int:
    """A port nothing listens on right now (the kernel's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `charon http --reasoning` process, in its own process group so that its
    engine workers are stopped with it."""

    def __init__(self, binary: str, extra: list[str], log_path: Path, startup_s: float):
        self.port = free_port()
        self.log_path = log_path
        self.cmd = [binary, "http", "--reasoning", "--port", str(self.port),
                    "--log", "warn", *extra]
        self.log = open(log_path, "wb")
        self.stopped = False
        try:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                         stdout=self.log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        except OSError as e:
            self.log.close()
            raise SetupError(f"cannot start {binary}: {e}") from e
        try:
            self._wait_healthy(startup_s)
        except BaseException:
            self.stop()
            raise

    def _wait_healthy(self, startup_s: float) -> None:
        deadline = time.monotonic() + startup_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SetupError(f"server exited with status {self.proc.returncode}: "
                                 f"{shlex.join(self.cmd)}\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/health")
                resp = conn.getresponse()
                resp.read()
                conn.close()
                if resp.status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise SetupError(f"server not healthy after {startup_s:.0f} s: "
                         f"{shlex.join(self.cmd)}\n{self.log_tail()}")

    def log_tail(self, lines: int = 20) -> str:
        self.log.flush()
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Stops the server and its workers; a no-op the second time."""
        if self.stopped:
            return
        self.stopped = True
        if self.proc.poll() is None:
            for sig, wait_s in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(timeout=wait_s)
                    break
                except subprocess.TimeoutExpired:
                    continue
        else:
            # The server is gone; its workers (same group) may not be.
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.log.close()


class Client:
    """POSTs JSON over one persistent connection; reconnects if the server closed it."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def post(self, path: str, body: dict) -> tuple[float, int, dict]:
        """(milliseconds, HTTP status, decoded JSON body)."""
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Connection": "keep-alive"}
        for attempt in (1, 2):
            try:
                t0 = time.perf_counter()
                if self.conn is None:
                    self.connect()
                self.conn.request("POST", path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                ms = (time.perf_counter() - t0) * 1000.0
            except (http.client.HTTPException, OSError) as e:
                self.close()
                if attempt == 2:
                    raise SetupError(f"POST {path} failed: {e}") from e
                continue
            if resp.getheader("Connection", "").lower() == "close":
                self.close()
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = {"ok": False, "error": {"kind": "bad_json",
                                                  "message": raw[:200].decode("utf-8", "replace")}}
            return ms, resp.status, decoded
        raise AssertionError("unreachable")

    def connect(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        self.conn.connect()
        # http.client writes the head and the body of a request separately: without
        # TCP_NODELAY, Nagle's algorithm and the server's delayed ACK add ~40 ms.
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = Path(args.out)
        kb = self.out / "rbac_1000.euclid"
        exp = self.out / "expected.json"
        if not kb.is_file() or not exp.is_file():
            raise SetupError(f"{kb} or {exp} missing: "
                             f"run bench/reason/gen_rbac.py --out {self.out}")
        self.knowledge = kb.read_text(encoding="utf-8")
        self.expected = json.loads(exp.read_text(encoding="utf-8"))
        if not os.access(args.bin, os.X_OK):
            raise SetupError(f"{args.bin} is not an executable: build it with `cargo build "
                             "--release -p charon-cli`, or pass --bin / set CHARON_BIN")
        self.extra = shlex.split(args.server_args)
        self.misses: list[str] = []
        self.results: dict = {"calls": args.calls, "warmup": args.warmup,
                              "realistic": args.realistic, "server_args": self.extra,
                              "figures": [], "samples": {}, "misses": self.misses}
        self.n_servers = 0
        self.fresh = 0
        self.live: list[Server] = []  # every server started, stopped at the end

    # -- helpers -----------------------------------------------------------------

    def server(self, mode: str) -> Server:
        self.n_servers += 1
        extra = list(self.extra) + (["--answer-cache", "0"] if mode == "off" else [])
        log = self.out / f"server-{self.n_servers}-cache-{mode}.log"
        srv = Server(self.args.bin, extra, log, self.args.startup_timeout)
        self.live.append(srv)
        return srv

    def reason(self, client: Client, query: str,
               knowledge: str | None = None) -> tuple[float, dict]:
        ms, status, body = client.post("/reason", {"knowledge": knowledge or self.knowledge,
                                                   "query": query,
                                                   "max_solutions": MAX_SOLUTIONS})
        if status != 200 or body.get("ok") is not True:
            self.miss(f"{query}: HTTP {status}, {json.dumps(body.get('error', body))[:300]}")
        return ms, body

    def miss(self, message: str) -> None:
        self.misses.append(message)
        print(f"MISS {message}", file=sys.stderr, flush=True)

    def figure(self, line: str, record: dict) -> None:
        print(line, flush=True)
        self.results["figures"].append(record)

    def check_count(self, query: str, body: dict, want: int) -> None:
        if body.get("ok") is True and body.get("solution_count") != want:
            self.miss(f"{query}: solution_count {body.get('solution_count')}, expected {want}")

    # -- the runs ----------------------------------------------------------------

    def first_call(self, kind: str, query: str, mode: str, want: int) -> Server:
        """Starts a fresh server and times its very first call; returns the server."""
        srv = self.server(mode)
        client = Client(srv.port)
        try:
            ms, body = self.reason(client, query)
        except BaseException:
            client.close()
            srv.stop()
            raise
        client.close()
        self.check_count(query, body, want)
        self.figure(f"reason {kind} first_call cache={mode} ms={ms:.2f}",
                    {"query": kind, "run": "first_call", "cache": mode, "ms": round(ms, 3)})
        return srv

    def repeated(self, client: Client, kind: str, query: str, mode: str, want: int) -> None:
        for _ in range(self.args.warmup):
            self.reason(client, query)
        samples = []
        for _ in range(self.args.calls):
            ms, body = self.reason(client, query)
            self.check_count(query, body, want)
            samples.append(ms)
        self.summary(kind, "repeated", mode, samples)

    def new_knowledge(self, client: Client, kind: str, query: str, mode: str,
                      want: int) -> None:
        """CALLS calls on a warm server, each with knowledge it has never seen: the
        workload's text plus a comment line naming the call."""
        samples = []
        for i in range(self.args.calls):
            self.fresh += 1
            text = f"{self.knowledge}\n# new knowledge {mode} {self.fresh}\n"
            ms, body = self.reason(client, query, text)
            self.check_count(query, body, want)
            samples.append(ms)
        self.summary(kind, "new_knowledge", mode, samples)

    def realistic(self, client: Client, mode: str) -> None:
        rng = random.Random(REALISTIC_SEED)
        perms = self.expected["permissions"]
        holders = {p: set(us) for p, us in self.expected["users_by_permission"].items()}
        samples = []
        for _ in range(self.args.realistic):
            user = f"user_{rng.randint(1, self.expected['users']):04d}"
            perm = rng.choice(perms)
            query = f"user_has_permission({user}, {perm})"
            ms, body = self.reason(client, query)
            self.check_count(query, body, 1 if user in holders[perm] else 0)
            samples.append(ms)
        self.summary("point", "realistic", mode, samples)

    def summary(self, kind: str, run: str, mode: str, samples: list[float]) -> None:
        self.results["samples"][f"{kind} {run} cache={mode}"] = [round(s, 3) for s in samples]
        if not samples:
            return
        if len(samples) >= 2:
            deciles = statistics.quantiles(samples, n=10, method="inclusive")
            p10, p90 = deciles[0], deciles[8]
        else:
            p10 = p90 = samples[0]
        med = statistics.median(samples)
        self.figure(f"reason {kind} {run} cache={mode} median_ms={med:.2f} p10_ms={p10:.2f} "
                    f"p90_ms={p90:.2f} n={len(samples)}",
                    {"query": kind, "run": run, "cache": mode, "median_ms": round(med, 3),
                     "p10_ms": round(p10, 3), "p90_ms": round(p90, 3), "n": len(samples)})

    def accuracy(self, client: Client, mode: str) -> None:
        before = len(self.misses)
        perms_ok = 0
        for perm in self.expected["permissions"]:
            query = f"user_has_permission($u, {perm})"
            want = self.expected["users_by_permission"][perm]
            _, body = self.reason(client, query)
            if body.get("ok") is not True:
                continue
            got = [s.get("bindings", {}).get("u") for s in body.get("solutions", [])]
            problems = []
            if set(got) != set(want):
                missing = sorted(set(want) - set(got))
                extra = sorted(str(g) for g in set(got) - set(want))
                problems.append(f"{len(missing)} missing {missing[:5]}, "
                                f"{len(extra)} unexpected {extra[:5]}")
            if len(got) != len(set(got)):
                problems.append(f"{len(got) - len(set(got))} duplicate solutions")
            if body.get("solution_count") != len(want):
                problems.append(f"solution_count {body.get('solution_count')} != {len(want)}")
            if body.get("truncated"):
                problems.append("truncated")
            if not problems and got != want:
                problems.append("solutions not in sorted order")
            if problems:
                self.miss(f"cache={mode} {query}: " + "; ".join(problems))
            else:
                perms_ok += 1
        checks_ok = 0
        for check in self.expected["point_checks"]:
            query = f"user_has_permission({check['user']}, {check['permission']})"
            _, body = self.reason(client, query)
            if body.get("ok") is not True:
                continue
            want = 1 if check["holds"] else 0
            if body.get("solution_count") != want:
                self.miss(f"cache={mode} {query}: solution_count "
                          f"{body.get('solution_count')}, expected {want}")
            else:
                checks_ok += 1
        n_perms, n_checks = len(self.expected["permissions"]), len(self.expected["point_checks"])
        self.figure(f"reason accuracy cache={mode} permissions={perms_ok}/{n_perms} "
                    f"point_checks={checks_ok}/{n_checks} misses={len(self.misses) - before}",
                    {"run": "accuracy", "cache": mode, "permissions_ok": perms_ok,
                     "permissions": n_perms, "point_checks_ok": checks_ok,
                     "point_checks": n_checks})

    def run_mode(self, mode: str) -> None:
        n_list = len(self.expected["delete_repo_users"])
        srv = self.first_call("list", LIST_QUERY, mode, n_list)
        srv.stop()
        srv = self.first_call("point", POINT_QUERY, mode, 0)
        client = Client(srv.port)
        try:
            self.repeated(client, "list", LIST_QUERY, mode, n_list)
            self.repeated(client, "point", POINT_QUERY, mode, 0)
            self.new_knowledge(client, "list", LIST_QUERY, mode, n_list)
            self.new_knowledge(client, "point", POINT_QUERY, mode, 0)
            self.realistic(client, mode)
            self.accuracy(client, mode)
        finally:
            client.close()
            srv.stop()

    def run(self) -> int:
        print(f"# charon: {self.args.bin}; knowledge {len(self.knowledge.encode())} bytes; "
              f"calls={self.args.calls} warmup={self.args.warmup} "
              f"realistic={self.args.realistic}; one persistent connection per server",
              flush=True)
        try:
            for mode in ("on", "off"):
                self.run_mode(mode)
        finally:
            for srv in self.live:
                srv.stop()
        (self.out / "results.json").write_text(json.dumps(self.results, indent=1) + "\n",
                                               encoding="utf-8")
        if self.misses:
            print(f"reason accuracy FAILED: {len(self.misses)} misses (listed above)",
                  flush=True)
            return 1
        print("reason accuracy ok", flush=True)
        return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=default_out(),
                    help="folder with rbac_1000.euclid and expected.json; results and "
                         "server logs are written there too (default: %(default)s)")
    ap.add_argument("--bin", default=default_bin(),
                    help="the charon binary (default: $CHARON_BIN, else "
                         "${CARGO_TARGET_DIR:-target}/release/charon): %(default)s")
    ap.add_argument("--calls", type=int, default=50, help="timed repeated calls (default 50)")
    ap.add_argument("--warmup", type=int, default=5,
                    help="untimed calls before each repeated run (default 5)")
    ap.add_argument("--realistic", type=int, default=200,
                    help="point queries in the realistic run (default 200)")
    ap.add_argument("--server-args", default="",
                    help='extra arguments for every server, e.g. "--workers 2"')
    ap.add_argument("--startup-timeout", type=float, default=60.0,
                    help="seconds to wait for GET /health (default 60)")
    args = ap.parse_args(argv)
    if args.calls < 1 or args.warmup < 0 or args.realistic < 0:
        ap.error("--calls must be at least 1; --warmup and --realistic at least 0")

    # A SIGTERM unwinds like Ctrl-C, so the servers are stopped by the finally blocks.
    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)

    try:
        return Bench(args).run()
    except SetupError as e:
        print(f"bench_reason: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bench_reason: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

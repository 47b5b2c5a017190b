"""Write load for scripts/bench-replicas.sh: latency, throughput and replication lag.

  load.py latency  PORT N            one client, N writes one after the other
  load.py throughput PORT[,PORT] N C C clients, N writes in all, spread over the ports
  load.py lag PORT_A PORT_B N        a write on A, then B polled until it shows it

Each prints one JSON line. A write is POST /put {"Key": ..., "Value": ...} on
tests/kbs/replica/ledger.pl; the lag poll is POST /get on the other replica, every
millisecond, from the answer of the write on A to the first answer of B that holds
the value (so it includes B's notification, apply and one read).
"""
import http.client
import json
import sys
import threading
import time


def conn(port):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def call(c, op, body):
    c.request("POST", "/" + op, json.dumps(body), {"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    return r.status, data


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else None


def latency(port, n):
    c = conn(port)
    times = []
    for i in range(n):
        t = time.perf_counter()
        status, data = call(c, "put", {"Key": f"k{i % 50}", "Value": f"v{i}"})
        times.append((time.perf_counter() - t) * 1000)
        assert status == 200, (status, data)
    print(json.dumps({"writes": n, "p50_ms": pct(times, 50), "p90_ms": pct(times, 90),
                      "p99_ms": pct(times, 99), "max_ms": max(times)}))


def throughput(ports, n, clients):
    done = []
    errors = []

    def run(k):
        c = conn(ports[k % len(ports)])
        for i in range(k, n, clients):
            status, data = call(c, "put", {"Key": f"c{k}_{i % 20}", "Value": f"v{i}"})
            if status != 200:
                errors.append(status)
            else:
                done.append(1)

    t = time.perf_counter()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.perf_counter() - t
    print(json.dumps({"writes": len(done), "errors": len(errors), "seconds": elapsed,
                      "writes_per_s": len(done) / elapsed}))


def lag(port_a, port_b, n):
    a, b = conn(port_a), conn(port_b)
    lags = []
    for i in range(n):
        value = f"lag{i}"
        status, _ = call(a, "put", {"Key": "lagkey", "Value": value})
        assert status == 200
        t = time.perf_counter()
        while True:
            status, data = call(b, "get", {"Key": "lagkey"})
            if status == 200 and json.loads(data) == value:
                break
            if time.perf_counter() - t > 10:
                raise SystemExit(f"replica B never showed {value}")
            time.sleep(0.001)
        lags.append((time.perf_counter() - t) * 1000)
        time.sleep(0.01)
    print(json.dumps({"writes": n, "p50_ms": pct(lags, 50), "p90_ms": pct(lags, 90),
                      "p99_ms": pct(lags, 99), "max_ms": max(lags)}))


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "latency":
        latency(int(sys.argv[2]), int(sys.argv[3]))
    elif kind == "throughput":
        throughput([int(p) for p in sys.argv[2].split(",")], int(sys.argv[3]), int(sys.argv[4]))
    elif kind == "lag":
        lag(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))

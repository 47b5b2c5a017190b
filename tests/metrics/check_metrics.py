#!/usr/bin/env python3
"""Reads `GET /metrics` of a running `charon http --metrics` with the official
Prometheus Python client's OpenMetrics parser (strict: a malformed exposition
raises), and checks that the counters move as calls are made; then asks for
Prometheus's text format (`Accept: text/plain;version=0.0.4`) and reads that with
the client's text parser, every family typed as in OpenMetrics.

    check_metrics.py http://127.0.0.1:PORT    # a server of examples/meds.pl --reasoning

Each check prints one line; the exit status is non-zero when anything failed.
"""

import json
import sys
import urllib.error
import urllib.request

from prometheus_client.openmetrics.parser import text_string_to_metric_families
from prometheus_client.parser import text_string_to_metric_families as prometheus_text_families

FAILED = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        FAILED.append(name)


OPENMETRICS = "application/openmetrics-text;version=1.0.0"


def scrape(base, accept=OPENMETRICS, parse=text_string_to_metric_families):
    headers = {"Accept": accept} if accept else {}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/metrics", headers=headers)) as r:
        kind = r.headers["Content-Type"]
        text = r.read().decode()
    families = {f.name: f for f in parse(text)}
    return kind, families


def value(families, family, sample, **labels):
    f = families.get(family)
    if f is None:
        return 0.0
    return sum(s.value for s in f.samples if s.name == sample and s.labels == labels)


def post(base, path, body):
    req = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def main():
    base = sys.argv[1].rstrip("/")
    kind, before = scrape(base)
    check("the media type is OpenMetrics text", kind.startswith("application/openmetrics-text"), kind)
    check("the families are typed as Prometheus expects",
          before["charon_calls"].type == "counter" and before["charon_call_duration_seconds"].type == "histogram"
          and before["charon_cache_bytes"].type == "gauge", str({n: f.type for n, f in before.items()}))
    ok = dict(operation="is_pim", outcome="ok")
    statuses = [post(base, "/is_pim", {"Age": 70, "Drug": "diazepam"}) for _ in range(3)]
    statuses.append(post(base, "/is_pim", {"Age": "old", "Drug": "diazepam"}))
    statuses.append(post(base, "/reason", {"knowledge": "p(a)", "query": "p($x)"}))
    _, after = scrape(base)
    check("the calls were answered", statuses[:3] == [200] * 3 and statuses[3] == 400 and statuses[4] == 200, str(statuses))
    moved = value(after, "charon_calls", "charon_calls_total", **ok) - value(before, "charon_calls", "charon_calls_total", **ok)
    check("calls_total{outcome=ok} moved by the three calls", moved == 3, str(moved))
    bad = value(after, "charon_calls", "charon_calls_total", operation="is_pim", outcome="bad-arguments")
    check("the call refused for its arguments is counted by its problem type", bad >= 1, str(bad))
    count = value(after, "charon_call_duration_seconds", "charon_call_duration_seconds_count", operation="is_pim")
    counted = sum(s.value for s in after["charon_calls"].samples
                  if s.name == "charon_calls_total" and s.labels.get("operation") == "is_pim")
    check("the duration histogram counts the calls calls_total counts", count == counted and count >= 4,
          f"histogram {count}, calls {counted}")
    hits = value(after, "charon_cache_hits", "charon_cache_hits_total") - value(before, "charon_cache_hits", "charon_cache_hits_total")
    check("repeated calls are cache hits", hits >= 2, str(hits))
    reasoned = value(after, "charon_reasoning_calls", "charon_reasoning_calls_total", tool="reason", outcome="ok")
    check("the reasoning tool's call is counted", reasoned >= 1, str(reasoned))
    kind, _ = scrape(base, None, prometheus_text_families)
    check("without an Accept header, Prometheus's text format", kind.startswith("text/plain") and "0.0.4" in kind, kind)
    # What Prometheus sends: OpenMetrics first.
    kind, _ = scrape(base, "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                           "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
    check("a scraper preferring OpenMetrics gets it", kind.startswith("application/openmetrics-text"), kind)
    kind, text = scrape(base, "text/plain;version=0.0.4", prometheus_text_families)
    check("a scraper asking for text/plain gets Prometheus's text format",
          kind.startswith("text/plain") and "version=0.0.4" in kind, kind)
    types = {n: f.type for n, f in text.items()}
    check("the text format's families are typed as in OpenMetrics",
          all(types.get(n) == f.type for n, f in after.items()) and types.get("charon_calls") == "counter"
          and types.get("charon_call_duration_seconds") == "histogram", str(types))
    calls = sum(s.value for s in text["charon_calls"].samples if s.labels.get("operation") == "is_pim")
    check("the text format holds the same counts", calls >= counted, f"{calls} vs {counted}")
    if FAILED:
        sys.exit(f"{len(FAILED)} failed")
    print("metrics: passed")


if __name__ == "__main__":
    main()

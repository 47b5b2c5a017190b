-- Shared part of the wrk scripts in this folder: prints one JSON line when wrk ends.
--
-- Every script sets WORKLOAD (a name) and loads this file; wrk calls done() once,
-- after the run, with the totals of all its threads. The line, after wrk's own
-- text report, looks like
--   {"workload":"point_fixed","requests":…,"duration_s":…,"rps":…,"p50_ms":…,
--    "p90_ms":…,"p99_ms":…,"max_ms":…,"mean_ms":…,"errors":…,"timeouts":…,
--    "non2xx":…,"bytes":…}
-- rps counts every response (non-2xx included); latencies are wrk's histogram
-- (responses only: a request that timed out has no latency). "errors" is
-- connect + read + write + timeout errors; "non2xx" is wrk's status error
-- count (responses with status > 399).

function done(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  local function ms(us) return us / 1000 end
  io.write(string.format(
    '{"workload":"%s","requests":%d,"duration_s":%.3f,"rps":%.1f,' ..
    '"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,"mean_ms":%.3f,' ..
    '"errors":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,' ..
    '"timeouts":%d,"non2xx":%d,"bytes":%d}\n',
    WORKLOAD or "?", summary.requests, seconds, summary.requests / seconds,
    ms(latency:percentile(50)), ms(latency:percentile(90)),
    ms(latency:percentile(99)), ms(latency.max), ms(latency.mean),
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write,
    e.timeout, e.status, summary.bytes))
end

-- Point read on tests/kbs/replica/ledger.pl: POST /get {"Key":"k1"} (with
-- --answer-cache 0 every one runs in the engine).
-- Usage: wrk -t1 -c32 -d10s -s bench/wrk/replica_get.lua URL
WORKLOAD = "replica_get"
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "POST"
wrk.path = "/get"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"Key":"k1"}'

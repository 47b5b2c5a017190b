-- List query: POST /users_with_permission {"Perm":"deploy"} (a sorted array of the
-- 106 users holding deploy in examples/rbac.pl).
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/list.lua URL
WORKLOAD = "list"
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "POST"
wrk.path = "/users_with_permission"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"Perm":"deploy"}'

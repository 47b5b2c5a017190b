-- Point query, one fixed key: GET /get_user_has_permission?User=user_0042&Perm=deploy
-- (answer false: the whole role chain and the grants are searched). The answer
-- cache's best case. Usage: wrk -t1 -c64 -d10s -s bench/wrk/point_fixed.lua URL
WORKLOAD = "point_fixed"
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "GET"
wrk.path = "/get_user_has_permission?User=user_0042&Perm=deploy"

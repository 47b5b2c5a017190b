-- Point query, keys drawn uniformly from the 14,000 (user, permission) pairs of
-- examples/rbac.pl (see keys.lua). Thread i draws from its own fixed seed, so a
-- run's sequence of keys is the same every time.
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/point_uniform.lua URL
WORKLOAD = "point_uniform"
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")
dofile(here .. "keys.lua")

local reqs, rng

function init(args)
  reqs = all_requests()
  rng = lehmer(1000 + (thread_id or 1))
end

function request()
  return reqs[math.floor(unit(rng) * NKEYS)]
end

-- Mixed workload: point_zipf reads, 1 % writes to the grants every read depends on
-- (POST /grant of a uniformly drawn (user, permission) pair; see mixed.lua and
-- bench/peers/rbac_writes.pl).
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/mixed_grant.lua URL
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "mixed.lua")
WORKLOAD = "mixed_grant"

function WRITE(draw)
  local k = draw % NKEYS
  return "/grant", string.format('{"User":"user_%04d","Perm":"%s"}',
    k % USERS + 1, PERMS[math.floor(k / USERS) + 1])
end

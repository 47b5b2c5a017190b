-- Mixed workload: point_zipf reads, 1 % writes to a predicate no read depends on
-- (POST /add_note; see mixed.lua and bench/peers/rbac_writes.pl).
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/mixed_note.lua URL
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "mixed.lua")
WORKLOAD = "mixed_note"

function WRITE(draw)
  return "/add_note", string.format('{"Text":"note %d"}', draw)
end

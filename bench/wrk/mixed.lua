-- Shared part of mixed_grant.lua and mixed_note.lua: point_zipf's reads, with every
-- 100th request of each connection-thread a write (1 %), POST with a JSON body.
-- The script that loads this sets WRITE to a function of a draw (an integer) that
-- returns the write's path and body.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "point_zipf.lua")

local read_init, read_request = init, request
local wrng, n

function init(args)
  read_init(args)
  wrng = lehmer(7000 + (thread_id or 1))
  n = 0
end

function request()
  n = n + 1
  if n % 100 == 0 then
    local path, body = WRITE(wrng())
    return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
  end
  return read_request()
end

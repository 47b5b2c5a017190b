-- Point query on the knowledge base of bench/gen_facts.py: GET /get_fact?Id=fK with
-- K drawn uniformly from 1..FACTS (environment variable, default 100000). Thread i
-- draws from its own fixed seed (keys.lua's generator), so every run sends the same
-- sequence. Usage: FACTS=100000 wrk -t1 -c64 -d30s -s bench/wrk/fact_uniform.lua URL
WORKLOAD = "fact_uniform"
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")
dofile(here .. "keys.lua")

local facts = tonumber(os.getenv("FACTS") or "100000")
local reqs, rng

function init(args)
  reqs = {}
  for k = 1, facts do
    reqs[k] = wrk.format("GET", "/get_fact?Id=f" .. k)
  end
  rng = lehmer(3000 + (thread_id or 1))
end

function request()
  return reqs[math.floor(unit(rng) * facts) + 1]
end

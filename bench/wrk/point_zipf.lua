-- Point query, keys drawn with a Zipf distribution (s = 1.0) over the 14,000
-- (user, permission) pairs of examples/rbac.pl (see keys.lua).
--
-- The keys are ranked by a fixed pseudo-random permutation (Fisher-Yates with seed
-- 20261130, the same in every thread and every run), and rank r (1-based) is drawn
-- with probability (1/r) / H, H = sum over r of 1/r: the most popular key takes
-- about 10 % of the requests, the top 100 about half. Draws use a precomputed
-- cumulative distribution and a binary search; thread i has its own fixed seed.
-- Usage: wrk -t1 -c64 -d10s -s bench/wrk/point_zipf.lua URL
WORKLOAD = "point_zipf"
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")
dofile(here .. "keys.lua")

local S = 1.0
local reqs, rng, cdf, ranked

function init(args)
  reqs = all_requests()
  -- ranked[r] = the key of rank r.
  ranked = {}
  for r = 1, NKEYS do ranked[r] = r - 1 end
  local perm = lehmer(20261130)
  for i = NKEYS, 2, -1 do
    local j = perm() % i + 1
    ranked[i], ranked[j] = ranked[j], ranked[i]
  end
  -- cdf[r] = P(rank <= r).
  cdf = {}
  local total = 0
  for r = 1, NKEYS do
    total = total + 1 / r ^ S
    cdf[r] = total
  end
  for r = 1, NKEYS do cdf[r] = cdf[r] / total end
  cdf[NKEYS] = 1
  rng = lehmer(2000 + (thread_id or 1))
end

-- The smallest rank r with u < cdf[r].
local function rank_of(u)
  local lo, hi = 1, NKEYS
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if u < cdf[mid] then hi = mid else lo = mid + 1 end
  end
  return lo
end

function request()
  return reqs[ranked[rank_of(unit(rng))]]
end

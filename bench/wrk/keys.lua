-- Shared part of point_uniform.lua and point_zipf.lua: the key space of
-- examples/rbac.pl and a deterministic pseudo-random generator.
--
-- Keys are (user, permission) pairs: the 1,000 users user_0001..user_1000 times
-- the 14 permissions that appear in examples/rbac.pl (every grants/2 and
-- direct_grant/2 permission), 14,000 keys. Key k (0-based) is user
-- k % 1000 + 1 with permission floor(k / 1000) + 1.
--
-- The generator is Lehmer's "minimal standard" (x = 16807 x mod 2^31 - 1): exact
-- in LuaJIT's doubles, so every run, machine and LuaJIT version draws the same
-- sequence for a seed (math.random's generator is not specified).

USERS = 1000
PERMS = {
  "comment", "delete_repo", "deploy", "manage_billing", "manage_members", "merge",
  "open_issue", "open_merge_request", "push_code", "read_audit_log", "read_wiki",
  "restart_service", "tag_release", "transfer_project",
}
NKEYS = USERS * #PERMS

function key_path(k)
  return string.format("/get_user_has_permission?User=user_%04d&Perm=%s",
    k % USERS + 1, PERMS[math.floor(k / USERS) + 1])
end

-- A generator of integers in 1..2^31-2 from a seed.
function lehmer(seed)
  local x = seed % 2147483646 + 1
  return function()
    x = (x * 16807) % 2147483647
    return x
  end
end

-- A uniform draw in [0, 1) from such a generator.
function unit(rng)
  return (rng() - 1) / 2147483646
end

-- Every thread gets its number (1, 2, …), so that each has its own fixed seed.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

-- The requests of every key, formatted once (keeps wrk's own CPU per request low).
function all_requests()
  local reqs = {}
  for k = 0, NKEYS - 1 do
    reqs[k] = wrk.format("GET", key_path(k))
  end
  return reqs
end

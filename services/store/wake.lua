-- Bring a hibernated match back from its snapshot (services/store/hibernation.py), all at once,
-- only if it still sleeps under that snapshot's token: of two wakers, the second finds it awake.
-- KEYS as hibernate.lua's. ARGV[1] the token; then the log: a count n and n triples (entry id,
-- body, hash); the meta, the views and the entropy: each a count n and n (field, value) pairs;
-- then, per idempotency record KEYS[6..], its answer and its milliseconds to live (-1: none,
-- 0: lapsed while asleep, not restored).
-- Returns 'woken' | 'awake' (woken by another, its meta back) | 'gone' | 'stale' (asleep under
-- another token).
local token = redis.call('GET', KEYS[5])
if not token then
  if redis.call('EXISTS', KEYS[2]) == 1 then return 'awake' end
  return 'gone'
end
if token ~= ARGV[1] then return 'stale' end
local at = 2
local n = tonumber(ARGV[at])
at = at + 1
for _ = 1, n do
  redis.call('XADD', KEYS[1], ARGV[at], 'b', ARGV[at + 1], 'h', ARGV[at + 2])
  at = at + 3
end
for key = 2, 4 do
  n = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, n do
    redis.call('HSET', KEYS[key], ARGV[at], ARGV[at + 1])
    at = at + 2
  end
end
for key = 6, #KEYS do
  local ttl = tonumber(ARGV[at + 1])
  if ttl > 0 then
    redis.call('SET', KEYS[key], ARGV[at], 'PX', ttl)
  elseif ttl < 0 then
    redis.call('SET', KEYS[key], ARGV[at])
  end
  at = at + 2
end
redis.call('DEL', KEYS[5])
return 'woken'

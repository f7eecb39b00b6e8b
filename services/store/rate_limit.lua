-- Token buckets shared by every gateway, taken from atomically: one token from each of KEYS, or
-- none if any is empty (KEYS share one hash tag: a Cluster runs this on one slot). Each bucket is
-- a hash {t: tokens, at: ms of the last take}, refilled by the time since, at ARGV[2i] tokens a
-- second up to ARGV[2i+1] (its burst), and expiring once full.
-- ARGV[1] '1' to take, '0' only to look (services/store/rate_limits.py: buckets on several slots
-- are looked at first, then taken from).
-- The clock is Redis's (TIME): gateways' clocks may differ, a shard's is one.
-- Returns {1, 0} when taken (or takeable), {0, ms until every bucket holds a token} when refused.
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local wait, held = 0, {}
for i, key in ipairs(KEYS) do
  local per_ms, burst = tonumber(ARGV[2 * i]) / 1000, tonumber(ARGV[2 * i + 1])
  local bucket = redis.call('HMGET', key, 't', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * per_ms)
  if tokens < 1 then
    wait = math.max(wait, math.ceil((1 - tokens) / per_ms))
  end
  held[i] = tokens
end
if wait > 0 then
  return {0, wait}
end
if ARGV[1] ~= '1' then
  return {1, 0}
end
for i, key in ipairs(KEYS) do
  local per_ms, burst = tonumber(ARGV[2 * i]) / 1000, tonumber(ARGV[2 * i + 1])
  redis.call('HSET', key, 't', tostring(held[i] - 1), 'at', now)
  redis.call('PEXPIRE', key, math.ceil(burst / per_ms) + 1000)
end
return {1, 0}

-- Token buckets shared by every gateway, taken from atomically: one token from each of KEYS, or
-- none if any is empty. Each bucket is a hash {t: tokens, at: ms of the last take}, refilled by
-- the time since, at ARGV[2i-1] tokens a second up to ARGV[2i] (its burst), and expiring once full.
-- The clock is Redis's (TIME): gateways' clocks may differ, Redis's is one.
-- Returns {1, 0} when taken, {0, ms until every bucket holds a token} when refused.
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local wait, held = 0, {}
for i, key in ipairs(KEYS) do
  local per_ms, burst = tonumber(ARGV[2 * i - 1]) / 1000, tonumber(ARGV[2 * i])
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
for i, key in ipairs(KEYS) do
  local per_ms, burst = tonumber(ARGV[2 * i - 1]) / 1000, tonumber(ARGV[2 * i])
  redis.call('HSET', key, 't', tostring(held[i] - 1), 'at', now)
  redis.call('PEXPIRE', key, math.ceil(burst / per_ms) + 1000)
end
return {1, 0}

-- Token buckets: the start of rate_limit.lua and append.lua (a seat token's commands are taken
-- from inside the append itself). A bucket is a hash {t: tokens, at: ms of the last take},
-- refilled by the time since, at per_ms tokens a millisecond up to burst, and expiring once full.
-- The clock is Redis's (TIME): gateways' clocks may differ, a shard's is one.
local function bucket_now()
  local now = redis.call('TIME')
  return tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
end

-- The tokens the bucket at key holds at now (ms).
local function bucket_held(key, per_ms, burst, now)
  local bucket = redis.call('HMGET', key, 't', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  return math.min(burst, tokens + math.max(0, now - at) * per_ms)
end

-- The milliseconds until a bucket holding tokens holds one (0: it does).
local function bucket_wait(tokens, per_ms)
  if tokens >= 1 then return 0 end
  return math.ceil((1 - tokens) / per_ms)
end

-- One token taken from a bucket found holding tokens at now.
local function bucket_take(key, per_ms, burst, now, tokens)
  redis.call('HSET', key, 't', tostring(tokens - 1), 'at', now)
  redis.call('PEXPIRE', key, math.ceil(burst / per_ms) + 1000)
end
